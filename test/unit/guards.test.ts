import { describe, expect, it } from 'vitest';
import { allowOnSite, DEFAULT_GUARDS, GUARD_IDS, guardCheck, hostKey, normalizeGuards, type GuardSettings, type GuardTarget } from '../../src/core/guards';
import { destinationOf, siteKey } from '../../src/core/site';
import type { Action } from '../../src/core/action/action';
import { DEFAULT_PHRASES } from '../../src/core/guards/words';
import type { FieldInfo, FormInfo } from '../../src/core/guards/fields';

const ctx = { site: 'https://shop.example/', searchStartPage: 'https://www.bing.com/' };
const click: Action = { type: 'click', target: { kind: 'label', label: 3 }, button: 'left', count: 1 };
const typeIn: Action = { type: 'type', target: { kind: 'label', label: 3 }, text: 'secret', clear: true, enter: true };
const button = (text: string, more: Partial<GuardTarget> = {}): GuardTarget => ({ tag: 'button', text, ...more });
const link = (text: string, href: string, more: Partial<GuardTarget> = {}): GuardTarget => ({ tag: 'a', text, href, ...more });
const hit = (a: Action, t: GuardTarget | null, g: GuardSettings = DEFAULT_GUARDS, c = ctx) => guardCheck(a, t, c, g);
const idOf = (a: Action, t: GuardTarget | null, g: GuardSettings = DEFAULT_GUARDS, c = ctx) => hit(a, t, g, c)?.id ?? null;

