/**
 * Leaving the site and downloads (issue 12 item 5): sites by the public suffix list, the
 * leave-site guard on forms and script links, the guards after an action, and the run's pause
 * after an action that left the site or began a download.
 */
import { describe, expect, it } from 'vitest';
import { awayHost, sameSite, siteKey } from '../../src/core/site';
import { DEFAULT_GUARDS, guardCheck, type GuardSettings, type GuardTarget } from '../../src/core/guards';
import { afterActionHit } from '../../src/core/guards/after';
import { createRun, effectOf, reduce, toRunView, type RunState } from '../../src/core/run';
import { toTrace } from '../../src/core/trace';
import { fromTrace } from '../../src/core/trace/import';
import type { Action } from '../../src/core/action/action';
import type { Mark } from '../../src/core/marks';
import { observation } from '../fixtures/run';

describe('sites by the public suffix list', () => {
  it.each([
    ['www.bbc.co.uk', 'bbc.co.uk'],
    ['news.bbc.co.uk', 'bbc.co.uk'],
    ['shop.example.com.au', 'example.com.au'],
    ['mail.google.com', 'google.com'],
    ['a.b.shop.example', 'shop.example'],
    ['x.github.io', 'x.github.io'],
    ['docs.x.github.io', 'x.github.io'],
    ['attacker.github.io', 'attacker.github.io'],
    ['myapp.herokuapp.com', 'myapp.herokuapp.com'],
    ['Shop.Example.', 'shop.example'],
    ['shop.example:8443', 'shop.example'],
    ['localhost', 'localhost'],
    ['localhost:3000', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['10.0.0.1', '10.0.0.1'],
    ['[::1]', '[::1]'],
    ['intranet', 'intranet'],
  ])('%s is on %s', (host, site) => {
    expect(siteKey(host)).toBe(site);
  });

  it('tells sites apart where a rule of thumb would not', () => {
    expect(sameSite('x.github.io', 'attacker.github.io')).toBe(false);
    expect(sameSite('shop.bbc.co.uk', 'news.bbc.co.uk')).toBe(true);
    expect(sameSite('bbc.co.uk', 'evil.co.uk')).toBe(false);
    expect(sameSite('127.0.0.1', '127.0.0.2')).toBe(false);
    expect(sameSite('localhost', '127.0.0.1')).toBe(false);
    expect(sameSite('localhost:3000', 'localhost:4000')).toBe(true);
  });

  it('awayHost: the other site a URL goes to, or null (same site, the person\'s apps, not http)', () => {
    expect(awayHost('https://x.github.io/', 'https://attacker.github.io/login')).toBe('attacker.github.io');
    expect(awayHost('https://x.github.io/', 'https://x.github.io/docs')).toBeNull();
    expect(awayHost('https://www.shop.co.uk/', 'https://pay.shop.co.uk/')).toBeNull();
    expect(awayHost('http://127.0.0.1:8000/', 'http://127.0.0.1:9000/x')).toBeNull();
    expect(awayHost('http://127.0.0.1:8000/', 'http://localhost:8000/x')).toBe('localhost');
    expect(awayHost('https://shop.example/', 'https://mail.example.org/', [{ url: 'https://example.org/' }])).toBeNull();
    expect(awayHost('https://shop.example/', 'javascript:alert(1)')).toBeNull();
    expect(awayHost('https://shop.example/', 'chrome-error://chromewebdata/')).toBeNull();
  });
});

const CTX = { site: 'https://x.github.io/', searchStartPage: 'https://www.bing.com/' };
const click: Action = { type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 };
const typeEnter: Action = { type: 'type', target: { kind: 'label', label: 1 }, text: 'shoes', clear: true, enter: true };
const typeOnly: Action = { type: 'type', target: { kind: 'label', label: 1 }, text: 'shoes', clear: true, enter: false };
const enterKey: Action = { type: 'key', keys: 'Enter' };
const button = (t: Partial<GuardTarget>): GuardTarget => ({ tag: 'button', text: 'Continue', ...t });

describe('leave-site before the action: forms and script links, not only href', () => {
  it('a submit button whose form (or formaction) goes to another site', () => {
    expect(guardCheck(click, button({ formAction: 'https://attacker.github.io/collect' }), CTX, DEFAULT_GUARDS))
      .toEqual({ id: 'leave-site', reason: 'this leaves x.github.io for attacker.github.io', site: 'attacker.github.io' });
    expect(guardCheck(click, button({ formAction: 'https://x.github.io/search' }), CTX, DEFAULT_GUARDS)).toBeNull();
  });

  it('Enter in a field of such a form (Type ends with Enter, or the Enter key); typing without Enter does not submit', () => {
    const field = { tag: 'input', text: 'Search', formAction: 'https://evil.example/q' };
    expect(guardCheck(typeEnter, field, CTX, DEFAULT_GUARDS)?.id).toBe('leave-site');
    expect(guardCheck(enterKey, field, CTX, DEFAULT_GUARDS)?.id).toBe('leave-site');
    expect(guardCheck(typeOnly, field, CTX, DEFAULT_GUARDS)).toBeNull();
    // a click into the field does not submit it
    expect(guardCheck(click, { tag: 'input', text: 'Search', formAction: null }, CTX, DEFAULT_GUARDS)).toBeNull();
  });

  it('a button whose inline handler sets a URL on another site', () => {
    expect(guardCheck(click, button({ navigatesTo: 'https://evil.example/' }), CTX, DEFAULT_GUARDS)?.id).toBe('leave-site');
    expect(guardCheck(click, button({ navigatesTo: 'https://x.github.io/next' }), CTX, DEFAULT_GUARDS)).toBeNull();
    // a link to "#" whose handler goes elsewhere
    expect(guardCheck(click, { tag: 'a', text: 'Next', href: 'https://x.github.io/#', navigatesTo: 'https://evil.example/' }, CTX, DEFAULT_GUARDS)?.id).toBe('leave-site');
  });

  it('a link to another github.io site leaves; to the same one stays', () => {
    expect(guardCheck(click, { tag: 'a', text: 'Docs', href: 'https://attacker.github.io/' }, CTX, DEFAULT_GUARDS)?.id).toBe('leave-site');
    expect(guardCheck(click, { tag: 'a', text: 'Docs', href: 'https://docs.x.github.io/' }, CTX, DEFAULT_GUARDS)).toBeNull();
  });

  it('is off when the rule is off or allowed on the site', () => {
    const off: GuardSettings = { ...DEFAULT_GUARDS, rules: DEFAULT_GUARDS.rules.map((r) => (r.id === 'leave-site' ? { ...r, on: false } : r)) };
    expect(guardCheck(click, button({ formAction: 'https://evil.example/' }), CTX, off)).toBeNull();
    expect(guardCheck(click, button({ formAction: 'https://evil.example/' }), CTX, { ...DEFAULT_GUARDS, allow: { 'x.github.io': ['leave-site'] } })).toBeNull();
  });
});

describe('guards after an action', () => {
  const at = { site: 'https://shop.example/', before: 'https://shop.example/cart' };
  it('a download asks (by the download rule), whatever the URL looked like', () => {
    expect(afterActionHit({ url: 'https://shop.example/cart', downloads: [{ filename: 'invoice.pdf' }] }, at, DEFAULT_GUARDS))
      .toEqual({ id: 'download', reason: 'this action started a download: "invoice.pdf"' });
    const off: GuardSettings = { ...DEFAULT_GUARDS, rules: DEFAULT_GUARDS.rules.map((r) => (r.id === 'download' ? { ...r, on: false } : r)) };
    expect(afterActionHit({ url: 'https://shop.example/cart', downloads: [{ filename: 'invoice.pdf' }] }, at, off)).toBeNull();
    // approved before the click as a download (the link looked like one): not asked twice
    expect(afterActionHit({ url: 'https://shop.example/cart', downloads: [{ filename: 'invoice.pdf' }] }, { ...at, approved: 'download' }, DEFAULT_GUARDS)).toBeNull();
  });

  it('the tab moved to another site asks; staying, coming back or moving within the other site does not', () => {
    expect(afterActionHit({ url: 'https://evil.example/', downloads: [] }, at, DEFAULT_GUARDS))
      .toEqual({ id: 'leave-site', reason: 'after this action the page left shop.example for evil.example', site: 'evil.example' });
    expect(afterActionHit({ url: 'https://www.shop.example/paid', downloads: [] }, at, DEFAULT_GUARDS)).toBeNull();
    expect(afterActionHit({ url: 'https://shop.example/', downloads: [] }, { ...at, before: 'https://evil.example/' }, DEFAULT_GUARDS)).toBeNull();
    expect(afterActionHit({ url: 'https://b.evil.example/', downloads: [] }, { ...at, before: 'https://a.evil.example/' }, DEFAULT_GUARDS)).toBeNull();
    expect(afterActionHit({ url: 'https://other.example/', downloads: [] }, { ...at, before: 'https://evil.example/' }, DEFAULT_GUARDS)?.id).toBe('leave-site');
  });

  it('a file chooser the action opened asks, naming the files and the field\'s site (port included), even after an approved action; with held requests, one question', () => {
    const chooser = { files: ['taxes.txt', 'id.png'], url: 'https://uploads.other.example:8443/form' };
    expect(afterActionHit({ url: 'https://shop.example/cart', downloads: [], chooser }, { ...at, approved: 'password' }, DEFAULT_GUARDS))
      .toEqual({ id: 'password', reason: 'the page at other.example:8443 opened a file chooser and would get "taxes.txt", "id.png" from the files you attached; it gets them only if you allow it' });
    const requests = [{ requestId: 'q', tabId: 3, url: 'https://evil.example/u', method: 'POST', rule: 'password' as const, reason: 'the page is sending a request to evil.example', what: 'POST evil.example/u', at: 1 }];
    expect(afterActionHit({ url: 'https://shop.example/cart', downloads: [], chooser, requests }, at, DEFAULT_GUARDS)?.reason)
      .toBe('the page at other.example:8443 opened a file chooser and would get "taxes.txt", "id.png" from the files you attached; it gets them only if you allow it; the page is sending a request to evil.example');
    // the password rule (the person's own data) off, or always allowed on the task's site: nobody is asked
    const off: GuardSettings = { ...DEFAULT_GUARDS, rules: DEFAULT_GUARDS.rules.map((r) => (r.id === 'password' ? { ...r, on: false } : r)) };
    expect(afterActionHit({ url: 'https://shop.example/cart', downloads: [], chooser }, at, off)).toBeNull();
    expect(afterActionHit({ url: 'https://shop.example/cart', downloads: [], chooser }, at, { ...DEFAULT_GUARDS, allow: { 'shop.example': ['password'] } })).toBeNull();
  });

  it('not again when the person approved leaving before the action, nor for the person\'s apps or a site allowed', () => {
    expect(afterActionHit({ url: 'https://evil.example/', downloads: [] }, { ...at, approved: 'leave-site' }, DEFAULT_GUARDS)).toBeNull();
    expect(afterActionHit({ url: 'https://evil.example/', downloads: [] }, { ...at, approved: 'payment' }, DEFAULT_GUARDS)?.id).toBe('leave-site');
    expect(afterActionHit({ url: 'https://mail.evil.example/', downloads: [] }, { ...at, apps: [{ url: 'https://evil.example/' }] }, DEFAULT_GUARDS)).toBeNull();
    expect(afterActionHit({ url: 'https://evil.example/', downloads: [] }, at, { ...DEFAULT_GUARDS, allow: { 'shop.example': ['leave-site'] } })).toBeNull();
  });
});

const marks: Mark[] = [{ label: 0, tag: 'button', text: 'Continue', rect: { x: 0, y: 0, width: 80, height: 30 } }];
const obs = (url: string) => observation({ url, marks });

/** A run in auto mode whose click ran (input done): waiting for 'acted'. */
function clicked(guards: GuardSettings = DEFAULT_GUARDS): RunState {
  let s = createRun({ id: 'r', task: 't', startUrl: 'https://shop.example/', tabId: 3, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 9, at: 0, guards });
  s = reduce(s, { type: 'observed', at: 10, obs: obs('https://shop.example/cart'), ms: 5 });
  s = reduce(s, { type: 'replied', at: 20, raw: 'Thought: go\nAction: Click [0]\nMemory_Updated: {}', reasoning: null, usage: null, ms: 5 });
  s = reduce(s, { type: 'checked', at: 21, hit: null });
  s = reduce(s, { type: 'acting', at: 22 });
  return reduce(s, { type: 'input', at: 23, result: { ok: true } });
}

describe('the run pauses after an action that left the site or began a download', () => {
  it('left the site: the person is asked (Keep / Undo); a refusal goes back, and the model and the trace say so', () => {
    let s = reduce(clicked(), { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed: { url: 'https://evil.example/x', downloads: [] } });
    expect(s.phase).toBe('approve');
    expect(s.steps).toHaveLength(0);
    expect(effectOf(s)).toEqual({ kind: 'wait' });
    expect(toRunView(s).pending?.approval).toMatchObject({ rule: 'leave-site', after: true, reason: 'after this action the page left shop.example for evil.example' });
    // an edit makes no sense for an action that ran
    const edit: Action = { type: 'wait' };
    expect(reduce(s, { type: 'approve', at: 31, edit })).toBe(s);
    s = reduce(s, { type: 'reject', at: 32, feedback: 'stay here' });
    expect(effectOf(s)).toMatchObject({ kind: 'after', before: 'https://shop.example/cart', after: { rule: 'leave-site', decision: 'rejected', feedback: 'stay here' } });
    s = reduce(s, { type: 'resolved', at: 40, outcome: 'The page went to https://evil.example/x, another site than the task\'s; the user did not allow it, so the browser went back to https://shop.example/cart.' });
    expect(s.phase).toBe('observe');
    const step = s.steps[0];
    expect(step.approval).toEqual({ decision: 'auto', feedback: null }); // the click itself was not asked about
    expect(step.result).toEqual({ ok: false, error: 'The page went to https://evil.example/x, another site than the task\'s; the user did not allow it, so the browser went back to https://shop.example/cart. The user said: stay here' });
    expect(step.observation).toBe(step.result.ok ? '' : step.result.error);
    expect(step.timings.actMs).toBe(8);
    const traced = toTrace(s, []).steps[0];
    expect(traced.afterAction).toEqual({ rule: 'leave-site', reason: 'after this action the page left shop.example for evil.example', url: 'https://evil.example/x', downloads: [], decision: 'rejected', feedback: 'stay here', outcome: expect.stringContaining('went back') });
    expect(fromTrace(toTrace(s, [])).steps[0].afterAction).toEqual(step.afterAction);
  });

  it('a download, approved: kept, and the model is told; "always allow" adds the site', () => {
    let s = reduce(clicked(), { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed: { url: 'https://shop.example/cart', downloads: [{ id: 5, url: 'https://shop.example/f', filename: 'f.csv' }] } });
    expect(toRunView(s).pending?.approval).toMatchObject({ rule: 'download', after: true });
    s = reduce(s, { type: 'approve', at: 31, allowRule: true });
    expect(s.guards.allow['shop.example']).toEqual(['download']);
    expect(effectOf(s)).toMatchObject({ kind: 'after', after: { decision: 'approved', downloads: [{ id: 5 }] } });
    s = reduce(s, { type: 'resolved', at: 40, outcome: 'The browser began downloading "f.csv"; the download was kept.' });
    expect(s.steps[0].result).toEqual({ ok: true, note: 'The browser began downloading "f.csv"; the download was kept.' });
    expect(s.steps[0].observation).toBe('Success. The browser began downloading "f.csv"; the download was kept.');
    expect(s.steps[0].afterAction?.decision).toBe('approved');
  });

  it('a download nobody needs to be asked about (rule off): kept without a pause, still told and recorded', () => {
    const off: GuardSettings = { ...DEFAULT_GUARDS, rules: DEFAULT_GUARDS.rules.map((r) => (r.id === 'download' ? { ...r, on: false } : r)) };
    let s = reduce(clicked(off), { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed: { url: 'https://shop.example/cart', downloads: [{ id: 6, url: 'https://shop.example/g', filename: 'g.zip' }] } });
    expect(s.phase).toBe('act');
    expect(effectOf(s)).toMatchObject({ kind: 'after', after: { rule: null, decision: 'auto' } });
    s = reduce(s, { type: 'resolved', at: 40, outcome: 'The browser began downloading "g.zip"; the download was kept.' });
    expect(s.steps[0].afterAction).toMatchObject({ rule: null, decision: 'auto' });
  });

  it('a file chooser: asked; a no leaves the field empty and the action counts as not done; with the rule off the files are given unasked', () => {
    const landed = { url: 'https://shop.example/cart', downloads: [], chooser: { files: ['taxes.txt'], url: 'https://shop.example/cart' } };
    let s = reduce(clicked(), { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed });
    expect(toRunView(s).pending?.approval).toMatchObject({ rule: 'password', after: true, reason: expect.stringContaining('"taxes.txt"') });
    s = reduce(s, { type: 'reject', at: 31, feedback: null });
    expect(effectOf(s)).toMatchObject({ kind: 'after', after: { decision: 'rejected', chooser: { files: ['taxes.txt'] } } });
    s = reduce(s, { type: 'resolved', at: 40, outcome: 'This opened a file chooser on shop.example; the user did not allow giving it "taxes.txt", so no file was chosen.' });
    expect(s.steps[0].result).toMatchObject({ ok: false, error: expect.stringContaining('did not allow giving it "taxes.txt"') });
    expect(toTrace(s, []).steps[0].afterAction).toMatchObject({ rule: 'password', chooser: { files: ['taxes.txt'], url: 'https://shop.example/cart' }, decision: 'rejected' });

    const off: GuardSettings = { ...DEFAULT_GUARDS, rules: DEFAULT_GUARDS.rules.map((r) => (r.id === 'password' ? { ...r, on: false } : r)) };
    const auto = reduce(clicked(off), { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed });
    expect(auto.phase).toBe('act');
    expect(effectOf(auto)).toMatchObject({ kind: 'after', after: { rule: null, decision: 'auto', chooser: { files: ['taxes.txt'] } } });
  });

  it('nothing to look at (same site, no download, or an older worker without `landed`): the step ends as before', () => {
    const same = reduce(clicked(), { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed: { url: 'https://shop.example/next', downloads: [] } });
    expect(same.steps[0]).toMatchObject({ result: { ok: true }, observation: 'Success' });
    expect(same.steps[0].afterAction).toBeUndefined();
    const old = reduce(clicked(), { type: 'acted', at: 30, result: { ok: true }, ms: 8 });
    expect(old.steps[0].observation).toBe('Success');
    expect(toTrace(old, []).steps[0]).not.toHaveProperty('afterAction');
  });

  it('a leave approved before the action is not asked again after it', () => {
    let s = createRun({ id: 'r', task: 't', startUrl: 'https://shop.example/', tabId: 3, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 9, at: 0 });
    s = reduce(s, { type: 'observed', at: 10, obs: obs('https://shop.example/cart'), ms: 5 });
    s = reduce(s, { type: 'replied', at: 20, raw: 'Thought: go\nAction: Click [0]\nMemory_Updated: {}', reasoning: null, usage: null, ms: 5 });
    s = reduce(s, { type: 'checked', at: 21, hit: { id: 'leave-site', reason: 'this leaves shop.example for evil.example' } });
    s = reduce(s, { type: 'approve', at: 22 });
    s = reduce(s, { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed: { url: 'https://evil.example/', downloads: [] } });
    expect(s.steps[0]).toMatchObject({ approval: { decision: 'approved' }, observation: 'Success' });
  });

  it('a take-over while asked ends the step as it is, and the run waits for the person', () => {
    let s = reduce(clicked(), { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed: { url: 'https://evil.example/x', downloads: [] } });
    s = reduce(s, { type: 'takeover', at: 35, url: 'https://evil.example/x' });
    expect(s.paused?.kind).toBe('takeover');
    expect(s.steps[0].afterAction).toMatchObject({ decision: 'takeover' });
    expect(s.steps[0].observation).toBe('Success. The user took over the browser before deciding whether to keep what this action did.');
  });
});

describe('a run stopped or failed while an action had run keeps its step (a trace never loses an action that ran)', () => {
  const download = { url: 'https://shop.example/cart', downloads: [{ id: 5, url: 'https://shop.example/f', filename: 'f.csv' }] };

  it('stopped while "keep what it did?" waits: the step is recorded as stopped before the answer', () => {
    const asked = reduce(clicked(), { type: 'acted', at: 30, result: { ok: true }, ms: 8, landed: download });
    expect(asked.phase).toBe('approve');
    const s = reduce(asked, { type: 'stop', at: 40, reason: 'Stopped by the user.' });
    expect(s.status).toBe('stopped');
    expect(s.steps).toHaveLength(1);
    expect(s.steps[0]).toMatchObject({ actionText: 'Click [0]', afterAction: { rule: 'download', decision: 'stopped' }, timings: { actMs: 8 } });
    expect(s.steps[0].observation).toBe('Success. The run stopped before the user decided whether to keep what this action did: the downloads it began were removed.');
    const traced = toTrace(s, []);
    expect(traced.steps).toHaveLength(1);
    expect(fromTrace(traced).steps[0].afterAction?.decision).toBe('stopped');
  });

  it('failed after the input and before the page settled: recorded with the input\'s result', () => {
    const s = reduce(clicked(), { type: 'fail', at: 40, reason: 'Could not control the tab: gone', cause: 'tab' });
    expect(s.status).toBe('failed');
    expect(s.steps).toHaveLength(1);
    expect(s.steps[0].result).toEqual({ ok: true });
  });

  it('stopped after the input began and before it was given: recorded as maybe done; before it began: nothing to record', () => {
    const inputGiven = clicked();
    const started = { ...inputGiven, pending: { ...inputGiven.pending!, inputResult: undefined } };
    const s = reduce(started, { type: 'stop', at: 40, reason: 'Stopped by the user.' });
    expect(s.steps[0].result).toEqual({ ok: false, error: 'The run stopped while this action was being done: it may have happened.' });
    const notStarted = { ...started, pending: { ...started.pending, actStartedAt: undefined } };
    expect(reduce(notStarted, { type: 'stop', at: 40, reason: 'Stopped by the user.' }).steps).toHaveLength(0);
  });
});
