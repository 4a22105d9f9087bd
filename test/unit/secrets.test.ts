import { describe, expect, it } from 'vitest';
import { effectOf, hideRun, historyOf, joinSecret, PASSWORD_MASK, reduce, splitSecret, toRunView, type RunState } from '../../src/core/run';
import {
  AS_PLACEHOLDERS, fillSecrets, hideIn, MIN_SECRET_CHARS, normalizeSecrets, placeholdersIn, secretGuard, secretsProblem, usableSecrets, type Secret,
} from '../../src/core/secrets';
import { checkSettings, normalizeSettings } from '../../src/core/settings';
import { DEFAULT_GUARDS } from '../../src/core/guards';
import { toTrace } from '../../src/core/trace';
import { DIALECTS, dialectOf } from '../../src/core/dialects/registry';
import type { Action } from '../../src/core/action/action';
import type { Mark } from '../../src/core/marks';
import { newRun, observation, reply } from '../fixtures/run';

const CARD = '4111 1111 1111 1111';
const LOGIN = 'ada@example.org';
const SECRETS: Secret[] = [{ name: 'card', value: CARD }, { name: 'login', value: LOGIN }];
const PW = 'hunter22-pw';

const marks: Mark[] = [
  { label: 0, tag: 'input', text: 'Card number', rect: { x: 10, y: 10, width: 200, height: 30 } },
  { label: 1, tag: 'button', text: 'Go', rect: { x: 220, y: 10, width: 50, height: 30 } },
  { label: 2, tag: 'input', text: 'Password', rect: { x: 10, y: 50, width: 200, height: 30 }, inputType: 'password' },
];

const obs = (extra: Mark[] = []) => observation({ title: 'Shop', marks: [...marks, ...extra] });

const fresh = (opts: { task?: string; secrets?: Secret[]; dialect?: string } = {}) => newRun({ task: opts.task ?? 'buy it', dialect: opts.dialect ?? 'glm-web', maxSteps: 9, secrets: opts.secrets });

/** One whole step in auto mode: observe, reply, check, act. */
function step(s: RunState, thought: string, action: string, memory: string, extra: Mark[] = []): RunState {
  s = reduce(s, { type: 'observed', at: 2000, obs: obs(extra), ms: 10 });
  s = reduce(s, { type: 'replied', at: 3000, raw: `Thought: ${thought}\nAction: ${action}\nMemory_Updated: ${memory}`, reasoning: `thinking: ${thought}`, usage: null, ms: 5 });
  if (s.phase !== 'act') return s;
  s = reduce(s, { type: 'checked', at: 3001, hit: null });
  return reduce(s, { type: 'acted', at: 3100, result: { ok: true }, ms: 50 });
}

/** The text of the request the model gets next. */
function nextRequest(s: RunState): string {
  s = reduce(s, { type: 'observed', at: 5000, obs: obs(), ms: 10 });
  const eff = effectOf(s);
  if (eff.kind !== 'ask') throw new Error(`expected ask, got ${eff.kind}`);
  return JSON.stringify(eff.request);
}

/** Everything that is written somewhere: the database's state, the trace, what the panel gets. */
function written(s: RunState): string {
  return JSON.stringify([splitSecret(s).state, toTrace(s, []), toRunView(s)]);
}

