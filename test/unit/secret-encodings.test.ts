/**
 * Masking by value in every encoding (issue 26 part 5): a Settings secret and a typed password are
 * found raw, URL- and form-encoded (either case of hex), as HTML entities, JSON-escaped and in
 * base64 / base64url, and each occurrence gets the raw value's placeholder or mask, in every
 * channel (URL, title, element text, observation, variable, prompt, trace, view). The encodings
 * here are written by Node's own encoders (Buffer, URLSearchParams, JSON) or by hand, not by
 * src/core/secrets/encodings.ts.
 */
import { describe, expect, it } from 'vitest';
import { createRun, effectOf, PASSWORD_MASK, reduce, toRunView, type RunState } from '../../src/core/run';
import { hideMarks, hideTarget, taskForModel } from '../../src/core/run/secrets';
import { hideIn, hideValue, hideValues, secretGuard, type Secret, type Vault } from '../../src/core/secrets';
import { encodedForms, hasEncoded } from '../../src/core/secrets/encodings';
import { carriedIn } from '../../src/core/guards/request-hold';
import { DEFAULT_GUARDS } from '../../src/core/guards';
import { toTrace } from '../../src/core/trace';
import type { Action } from '../../src/core/action/action';
import type { Mark } from '../../src/core/marks';
import { observation } from '../fixtures/run';

