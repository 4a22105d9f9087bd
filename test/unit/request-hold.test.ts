import { describe, expect, it } from 'vitest';
import {
  cardNumberOf, carriedIn, heldOf, holdCheck, luhnValid, watchPatterns,
  type HoldContext, type OutRequest, type Watched,
} from '../../src/core/guards/request-hold';
import { DEFAULT_GUARDS, allowOnSite, type GuardSettings } from '../../src/core/guards';
import { translatorFor } from '../../src/core/locales';

const SECRET = 'Tr0ub4dor&3 "x"';
const PASSWORD = 'hunter22-pw!';
const CARD = '4111 1111 1111 1111';
const CARD_DIGITS = '4111111111111111';

const watched: Watched[] = [
  { value: SECRET, kind: 'secret', name: 'login' },
  { value: PASSWORD, kind: 'password' },
  { value: CARD, kind: 'card' },
];

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');
const ctx = (more: Partial<HoldContext> = {}): HoldContext => ({ site: 'https://shop.example/', watched, guards: DEFAULT_GUARDS, ...more });
const post = (url: string, body: string | null, resourceType = 'Fetch'): OutRequest => ({ url, method: 'POST', body, resourceType });
const get = (url: string): OutRequest => ({ url, method: 'GET', body: null });
const ruleOf = (req: OutRequest, c: HoldContext = ctx()) => holdCheck(req, c)?.id ?? null;

describe('carriedIn: a value in every encoding', () => {
  it.each([
    ['raw', `{"user":"ada","secret":"${SECRET}"}`, SECRET],
    ['url', `a=1&p=${encodeURIComponent(SECRET)}`, SECRET],
    ['url', `p=${encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())}`, SECRET],
    ['url', `p=${new URLSearchParams({ x: SECRET }).toString().slice(2)}`, SECRET], // form encoding: + for space, ( ) ! encoded
    ['url', `p=${encodeURIComponent(encodeURIComponent(SECRET))}`, SECRET], // twice
    ['url', `p=hunter22-pw%21`, PASSWORD], // partly encoded
    ['json', JSON.stringify({ s: SECRET }), SECRET],
    ['json', `{"s":"${[...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`, SECRET],
    ['json', `{"s":"${[...PASSWORD].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join('')}"}`, PASSWORD],
    ['base64', `{"blob":"${b64(PASSWORD)}"}`, PASSWORD],
    ['base64', `t=${b64url(PASSWORD)}`, PASSWORD],
    ['base64', `t=${b64(PASSWORD).replace(/=+$/, '')}`, PASSWORD],
    ['base64', `t=${encodeURIComponent(b64(`{"pw":"${PASSWORD}"}`))}`, PASSWORD], // base64 of JSON, URL-encoded
  ])('%s: %s', (how, text, value) => {
    expect(carriedIn(text, value, 'secret')).toBe(how);
  });

  it('base64 at each of the 3 byte alignments inside a larger base64 string, standard and URL-safe', () => {
    for (const pad of ['', 'a', 'ab', 'abc', 'abcd']) {
      const bytes = Buffer.from(`${pad}${PASSWORD}, and more after it`);
      expect(carriedIn(`{"d":"${b64(bytes)}"}`, PASSWORD, 'password'), pad).toBe('base64');
      expect(carriedIn(`d=${b64url(bytes)}`, PASSWORD, 'password'), pad).toBe('base64');
      // Inside a token that does not start where the base64 starts: found by the value's encoded forms.
      expect(carriedIn(`d=Zz${b64(bytes)}`, PASSWORD, 'password'), pad).toBe('base64');
      expect(carriedIn(`d=Zz${b64url(bytes)}`, PASSWORD, 'password'), pad).toBe('base64');
    }
  });

  it('a card number as typed, as digits only, with dashes, form-encoded', () => {
    expect(carriedIn(`{"n":"${CARD}"}`, CARD, 'card')).toBe('raw');
    expect(carriedIn(`{"n":"${CARD_DIGITS}"}`, CARD, 'card')).toBe('raw');
    expect(carriedIn(`{"n":4111111111111111}`, CARD, 'card')).toBe('raw');
    expect(carriedIn('n=4111-1111-1111-1111', CARD, 'card')).toBe('raw');
    expect(carriedIn('n=4111+1111+1111+1111', CARD, 'card')).toBe('url');
    expect(carriedIn('n=4111%201111%201111%201111', CARD, 'card')).toBe('url');
    expect(carriedIn(`n=${b64(CARD_DIGITS)}`, CARD, 'card')).toBe('base64');
    // typed digits only, sent with spaces
    expect(carriedIn(`{"n":"${CARD}"}`, CARD_DIGITS, 'card')).toBe('raw');
    // digits only for cards: a secret that looks like a card is matched as written
    expect(carriedIn(`{"n":"${CARD_DIGITS}"}`, CARD, 'secret')).toBeNull();
    expect(carriedIn('n=4111 1111 1111 1112', CARD, 'card')).toBeNull();
  });

  it('never for values shorter than 4 characters, nor in unrelated text', () => {
    expect(carriedIn('abc=abc', 'abc', 'secret')).toBeNull();
    expect(carriedIn('x=123', '123', 'password')).toBeNull();
    expect(carriedIn('{"q":"red shoes","page":2}', PASSWORD, 'password')).toBeNull();
    expect(carriedIn(`{"img":"${b64(Buffer.alloc(3000, 7))}"}`, PASSWORD, 'password')).toBeNull();
    expect(carriedIn('hunter22-pw', PASSWORD, 'password')).toBeNull(); // a part is not the value
  });
});