describe('guardCheck: each rule fires, and its look-alikes do not', () => {
  it('send: Enter in a message composer (a contenteditable box outside any form) sends; in a search box (a one-line field or a text area) outside a form it does not', () => {
    const enterKey: Action = { type: 'key', keys: 'Enter' } as Action;
    expect(hit(typeIn, { tag: 'div', text: 'Aa', editable: true })?.reason).toBe('this types into "Aa" and presses Enter, which may send it');
    expect(idOf(enterKey, { tag: 'div', text: 'Aa', editable: true })).toBe('send');
    expect(idOf(typeIn, { tag: 'textarea', text: 'Reply' })).toBe('send'); // by its words
    expect(idOf(typeIn, { tag: 'textarea', text: 'e.g. soup' })).toBeNull(); // a text area search box (Enter searches)
    expect(idOf(typeIn, { tag: 'div', text: 'Search mail', editable: true })).toBeNull();
    expect(idOf({ ...typeIn, enter: false } as Action, { tag: 'div', text: 'Aa', editable: true })).toBeNull();
    expect(idOf(typeIn, { tag: 'input', text: 'Search products', inputType: 'text' })).toBeNull();
    expect(idOf(typeIn, { tag: 'textarea', text: 'Notes', form: { fields: [], submit: null } })).toBeNull();
  });

  it('password: typing into a password field, not into a text field about passwords, not clicking one', () => {
    expect(hit(typeIn, { tag: 'input', text: 'Password', inputType: 'password' })).toEqual({ id: 'password', reason: 'this types into a password field' });
    expect(idOf(typeIn, { tag: 'input', text: 'Password hint', inputType: 'text' })).toBeNull();
    expect(idOf(typeIn, { tag: 'input', text: 'Forgot password?', inputType: 'text' })).toBeNull();
    expect(idOf(typeIn, { tag: 'textarea', text: 'New password', form: { fields: [], submit: null } })).toBeNull(); // not an input
    expect(idOf(click, { tag: 'input', text: 'Password', inputType: 'password' })).toBeNull();
  });

  it('password: a shown password, a PIN or a one-time code (autocomplete, name / id, label, numeric code fields)', () => {
    const text = (label: string, field: Partial<FieldInfo> = {}): GuardTarget => ({ tag: 'input', text: label, inputType: 'text', field: { tag: 'input', type: 'text', label, ...field } });
    expect(hit(typeIn, text('Secret', { autocomplete: 'current-password' }))).toEqual({ id: 'password', reason: 'this types into "Secret", which looks like a password, PIN or one-time code field' });
    expect(idOf(typeIn, text('', { autocomplete: 'one-time-code' }))).toBe('password');
    expect(idOf(typeIn, text('', { name: 'newPassword' }))).toBe('password');
    expect(idOf(typeIn, text('', { id: 'otp_code' }))).toBe('password');
    expect(idOf(typeIn, text('', { name: 'user_pin' }))).toBe('password');
    expect(idOf(typeIn, text('New password'))).toBe('password');
    expect(idOf(typeIn, text('请输入密码'))).toBe('password');
    expect(idOf(typeIn, text('パスワード再入力'))).toBe('password');
    expect(idOf(typeIn, text('Mot de passe'))).toBe('password');
    expect(idOf(typeIn, text('Contraseña'))).toBe('password');
    expect(idOf(typeIn, text('Enter the code', { inputmode: 'numeric' }))).toBe('password');
    expect(idOf(typeIn, text('验证码', { inputmode: 'numeric' }))).toBe('password');
    // look-alikes
    expect(idOf(typeIn, text('Enter the code'))).toBeNull(); // not numeric
    expect(idOf(typeIn, text('ZIP code', { inputmode: 'numeric' }))).toBeNull();
    expect(idOf(typeIn, text('Promo code', { inputmode: 'numeric' }))).toBeNull();
    expect(idOf(typeIn, text('PIN code', { name: 'pincode' }))).toBeNull(); // an Indian postal code
    expect(idOf(typeIn, text('', { name: 'password_hint' }))).toBeNull();
    expect(idOf(typeIn, text('', { name: 'pin', autocomplete: 'postal-code' }))).toBeNull();
    expect(idOf(typeIn, text('密码提示'))).toBeNull();
    expect(idOf(typeIn, text('Username', { name: 'login' }))).toBeNull();
  });

  it.each([
    ['payment', 'Place order', 'Order history'],
    ['payment', 'Pay £25.00', 'Payment methods'],
    ['payment', 'Buy now', 'Buyer protection'],
    ['payment', 'Subscribe', 'Subscribed channels'],
    ['delete', 'Delete project', 'Deleted items'],
    ['delete', 'Remove', 'Removed (3)'],
    ['delete', 'Move to trash', 'Trashed'],
    ['send', 'Send', 'Sent mail'],
    ['send', 'Post comment', 'Posts'],
    ['send', 'Publish now', 'Published articles'],
  ] as const)('%s: fires on "%s", not on "%s"', (rule, dangerous, lookAlike) => {
    expect(idOf(click, button(dangerous))).toBe(rule);
    expect(idOf(click, button(lookAlike))).toBeNull();
  });

  it('text rules match anywhere on a word boundary, case and spacing aside, not after a negation', () => {
    expect(idOf(click, button('  DELETE   this project '))).toBe('delete');
    expect(idOf(click, button('🗑 Delete'))).toBe('delete'); // leading symbols are skipped
    expect(idOf(click, button('Delete-all'))).toBe('delete'); // a hyphen ends the word
    expect(idOf(click, button('Deletes'))).toBeNull();
    expect(idOf(click, button('Undelete'))).toBeNull();
    expect(idOf(click, button('Do not delete'))).toBeNull(); // a negation before it
    expect(idOf(click, button("Don't send"))).toBeNull();
    expect(idOf(click, button('Yes, delete my account'))).toBe('delete'); // not at the start
    expect(idOf(click, button('Place my order'))).toBe('payment'); // little words between a phrase's words
    expect(idOf(click, button('Click here to place your order now'))).toBe('payment');
    expect(idOf(click, button('Sending options'))).toBeNull();
    expect(idOf(click, button('Paypal settings'))).toBeNull();
    expect(idOf(click, button('Place\n  order'))).toBe('payment');
  });

  it('the reason names the clicked text and what it may do', () => {
    expect(hit(click, button('Place order'))?.reason).toBe('this clicks "Place order", which may pay or place an order');
    expect(hit(click, button('Delete project'))?.reason).toBe('this clicks "Delete project", which may delete something');
    expect(hit(click, button('Send'))?.reason).toBe('this clicks "Send", which may send or publish something');
  });

  it('text rules look only at clicks', () => {
    expect(idOf(typeIn, { tag: 'input', text: 'Delete project' })).toBeNull();
    expect(idOf({ type: 'scroll', target: { kind: 'label', label: 3 }, direction: 'down' }, button('Send'))).toBeNull();
    expect(idOf(click, null)).toBeNull();
  });

  it('download: a download attribute, a listed file extension, or text starting with "download"', () => {
    expect(hit(click, link('Save the report', 'https://shop.example/r.txt', { download: true }))).toEqual({ id: 'download', reason: 'this clicks a download link' });
    expect(hit(click, link('webagent-1.0.zip', 'https://shop.example/files/webagent-1.0.zip'))?.reason).toBe('this clicks a link to a .zip file, which downloads it');
    expect(idOf(click, link('Get it', 'https://shop.example/a.tar.gz?x=1'))).toBe('download');
    expect(idOf(click, button('Download'))).toBe('download');
    // look-alikes
    expect(idOf(click, link('Downloads page', 'https://shop.example/downloads.html'))).toBeNull();
    expect(idOf(click, link('Read the notes', 'https://shop.example/notes.pdf'))).toBeNull(); // pdf not listed
    expect(idOf(click, link('Zip codes', 'https://shop.example/zip'))).toBeNull(); // no extension
  });

  it('leave-site: a link to another site, or the search action; not a link on the same site', () => {
    expect(hit(click, link('Partner shop', 'https://partner.example/'))).toEqual({ id: 'leave-site', reason: 'this leaves shop.example for partner.example', site: 'partner.example' });
    expect(hit({ type: 'search' }, null)).toEqual({ id: 'leave-site', reason: 'this leaves shop.example for bing.com', site: 'bing.com' });
    expect(idOf(click, link('Our partners', 'https://shop.example/partners'))).toBeNull();
    expect(idOf(click, link('Help centre', 'https://help.shop.example/'))).toBeNull(); // same registrable site
    expect(idOf(click, link('Account', 'https://www.shop.example/account'))).toBeNull();
    expect(idOf(click, link('Mail us', 'mailto:a@b.example'))).toBeNull();
    expect(idOf(click, link('Menu', 'javascript:void 0'))).toBeNull();
    expect(idOf(click, button('No link'))).toBeNull();
    expect(idOf({ type: 'search' }, null, DEFAULT_GUARDS, { ...ctx, site: 'https://www.bing.com/search?q=x' })).toBeNull();
    // 127.0.0.1 and localhost are different hosts (the e2e fixture relies on it)
    const local = { ...ctx, site: 'http://127.0.0.1:8080/' };
    expect(idOf(click, link('x', 'http://localhost:8080/a'), DEFAULT_GUARDS, local)).toBe('leave-site');
    expect(idOf(click, link('x', 'http://127.0.0.1:9999/a'), DEFAULT_GUARDS, local)).toBeNull(); // another port, same host
  });

  it('the first rule in order wins', () => {
    // a download link whose text is also a delete word, to another site
    expect(idOf(click, link('Remove and download', 'https://other.example/x.zip', { download: true }))).toBe('delete');
  });
});

