/**
 * A person steers a run through the side panel (opened as a tab): step approval (Approve, Edit,
 * Reject with feedback, the `a` / `r` shortcuts), Stop while an action waits and while the model
 * is answering, Pause / Resume, Take over / Resume, a guard tripping in auto mode with "Always
 * allow", and the guard settings. Fixture pages: test/fixtures/pages/control/ (every button
 * reports to the test server, site.events). Models are hand-written fake-server policies; a
 * gate holds a reply back where a test needs the run to be in the middle of asking.
 */
import { test, expect } from './fixtures';
import type { Page } from 'playwright-core';
import { openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type ModelReply, type RecordedRequest } from '../fixtures/model/server';
import { overlayLabels, serveFixtures, panelSend } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Settings } from '../../src/core/settings';
import type { Trace } from '../../src/core/trace';

const KEY = 'sk-approval-7a8b9c0d1e';
let site: StaticServer;
let browser: Launched;
/** the web page the agent works in */
let page: Page;
let panel: Page;
const models: FakeModel[] = [];
/** gates still closed at the end of a test (a held reply must not keep the server open) */
const gates: (() => void)[] = [];

test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); });
test.beforeEach(async ({ warm }) => {
  site.events.length = 0;
  browser = warm;
  page = await browser.context.newPage();
  await page.goto(`${site.url}control/index.html`);
  panel = await openPanel(browser);
});
test.afterEach(async () => {
  for (const open of gates.splice(0)) open();
  for (const m of models.splice(0)) await m.close();
});

/** A reply the gate holds back until the test opens it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((r) => { open = r; });
  gates.push(open);
  return { wait, open };
}

function reply(thought: string, action: string): ModelReply {
  return { content: `Thought: ${thought}\nAction: ${action}\nMemory_Updated: {}` };
}

/** The label the model sees for the element whose text matches. */
function labelIn(q: RecordedRequest | undefined, re: RegExp): number {
  const l = q?.prompt?.elements.find((e) => re.test(e.text))?.label;
  if (l === undefined) throw new Error(`no element matching ${re} in the prompt`);
  return l;
}

async function fakeModel(policy: (q: RecordedRequest, n: number) => ModelReply | Promise<ModelReply>): Promise<FakeModel> {
  const m = await startFakeModel({ apiKey: KEY, policy });
  models.push(m);
  return m;
}

function send<T>(type: string, payload: unknown): Promise<T> {
  return panelSend<T>(panel, type, payload);
}

async function currentRun(): Promise<RunView> {
  const r = await send<RunView | null>('run/get', {});
  if (!r) throw new Error('no run');
  return r;
}

async function openSettings(p: Page) {
  await p.locator('summary', { hasText: 'Settings' }).first().evaluate((el) => { (el.parentElement as HTMLDetailsElement).open = true; });
}

/** Settings through the form, the step-approval switch, the task, Start. */
async function startRun(m: FakeModel, opts: { approveSteps: boolean; task?: string }) {
  await openSettings(panel);
  await panel.getByTestId('setting-baseUrl').fill(m.baseUrl);
  await panel.getByTestId('setting-apiKey').fill(KEY);
  await panel.getByTestId('setting-model').fill('glm-4.5v');
  await panel.getByTestId('save-settings').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved.');
  const box = panel.getByTestId('approve-steps');
  if (opts.approveSteps) await box.check();
  else await box.uncheck();
  await expect.poll(async () => (await send<Settings>('settings/get', {})).approveSteps, { message: 'the switch is saved' }).toBe(opts.approveSteps);
  await panel.getByTestId('task').fill(opts.task ?? 'Work in the control room');
  await panel.getByTestId('start').click();
}

function events(type: string) {
  return site.events.filter((e) => e.type === type);
}

/** The labels drawn on the live page (null: no overlay). */
function pageLabels(): Promise<string[] | null> {
  return overlayLabels(page);
}

/** Where a shortcut key goes: the page, not a text field. */
async function blur() {
  await panel.evaluate(() => { (document.activeElement as HTMLElement | null)?.blur(); });
}

