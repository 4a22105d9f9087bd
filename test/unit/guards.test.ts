import { describe, expect, it } from 'vitest';
import { allowOnSite, DEFAULT_GUARDS, GUARD_IDS, guardCheck, hostKey, normalizeGuards, siteKey, type GuardSettings, type GuardTarget } from '../../src/core/guards';
import type { Action } from '../../src/core/action/action';

const ctx = { site: 'https://shop.example/', searchStartPage: 'https://www.bing.com/' };
const click: Action = { type: 'click', target: { kind: 'label', label: 3 }, button: 'left', count: 1 };
const typeIn: Action = { type: 'type', target: { kind: 'label', label: 3 }, text: 'secret', clear: true, enter: true };
const button = (text: string, more: Partial<GuardTarget> = {}): GuardTarget => ({ tag: 'button', text, ...more });
const link = (text: string, href: string, more: Partial<GuardTarget> = {}): GuardTarget => ({ tag: 'a', text, href, ...more });
const hit = (a: Action, t: GuardTarget | null, g: GuardSettings = DEFAULT_GUARDS, c = ctx) => guardCheck(a, t, c, g);
const idOf = (a: Action, t: GuardTarget | null, g: GuardSettings = DEFAULT_GUARDS, c = ctx) => hit(a, t, g, c)?.id ?? null;

describe('guardCheck: each rule fires, and its look-alikes do not', () => {
  it('password: typing into a password field, not into a text field about passwords, not clicking one', () => {
    expect(hit(typeIn, { tag: 'input', text: 'Password', inputType: 'password' })).toEqual({ id: 'password', reason: 'this types into a password field' });
    expect(idOf(typeIn, { tag: 'input', text: 'Password hint', inputType: 'text' })).toBeNull();
    expect(idOf(typeIn, { tag: 'input', text: 'New password' })).toBeNull();
    expect(idOf(click, { tag: 'input', text: 'Password', inputType: 'password' })).toBeNull();
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

  it('text rules match the start of the text on a word boundary, case and spacing aside', () => {
    expect(idOf(click, button('  DELETE   this project '))).toBe('delete');
    expect(idOf(click, button('🗑 Delete'))).toBe('delete'); // leading symbols are skipped
    expect(idOf(click, button('Delete-all'))).toBe('delete'); // a hyphen ends the word
    expect(idOf(click, button('Deletes'))).toBeNull();
    expect(idOf(click, button('Undelete'))).toBeNull();
    expect(idOf(click, button('Do not delete'))).toBeNull(); // not at the start
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
    expect(hit(click, link('Partner shop', 'https://partner.example/'))).toEqual({ id: 'leave-site', reason: 'this leaves shop.example for partner.example' });
    expect(hit({ type: 'search' }, null)).toEqual({ id: 'leave-site', reason: 'this leaves shop.example for bing.com' });
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

describe('switching rules off and allowing them per site', () => {
  it('a rule that is off never fires; the others still do', () => {
    const off = normalizeGuards({ rules: [{ id: 'delete', on: false, words: DEFAULT_GUARDS.rules[2].words }] });
    expect(idOf(click, button('Delete project'), off)).toBeNull();
    expect(idOf(click, button('Place order'), off)).toBe('payment');
  });

  it('edited words replace the defaults', () => {
    const g = normalizeGuards({ rules: [{ id: 'send', on: true, words: ['  Absenden ', 'SHIP IT'] }] });
    expect(g.rules.find((r) => r.id === 'send')?.words).toEqual(['absenden', 'ship it']);
    expect(idOf(click, button('Absenden'), g)).toBe('send');
    expect(idOf(click, button('Ship it now'), g)).toBe('send');
    expect(idOf(click, button('Send'), g)).toBeNull();
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
    expect(g.rules.find((r) => r.id === 'delete')).toEqual({ id: 'delete', on: false, words: ['wipe'] });
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
});