describe('per language, Enter in forms, selects', () => {
  it('each language matches where its words stand: start (en fr es), whole words (de), anywhere (zh ja)', () => {
    expect(idOf(click, button('Supprimer le courriel'))).toBe('delete');
    expect(idOf(click, button('Voir les pages supprimées'))).toBeNull();
    expect(idOf(click, button('Nachricht löschen'))).toBe('delete');
    expect(idOf(click, button('Gelöschte Beiträge'))).toBeNull();
    expect(idOf(click, button('立即购买'))).toBe('payment');
    expect(idOf(click, button('加入购物车'))).toBeNull();
    expect(idOf(click, button('メッセージを削除'))).toBe('delete');
    expect(idOf(click, button('送信済み'))).toBeNull(); // "-送信済": a look-alike
    expect(idOf(click, button('已删除邮件'))).toBeNull();
    expect(idOf(click, button('移至已删除邮件'))).toBe('delete'); // the phrase holds the look-alike, not the other way round
    expect(idOf(click, button('如何删除账户？'))).toBeNull(); // a question asks about an action
    expect(idOf(click, button('How do I delete my account?'))).toBeNull();
    expect(idOf(click, button('Delete account?'))).toBe('delete'); // an action with a question mark is still the action (guard-words.test.ts)
  });

  it('"=phrase" is the whole text only', () => {
    expect(idOf(click, button('Confirm'))).toBe('payment');
    expect(idOf(click, button('Confirm →'))).toBe('payment');
    expect(idOf(click, button('Confirm email address'))).toBeNull();
    expect(idOf(click, button('PayPal'))).toBe('payment');
    expect(idOf(click, button('PayPal settings'))).toBeNull();
  });

  const form = (submit: string | null, fields: FieldInfo[] = [{ tag: 'input', type: 'text', name: 'q' }]): FormInfo => ({ submit, fields });
  const inForm = (f: FormInfo, field: FieldInfo = f.fields[0]): GuardTarget => ({ tag: 'input', text: field.label ?? '', inputType: field.type, field, form: f });
  const typeEnter: Action = { type: 'type', target: { kind: 'label', label: 3 }, text: 'x', clear: true, enter: true };
  const typeNoEnter: Action = { ...typeEnter, enter: false } as Action;
  const enterKey: Action = { type: 'key', keys: 'Enter' };

  it('Enter in a form counts as clicking its default submit button', () => {
    expect(hit(typeEnter, inForm(form('Place order')))).toEqual({ id: 'payment', reason: 'this presses Enter in a form, which clicks "Place order" and may pay or place an order' });
    expect(idOf(enterKey, inForm(form('Delete account')))).toBe('delete');
    expect(idOf({ type: 'key', keys: 'Control+Return' }, inForm(form('Senden')))).toBe('send');
    expect(idOf(typeEnter, inForm(form('Search')))).toBeNull();
    expect(idOf(typeEnter, inForm(form(null)))).toBeNull();
    expect(idOf(typeNoEnter, inForm(form('Place order')))).toBeNull(); // no Enter, no submit
    expect(idOf({ type: 'key', keys: 'Tab' }, inForm(form('Place order')))).toBeNull();
  });

  it('Enter in a payment card form, or into a card field, is a payment whatever the button says', () => {
    const card: FieldInfo = { tag: 'input', type: 'text', autocomplete: 'cc-number', label: 'Card number' };
    const name: FieldInfo = { tag: 'input', type: 'text', name: 'holder', label: 'Name' };
    expect(hit(typeEnter, inForm(form('Continue', [name, card]), name))).toEqual({ id: 'payment', reason: 'this presses Enter in a payment card form, which may pay' });
    expect(idOf(enterKey, inForm(form(null, [card])))).toBe('payment');
    for (const f of [{ name: 'cvv' }, { id: 'cardNumber' }, { name: 'exp_month' }, { label: 'Kartennummer' }, { label: '卡号' }, { label: 'セキュリティコード' }, { label: 'Número de tarjeta' }] as Partial<FieldInfo>[]) {
      expect(idOf(typeEnter, { tag: 'input', text: '', inputType: 'text', field: { tag: 'input', type: 'text', ...f } }), JSON.stringify(f)).toBe('payment');
    }
    // look-alikes: a gift card, a card typed without Enter, an address form
    expect(idOf(typeEnter, { tag: 'input', text: 'Gift card number', inputType: 'text', field: { tag: 'input', type: 'text', name: 'giftcard', label: 'Gift card number' } })).toBeNull();
    expect(idOf(typeNoEnter, inForm(form('Pay', [card])))).toBeNull();
    expect(idOf(typeEnter, inForm(form('Save address', [{ tag: 'input', type: 'text', autocomplete: 'postal-code' }])))).toBeNull();
  });

  it('typing into a select is judged like clicking the option it chooses', () => {
    const select = (options: string[]): GuardTarget => ({ tag: 'select', text: 'Action', options });
    const pick = (text: string): Action => ({ type: 'type', target: { kind: 'label', label: 3 }, text, clear: true, enter: false });
    expect(hit(pick('Delete account'), select(['Keep', 'Delete account']))).toEqual({ id: 'delete', reason: 'this chooses "Delete account", which may delete something' });
    expect(idOf(pick('account'), select(['Keep', 'Delete account']))).toBe('delete'); // chooses by a part, as select-pick.ts does
    expect(idOf(pick('Keep'), select(['Keep', 'Delete account']))).toBeNull();
    expect(idOf(pick('Delete account'), { tag: 'select', text: 'Action' })).toBe('delete'); // options unknown: the typed text
    expect(idOf(pick('Delete account'), { tag: 'input', text: 'Reason', inputType: 'text' })).toBeNull(); // not a select
  });
});

