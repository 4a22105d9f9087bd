import { describe, expect, it } from 'vitest';
import { createRun, effectOf, modelText, joinSecret, PASSWORD_MASK, reduce, splitSecret, upgradeRun, type RunState } from '../../src/core/run';
import { toTrace } from '../../src/core/trace';
import { toRunView } from '../../src/core/run/view';
import { glmWeb } from '../../src/core/dialects/glm-web';
import type { Mark } from '../../src/core/marks';
import { newRun, observation, reply } from '../fixtures/run';

const SHOT = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } };

const marks: Mark[] = [
  { label: 0, tag: 'input', text: 'Search', rect: { x: 10, y: 10, width: 200, height: 30 } },
  { label: 1, tag: 'button', text: 'Go', rect: { x: 220, y: 10, width: 50, height: 30 } },
  { label: 2, tag: 'input', text: 'Password', rect: { x: 10, y: 50, width: 200, height: 30 }, inputType: 'password' },
];

const obs = (url?: string) => observation({ url, marks });

const fresh = (approveSteps = false) => newRun({ task: 'buy it', maxSteps: 5, approveSteps });

/** observe + reply: the run is then in phase act (unchecked) or approve (an answer in step mode). */
function proposed(s: RunState, action: string): RunState {
  s = reduce(s, { type: 'observed', at: 2000, obs: obs(), ms: 10 });
  return reduce(s, reply(`Thought: t\nAction: ${action}\nMemory_Updated: {"n": 1}`));
}