describe('masking rules', () => {
  const vault = { typed: ['pa55word'], kept: SECRETS };

  it('secrets become placeholders and typed passwords the mask, in every string of a value', () => {
    const v = { a: `card ${CARD}, pw pa55word`, b: [LOGIN, { c: `"${LOGIN}"` }], n: 3, z: null };
    expect(hideIn(v, vault, PASSWORD_MASK)).toEqual({
      a: `card {{secret:card}}, pw ${PASSWORD_MASK}`, b: ['{{secret:login}}', { c: '"{{secret:login}}"' }], n: 3, z: null,
    });
  });

  it('a value inside a longer one does not split it (longest first)', () => {
    const v = { typed: [], kept: [{ name: 'short', value: '1111' }, { name: 'card', value: CARD }] };
    expect(hideIn(`pay with ${CARD} or 1111`, v, PASSWORD_MASK)).toBe('pay with {{secret:card}} or {{secret:short}}');
  });

  it(`values under ${MIN_SECRET_CHARS} characters are not looked for: a short password does not garble every "a"`, () => {
    const v = { typed: ['a', 'ab1'], kept: [{ name: 'x', value: 'on' }] };
    expect(hideIn('a cab on ab1', v, PASSWORD_MASK)).toBe('a cab on ab1');
    expect(secretsProblem([{ name: 'cvv', value: '123' }])).toContain('at least 4 characters');
    expect(usableSecrets([{ name: 'cvv', value: '123' }, ...SECRETS])).toEqual(SECRETS);
  });

  it('settings keep valid secrets and name what is wrong', () => {
    expect(normalizeSecrets([{ name: ' card ', value: CARD }, { name: 3 }, null, 'x'])).toEqual([{ name: 'card', value: CARD }]);
    expect(normalizeSettings({ secrets: SECRETS }).secrets).toEqual(SECRETS);
    expect(normalizeSettings({}).secrets).toEqual([]);
    expect(checkSettings(normalizeSettings({ secrets: [{ name: 'my card', value: CARD }] })).secrets).toContain('"my card"');
    expect(checkSettings(normalizeSettings({ secrets: [...SECRETS, { name: 'card', value: 'other-value' }] })).secrets).toContain('"card"');
    expect(checkSettings(normalizeSettings({ secrets: [{ name: ' ', value: CARD }] })).secrets).toBe('Give each secret a name.');
    expect(checkSettings(normalizeSettings({ secrets: SECRETS })).secrets).toBeUndefined();
  });
});

describe('placeholders both ways', () => {
  const type = (text: string): Action => ({ type: 'type', target: { kind: 'label', label: 0 }, text, clear: true, enter: false });

  it('a typed placeholder is filled in; an unknown one is reported, not typed', () => {
    expect(placeholdersIn(type('{{secret:card}} and {{secret:login}}'))).toEqual(['card', 'login']);
    expect(fillSecrets(type('{{secret:card}}'), SECRETS)).toEqual({ action: type(CARD), missing: [] });
    expect(fillSecrets(type('pay {{secret:cvc}}'), SECRETS).missing).toEqual(['cvc']);
    const click: Action = { type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 };
    expect(fillSecrets(click, SECRETS)).toEqual({ action: click, missing: [] });
  });

  it('every dialect\'s grammar carries a placeholder through unchanged', () => {
    const shot = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } };
    const written: Record<string, string> = {
      'glm-web': 'Type [0]; [{{secret:card}}]',
      'glm-pc': "type(content='{{secret:card}}')",
      'glm-mobile': '{"action_type": "input_text", "text": "{{secret:card}}", "override": true}',
    };
    for (const [id, text] of Object.entries(written)) {
      const back = dialectOf(id).parseAction(text, shot);
      if (!back.ok) throw new Error(`${id}: ${back.error}`);
      expect(back.action, id).toMatchObject({ type: 'type', text: '{{secret:card}}' });
      expect(fillSecrets(back.action, SECRETS).action, id).toMatchObject({ text: CARD });
    }
  });

  it('typing a placeholder asks like a password; the password rule\'s switch and "always allow" apply', () => {
    const hit = secretGuard(type('{{secret:card}}'), 'https://shop.example/', DEFAULT_GUARDS);
    expect(hit).toEqual({ id: 'password', reason: 'this types your saved secret {{secret:card}} (a password, card number or other secret from Settings)' });
    expect(secretGuard(type('plain words'), 'https://shop.example/', DEFAULT_GUARDS)).toBeNull();
    const off = { ...DEFAULT_GUARDS, rules: DEFAULT_GUARDS.rules.map((r) => (r.id === 'password' ? { ...r, on: false } : r)) };
    expect(secretGuard(type('{{secret:card}}'), 'https://shop.example/', off)).toBeNull();
    expect(secretGuard(type('again hunter22'), 'https://shop.example/', DEFAULT_GUARDS, undefined, ['hunter22'])).toEqual({ id: 'password', reason: 'this types a password this run typed before' });
    expect(secretGuard(type('abc'), 'https://shop.example/', DEFAULT_GUARDS, undefined, ['abc'])).toBeNull();
    const allowed = { ...DEFAULT_GUARDS, allow: { 'shop.example': ['password' as const] } };
    expect(secretGuard(type('{{secret:card}}'), 'https://shop.example/', allowed)).toBeNull();
  });
});