describe('switching rules off and allowing them per site', () => {
  it('a rule that is off never fires; the others still do', () => {
    const off = normalizeGuards({ rules: [{ id: 'delete', on: false, words: [], phrases: DEFAULT_GUARDS.rules[2].phrases }] });
    expect(idOf(click, button('Delete project'), off)).toBeNull();
    expect(idOf(click, button('Place order'), off)).toBe('payment');
  });

  it('edited phrases replace that language\'s defaults; the other languages keep theirs', () => {
    const g = normalizeGuards({ rules: [{ id: 'send', on: true, words: [], phrases: { en: ['  Ship IT '], de: ['rausschicken'] } }] });
    const send = g.rules.find((r) => r.id === 'send')!;
    expect(send.phrases.en).toEqual(['ship it']);
    expect(send.phrases.de).toEqual(['rausschicken']);
    expect(send.phrases.zh).toEqual(DEFAULT_PHRASES.send.zh);
    expect(idOf(click, button('Ship it now'), g)).toBe('send');
    expect(idOf(click, button('Jetzt rausschicken'), g)).toBe('send'); // German: a whole word anywhere
    expect(idOf(click, button('发送'), g)).toBe('send');
    expect(idOf(click, button('Send'), g)).toBeNull();
    expect(idOf(click, button('Absenden'), g)).toBeNull();
  });

  it('an old flat list of words (saved before phrases were per language) becomes the English list when it was edited', () => {
    const edited = normalizeGuards({ rules: [{ id: 'delete', on: true, words: ['delete', 'Wipe out'] }] });
    const del = edited.rules.find((r) => r.id === 'delete')!;
    expect(del).toEqual({ id: 'delete', on: true, words: [], phrases: { ...DEFAULT_PHRASES.delete, en: ['delete', 'wipe out'] } });
    expect(idOf(click, button('Wipe out'), edited)).toBe('delete');
    expect(idOf(click, button('Remove'), edited)).toBeNull(); // the person had taken it out
    expect(idOf(click, button('删除'), edited)).toBe('delete');
    // a saved list equal to the old default was never edited: the new defaults, with their additions
    const old = normalizeGuards({ rules: [{ id: 'payment', on: false, words: ['pay', 'pay now', 'place order', 'place your order', 'buy now', 'buy', 'purchase', 'complete purchase', 'complete order', 'confirm order', 'confirm purchase', 'confirm and pay', 'submit order', 'subscribe', 'donate'] }] });
    expect(old.rules.find((r) => r.id === 'payment')).toEqual({ id: 'payment', on: false, words: [], phrases: DEFAULT_PHRASES.payment });
    expect(idOf(click, button('Proceed to checkout'), normalizeGuards({}))).toBe('payment');
  });

  it('allowOnSite allows one rule on one site (host without www), not elsewhere, not other rules', () => {
    const g = allowOnSite(DEFAULT_GUARDS, 'https://www.shop.example/cart', 'payment');
    expect(g.allow).toEqual({ 'shop.example': ['payment'] });
    expect(DEFAULT_GUARDS.allow).toEqual({}); // not changed in place
    expect(idOf(click, button('Place order'), g)).toBeNull();
    expect(idOf(click, button('Delete project'), g)).toBe('delete');
    expect(idOf(click, button('Place order'), g, { ...ctx, site: 'https://other.example/' })).toBe('payment');
    expect(idOf(click, button('Place order'), g, { ...ctx, site: 'https://sub.shop.example/' })).toBe('payment'); // by host
    // idempotent, and adds to what is there
    expect(allowOnSite(g, 'https://shop.example/', 'payment')).toBe(g);
    expect(allowOnSite(g, 'https://shop.example/', 'delete').allow).toEqual({ 'shop.example': ['payment', 'delete'] });
  });
});