describe('step approval', () => {
  it('in step mode the run waits after the check, then acts once approved', () => {
    let s = proposed(fresh(true), 'Click [1]');
    expect(effectOf(s).kind).toBe('check');
    s = reduce(s, { type: 'checked', at: 3001, hit: null });
    expect(s.phase).toBe('approve');
    expect(effectOf(s)).toEqual({ kind: 'wait' });
    expect(toRunView(s).pending?.approval).toMatchObject({ rule: null, reason: null, target: { tag: 'button', text: 'Go', rect: marks[1].rect } });
    s = reduce(s, { type: 'approve', at: 3002 });
    expect(effectOf(s)).toMatchObject({ kind: 'act', action: { type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 } });
    s = reduce(s, { type: 'acted', at: 3100, result: { ok: true }, ms: 50 });
    expect(s.steps[0].approval).toEqual({ decision: 'approved', feedback: null });
    expect(toTrace(s, []).steps[0].approval).toEqual({ decision: 'approved', feedback: null });
  });

  it('auto mode without a guard acts at once and records "auto"', () => {
    let s = reduce(proposed(fresh(false), 'Click [1]'), { type: 'checked', at: 3001, hit: null });
    expect(s.phase).toBe('act');
    s = reduce(s, { type: 'acted', at: 3100, result: { ok: true }, ms: 50 });
    expect(s.steps[0].approval).toEqual({ decision: 'auto', feedback: null });
  });

  it('a guard stops auto mode with its reason; "always allow" adds the site', () => {
    let s = reduce(proposed(fresh(false), 'Type [2]; [hunter2]'), { type: 'checked', at: 3001, hit: { id: 'password', reason: 'this types into a password field' } });
    expect(s.phase).toBe('approve');
    expect(toRunView(s).pending?.approval).toMatchObject({ rule: 'password', reason: 'this types into a password field' });
    s = reduce(s, { type: 'approve', at: 3002, allowRule: true });
    expect(s.guards.allow['shop.example']).toEqual(['password']);
    expect(effectOf(s)).toMatchObject({ kind: 'act', action: { type: 'type', text: 'hunter2' } });
  });

  it('an edited action replaces the proposal; an unknown label is refused', () => {
    let s = reduce(proposed(fresh(true), 'Click [1]'), { type: 'checked', at: 3001, hit: null });
    const bad = glmWeb.parseAction('Click [9]', SHOT);
    expect(bad.ok).toBe(true);
    if (bad.ok) expect(reduce(s, { type: 'approve', at: 3002, edit: bad.action })).toBe(s);
    expect(glmWeb.parseAction('Klick it', SHOT).ok).toBe(false);
    const good = glmWeb.parseAction('Type [0]; [red shoes]', SHOT);
    if (!good.ok) throw new Error(good.error);
    s = reduce(s, { type: 'approve', at: 3002, edit: good.action });
    expect(effectOf(s)).toMatchObject({ kind: 'act', action: { type: 'type', target: { kind: 'label', label: 0 }, text: 'red shoes', clear: true, enter: true } });
    s = reduce(s, { type: 'acted', at: 3100, result: { ok: true }, ms: 50 });
    expect(s.steps[0]).toMatchObject({ actionText: 'Type [0]; [red shoes]', approval: { decision: 'edited', feedback: null } });
  });

  it('an edited action into a password field is masked like a model one', () => {
    let s = reduce(proposed(fresh(true), 'Click [1]'), { type: 'checked', at: 3001, hit: null });
    const edit = glmWeb.parseAction('Type [2]; [s3cret-pw]', SHOT);
    if (!edit.ok) throw new Error(edit.error);
    s = reduce(s, { type: 'approve', at: 3002, edit: edit.action });
    expect(effectOf(s)).toMatchObject({ kind: 'act', action: { text: 's3cret-pw' } });
    expect(JSON.stringify(splitSecret(s).state)).not.toContain('s3cret-pw');
    s = reduce(s, { type: 'acted', at: 3100, result: { ok: true }, ms: 50 });
    // Only the run's vault (memory-only storage) keeps it, to mask it later.
    expect(JSON.stringify(splitSecret(s).state)).not.toContain('s3cret-pw');
    expect(splitSecret(s).vault?.typed).toEqual(['s3cret-pw']);
    expect(JSON.stringify({ ...s, vault: undefined })).not.toContain('s3cret-pw');
  });

  it('rejecting records the feedback as the observation the model reads next', () => {
    let s = reduce(proposed(fresh(true), 'Click [1]'), { type: 'checked', at: 3001, hit: null });
    s = reduce(s, { type: 'reject', at: 3002, feedback: 'Use the search box instead' });
    expect(s.phase).toBe('observe');
    expect(s.steps[0]).toMatchObject({ result: { ok: false }, approval: { decision: 'rejected', feedback: 'Use the search box instead' } });
    s = reduce(s, { type: 'observed', at: 4000, obs: obs(), ms: 10 });
    expect(s.pending?.promptText).toContain('Observation:The user rejected this action and said: Use the search box instead');
  });

  it('in step mode an answer waits for approval too, and can be rejected', () => {
    let s = proposed(fresh(true), 'ANSWER; <content>42</content>');
    expect(s.phase).toBe('approve');
    const rejected = reduce(s, { type: 'reject', at: 3002, feedback: 'Check the second page' });
    expect(rejected.status).toBe('running');
    s = reduce(s, { type: 'approve', at: 3002 });
    expect(s).toMatchObject({ status: 'finished', answer: '42' });
  });
});