describe('a typed password is masked in everything later (and earlier)', () => {
  /** how the run shows the first password it typed: a placeholder the model can type back */
  const TYPED = '{{password:1}}';

  it('thought, memory, reasoning, answer, history and the task: nothing written or sent has it', () => {
    let s = fresh({ task: `Sign in with the password ${PW}` });
    s = step(s, `I will type ${PW} later.`, 'Click [1]', `{"plan": "use ${PW}"}`);
    expect(s.steps[0].thought).toContain(PW); // not known as a password yet
    s = step(s, 'Type the password.', `Type [2]; [${PW}]`, '{}');
    // Once typed, the earlier step, the task and the memory are masked too.
    expect(s.steps[0].thought).toBe(`I will type ${TYPED} later.`);
    expect(s.task).toBe(`Sign in with the password ${TYPED}`);
    s = step(s, `Signed in with ${PW}.`, 'Click [1]', `{"password": "${PW}", "note": "pw=${PW}"}`);
    expect(s.steps[2].thought).toBe(`Signed in with ${TYPED}.`);
    expect(s.steps[2].memory).toEqual({ password: TYPED, note: `pw=${TYPED}` });
    expect(s.steps[2].reasoning).toBe(`thinking: Signed in with ${TYPED}.`);
    expect(nextRequest(s)).not.toContain(PW);
    expect(JSON.stringify(historyOf(s))).not.toContain(PW);
    s = step(s, 'Done.', `ANSWER; <content>Logged in; the password was ${PW}</content>`, '{}');
    expect(s.status).toBe('finished');
    expect(s.answer).toBe(`Logged in; the password was ${TYPED}`);
    expect(written(s)).not.toContain(PW);
    // Kept only in the vault, which storage puts in memory-only session storage.
    expect(splitSecret(s).vault?.typed).toEqual([PW]);
  });

  it('typing a known password into an ordinary field is masked as well', () => {
    let s = step(fresh(), 'Type the password.', `Type [2]; [${PW}]`, '{}');
    s = reduce(s, { type: 'observed', at: 2000, obs: obs(), ms: 10 });
    s = reduce(s, reply(`Thought: again\nAction: Type [0]; [${PW}]\nMemory_Updated: {}`));
    expect(effectOf(s)).toMatchObject({ kind: 'check', action: { text: PW } });
    expect(JSON.stringify(splitSecret(s).state)).not.toContain(PW);
  });

  it('only text is masked, never structure: a password that reads "password" leaves input types and actions alone', () => {
    let s = step(fresh(), 'Type it.', 'Type [2]; [password]', '{}');
    s = step(s, 'The password is in.', 'Click [1]', '{"typed": "password"}');
    expect(s.steps[1].thought).toBe(`The ${TYPED} is in.`);
    expect(s.steps[1].memory).toEqual({ typed: TYPED });
    expect(s.steps.map((x) => x.elements[2].inputType)).toEqual(['password', 'password']);
    expect(s.steps[0].target?.inputType).toBe('password');
    expect(s.steps[0].action).toMatchObject({ type: 'type', target: { kind: 'label', label: 2 }, text: PASSWORD_MASK }); // the record's own stand-in: never typed back by replay
    const secret = fresh({ secrets: [{ name: 'n', value: 'label' }] });
    const o = reduce(secret, { type: 'observed', at: 2000, obs: obs(), ms: 10 });
    const r = reduce(o, reply('Thought: a label\nAction: ANSWER; <content>the label</content>\nMemory_Updated: {}'));
    expect(r.answer).toBe('the {{secret:n}}');
    expect(r.steps[0].action).toEqual({ type: 'answer', text: 'the {{secret:n}}' });
  });

  it('a short password is masked in its own step only', () => {
    let s = step(fresh(), 'Type it.', 'Type [2]; [abc]', '{}');
    s = step(s, 'abc is typed; a cab', 'Click [1]', '{}');
    expect(s.steps[0].actionText).toBe(`Type [2]; [${PASSWORD_MASK}]`);
    expect(s.steps[1].thought).toBe('abc is typed; a cab');
  });

  it('the vault survives a restart through the session, not the database', () => {
    let s = step(fresh(), 'Type the password.', `Type [2]; [${PW}]`, '{}');
    const { state: stored, vault } = splitSecret(s);
    expect(stored.vault).toBeUndefined();
    s = joinSecret(stored, null, vault);
    s = step(s, `repeat ${PW}`, 'Click [1]', '{}');
    expect(s.steps[1].thought).toBe(`repeat ${TYPED}`);
  });
});