describe('holdCheck: watched values', () => {
  it('a secret, a typed password, a typed card: rule, reason, what', () => {
    expect(holdCheck(post('https://api.tracker.example/collect?x=1', `{"s":"${SECRET.replace(/"/g, '\\"')}"}`), ctx())).toEqual({
      id: 'password', how: 'json', reason: 'the page is sending your secret {{secret:login}} to api.tracker.example',
      what: 'POST api.tracker.example/collect', url: 'https://api.tracker.example/collect',
    });
    expect(holdCheck(post('https://www.evil.example/', new URLSearchParams({ p: PASSWORD }).toString()), ctx())).toMatchObject({
      id: 'password', how: 'url', reason: 'the page is sending a password typed in this run to evil.example', what: 'POST evil.example',
    });
    expect(holdCheck(post('https://pay.example/v1/charge', `amount=5&n=${CARD_DIGITS}`), ctx())).toMatchObject({
      id: 'payment', how: 'raw', reason: 'the page is sending a card number typed in this run to pay.example, which may pay', what: 'POST pay.example/v1/charge',
    });
    const named: Watched[] = [{ value: CARD, kind: 'card', name: 'visa' }];
    expect(holdCheck(post('https://pay.example/c', `{"x":"${CARD}"}`), ctx({ watched: named }))?.reason)
      .toBe('the page is sending your card number {{secret:visa}} to pay.example, which may pay');
  });

  it('reasons in the person\'s language', () => {
    const t = translatorFor('zh_CN');
    expect(holdCheck(post('https://evil.example/', PASSWORD), ctx({ t }))?.reason).toBe('页面正在把本次运行中输入的密码发送到 evil.example');
    expect(holdCheck(post('https://evil.example/', `{"card":"${CARD_DIGITS}"}`), ctx({ watched: [], t }))?.reason).toBe('页面正在把卡号发送到 evil.example（字段“card”），可能会付款');
  });

  it('done: a card number typed by the model, sent by a script (fetch / XHR) or a form, raw or URL-encoded', () => {
    const typed: Watched[] = [{ value: CARD, kind: 'card', site: 'https://shop.example/checkout' }];
    const c = ctx({ watched: typed });
    // fetch with a JSON body, to a payment provider (the key is one no rule knows)
    expect(ruleOf(post('https://api.psp.example/tokens', `{"pm":{"data":"${CARD}"}}`, 'Fetch'), c)).toBe('payment');
    // XHR, form-encoded
    expect(ruleOf(post('https://api.psp.example/tokens', `v=${encodeURIComponent(CARD)}&exp=12%2F29`, 'XHR'), c)).toBe('payment');
    // a form post (a document), raw digits and URL-encoded with + for spaces
    expect(ruleOf(post('https://psp.example/pay', `f1=${CARD_DIGITS}`, 'Document'), c)).toBe('payment');
    expect(ruleOf(post('https://psp.example/pay', 'f1=4111+1111+1111+1111', 'Document'), c)).toBe('payment');
    // a script's GET with the number in the URL
    expect(ruleOf(get(`https://psp.example/p?d=${encodeURIComponent(CARD)}`), c)).toBe('payment');
    // the site it was typed on may have it
    expect(ruleOf(post('https://api.shop.example/checkout', `{"pm":{"data":"${CARD}"}}`), c)).toBeNull();
  });

  it('multipart bodies', () => {
    const body = [
      '------WebKitFormBoundaryAbc', 'Content-Disposition: form-data; name="user"', '', 'ada',
      '------WebKitFormBoundaryAbc', 'Content-Disposition: form-data; name="pw"', '', PASSWORD,
      '------WebKitFormBoundaryAbc--', '',
    ].join('\r\n');
    expect(holdCheck(post('https://evil.example/up', body), ctx())).toMatchObject({ id: 'password', how: 'raw' });
    const card = body.replace(PASSWORD, CARD_DIGITS).replace('name="pw"', 'name="card[number]"');
    expect(holdCheck(post('https://evil.example/up', card), ctx({ watched: [] }))).toMatchObject({ id: 'payment', reason: expect.stringContaining('"card[number]"') });
    expect(holdCheck(post('https://evil.example/up', body.replace(PASSWORD, 'nothing special')), ctx())).toBeNull();
  });

  it('a value released to a site goes there (same site by the public suffix list), not elsewhere', () => {
    const w: Watched[] = [{ value: PASSWORD, kind: 'password', site: 'https://login.shop.example/signin' }];
    expect(ruleOf(post('https://api.shop.example/session', `pw=${PASSWORD}`), ctx({ watched: w }))).toBeNull();
    expect(ruleOf(post('https://www.shop.example:8443/x', `pw=${PASSWORD}`), ctx({ watched: w }))).toBeNull();
    expect(ruleOf(post('https://shop.example.evil.example/x', `pw=${PASSWORD}`), ctx({ watched: w }))).toBe('password');
    expect(ruleOf(post('https://tracker.example/x', `pw=${PASSWORD}`), ctx({ watched: w }))).toBe('password');
    // a host works as the site too; github.io pages are separate sites
    const gh: Watched[] = [{ value: PASSWORD, kind: 'password', site: 'me.github.io' }];
    expect(ruleOf(post('https://me.github.io/api', PASSWORD), ctx({ watched: gh }))).toBeNull();
    expect(ruleOf(post('https://attacker.github.io/api', PASSWORD), ctx({ watched: gh }))).toBe('password');
  });

  it('a rule that is off, always allowed on the task\'s site, or approved does not hold', () => {
    const req = post('https://evil.example/', `p=${PASSWORD}&card=${CARD_DIGITS}`);
    expect(ruleOf(req)).toBe('password');
    const off = (id: string): GuardSettings => ({ ...DEFAULT_GUARDS, rules: DEFAULT_GUARDS.rules.map((r) => (r.id === id ? { ...r, on: false } : r)) });
    expect(ruleOf(req, ctx({ guards: off('password') }))).toBe('payment');
    expect(ruleOf(req, ctx({ guards: off('payment') }))).toBe('password');
    expect(ruleOf(req, ctx({ guards: allowOnSite(DEFAULT_GUARDS, 'https://www.shop.example/', 'password') }))).toBe('payment');
    expect(ruleOf(req, ctx({ guards: allowOnSite(DEFAULT_GUARDS, 'https://other.example/', 'password') }))).toBe('password');
    expect(ruleOf(req, ctx({ approved: 'password' }))).toBe('payment');
    expect(ruleOf(req, ctx({ approved: 'payment', guards: off('password') }))).toBeNull();
  });

  it('GET and HEAD are judged by their URL only; only http(s)', () => {
    expect(ruleOf({ url: 'https://evil.example/a', method: 'GET', body: PASSWORD })).toBeNull();
    expect(ruleOf({ url: `https://evil.example/a?p=${encodeURIComponent(PASSWORD)}`, method: 'GET', body: null })).toBe('password');
    expect(ruleOf({ url: `https://evil.example/a?card_number=${CARD_DIGITS}`, method: 'GET', body: null }, ctx({ watched: [] }))).toBe('payment');
    expect(ruleOf({ url: 'https://evil.example/a', method: 'HEAD', body: PASSWORD })).toBeNull();
    expect(ruleOf({ url: 'https://evil.example/a', method: 'PUT', body: PASSWORD })).toBe('password');
    expect(ruleOf(post('ws://evil.example/a', PASSWORD))).toBeNull();
    expect(ruleOf(post('data:text/plain,' + PASSWORD, PASSWORD))).toBeNull();
  });

  it('ordinary requests go', () => {
    expect(ruleOf(post('https://shop.example/api/cart', '{"sku":"A-100","qty":2,"ids":[4111111111111112]}'))).toBeNull();
    expect(ruleOf(post('https://shop.example/search', 'q=red+shoes&page=2'))).toBeNull();
    expect(ruleOf(get('https://shop.example/product/4111111111111111-is-a-sku'), ctx({ watched: [] }))).toBeNull();
    expect(ruleOf(post('https://shop.example/log', `{"img":"${b64(Buffer.alloc(5000, 3))}"}`))).toBeNull();
  });

  it('what and url never carry the value (they are kept in the run state)', () => {
    const hit = holdCheck(get(`https://evil.example/c/${encodeURIComponent(PASSWORD)}/x?y=1`), ctx());
    expect(hit).toMatchObject({ id: 'password', what: 'GET evil.example/…', url: 'https://evil.example/…' });
    const sub = holdCheck(get('https://hunter22pw.evil.example/'), ctx({ watched: [{ value: 'hunter22pw', kind: 'password' }] }));
    expect(sub).toMatchObject({ id: 'password', what: 'GET ….evil.example' });
    const digits = holdCheck(get(`https://evil.example/pay/${CARD_DIGITS}`), ctx());
    expect(digits).toMatchObject({ id: 'payment', what: 'GET evil.example/…' });
    expect(heldOf(hit!, get('https://evil.example/'), 'r-1', 7, 1000)).toEqual({
      requestId: 'r-1', tabId: 7, url: 'https://evil.example/…', method: 'GET', rule: 'password', reason: hit!.reason, what: hit!.what, at: 1000, how: 'raw',
    });
  });

  it('watchPatterns is computed once and can be passed instead of the list', () => {
    expect(watchPatterns(watched)).toBe(watchPatterns(watched));
    const p = watchPatterns(watched);
    expect(ruleOf(post('https://evil.example/', PASSWORD), ctx({ watched: p }))).toBe('password');
    expect(watchPatterns([{ value: 'abc', kind: 'password' }]).patterns).toHaveLength(0);
  });
});