describe('normalizeGuards', () => {
  it('fills every rule, in order, from nothing or junk', () => {
    for (const input of [undefined, null, 42, 'x', {}, { rules: 'no' }, { rules: [null, 1, { id: 'nope', on: false }] }]) {
      const g = normalizeGuards(input);
      expect(g.rules.map((r) => r.id)).toEqual(GUARD_IDS);
      expect(g.rules.every((r) => r.on)).toBe(true);
      expect(g.rules).toEqual(DEFAULT_GUARDS.rules);
      expect(g.allow).toEqual({});
    }
  });

  it('keeps known rules in the default order, the first of duplicates, and bad fields fall back', () => {
    const g = normalizeGuards({
      rules: [
        { id: 'leave-site', on: false, words: [] },
        { id: 'payment', on: 'yes', words: 'pay' },
        { id: 'delete', on: false, words: ['wipe', 3, '', '  '] },
        { id: 'delete', on: true, words: ['other'] },
      ],
    });
    expect(g.rules.map((r) => r.id)).toEqual(GUARD_IDS);
    expect(g.rules.find((r) => r.id === 'leave-site')?.on).toBe(false);
    expect(g.rules.find((r) => r.id === 'payment')).toEqual(DEFAULT_GUARDS.rules.find((r) => r.id === 'payment'));
    expect(g.rules.find((r) => r.id === 'delete')).toEqual({ id: 'delete', on: false, words: [], phrases: { ...DEFAULT_PHRASES.delete, en: ['wipe'] } });
  });

  it('cleans the allow lists: host keys, known rules only, no duplicates, no empty lists', () => {
    const g = normalizeGuards({ allow: { 'WWW.Shop.Example': ['payment', 'payment', 'bogus'], 'https://www.news.example/x': ['send'], 'empty.example': ['bogus'], 'bad.example': 'payment' } });
    expect(g.allow).toEqual({ 'shop.example': ['payment'], 'news.example': ['send'] });
  });
});