describe('a masked password stays usable: the model reads and types its placeholder', () => {
  const PW5 = 'TVkEp';
  const second: Mark[] = [{ label: 3, tag: 'input', text: 'Confirm password', rect: { x: 10, y: 90, width: 200, height: 30 }, inputType: 'password' }];

  it('the task keeps the password as {{password:1}}, the model types it into the second field, it is filled in only there', () => {
    let s = fresh({ task: `Enter the password "${PW5}" into both fields` });
    s = step(s, 'First field.', `Type [2]; [${PW5}]`, '{}', second);
    expect(s.task).toBe('Enter the password "{{password:1}}" into both fields');
    expect(s.steps[0].actionText).toBe('Type [2]; [{{password:1}}]');
    const sent = nextRequest(s);
    expect(sent).toContain('Enter the password \\"{{password:1}}\\" into both fields');
    expect(sent).toContain('shown as {{password:1}}');
    expect(sent).not.toContain(PW5);
    expect(sent).not.toContain(PASSWORD_MASK);
    s = reduce(s, { type: 'observed', at: 5000, obs: obs(second), ms: 10 });
    s = reduce(s, { type: 'replied', at: 6000, raw: 'Thought: Second field.\nAction: Type [3]; [{{password:1}}]\nMemory_Updated: {}', reasoning: null, usage: null, ms: 5 });
    const check = effectOf(s);
    if (check.kind !== 'check') throw new Error(check.kind);
    expect(check.action).toMatchObject({ text: '{{password:1}}' });
    // typing a password again asks first, as it always has
    const hit = secretGuard(check.action, s.site, s.guards, undefined, s.vault!.typed);
    expect(hit).toEqual({ id: 'password', reason: 'this types a password this run typed before' });
    s = reduce(s, { type: 'checked', at: 6001, hit });
    s = reduce(s, { type: 'approve', at: 6002 });
    const act = effectOf(s);
    if (act.kind !== 'act') throw new Error(act.kind);
    expect(fillSecrets(act.action, s.vault!.kept, s.vault!.typed)).toEqual({ action: expect.objectContaining({ text: PW5 }), missing: [] });
    expect(fillSecrets(act.action, [], [])).toMatchObject({ missing: ['{{password:1}}'] });
    s = reduce(s, { type: 'acted', at: 6100, result: { ok: true }, ms: 50 });
    expect(s.steps[1].action).toMatchObject({ text: '{{password:1}}' });
    expect(s.vault!.typed).toEqual([PW5]);
    expect(written(s)).not.toContain(PW5);
  });

  it('hiding twice changes nothing: a password that is a word of the placeholders ("password", "secret") leaves them whole', () => {
    const v = { typed: ['password', 'secret'], kept: [{ name: 'card', value: CARD }] };
    const once = hideIn(`password, secret and ${CARD}`, v, AS_PLACEHOLDERS);
    expect(once).toBe('{{password:1}}, {{password:2}} and {{secret:card}}');
    expect(hideIn(once, v, AS_PLACEHOLDERS)).toBe(once);
    expect(hideIn('{{secret:card}}', { typed: ['card'], kept: [] }, AS_PLACEHOLDERS)).toBe('{{secret:card}}');
  });
});