test('step approval: the card shows the action in words, the thought and the target; Approve and the `a` key run it', async () => {
  const model = await fakeModel((q, n) => [
    () => reply('I will like the page.', `Click [${labelIn(q, /^Like$/)}]`),
    () => reply('Now bookmark it.', `Click [${labelIn(q, /^Bookmark$/)}]`),
    () => reply('Both done.', 'ANSWER; <content>liked and bookmarked</content>'),
  ][Math.min(n, 2)]());
  await startRun(model, { approveSteps: true });

  const card = panel.getByTestId('approval');
  await expect(card).toBeVisible({ timeout: 30_000 });
  const like = labelIn(model.requests[0], /^Like$/);
  await expect(card.getByTestId('approval-action')).toHaveText(`Click [${like}] <button> "Like"`);
  await expect(card.getByTestId('approval-thought')).toHaveText('I will like the page.');
  await expect(card.getByTestId('approval-reason')).toHaveCount(0); // step approval, no guard
  await expect(card.getByTestId('always-allow')).toHaveCount(0);
  await expect(card.getByTestId('approve').locator('kbd')).toHaveText('a');
  await expect(card.getByTestId('reject').locator('kbd')).toHaveText('r');
  // Nothing ran yet, and the live page shows only the target's label.
  expect(events('like')).toHaveLength(0);
  await expect.poll(pageLabels).toEqual([String(like)]);

  // The highlight on the screenshot sits where the Like button is, scaled by image width / viewport width.
  const run = await currentRun();
  const target = run.pending!.approval!.target!;
  const vw = run.pending!.approval!.viewport.width;
  const pageRect = await page.locator('#like').evaluate((el) => el.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number });
  expect(Math.abs(target.rect.x - pageRect.x)).toBeLessThan(2);
  expect(Math.abs(target.rect.y - pageRect.y)).toBeLessThan(2);
  // First the part of the page around the target, at the page's own size (1 CSS px = 1 px), the
  // target in the visible frame; then the whole page scaled into the card, the box still on it.
  const frame = (await card.locator('.shot-crop').boundingBox())!;
  for (const view of ['around', 'whole'] as const) {
    if (view === 'whole') await card.getByTestId('approval-whole').click();
    const img = (await card.locator('.shot img').boundingBox())!;
    await expect(card.getByTestId('approval-target')).toBeVisible();
    const box = (await card.getByTestId('approval-target').boundingBox())!;
    const k = img.width / vw;
    if (view === 'around') {
      expect(Math.abs(k - 1)).toBeLessThan(0.01);
      expect(box.x).toBeGreaterThanOrEqual(frame.x);
      expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width);
      expect(box.y).toBeGreaterThanOrEqual(frame.y);
      expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height);
    } else {
      expect(img.width).toBeLessThanOrEqual((await card.boundingBox())!.width);
    }
    expect(Math.abs(box.x - img.x - target.rect.x * k)).toBeLessThan(1.5);
    expect(Math.abs(box.y - img.y - target.rect.y * k)).toBeLessThan(1.5);
    expect(Math.abs(box.width - target.rect.width * k)).toBeLessThan(1.5);
    expect(Math.abs(box.height - target.rect.height * k)).toBeLessThan(1.5);
  }

  await card.getByTestId('approve').click();
  await expect.poll(() => events('like').length, { message: 'the approved click happened' }).toBe(1);

  // The next step waits again; the `a` key approves it.
  await expect(panel.getByTestId('approval-action')).toContainText('"Bookmark"', { timeout: 30_000 });
  expect(events('bookmark')).toHaveLength(0);
  await blur();
  await panel.keyboard.press('a');
  await expect.poll(() => events('bookmark').length, { message: 'the `a` key approved the click' }).toBe(1);

  // In step-approval mode the answer waits too.
  await expect(panel.getByTestId('approval-action')).toHaveText('ANSWER; <content>liked and bookmarked</content>', { timeout: 30_000 });
  await blur();
  await panel.keyboard.press('a');
  await expect(panel.getByTestId('answer')).toContainText('liked and bookmarked');
  await expect(panel.getByTestId('approval')).toHaveCount(0);
  await expect(panel.getByTestId('step').getByTestId('approval-tag')).toHaveText(['approved', 'approved', 'approved']);
  expect(events('like')).toHaveLength(1);

  const trace = await send<Trace>('run/trace', { runId: run.id });
  expect(trace.steps.map((s) => s.approval)).toEqual([
    { decision: 'approved', feedback: null }, { decision: 'approved', feedback: null }, { decision: 'approved', feedback: null },
  ]);
  expect(model.violations()).toEqual([]);
});