describe('holdCheck: card numbers by their key', () => {
  const c = ctx({ watched: [] });
  it.each([
    ['cc-number', `cc-number=${CARD_DIGITS}`],
    ['cardnumber', `cardnumber=${encodeURIComponent(CARD)}`],
    ['card_number', `{"card_number":"${CARD}"}`],
    ['cardNumber', `{"payment":{"cardNumber":"4111-1111-1111-1111"}}`],
    ['card.number', `{"card":{"number":"${CARD_DIGITS}","exp_month":12}}`],
    ['payment_method_data[card][number]', `payment_method_data[type]=card&payment_method_data[card][number]=${CARD_DIGITS}`],
    ['payment_method_data%5Bcard%5D%5Bnumber%5D', `payment_method_data%5Bcard%5D%5Bnumber%5D=${CARD_DIGITS}`],
    ['ccnum', `ccnum=5555555555554444`],
    ['pan', `{"pan":"378282246310005"}`],
    ['cards.0.number', `{"cards":[{"number":"${CARD_DIGITS}"}]}`],
    ['creditCard', `{"creditCard":${CARD_DIGITS}}`],
    ['payload', `payload=${encodeURIComponent(JSON.stringify({ card: { number: CARD_DIGITS } }))}`],
  ])('%s', (_name, body) => {
    expect(ruleOf(post('https://psp.example/pay', body), c)).toBe('payment');
  });

  it('not without Luhn, not under other keys, not gift cards', () => {
    expect(ruleOf(post('https://psp.example/pay', 'cc-number=4111111111111112'), c)).toBeNull();
    expect(ruleOf(post('https://psp.example/pay', 'cc-number=411111111111'), c)).toBeNull(); // 12 digits
    expect(ruleOf(post('https://psp.example/pay', `order_number=${CARD_DIGITS}`), c)).toBeNull();
    expect(ruleOf(post('https://psp.example/pay', `{"number":"${CARD_DIGITS}"}`), c)).toBeNull();
    expect(ruleOf(post('https://psp.example/pay', `{"card_id":"${CARD_DIGITS}"}`), c)).toBeNull();
    expect(ruleOf(post('https://psp.example/pay', `{"gift_card_number":"${CARD_DIGITS}"}`), c)).toBeNull();
    expect(ruleOf(post('https://psp.example/pay', `{"card":{"token":"${CARD_DIGITS}"}}`), c)).toBeNull();
  });

  it('Luhn and card numbers', () => {
    expect(luhnValid(CARD_DIGITS)).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(cardNumberOf(CARD)).toBe(CARD_DIGITS);
    expect(cardNumberOf('4111-1111-1111-1111')).toBe(CARD_DIGITS);
    expect(cardNumberOf('0000000000000000')).toBeNull();
    expect(cardNumberOf('4111 1111 1111 111a')).toBeNull();
  });
});