describe('Settings secrets are never sent to the model', () => {
  const onPage: Mark[] = [{ label: 3, tag: 'div', text: `Saved card ${CARD} for ${LOGIN}`, rect: { x: 0, y: 90, width: 300, height: 20 } }];

  it('the task and the element list carry placeholders, and the model is told the names, in every dialect', () => {
    for (const dialect of Object.keys(DIALECTS)) {
      const s = fresh({ dialect, task: `Pay with ${CARD} as ${LOGIN}`, secrets: SECRETS });
      expect(s.task).toBe('Pay with {{secret:card}} as {{secret:login}}');
      const o = reduce(s, { type: 'observed', at: 2000, obs: obs(onPage), ms: 10 });
      const eff = effectOf(o);
      if (eff.kind !== 'ask') throw new Error(eff.kind);
      const sent = JSON.stringify(eff.request);
      expect(sent, dialect).not.toContain(CARD);
      expect(sent, dialect).not.toContain(LOGIN);
      expect(sent, dialect).toContain('The user keeps these values secret: {{secret:card}}, {{secret:login}}.');
      if (dialect === 'glm-web') expect(sent).toContain('Saved card {{secret:card}} for {{secret:login}}');
    }
  });

  it('a typed placeholder stays a placeholder in the run and trace; only the act effect gets filled', () => {
    let s = fresh({ secrets: SECRETS });
    s = reduce(s, { type: 'observed', at: 2000, obs: obs(onPage), ms: 10 });
    s = reduce(s, reply('Thought: pay\nAction: Type [0]; [{{secret:card}}]\nMemory_Updated: {"card": "{{secret:card}}"}'));
    const check = effectOf(s);
    expect(check).toMatchObject({ kind: 'check', action: { text: '{{secret:card}}' } });
    if (check.kind !== 'check') throw new Error(check.kind);
    expect(secretGuard(check.action, s.site, s.guards)?.reason).toContain('{{secret:card}}');
    s = reduce(s, { type: 'checked', at: 3001, hit: secretGuard(check.action, s.site, s.guards) });
    expect(s.phase).toBe('approve');
    expect(toRunView(s).pending?.actionText).toBe('Type [0]; [{{secret:card}}]');
    s = reduce(s, { type: 'approve', at: 3002 });
    const act = effectOf(s);
    if (act.kind !== 'act') throw new Error(act.kind);
    expect(fillSecrets(act.action, s.vault!.kept).action).toMatchObject({ text: CARD });
    s = reduce(s, { type: 'acted', at: 3100, result: { ok: true }, ms: 50 });
    expect(s.steps[0].action).toMatchObject({ text: '{{secret:card}}' });
    s = step(s, `The card ${CARD} is in.`, `ANSWER; <content>paid with ${CARD}</content>`, '{}');
    expect(s.answer).toBe('paid with {{secret:card}}');
    expect(written(s)).not.toContain(CARD);
    expect(written(s)).not.toContain(LOGIN);
    expect(JSON.stringify(splitSecret(s).vault)).toContain(CARD);
  });

  it('a value the model writes itself is turned back into its placeholder (and filled in again when typed)', () => {
    let s = fresh({ secrets: SECRETS });
    s = reduce(s, { type: 'observed', at: 2000, obs: obs(), ms: 10 });
    s = reduce(s, reply(`Thought: t\nAction: Type [0]; [${LOGIN}]\nMemory_Updated: {}`));
    expect(s.pending?.reply?.action).toMatchObject({ text: '{{secret:login}}' });
    expect(JSON.stringify(splitSecret(s).state)).not.toContain(LOGIN);
  });

  it('hideRun without a vault changes nothing', () => {
    expect(hideRun({}, { a: CARD })).toEqual({ a: CARD });
  });
});