test('Edit: an unreadable action or an unknown label shows the error and nothing runs; a valid edit runs instead; switching approval off applies to the live run', async () => {
  const answerGate = gate();
  const model = await fakeModel(async (q, n) => {
    if (n === 0) return reply('I will like the page.', `Click [${labelIn(q, /^Like$/)}]`);
    await answerGate.wait; // held until step approval is switched off
    return reply('Done.', 'ANSWER; <content>bookmarked</content>');
  });
  await startRun(model, { approveSteps: true });
  const card = panel.getByTestId('approval');
  await expect(card).toBeVisible({ timeout: 30_000 });
  const like = labelIn(model.requests[0], /^Like$/);
  const bookmark = labelIn(model.requests[0], /^Bookmark$/);

  await card.getByTestId('edit').click();
  const edit = card.getByTestId('edit-action');
  await expect(edit).toHaveValue(`Click [${like}]`);
  await edit.fill('Klick the like button');
  await card.getByTestId('apply-edit').click();
  // The error is in the card, next to the edit that caused it.
  await expect(card.getByTestId('approval-error')).toContainText('The edited action could not be read');
  await edit.fill('Click [999]');
  await card.getByTestId('apply-edit').click();
  await expect(card.getByTestId('approval-error')).toContainText('There is no element [999] on this step\'s page');
  // Still waiting; nothing ran and the model was not asked again.
  await expect(card).toBeVisible();
  expect(events('like')).toHaveLength(0);
  expect(events('bookmark')).toHaveLength(0);
  expect(model.requests).toHaveLength(1);

  await edit.fill(`Click [${bookmark}]`);
  await card.getByTestId('apply-edit').click();
  await expect.poll(() => events('bookmark').length, { message: 'the edited click happened' }).toBe(1);
  await expect(panel.getByTestId('approval-error')).toHaveCount(0);
  expect(events('like')).toHaveLength(0);

  // Step approval off while the model is answering: the answer is not held for approval.
  await expect.poll(() => model.requests.length).toBe(2);
  await panel.getByTestId('approve-steps').uncheck();
  await expect.poll(async () => (await currentRun()).approveSteps, { message: 'the live run took the switch' }).toBe(false);
  expect((await send<Settings>('settings/get', {})).approveSteps).toBe(false);
  answerGate.open();
  await expect(panel.getByTestId('answer')).toContainText('bookmarked', { timeout: 30_000 });

  const steps = panel.getByTestId('step');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0).getByTestId('approval-tag')).toHaveText('edited');
  await expect(steps.nth(0).getByTestId('action')).toHaveText(`Click [${bookmark}] <button> "Bookmark"`);
  await expect(steps.nth(1).getByTestId('approval-tag')).toHaveCount(0); // automatic: no tag
  // the thought shown is the model's, for the action it proposed: the step says the person changed it
  await expect(steps.nth(0).getByTestId('edited-note')).toHaveText('You changed the action. The model\'s thought below was for the action it proposed.');
  await expect(steps.nth(1).getByTestId('edited-note')).toHaveCount(0);
  const trace = await send<Trace>('run/trace', { runId: (await currentRun()).id });
  expect(trace.steps[0].approval).toEqual({ decision: 'edited', feedback: null });
  expect(trace.steps[0].action).toEqual({ type: 'click', target: { kind: 'label', label: bookmark }, button: 'left', count: 1 });
  expect(trace.steps[1].approval).toEqual({ decision: 'auto', feedback: null });
  // The model's history says what really ran.
  expect(model.requests[1].prompt?.history[0]).toContain(`Action:Click [${bookmark}]`);
});