describe('holdCheck by destination: a value in the page goes only where it was typed or let go', () => {
  // typed on the shop (port 8443 is another service of the same host)
  const placed = (more: Partial<Watched> = {}): Watched[] => [
    { value: PASSWORD, kind: 'password', site: 'https://shop.example/', home: ['shop.example'], ...more },
  ];
  const card = (more: Partial<Watched> = {}): Watched[] => [{ value: CARD, kind: 'card', home: ['shop.example'], ...more }];
  const reversed = [...CARD_DIGITS].reverse().join('');
  const plusOne = [...CARD_DIGITS].map((d) => String((Number(d) + 1) % 10)).join('');
  const hex = Buffer.from(CARD_DIGITS).toString('hex');

  it.each([
    ['an image URL with nothing of the value', get('https://cdn.evil.example/p.gif?v=1')],
    ['the number reversed', get(`https://evil.example/c?x=${reversed}`)],
    ['each digit + 1', post('https://evil.example/c', plusOne)],
    ['split 8 + 8', post('https://evil.example/c', `a=${CARD_DIGITS.slice(0, 8)}&b=${CARD_DIGITS.slice(8)}`)],
    ['hex', get(`https://evil.example/c/${hex}`)],
    ['dotted', get(`https://evil.example/c?d=${[...CARD_DIGITS].join('.')}`)],
    ['another port of the same host', post('https://shop.example:8443/c', 'x=1')],
    ['another tenant of a hosting domain', post('https://evil.atlassian.net/c', 'x=1')],
  ])('held whatever it carries: %s', (_, req) => {
    const hit = holdCheck(req, ctx({ watched: card() }));
    expect(hit?.id).toBe('payment');
    expect(hit?.away).toBe(new URL(req.url).port ? `shop.example:${new URL(req.url).port}` : (new URL(req.url).hostname === 'evil.atlassian.net' ? 'evil.atlassian.net' : 'evil.example'));
    expect(hit?.reason).toContain('is in this page');
  });

  it('the question says when the request also carries the value, and how', () => {
    const hit = holdCheck(get(`https://evil.example/c?x=${b64(CARD_DIGITS)}`), ctx({ watched: card() }));
    expect(hit).toMatchObject({ id: 'payment', away: 'evil.example', how: 'base64' });
    expect(hit?.reason).toMatch(/evil\.example.*; the request carries it$/);
  });

  it('its own site: any subdomain, http or https, goes; a card is still held when a request there carries it', () => {
    expect(holdCheck(get('https://static.shop.example/logo.png'), ctx({ watched: card() }))).toBeNull();
    expect(holdCheck(post('http://api.shop.example/cart', '{"n":2}'), ctx({ watched: card() }))).toBeNull();
    expect(holdCheck(post('https://shop.example/pay', `{"pan":"${CARD_DIGITS}"}`), ctx({ watched: card() }))?.away).toBeUndefined();
    expect(ruleOf(post('https://shop.example/pay', `{"pan":"${CARD_DIGITS}"}`), ctx({ watched: card() }))).toBe('payment');
    // a password goes to where it was typed, carried or not
    expect(holdCheck(post('https://shop.example/login', `p=${PASSWORD}`), ctx({ watched: placed() }))).toBeNull();
  });

  it('an approved action releases a card on its own site, never to another', () => {
    const approved = ctx({ watched: card(), approved: 'payment' });
    expect(holdCheck(post('https://shop.example/pay', `{"pan":"${CARD_DIGITS}"}`), approved)).toBeNull();
    expect(holdCheck(post('https://third.example/collect', `{"pan":"${CARD_DIGITS}"}`), approved)).toMatchObject({ id: 'payment', away: 'third.example' });
    expect(holdCheck(post('https://third.example/p', `p=${PASSWORD}`), ctx({ watched: placed(), approved: 'password' }))).toMatchObject({ id: 'password', away: 'third.example' });
  });

  it('a destination the person let it go to goes, carried or not; the value keeps its other limits', () => {
    const w = card({ to: ['pay.example'] });
    expect(holdCheck(post('https://api.pay.example/t', `{"pan":"${CARD_DIGITS}"}`), ctx({ watched: w }))).toBeNull();
    expect(holdCheck(get('https://evil.example/x'), ctx({ watched: w }))?.away).toBe('evil.example');
  });

  it('a value not put into any page is judged by what a request carries, as before; off or always-allowed rules hold nothing', () => {
    expect(holdCheck(get('https://cdn.evil.example/p.gif'), ctx({ watched: [{ value: CARD, kind: 'card' }] }))).toBeNull();
    expect(holdCheck(get('https://cdn.evil.example/p.gif'), ctx({ watched: card(), guards: allowOnSite(DEFAULT_GUARDS, 'https://shop.example/', 'payment') }))).toBeNull();
    const off: GuardSettings = { ...DEFAULT_GUARDS, rules: DEFAULT_GUARDS.rules.map((r) => (r.id === 'payment' ? { ...r, on: false } : r)) };
    expect(holdCheck(get('https://cdn.evil.example/p.gif'), ctx({ watched: card(), guards: off }))).toBeNull();
    // requests that leave nothing: not http(s)
    expect(holdCheck(get('data:image/gif;base64,R0lGOD'), ctx({ watched: card() }))).toBeNull();
  });

  it('a Settings secret typed into a page: held on the way to any other site, named by its placeholder, never by its value', () => {
    const w: Watched[] = [{ value: SECRET, kind: 'secret', name: 'login', site: 'https://shop.example/', home: ['shop.example'] }];
    const hit = holdCheck(get('https://evil.example/x.png'), ctx({ watched: w }));
    expect(hit).toMatchObject({ id: 'password', away: 'evil.example' });
    expect(hit?.reason).toContain('{{secret:login}}');
    expect(hit?.reason).not.toContain(SECRET);
    expect(holdCheck(post('https://shop.example/login', `s=${encodeURIComponent(SECRET)}`), ctx({ watched: w }))).toBeNull();
    // in Chinese too (the person's language)
    expect(holdCheck(get('https://evil.example/x.png'), ctx({ watched: w, t: translatorFor('zh_CN') }))?.reason).toContain('evil.example');
  });

  it('the held record keeps the destination and the child session, never the value', () => {
    const req = get(`https://evil.example/c/${CARD_DIGITS}`);
    const hit = holdCheck(req, ctx({ watched: card() }))!;
    const held = heldOf(hit, req, 'r1', 7, 1000, 'S1');
    expect(held).toMatchObject({ away: 'evil.example', sessionId: 'S1', tabId: 7 });
    expect(JSON.stringify(held)).not.toContain(CARD_DIGITS);
  });
});