describe('hostKey and siteKey', () => {
  it('hostKey: the host of a URL or a host, lower case, without "www."', () => {
    expect(hostKey('https://WWW.Shop.Example:8443/a?b')).toBe('shop.example');
    expect(hostKey('www.shop.example')).toBe('shop.example');
    expect(hostKey('wwwshop.example')).toBe('wwwshop.example');
    expect(hostKey('http://127.0.0.1:8080/')).toBe('127.0.0.1');
  });

  it('siteKey: the registrable part of a host', () => {
    expect(siteKey('shop.example')).toBe('shop.example');
    expect(siteKey('a.b.shop.example')).toBe('shop.example');
    expect(siteKey('www.bbc.co.uk')).toBe('bbc.co.uk');
    expect(siteKey('news.bbc.co.uk')).toBe(siteKey('shop.bbc.co.uk'));
    expect(siteKey('shop.example.com.au')).toBe('example.com.au');
    expect(siteKey('mail.google.com')).toBe('google.com');
    expect(siteKey('127.0.0.1')).toBe('127.0.0.1'); // an IP address is its own site
    expect(siteKey('10.0.0.1')).not.toBe(siteKey('127.0.0.1'));
    expect(siteKey('localhost')).toBe('localhost');
    expect(siteKey('localhost')).not.toBe(siteKey('127.0.0.1'));
  });

  it('siteKey: tenants of a hosting domain are different sites, private suffixes or not', () => {
    // private suffixes of the public suffix list
    expect(siteKey('a.github.io')).not.toBe(siteKey('b.github.io'));
    // hosting domains the list does not name (TENANT_DOMAINS)
    for (const [a, b] of [['a.atlassian.net', 'b.atlassian.net'], ['x.zendesk.com', 'y.zendesk.com'], ['me.wordpress.com', 'you.wordpress.com'], ['acme.sharepoint.com', 'evil.sharepoint.com']]) {
      expect(siteKey(a), a).toBe(a);
      expect(siteKey(a)).not.toBe(siteKey(b));
    }
    expect(siteKey('jira.acme.atlassian.net')).toBe('acme.atlassian.net');
    expect(siteKey('www.atlassian.net')).toBe('atlassian.net');
    // a host that serves anyone's pages under a company's domain (OWN_SITE_HOSTS)
    expect(siteKey('sites.google.com')).not.toBe(siteKey('docs.google.com'));
    expect(siteKey('docs.google.com')).toBe(siteKey('mail.google.com'));
  });

  it('destinationOf: a site and its port; default ports and schemes are one destination; nothing for URLs that go nowhere', () => {
    expect(destinationOf('https://a.shop.example/x')).toBe('shop.example');
    expect(destinationOf('http://shop.example:80/')).toBe(destinationOf('https://shop.example:443/'));
    expect(destinationOf('wss://live.shop.example/s')).toBe('shop.example');
    expect(destinationOf('http://127.0.0.1:8080/')).toBe('127.0.0.1:8080');
    expect(destinationOf('http://127.0.0.1:8081/')).not.toBe(destinationOf('http://127.0.0.1:8080/'));
    for (const u of ['data:text/plain,1', 'blob:https://shop.example/1', 'about:blank', 'chrome-extension://abc/x.html', 'not a url']) expect(destinationOf(u), u).toBeNull();
  });
});