test('Reject with feedback (`r`, then Enter): nothing runs and the next prompt carries the feedback', async () => {
  const model = await fakeModel((q, n) => (n === 0
    ? reply('I will like the page.', `Click [${labelIn(q, /^Like$/)}]`)
    : reply('The user wants something else.', 'ANSWER; <content>not liked</content>')));
  await startRun(model, { approveSteps: true });
  await expect(panel.getByTestId('approval')).toBeVisible({ timeout: 30_000 });

  await blur();
  await panel.keyboard.press('r');
  const feedback = panel.getByTestId('reject-feedback');
  await expect(feedback).toBeFocused();
  await expect(feedback).toHaveValue(''); // the r went to the shortcut, not into the box
  await panel.keyboard.type('Bookmark it instead');
  // Inside the box `a` is a letter, not a shortcut.
  await expect(feedback).toHaveValue('Bookmark it instead');
  await feedback.press('Enter');

  const first = panel.getByTestId('step').first();
  await expect(first.getByTestId('approval-tag')).toHaveText('rejected: Bookmark it instead', { timeout: 30_000 });
  await expect(first.getByTestId('observation')).toHaveText('The user rejected this action and said: Bookmark it instead');
  await expect.poll(() => model.requests.length).toBe(2);
  const history = model.requests[1].prompt?.history ?? [];
  expect(history).toHaveLength(1);
  expect(history[0]).toContain('Observation:The user rejected this action and said: Bookmark it instead');
  expect(events('like')).toHaveLength(0);

  // The answer waits too; approving it finishes the run.
  await expect(panel.getByTestId('approval-action')).toHaveText('ANSWER; <content>not liked</content>', { timeout: 30_000 });
  await panel.getByTestId('approve').click();
  await expect(panel.getByTestId('answer')).toContainText('not liked');
  const trace = await send<Trace>('run/trace', { runId: (await currentRun()).id });
  expect(trace.steps[0].approval).toEqual({ decision: 'rejected', feedback: 'Bookmark it instead' });
  expect(trace.steps[0].result.ok).toBe(false);
  expect(model.violations()).toEqual([]);
});

test('Stop while an action waits for approval: it never runs and the model is not asked again', async () => {
  const model = await fakeModel((q) => reply('I will like the page.', `Click [${labelIn(q, /^Like$/)}]`));
  await startRun(model, { approveSteps: true });
  await expect(panel.getByTestId('approval')).toBeVisible({ timeout: 30_000 });
  await expect.poll(pageLabels).not.toBeNull(); // the target is shown on the page
  await panel.getByTestId('approval').getByTestId('approval-stop').click();
  await expect(panel.getByTestId('stop-reason')).toHaveText('The run stopped: Stopped by the user.');
  await expect(panel.getByTestId('approval')).toHaveCount(0);
  await expect.poll(pageLabels, { message: 'the highlight is removed from the page' }).toBeNull();
  await expect(panel.getByTestId('step')).toHaveCount(0);
  expect(events('like')).toHaveLength(0);
  expect(model.requests).toHaveLength(1);
  expect((await currentRun()).status).toBe('stopped');
});

test('Stop during a slow model reply: no further request and no action', async () => {
  const held = gate();
  const model = await fakeModel(async (q) => {
    await held.wait;
    return reply('Late.', `Click [${labelIn(q, /^Like$/)}]`);
  });
  await startRun(model, { approveSteps: false });
  await expect(panel.getByTestId('pending')).toContainText('waiting for the model', { timeout: 30_000 });
  await expect.poll(() => model.requests.length).toBe(1);
  await panel.getByTestId('stop').click();
  await expect(panel.getByTestId('stop-reason')).toHaveText('The run stopped: Stopped by the user.');
  held.open();
  // Give the late reply time to arrive; it must change nothing.
  await panel.waitForTimeout(1000);
  expect(model.requests).toHaveLength(1);
  expect(events('like')).toHaveLength(0);
  await expect(panel.getByTestId('step')).toHaveCount(0);
  await expect(panel.getByTestId('pause')).toHaveCount(0); // the controls go with the run
});