describe('pause, take over, resume', () => {
  it('pause waits before anything new; resume continues the same step', () => {
    let s = reduce(fresh(), { type: 'observed', at: 2000, obs: obs(), ms: 10 });
    s = reduce(s, { type: 'pause', at: 2100, url: 'https://shop.example/a' });
    expect(effectOf(s)).toEqual({ kind: 'wait' });
    // The reply in flight is still recorded, but nothing runs.
    s = reduce(s, reply('Thought: t\nAction: Click [1]'));
    expect(effectOf(s)).toEqual({ kind: 'wait' });
    s = reduce(s, { type: 'resume', at: 4000, url: 'https://shop.example/a' });
    expect(effectOf(s).kind).toBe('check');
    expect(s.steps).toHaveLength(0);
  });

  it('take-over records an unrun proposal as not run; resume adds a step saying the person acted', () => {
    let s = reduce(proposed(fresh(), 'Click [1]'), { type: 'checked', at: 3001, hit: null });
    s = reduce(s, { type: 'takeover', at: 3500, url: 'https://shop.example/a' });
    expect(s.steps[0]).toMatchObject({ result: { ok: false }, approval: { decision: 'rejected' } });
    expect(effectOf(s)).toEqual({ kind: 'wait' });
    s = reduce(s, { type: 'resume', at: 9000, url: 'https://shop.example/cart' });
    expect(s.steps[1]).toMatchObject({ kind: 'person', url: 'https://shop.example/cart' });
    expect(s.steps[1].observation).toContain('page before: https://shop.example/a; page now: https://shop.example/cart');
    s = reduce(s, { type: 'observed', at: 9100, obs: obs(), ms: 10 });
    expect(s.pending?.promptText).toContain('1.Thought:\tAction:The user took over the browser\tObservation:The user took over');
    expect(toTrace(s, []).steps[1]).toMatchObject({ action: { type: 'takeover' }, approval: null });
  });

  it('take-over while the model is asked drops the step (its screenshot is stale); its late reply is ignored', () => {
    let s = reduce(fresh(), { type: 'observed', at: 2000, obs: obs(), ms: 10 });
    s = reduce(s, { type: 'takeover', at: 2500, url: 'https://shop.example/a' });
    expect(s.pending).toBeNull();
    const late = reduce(s, reply('Action: Click [1]'));
    expect(late).toBe(s);
    s = reduce(s, { type: 'resume', at: 4000, url: 'https://shop.example/a' });
    expect(s.steps[0].observation).toContain('still on https://shop.example/a');
    expect(effectOf(s)).toEqual({ kind: 'observe' });
  });

  it('person steps do not count against max steps', () => {
    let s = createRun({ id: 'r', task: 't', startUrl: 'https://a.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 1, at: 0 });
    s = reduce(s, { type: 'takeover', at: 1, url: 'https://a.example/' });
    s = reduce(s, { type: 'resume', at: 2, url: 'https://a.example/' });
    expect(s.status).toBe('running');
  });
});

describe('restart safety', () => {
  it('acting, input and acted are separate writes; a restart mid-input knows it', () => {
    let s = reduce(proposed(fresh(), 'Click [1]'), { type: 'checked', at: 3001, hit: null });
    s = reduce(s, { type: 'acting', at: 3002 });
    expect(s.pending?.actStartedAt).toBe(3002);
    expect(s.pending?.inputResult).toBeUndefined();
    // A worker restarted now finishes the step with { ok: false, error: modelText.inputUnknown } instead of clicking again.
    const finished = reduce(s, { type: 'acted', at: 3200, result: { ok: false, error: modelText.inputUnknown }, ms: 198 });
    expect(finished.steps[0].observation).toContain('may or may not have taken effect');
    s = reduce(s, { type: 'input', at: 3003, result: { ok: true } });
    expect(s.pending?.inputResult).toEqual({ ok: true });
    expect(reduce(s, { type: 'input', at: 3004, result: { ok: false, error: 'x' } })).toBe(s);
  });

  it('the password text of a pending action never goes to the database, and comes back from the session', () => {
    const s = reduce(proposed(fresh(), 'Type [2]; [hunter2]'), { type: 'checked', at: 3001, hit: null });
    const { state: stored, secret } = splitSecret(s);
    expect(secret).toBe('hunter2');
    expect(JSON.stringify(stored)).not.toContain('hunter2');
    expect(effectOf(joinSecret(stored, secret))).toMatchObject({ kind: 'act', action: { text: 'hunter2' } });
    // The session is gone (browser restart): the step is asked again rather than typing the mask.
    const lost = joinSecret(stored, null);
    expect(lost.phase).toBe('model');
    expect(lost.pending?.reply).toBeUndefined();
    expect(JSON.stringify(effectOf(lost))).not.toContain(PASSWORD_MASK);
  });

  it('a field the password guard knows by its attributes (a shown password, a one-time code) is masked like a password field', () => {
    // mark 1 is a button to this reducer: only the guard (guards/fields.ts) knows the field is a password
    const s = reduce(proposed(fresh(), 'Type [1]; [s3cret-otp]'), { type: 'checked', at: 3001, hit: { id: 'password', reason: 'a one-time code' } });
    expect(s.pending?.reply?.secret).toBe(true);
    expect(s.pending?.reply?.actionText).not.toContain('s3cret-otp');
    const { state: stored, secret } = splitSecret(s);
    expect(secret).toBe('s3cret-otp');
    expect(JSON.stringify(stored)).not.toContain('s3cret-otp');
    // any other guard leaves the text as it is
    const other = reduce(proposed(fresh(), 'Type [1]; [hello there]'), { type: 'checked', at: 3001, hit: { id: 'send', reason: 'sends' } });
    expect(other.pending?.reply?.secret).toBe(false);
  });

  it('a run saved by an older version gets the new fields', () => {
    const old = { ...fresh() } as Partial<RunState>;
    delete old.guards; delete old.paused; delete old.approveSteps;
    const up = upgradeRun(old as RunState);
    expect(up).toMatchObject({ approveSteps: false, paused: null });
    expect(up.guards.rules.map((r) => r.id)).toContain('password');
  });
});

describe('pages the agent may work on', () => {
  it('web pages yes; browser pages and the Web Store no, with the reason', async () => {
    const { whyNotAllowed } = await import('../../src/core/pages');
    expect(whyNotAllowed('https://shop.example/a?b=1')).toBeNull();
    expect(whyNotAllowed('http://127.0.0.1:8080/')).toBeNull();
    expect(whyNotAllowed('chrome://settings/')).toContain('chrome://settings');
    expect(whyNotAllowed('https://chromewebstore.google.com/detail/x')).toContain('Chrome Web Store');
    expect(whyNotAllowed('https://chrome.google.com/webstore/category/extensions')).toContain('Chrome Web Store');
    expect(whyNotAllowed('https://chrome.google.com/search')).toBeNull();
    expect(whyNotAllowed('file:///etc/passwd')).toContain('file:');
    expect(whyNotAllowed('')).toContain('not a web page');
  });
});

describe('guards on typing', () => {
  it('typing into a message or comment box trips "send"; a search box does not', async () => {
    const { guardCheck, DEFAULT_GUARDS } = await import('../../src/core/guards');
    const ctx = { site: 'https://chat.example/', searchStartPage: 'https://www.bing.com/' };
    const type = { type: 'type' as const, target: { kind: 'label' as const, label: 0 }, text: 'hello', clear: true, enter: true };
    expect(guardCheck(type, { tag: 'textarea', text: 'Message #design' }, ctx, DEFAULT_GUARDS)?.id).toBe('send');
    expect(guardCheck(type, { tag: 'div', text: 'Write a comment' }, ctx, DEFAULT_GUARDS)?.id).toBe('send');
    expect(guardCheck(type, { tag: 'input', text: 'Search messages' }, ctx, DEFAULT_GUARDS)).toBeNull();
    expect(guardCheck(type, { tag: 'input', text: 'Messenger username' }, ctx, DEFAULT_GUARDS)).toBeNull();
    // Typing without Enter (glm-pc's type) sends nothing; Enter pressed in the message box does.
    expect(guardCheck({ ...type, enter: false }, { tag: 'textarea', text: 'Message #design' }, ctx, DEFAULT_GUARDS)).toBeNull();
    expect(guardCheck({ type: 'key', keys: 'Enter' }, { tag: 'textarea', text: 'Message #design' }, ctx, DEFAULT_GUARDS)?.id).toBe('send');
  });

  it('leaving the site: navigate and open_app count; the person\'s apps are the task\'s own sites', async () => {
    const { guardCheck, DEFAULT_GUARDS } = await import('../../src/core/guards');
    const apps = [{ name: 'Mail', url: 'https://mail.example/' }];
    const ctx = { site: 'https://shop.example/', searchStartPage: 'https://www.bing.com/', apps };
    expect(guardCheck({ type: 'navigate', url: 'https://evil.example/x' }, null, ctx, DEFAULT_GUARDS)?.id).toBe('leave-site');
    expect(guardCheck({ type: 'navigate', url: 'https://www.shop.example/x' }, null, ctx, DEFAULT_GUARDS)).toBeNull();
    expect(guardCheck({ type: 'openApp', name: 'mail' }, null, ctx, DEFAULT_GUARDS)).toBeNull();
    expect(guardCheck({ type: 'navigate', url: 'https://mail.example/inbox' }, null, ctx, DEFAULT_GUARDS)).toBeNull();
    expect(guardCheck({ type: 'openApp', name: 'Mail' }, null, { ...ctx, apps: [{ name: 'Mail', url: 'https://other.example/' }], site: 'https://shop.example/' }, DEFAULT_GUARDS)).toBeNull();
  });
});