const EMAIL = 'alice@example.com';
/** spaces, `&`, quotes, `/`, `<`, a non-ASCII letter: every encoding differs from the raw text */
const PHRASE = `Tr0ub & "d'or"/<é>`;
const PW = 'hunter 22/pw!';
const SECRETS: Secret[] = [{ name: 'email', value: EMAIL }, { name: 'phrase', value: PHRASE }];
const VAULT: Vault = { typed: [PW], kept: SECRETS };
const MASK_OF: Record<string, string> = { [EMAIL]: '{{secret:email}}', [PHRASE]: '{{secret:phrase}}', [PW]: PASSWORD_MASK };

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');
const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
/** every other %XX in lower case: `%2F…%2f` */
const mixedHex = (s: string) => { let i = 0; return s.replace(/%[0-9A-F]{2}/g, (h) => (i++ % 2 ? h.toLowerCase() : h)); };
const form = (s: string) => new URLSearchParams({ x: s }).toString().slice(2);
const points = (s: string) => [...s].map((c) => c.codePointAt(0)!);
const units = (s: string) => s.split('').map((c) => c.charCodeAt(0).toString(16).padStart(4, '0'));
const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** The value in each encoding, by name (written by Node or by hand). */
function encodings(v: string): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['raw', v],
    ['encodeURIComponent', encodeURIComponent(v)],
    ['URL, lower-case hex', lowerHex(encodeURIComponent(v))],
    ['URL, mixed-case hex', mixedHex(encodeURIComponent(v))],
    ['form-encoded (+ for space)', form(v)],
    ['form-encoded, lower-case hex', lowerHex(form(v))],
    ['HTML, decimal entities', points(v).map((p) => `&#${p};`).join('')],
    ['HTML, hex entities', points(v).map((p) => `&#x${p.toString(16)};`).join('')],
    ['HTML, upper-case hex entities with zeros', points(v).map((p) => `&#X00${p.toString(16).toUpperCase()};`).join('')],
    ['HTML, named entities', v.replace(/[&<>"']/g, (c) => NAMED[c])],
    ['HTML, one character as &#64; / &#x40;', v.replace('@', '&#64;').replace(' ', '&#x20;').replace('/', '&#47;')],
    ['JSON string', JSON.stringify(v).slice(1, -1)],
    ['JSON, \\u for every character', units(v).map((h) => `\\u${h}`).join('')],
    ['JSON, \\U hex upper case', units(v).map((h) => `\\u${h.toUpperCase()}`).join('')],
    ['JSON, one character as \\u', v.replace('@', '\\u0040').replace(' ', '\\u0020').replace('/', '\\/')],
    ['base64', b64(v)],
    ['base64 unpadded', b64(v).replace(/=+$/, '')],
    ['base64url', b64url(v)],
  ];
  // each form once; only the forms that differ from the raw value test an encoding
  return out.filter(([, s], i) => out.findIndex(([, t]) => t === s) === i);
}

describe('hideIn: each encoding of a secret and of a typed password', () => {
  for (const value of [EMAIL, PHRASE, PW]) {
    const mask = MASK_OF[value];
    it.each(encodings(value))(`${value}: %s`, (_name, enc) => {
      expect(hideIn(`before ${enc} after`, VAULT, PASSWORD_MASK)).toBe(`before ${mask} after`);
      expect(hideIn(`q=${enc}&next=1`, VAULT, PASSWORD_MASK)).toBe(`q=${mask}&next=1`);
    });
  }

  it('the forms differ from the raw value (so the cases above test the encodings)', () => {
    // an e-mail address has no character JSON or named entities escape, nor one form encoding treats apart
    expect(encodings(EMAIL).length).toBe(11);
    expect(encodings(PHRASE).length).toBe(17);
    expect(encodings(PW).length).toBe(14);
  });

  it('the form encoding of a value with spaces: + for each space', () => {
    expect(form(PW)).toBe('hunter+22%2Fpw%21');
    expect(hideIn('search?q=hunter+22%2Fpw%21', VAULT, PASSWORD_MASK)).toBe(`search?q=${PASSWORD_MASK}`);
    expect(hideIn('search?q=hunter+22%2fpw%21', VAULT, PASSWORD_MASK)).toBe(`search?q=${PASSWORD_MASK}`);
  });

  it('the red team\'s case: an e-mail address in a GET form\'s URL', () => {
    expect(hideIn('https://search.example/?q=alice%40example.com', VAULT, PASSWORD_MASK)).toBe('https://search.example/?q={{secret:email}}');
  });

  it('base64 and base64url where they differ (+ / against - _), padded or not', () => {
    const v: Vault = { typed: [], kept: [{ name: 'k', value: '~~~???>>>' }] };
    expect([b64('~~~???>>>'), b64url('~~~???>>>')]).toEqual(['fn5+Pz8/Pj4+', 'fn5-Pz8_Pj4-']);
    expect(hideIn('a=fn5+Pz8/Pj4+&b=fn5-Pz8_Pj4-', v, PASSWORD_MASK)).toBe('a={{secret:k}}&b={{secret:k}}');
    expect(hideIn(`a=${b64('~~~???>>>!')}`, { typed: [], kept: [{ name: 'k', value: '~~~???>>>!' }] }, PASSWORD_MASK)).toBe('a={{secret:k}}');
  });

  it('base64 of the value inside a longer base64 string, at each of the 3 byte alignments, standard and URL-safe', () => {
    for (const value of [EMAIL, PW]) {
      for (const pad of ['', 'x', 'xy']) {
        const bytes = Buffer.from(`${pad}${value}, and more after it`);
        for (const blob of [b64(bytes), b64url(bytes)]) {
          const out = hideIn(`d=Zz${blob}`, VAULT, PASSWORD_MASK);
          expect(out.split(MASK_OF[value]).length, `${pad}|${blob}`).toBe(2);
          // what is left of the blob is the neighbours' characters, at most 2 of them touched by the value's bits
          expect(out.length - MASK_OF[value].length, `${pad}|${blob}`).toBeLessThanOrEqual(`d=Zz${blob}`.length - Math.floor((value.length * 8) / 6) + 2);
        }
      }
    }
  });

  it('several occurrences in several encodings in one text', () => {
    const text = `${EMAIL} ${encodeURIComponent(EMAIL)} ${b64(EMAIL)} ${form(PW)} ${JSON.stringify(PHRASE)}`;
    expect(hideIn(text, VAULT, PASSWORD_MASK)).toBe(`{{secret:email}} {{secret:email}} {{secret:email}} ${PASSWORD_MASK} "{{secret:phrase}}"`);
  });

  it('every form the request hold looks for is masked too (one list)', () => {
    for (const value of [EMAIL, PHRASE, PW]) {
      const forms = encodedForms(value);
      expect(forms.map(([how]) => how)).toEqual(expect.arrayContaining(['url', 'json', 'html', 'base64']));
      for (const [how, s] of forms) expect(hideIn(`<${s}>`, VAULT, PASSWORD_MASK), `${how} ${s}`).toContain(MASK_OF[value]);
    }
  });
});

describe('characters whose encoding starts with themselves (\\, &, %)', () => {
  const v: Vault = { typed: ['C:\\dir\\50%&x'], kept: [] };

  it.each([
    ['raw', 'C:\\dir\\50%&x'],
    ['JSON', JSON.stringify('C:\\dir\\50%&x').slice(1, -1)],
    ['URL', encodeURIComponent('C:\\dir\\50%&x')],
    ['HTML', 'C:\\dir\\50%&amp;x'],
  ])('%s', (_name, enc) => {
    expect(hideIn(`[${enc}]`, v, PASSWORD_MASK)).toBe(`[${PASSWORD_MASK}]`);
  });

  it('a long run of them is quick to look for (no exponential backtracking: read each way, 22 backslashes took 5 s)', () => {
    const many: Vault = { typed: [`${'\\'.repeat(22)}x`], kept: [] };
    const t0 = performance.now();
    expect(hideIn(`${'\\'.repeat(66)}y`, many, PASSWORD_MASK)).toBe(`${'\\'.repeat(66)}y`);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(hideIn(`${'\\'.repeat(44)}x`, many, PASSWORD_MASK)).toBe(PASSWORD_MASK); // JSON-escaped
  });
});

describe('what is not masked', () => {
  it('a value that merely shares a prefix (or is a part), in any encoding', () => {
    const near = [
      'alice@example.co', 'alice@example.org', 'alice%40example.co', 'alice%40example.org', 'alice&#64;example.co',
      'alice\\u0040example.co', b64('alice@example.org'), b64url('alice@example.co'), 'hunter 22/pw', 'hunter+22%2Fpw', 'hunter+22%2Fpw%22',
      b64('hunter 22/pw?'), 'Tr0ub &amp; &quot;d',
    ];
    for (const text of near) expect(hideIn(`x ${text} y`, VAULT, PASSWORD_MASK), text).toBe(`x ${text} y`);
  });

  it('values under 4 characters, in any encoding (the minimum length rule)', () => {
    const v: Vault = { typed: ['a b'], kept: [{ name: 'x', value: '@12' }] };
    for (const text of ['a b', 'a+b', 'a%20b', '@12', '%4012', '&#64;12', b64('@12')]) expect(hideIn(`-${text}-`, v, PASSWORD_MASK)).toBe(`-${text}-`);
  });

  it('screenshots (image data URLs) are left whole; other strings next to them are masked', () => {
    const shot = `data:image/webp;base64,${b64(`xx${EMAIL}xx`)}`;
    expect(hideIn({ shot, url: `?q=${encodeURIComponent(EMAIL)}` }, VAULT, PASSWORD_MASK)).toEqual({ shot, url: '?q={{secret:email}}' });
    const text = `data:text/plain,${encodeURIComponent(EMAIL)}`;
    expect(hideIn(text, VAULT, PASSWORD_MASK)).toBe('data:text/plain,{{secret:email}}');
  });
});

describe('the other entry points use the same matching', () => {
  it('hideValues (an export\'s last scrub): every encoding, values under 4 characters left', () => {
    const trace = { a: `q=${encodeURIComponent(EMAIL)}`, b: [`k=${b64('sk-secret-key')}`, 'abc &#97;bc'], n: 1 };
    expect(hideValues(trace, [EMAIL, 'sk-secret-key', 'abc'], '[REDACTED]')).toEqual({ a: 'q=[REDACTED]', b: ['k=[REDACTED]', 'abc &#97;bc'], n: 1 });
  });

  it('hideValue (the step that typed a password): every encoding, even a short one', () => {
    expect(hideValue(`typed ${form(PW)} and ${PW}`, PW, PASSWORD_MASK)).toBe(`typed ${PASSWORD_MASK} and ${PASSWORD_MASK}`);
    expect(hideValue('pin 1 2 = 1+2 = 1%202', '1 2', PASSWORD_MASK)).toBe(`pin ${PASSWORD_MASK} = ${PASSWORD_MASK} = ${PASSWORD_MASK}`);
  });

  it('hasEncoded, and typing a known password in an encoded form asks like typing it', () => {
    expect(hasEncoded(`x=${mixedHex(encodeURIComponent(PW))}`, PW)).toBe(true);
    expect(hasEncoded('x=hunter+22%2Fpw', PW)).toBe(false);
    const type = (text: string): Action => ({ type: 'type', target: { kind: 'label', label: 0 }, text, clear: true, enter: false });
    expect(secretGuard(type(`q=${form(PW)}`), 'https://shop.example/', DEFAULT_GUARDS, undefined, [PW])?.reason).toBe('this types a password this run typed before');
    expect(secretGuard(type('q=hunter+22'), 'https://shop.example/', DEFAULT_GUARDS, undefined, [PW])).toBeNull();
  });

  it('the request hold finds the HTML-entity forms too', () => {
    expect(carriedIn(`<p>${points(EMAIL).map((p) => `&#${p};`).join('')}</p>`, EMAIL, 'secret')).toBe('html');
    expect(carriedIn(`<p>${PHRASE.replace(/[&<>"']/g, (c) => NAMED[c])}</p>`, PHRASE, 'secret')).toBe('html');
    expect(carriedIn('<p>alice&#64;example.co</p>', EMAIL, 'secret')).toBeNull();
  });
});

// --- every channel of a run ----------------------------------------------------------------------

const marks: Mark[] = [
  { label: 0, tag: 'input', text: 'Search', rect: { x: 10, y: 10, width: 200, height: 30 } },
  { label: 1, tag: 'button', text: 'Go', rect: { x: 220, y: 10, width: 50, height: 30 } },
  { label: 2, tag: 'input', text: 'Password', rect: { x: 10, y: 50, width: 200, height: 30 }, inputType: 'password' },
];

const obs = (url: string, title: string, extra: Mark[] = []) => observation({ url, title, marks: [...marks, ...extra] });

/** Every string in a value (deeply). */
function strings(x: unknown): string[] {
  if (typeof x === 'string') return [x];
  if (Array.isArray(x)) return x.flatMap(strings);
  if (x && typeof x === 'object') return Object.values(x).flatMap(strings);
  return [];
}

/** The encoded forms of the three values that are left in `x` (raw forms included), as "value: form" */
function leaks(x: unknown): string[] {
  const all = strings(x);
  return [EMAIL, PHRASE, PW].flatMap((v) => encodings(v).filter(([, e]) => all.some((s) => s.includes(e))).map(([name]) => `${v}: ${name}`));
}

const E = encodeURIComponent(EMAIL);
const SEARCH = `https://search.example/?q=${E}&pw=${form(PW)}&p=${lowerHex(encodeURIComponent(PHRASE))}`;
const OPENED = `https://mail.example/compose?to=${E}&t=${b64url(PW)}`;

/** A run with the two secrets: it types the password, then sees a page and opens a tab that carry every value encoded. */
function run(): { s: RunState; request: unknown } {
  let s = createRun({
    id: 'r1', task: `find mail for ${E}`, startUrl: 'https://search.example/', tabId: 7, dialect: 'glm-web',
    model: 'm', baseUrl: 'http://h/v1', maxSteps: 9, at: 1000, secrets: SECRETS,
  });
  // step 0: says the password form-encoded before it is known as one
  s = reduce(s, { type: 'observed', at: 1500, obs: obs('https://search.example/', 'Sign in'), ms: 10 });
  s = reduce(s, { type: 'replied', at: 1600, raw: `Thought: I will use ${form(PW)}\nAction: Click [1]\nMemory_Updated: {}`, reasoning: null, usage: null, ms: 5 });
  s = reduce(s, { type: 'checked', at: 1601, hit: null });
  s = reduce(s, { type: 'acted', at: 1700, result: { ok: true }, ms: 5 });
  // step 1: types it into the password field
  s = reduce(s, { type: 'observed', at: 2000, obs: obs('https://search.example/', 'Sign in'), ms: 10 });
  s = reduce(s, { type: 'replied', at: 2100, raw: `Thought: typing it\nAction: Type [2]; [${PW}]\nMemory_Updated: {}`, reasoning: null, usage: null, ms: 5 });
  s = reduce(s, { type: 'checked', at: 2101, hit: null });
  if (s.phase === 'approve') s = reduce(s, { type: 'approve', at: 2102 });
  s = reduce(s, { type: 'acted', at: 2200, result: { ok: true }, ms: 5 });
  // step 2: the page's URL, title and elements carry the values encoded; the action opens a tab and stores a variable
  const onPage: Mark[] = [
    { label: 3, tag: 'div', text: `{"user":"alice\\u0040example.com","pw":${JSON.stringify(PW).replace('/', '\\/')}}`, rect: { x: 0, y: 90, width: 300, height: 20 } },
    { label: 4, tag: 'a', text: `token ${b64(EMAIL)}`, rect: { x: 0, y: 120, width: 300, height: 20 } },
  ];
  const title = `Results for alice&#64;example.com, ${PHRASE.replace(/[&<>"']/g, (c) => NAMED[c])}`;
  s = reduce(s, { type: 'observed', at: 3000, obs: obs(SEARCH, title, onPage), ms: 10 });
  s = reduce(s, { type: 'replied', at: 3100, raw: `Thought: open ${E}\nAction: Click [1]\nMemory_Updated: {"seen": "${b64(PHRASE)}"}`, reasoning: `the ${lowerHex(form(PHRASE))}`, usage: null, ms: 5 });
  s = reduce(s, { type: 'checked', at: 3101, hit: null });
  s = reduce(s, { type: 'acting', at: 3102 });
  s = reduce(s, { type: 'tab', at: 3150, change: 'opened', tabId: 9, url: OPENED });
  s = reduce(s, { type: 'acted', at: 3200, result: { ok: true, set: { name: 'copied', value: `mail ${E}, phrase ${JSON.stringify(PHRASE)}` } }, ms: 5 });
  // step 3 is asked: the prompt
  s = reduce(s, { type: 'observed', at: 4000, obs: obs(OPENED, `To: ${EMAIL}`), ms: 10 });
  const eff = effectOf(s);
  if (eff.kind !== 'ask') throw new Error(eff.kind);
  return { s, request: eff.request };
}

describe('every channel of a run gets the placeholder or the mask', () => {
  const { s, request } = run();

  it('the recorded URL, title, element texts, observation ("A new tab opened: …"), thought, memory, reasoning', () => {
    const st = s.steps[2];
    expect(st.url).toBe(`https://search.example/?q={{secret:email}}&pw={{password:1}}&p={{secret:phrase}}`);
    expect(st.title).toBe('Results for {{secret:email}}, {{secret:phrase}}');
    expect(st.elements.find((m) => m.label === 3)?.text).toBe(`{"user":"{{secret:email}}","pw":"{{password:1}}"}`);
    expect(st.elements.find((m) => m.label === 4)?.text).toBe('token {{secret:email}}');
    expect(st.observation).toContain(`A new tab opened: https://mail.example/compose?to={{secret:email}}&t={{password:1}};`);
    expect(st.thought).toBe('open {{secret:email}}');
    expect(st.memory).toEqual({ seen: '{{secret:phrase}}' });
    expect(st.reasoning).toBe('the {{secret:phrase}}');
    expect(s.steps[0].thought).toBe(`I will use {{password:1}}`); // said before the password was typed: masked once it was
    expect(s.steps[0].raw).toContain(`I will use {{password:1}}`);
    expect(s.task).toBe('find mail for {{secret:email}}');
    expect(taskForModel(s)).toContain('find mail for {{secret:email}}');
    expect(s.pending?.url).toBe(`https://mail.example/compose?to={{secret:email}}&t={{password:1}}`);
    expect(s.pending?.title).toBe('To: {{secret:email}}');
  });

  it('the prompt text and the request the model gets', () => {
    expect(s.pending?.promptText).toContain('A new tab opened: https://mail.example/compose?to={{secret:email}}');
    expect(leaks(s.pending?.promptText)).toEqual([]);
    expect(leaks(request)).toEqual([]);
    expect(strings(request).join('\n')).toContain('{{secret:email}}');
  });

  it('the variable, in the view and the trace', () => {
    const shown = `mail {{secret:email}}, phrase "{{secret:phrase}}"`;
    expect(toRunView(s).variables?.copied.value).toBe(shown);
    expect(toTrace(s, []).run.variables?.copied.value).toBe(shown);
  });

  it('the trace and the view: no value in any encoding', () => {
    expect(leaks(toTrace(s, []))).toEqual([]);
    expect(leaks(toRunView(s))).toEqual([]);
    // the check itself finds a leak
    expect(leaks({ a: `x ${mixedHex(encodeURIComponent(PHRASE))}` })).toEqual([`${PHRASE}: URL, mixed-case hex`]);
  });

  it('hideMarks and hideTarget (the element list, what an action acted on)', () => {
    const m: Mark[] = [{ label: 0, tag: 'a', text: `mailto:${E}`, rect: { x: 0, y: 0, width: 1, height: 1 }, fingerprint: { tag: 'a', text: `mailto:${E}`, path: 'a' } as never }];
    const hidden = hideMarks({ vault: VAULT }, m);
    expect(hidden[0].text).toBe('mailto:{{secret:email}}');
    expect(hidden[0].fingerprint?.text).toBe('mailto:{{secret:email}}');
    const t = hideTarget({ vault: VAULT }, { tag: 'a', text: `${form(PW)}`, rect: { x: 0, y: 0, width: 1, height: 1 }, href: `https://x.example/?u=${E}` });
    expect(t).toMatchObject({ text: '{{password:1}}', href: 'https://x.example/?u={{secret:email}}' });
  });
});