test('Pause: the reply that comes in is not acted on until Resume', async () => {
  const held = gate();
  const model = await fakeModel(async (q, n) => {
    if (n === 0) {
      await held.wait;
      return reply('I will like the page.', `Click [${labelIn(q, /^Like$/)}]`);
    }
    return reply('Liked.', 'ANSWER; <content>liked</content>');
  });
  await startRun(model, { approveSteps: false });
  await expect.poll(() => model.requests.length, { timeout: 30_000 }).toBe(1);
  await expect(panel.getByTestId('resume')).toHaveCount(0); // only when paused
  await panel.getByTestId('pause').click();
  await expect(panel.getByTestId('paused-banner')).toHaveText('Paused — nothing new will start.');
  await expect(panel.getByTestId('pause')).toBeDisabled();
  held.open();
  await expect(panel.getByTestId('pending')).toContainText('paused before: Click [', { timeout: 30_000 });
  await panel.waitForTimeout(1000); // a pause that did not hold would click now
  expect(events('like')).toHaveLength(0);
  await expect(panel.getByTestId('step')).toHaveCount(0);
  expect(model.requests).toHaveLength(1);

  await panel.getByTestId('resume').click();
  await expect(panel.getByTestId('paused-banner')).toHaveCount(0);
  await expect.poll(() => events('like').length, { message: 'the click ran after Resume' }).toBe(1);
  await expect(panel.getByTestId('answer')).toContainText('liked', { timeout: 30_000 });
  await expect(panel.getByTestId('step')).toHaveCount(2);
  expect(model.violations()).toEqual([]);
});

test('Take over: nothing of ours in the page, the person acts, and on Resume the model is told with the URLs before and after', async () => {
  const held = gate();
  const model = await fakeModel(async (q, n) => {
    if (n === 0) {
      await held.wait; // the take-over cancels this question
      return reply('Late.', `Click [${labelIn(q, /^Like$/)}]`);
    }
    return reply('The user moved on.', 'ANSWER; <content>on the second page</content>');
  });
  await startRun(model, { approveSteps: false });
  await expect.poll(() => model.requests.length, { timeout: 30_000 }).toBe(1);
  // the labels are on the model's picture: the page has none while the model thinks
  expect(await pageLabels()).toBeNull();

  await panel.getByTestId('takeover').click();
  await expect(panel.getByTestId('paused-banner')).toHaveText('You have the page: the labels are removed. Press Resume when you are done; the agent will be told what you did.');
  await expect(page.locator('[data-wa-ui]')).toHaveCount(0);
  await expect(panel.getByTestId('takeover')).toBeDisabled();

  // The person uses the page.
  await page.locator('#like').click();
  await page.locator('#next').click();
  await expect(page).toHaveURL(/control\/two\.html$/);
  expect(events('like')).toHaveLength(1);
  held.open(); // the late reply changes nothing

  await panel.getByTestId('resume').click();
  const person = panel.locator('[data-testid="step"][data-kind="person"]');
  await expect(person).toHaveCount(1, { timeout: 30_000 });
  await expect(person.getByTestId('action')).toHaveText('You took over');
  const before = `${site.url}control/index.html`;
  const after = `${site.url}control/two.html`;
  await expect(person.getByTestId('observation')).toContainText(`page before: ${before}; page now: ${after}`);

  await expect(panel.getByTestId('answer')).toContainText('on the second page', { timeout: 30_000 });
  expect(model.requests).toHaveLength(2);
  const history = model.requests[1].prompt?.history ?? [];
  expect(history).toHaveLength(1);
  expect(history[0]).toContain('The user took over');
  expect(history[0]).toContain(before);
  expect(history[0]).toContain(after);
  expect(events('like')).toHaveLength(1); // only the person's click
  const trace = await send<Trace>('run/trace', { runId: (await currentRun()).id });
  expect(trace.steps[0].action).toEqual({ type: 'takeover' });
  expect(trace.steps[0].approval).toBeNull();
});

test('a guard in auto mode: typing a password waits with the reason; "Always allow" lists the site and the next run does not ask', async () => {
  await page.goto(`${site.url}control/login.html`);
  const model = await fakeModel((q) => {
    const done = q.prompt?.history.length ?? 0;
    if (done === 0) return reply('Type the password.', `Type [${labelIn(q, /password/i)}]; [hunter2]`);
    if (done === 1) return reply('Sign in.', `Click [${labelIn(q, /^Sign in$/)}]`);
    return reply('Signed in.', 'ANSWER; <content>signed in</content>');
  });
  await startRun(model, { approveSteps: false, task: 'Sign in with the password hunter2' });
  const card = panel.getByTestId('approval');
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('approval-reason')).toContainText('this types into a password field');
  const pw = labelIn(model.requests[0], /password/i);
  await expect(card.getByTestId('approval-action')).toContainText(`Type [${pw}]; [{{password:1}}] <input>`);
  await expect(card).not.toContainText('hunter2');
  await expect(card.locator('label', { has: panel.getByTestId('always-allow') })).toContainText('Always allow this on 127.0.0.1');
  expect(events('signin')).toHaveLength(0);
  expect(await page.locator('#pw').inputValue()).toBe('');

  await card.getByTestId('always-allow').check();
  await card.getByTestId('approve').click();
  await expect(panel.getByTestId('answer')).toContainText('signed in', { timeout: 30_000 });
  // The real password was typed (7 characters), not the mask.
  expect(events('signin').map((e) => e.value)).toEqual([':7']);
  await expect(panel.getByTestId('step').first().getByTestId('approval-tag')).toHaveText('approved');

  // The settings list the site, in storage and in the form (without reloading the panel).
  expect((await send<Settings>('settings/get', {})).guards.allow).toEqual({ '127.0.0.1': ['password'] });
  await openSettings(panel);
  await panel.locator('summary', { hasText: 'Guards' }).click();
  await expect(panel.getByTestId('allow-127.0.0.1-password')).toContainText('127.0.0.1');

  // The same task again: the password is typed without asking.
  await page.locator('#pw').fill('');
  await panel.getByTestId('start').click();
  await expect.poll(() => events('signin').length, { timeout: 30_000 }).toBe(2);
  await expect(panel.getByTestId('answer')).toContainText('signed in', { timeout: 30_000 });
  await expect(panel.getByTestId('step')).toHaveCount(3);
  await expect(panel.getByTestId('step').getByTestId('approval-tag')).toHaveCount(0);
  expect(events('signin').map((e) => e.value)).toEqual([':7', ':7']);
});

test('guard settings: a rule switched off and edited words (per language) are kept after reload; an always-allowed site can be removed', async () => {
  // A site allowed earlier (as "Always allow" in an approval would store it).
  const stored = await send<Settings>('settings/get', {});
  await send('settings/patch', { set: { guards: { rules: stored.guards.rules, allow: { 'shop.example': ['delete', 'payment'] } } } });

  await openSettings(panel);
  await panel.locator('summary', { hasText: 'Guards' }).click();
  await expect(panel.getByTestId('allow-shop.example-delete')).toBeVisible();
  await expect(panel.getByTestId('guard-payment')).toBeChecked();
  // the lists are boxes of several lines, one phrase a line, their help said once
  await expect(panel.getByTestId('guard-words-delete-en')).toHaveValue(/^delete\nremove\n/);
  await expect(panel.getByTestId('guard-words-delete-en')).toHaveJSProperty('tagName', 'TEXTAREA');
  await expect(panel.getByTestId('guard-words-delete-zh')).toHaveValue(/^删除\n/);
  await expect(panel.getByTestId('guard-words-download')).toHaveValue(/^zip\nexe\n/);
  await expect(panel.getByTestId('guards').getByText(/one phrase a line, one list per language/)).toHaveCount(1);
  await expect(panel.locator('[data-testid^="guard-words-password"]')).toHaveCount(0); // a rule without words
  await panel.getByTestId('guard-payment').uncheck();
  await panel.getByTestId('guard-words-delete-en').fill('delete, Wipe out,  purge,');
  await panel.getByTestId('guard-words-delete-ja').fill('削除\n抹消\n');
  await panel.getByTestId('save-settings').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved.');

  await panel.reload();
  await openSettings(panel);
  await panel.locator('summary', { hasText: 'Guards' }).click();
  await expect(panel.getByTestId('guard-payment')).not.toBeChecked();
  await expect(panel.getByTestId('guard-delete')).toBeChecked();
  await expect(panel.getByTestId('guard-words-delete-en')).toHaveValue('delete\nwipe out\npurge'); // commas still separate
  await expect(panel.getByTestId('guard-words-delete-ja')).toHaveValue('削除\n抹消');
  await expect(panel.getByTestId('allow-shop.example-delete')).toBeVisible();
  await expect(panel.getByTestId('allow-shop.example-payment')).toBeVisible();
  const saved = (await send<Settings>('settings/get', {})).guards;
  expect(saved.rules.find((r) => r.id === 'payment')?.on).toBe(false);
  expect(saved.rules.find((r) => r.id === 'delete')?.phrases.en).toEqual(['delete', 'wipe out', 'purge']);
  expect(saved.rules.find((r) => r.id === 'delete')?.phrases.ja).toEqual(['削除', '抹消']);
  expect(saved.allow).toEqual({ 'shop.example': ['delete', 'payment'] });

  await panel.getByTestId('remove-allow-shop.example-delete').click();
  await expect(panel.getByTestId('allow-shop.example-delete')).toHaveCount(0);
  await panel.reload();
  await openSettings(panel);
  await panel.locator('summary', { hasText: 'Guards' }).click();
  await expect(panel.getByTestId('allow-shop.example-delete')).toHaveCount(0);
  await expect(panel.getByTestId('allow-shop.example-payment')).toBeVisible();
  // Removing an allowed site kept the saved rule edits.
  const after = (await send<Settings>('settings/get', {})).guards;
  expect(after.allow).toEqual({ 'shop.example': ['payment'] });
  expect(after.rules.find((r) => r.id === 'payment')?.on).toBe(false);
});

/** The extension's service-worker targets, seen through CDP (looking does not wake a worker). */
async function workerTargets(cdp: import('./fixtures').CDPSession): Promise<{ targetId: string }[]> {
  type Info = { targetId: string; type: string; url: string };
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Info[] };
  return targetInfos.filter((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${browser.extensionId}/`));
}

test('the panel survives a service-worker restart while an action waits: its port wakes the worker and Approve still works', async () => {
  const model = await fakeModel((q, n) => (n === 0
    ? reply('I will like the page.', `Click [${labelIn(q, /^Like$/)}]`)
    : reply('Liked.', 'ANSWER; <content>liked after restart</content>')));
  await startRun(model, { approveSteps: true });
  await expect(panel.getByTestId('approval')).toBeVisible({ timeout: 30_000 });

  // Stop the worker the way Chrome does when it is idle.
  const before = await send<{ startedAt: number }>('worker/info', {});
  const cdp = await browser.context.newCDPSession(page);
  const [sw] = await workerTargets(cdp);
  expect(sw, 'the extension has a running service worker').toBeTruthy();
  await cdp.send('Target.closeTarget', { targetId: sw.targetId });
  // The test sends nothing until a worker is there again: the panel's reconnecting port brings it back
  // (looking at targets does not wake a worker; it may come back under the same target id).
  await expect.poll(async () => (await workerTargets(cdp)).length, { message: 'a worker is running again' }).toBeGreaterThan(0);
  await cdp.detach();
  expect((await send<{ startedAt: number }>('worker/info', {})).startedAt, 'it is a new worker').toBeGreaterThan(before.startedAt);

  await expect(panel.getByTestId('approval')).toBeVisible();
  expect(events('like')).toHaveLength(0);
  await panel.getByTestId('approve').click();
  await expect.poll(() => events('like').length, { message: 'the approved click happened after the restart' }).toBe(1);
  await expect(panel.getByTestId('approval-action')).toHaveText('ANSWER; <content>liked after restart</content>', { timeout: 30_000 });
  await panel.getByTestId('approve').click();
  await expect(panel.getByTestId('answer')).toContainText('liked after restart');
  await expect(panel.getByTestId('step').getByTestId('approval-tag')).toHaveText(['approved', 'approved']);
  expect(model.requests).toHaveLength(2);
});
