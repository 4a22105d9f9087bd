/**
 * The side panel as a person meets it (issue 11): Start runs with the settings the form shows;
 * the live view at side-panel size (360 × 800) keeps the current step, its status and any error in
 * view, follows the run and shows each state of the status dot differently; the token line and
 * "cost unknown"; a take-over shown as such; replay's reject box; the settings form's help,
 * folding and stale messages; the keyboard (Ctrl+Enter, Esc, the open-panel command).
 *
 * One browser for the file (tests run in order and reset what they change); the panel is opened
 * as a tab, as in panel.spec.ts; the web page is test/fixtures/pages/control/ (its buttons report
 * to the test server); models are fake-server policies, gated where a test needs a run held.
 */
import { test, expect, type Locator, type Page } from './fixtures';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchWithExtension, openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type ModelReply, type RecordedRequest } from '../fixtures/model/server';
import { panelSend, ROOT, serveFixtures, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Settings } from '../../src/core/settings';
import { formatTokens } from '../../sidepanel/format';
import { DIALECTS } from '../../src/core/dialects/registry';

test.describe.configure({ mode: 'serial' });

const KEY = 'sk-panel-ux-5e6f7a8b';
let site: StaticServer;
let browser: Launched;
/** the web page the agent works in */
let page: Page;
let panel: Page;
const models: FakeModel[] = [];
const gates: (() => void)[] = [];

test.beforeAll(async () => {
  site = await serveFixtures();
  browser = await launchWithExtension();
  page = await browser.context.newPage();
});

test.afterAll(async () => {
  for (const open of gates) open();
  await browser.close();
  for (const m of models) await m.close();
  await site.close();
});

/** Each test: the control page, a fresh panel tab, settings back to their defaults, no run going on. */
test.beforeEach(async () => {
  site.events.length = 0;
  await page.goto(`${site.url}control/index.html`);
  panel = await openPanel(browser);
  const run = await panelSend<RunView | null>(panel, 'run/get', {});
  if (run?.status === 'running') await panelSend(panel, 'run/stop', { runId: run.id });
  await panelSend(panel, 'settings/patch', { set: { baseUrl: 'http://127.0.0.1:8000/v1', apiKey: KEY, model: 'glm-4.5v', approveSteps: false, prices: { 'glm-4.5v': { inputPerMillion: 0.6, outputPerMillion: 1.8 } } } });
  await panel.reload();
  await panel.waitForFunction(() => 'webagent' in window);
});

test.afterEach(async () => {
  for (const open of gates.splice(0)) open();
  await panel.close();
});

function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((r) => { open = r; });
  gates.push(open);
  return { wait, open };
}

async function fakeModel(policy: (q: RecordedRequest, n: number) => ModelReply | Promise<ModelReply>, names?: string[]): Promise<FakeModel> {
  const m = await startFakeModel({ apiKey: KEY, policy, models: names });
  models.push(m);
  return m;
}

function reply(thought: string, action: string): ModelReply {
  return { content: `Thought: ${thought}\nAction: ${action}\nMemory_Updated: {}` };
}

function labelIn(q: RecordedRequest | undefined, re: RegExp): number {
  const l = q?.prompt?.elements.find((e) => re.test(e.text))?.label;
  if (l === undefined) throw new Error(`no element matching ${re} in the prompt`);
  return l;
}

function send<T>(type: string, payload: unknown): Promise<T> {
  return panelSend<T>(panel, type, payload);
}

async function currentRun(): Promise<RunView> {
  const r = await send<RunView | null>('run/get', {});
  if (!r) throw new Error('no run');
  return r;
}

/**
 * Waits for the answer "liked"; when it does not come, prints where the run stood (seen once under
 * load, docs/testing.md: an approval that did not land), then fails as the wait did.
 */
async function answerOrSayWhy(card: Locator, model: FakeModel): Promise<void> {
  try {
    await expect(panel.getByTestId('answer')).toContainText('liked', { timeout: 30_000 });
  } catch (e) {
    const r = await send<RunView | null>('run/get', {}).catch((x: unknown) => String(x));
    const cardError = await card.getByRole('alert').allTextContents().catch(() => []);
    console.log(`the run ${JSON.stringify(r && typeof r === 'object' ? { status: r.status, phase: r.pending?.phase, approval: r.pending?.approval, steps: r.steps.map((x) => [x.actionText, x.approval]), requests: model.requests.length } : r)}; the card's error: ${JSON.stringify(cardError)}; the switch: ${await panel.getByTestId('approve-steps').isChecked()}`);
    throw e;
  }
}

/** Runs `check`; when it fails, prints where the run stood by the worker's own view (failed once in a fresh-clone CI run), then fails as it did. */
async function sayWhereTheRunIsIfNot(check: () => Promise<void>, model: FakeModel): Promise<void> {
  try {
    await check();
  } catch (e) {
    const r = await send<RunView | null>('run/get', {}).catch((x: unknown) => String(x));
    const shown = await panel.getByTestId('step').count().catch(() => -1);
    console.log(`the panel shows ${shown} steps; the worker's run: ${JSON.stringify(r && typeof r === 'object' ? { id: r.id, task: r.task, status: r.status, phase: r.pending?.phase, pendingIndex: r.pending?.index, steps: r.steps.map((x) => [x.actionText, x.result]), stopReason: r.stopReason, requests: model.requests.length, rev: r.rev } : r)}; the panel's run: ${await panel.getByTestId('run-state').textContent().catch(() => '?')}, ${await panel.getByTestId('run-step').textContent().catch(() => '?')}`);
    throw e;
  }
}

/**
 * The step-approval switch set to `on`, and held. The panel follows the run down as the approval
 * card's picture loads, so a click can land while the switch is moving (seen once under load:
 * "clicking the checkbox did not change its state"): it is clicked again until it holds.
 */
async function setApproval(on: boolean): Promise<void> {
  const box = panel.getByTestId('approve-steps');
  await expect(async () => {
    if ((await box.isChecked()) !== on) await box.click();
    expect(await box.isChecked()).toBe(on);
  }).toPass({ timeout: 10_000 });
}

async function openSettings() {
  const details = panel.getByTestId('settings');
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').first().click();
}

async function useModel(m: FakeModel, model = 'glm-4.5v') {
  await send('settings/patch', { set: { baseUrl: m.baseUrl, model } });
  await panel.reload();
  await panel.waitForFunction(() => 'webagent' in window);
}

async function start(task: string) {
  await panel.getByTestId('task').fill(task);
  await panel.getByTestId('start').click();
}

/**
 * Where an element is, and whether a person sees it: wholly inside the viewport and not under
 * something else (the sticky header, the run bar) at its centre.
 */
async function expectInView(loc: Locator, what: string) {
  // Retried for a moment: the panel may still be scrolling to it (a screenshot loading, say).
  await expect(async () => seenWhole(loc, what)).toPass({ timeout: 5000 });
}

async function seenWhole(loc: Locator, what: string) {
  const box = await loc.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + Math.min(r.height / 2, 12);
    const hit = document.elementFromPoint(x, y);
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, w: innerWidth, h: innerHeight, seen: !!hit && (hit === el || el.contains(hit)) };
  });
  expect(box.top, `${what}: top edge in the viewport`).toBeGreaterThanOrEqual(0);
  expect(box.bottom, `${what}: bottom edge in the viewport`).toBeLessThanOrEqual(box.h);
  expect(box.left, `${what}: left edge in the viewport`).toBeGreaterThanOrEqual(0);
  expect(box.right, `${what}: right edge in the viewport`).toBeLessThanOrEqual(box.w);
  expect(box.seen, `${what}: not covered by anything`).toBe(true);
}

/** A screenshot kept with the test's results; with DOC_IMAGES=1 also the README's copy in docs/images. */
async function shoot(name: string, docName?: string) {
  await panel.screenshot({ path: test.info().outputPath(`${name}.png`) });
  if (docName && process.env.DOC_IMAGES) {
    mkdirSync(path.join(ROOT, 'docs', 'images'), { recursive: true });
    await panel.screenshot({ path: path.join(ROOT, 'docs', 'images', `${docName}.png`) });
  }
}

test('Start runs with the settings the form shows: unsaved changes are saved first, a broken form blocks Start', async () => {
  const good = await fakeModel(() => reply('I know it.', 'ANSWER; <content>from the form\'s endpoint</content>'));
  // Saved: an endpoint that does not answer. The form: the working one, not saved.
  await send('settings/patch', { set: { baseUrl: 'http://127.0.0.1:9/v1' } });
  await panel.reload();
  await openSettings();
  await expect(panel.getByTestId('setting-baseUrl')).toHaveValue('http://127.0.0.1:9/v1');
  await expect(panel.getByTestId('settings-unsaved')).toHaveCount(0);
  await expect(panel.getByTestId('start-help')).toBeHidden();
  await panel.getByTestId('setting-baseUrl').fill(good.baseUrl);
  await expect(panel.getByTestId('settings-unsaved')).toHaveText('Unsaved changes');
  await expect(panel.getByTestId('start-help')).toHaveText('Start saves your changed settings first.');
  // Test connection tests the form.
  await panel.getByTestId('test-connection').click();
  await expect(panel.getByTestId('settings-status')).toContainText('The model accepted an image');
  expect(good.connectionTests).toHaveLength(1);

  // Start uses it too: the run asks the working endpoint and finishes.
  await start('Say where the answer comes from');
  await expect(panel.getByTestId('answer')).toContainText('from the form\'s endpoint', { timeout: 30_000 });
  expect(good.requests).toHaveLength(1);
  expect((await send<Settings>('settings/get', {})).baseUrl).toBe(good.baseUrl);
  await expect(panel.getByTestId('settings-unsaved')).toHaveCount(0);
  await expect(panel.getByTestId('start-help')).toBeHidden();

  // A form that cannot be saved blocks Start and says why; Discard brings back what is saved.
  await panel.getByTestId('setting-baseUrl').fill('my-server:8000');
  await panel.getByTestId('task').fill('Another task');
  await expect(panel.getByTestId('start')).toBeDisabled();
  await expect(panel.getByTestId('start-help')).toHaveText('Fix the settings first: Base URL must start with http:// or https://, e.g. http://127.0.0.1:8000/v1');
  await panel.getByTestId('discard-settings').click();
  await expect(panel.getByTestId('setting-baseUrl')).toHaveValue(good.baseUrl);
  await expect(panel.getByTestId('start')).toBeEnabled();
  await expect(panel.getByTestId('start-help')).toBeHidden();
});

test('settings: help is the description, not the name; Advanced and Guards start folded; old messages and a preset hint go when the fields change', async () => {
  await openSettings();
  await expect(panel.getByTestId('advanced-section')).not.toHaveAttribute('open', '');
  await expect(panel.getByTestId('guards-section')).not.toHaveAttribute('open', '');
  await expect(panel.getByTestId('setting-temperature')).toBeHidden();
  await expect(panel.getByTestId('guards')).toBeHidden();

  const baseUrl = panel.getByRole('textbox', { name: 'Base URL', exact: true });
  await expect(baseUrl).toHaveAccessibleName('Base URL');
  await expect(baseUrl).toHaveAccessibleDescription('OpenAI-compatible endpoint, usually ending in /v1');
  await expect(panel.getByRole('spinbutton', { name: 'Max steps', exact: true })).toHaveAccessibleDescription('The run stops after this many actions');
  await panel.getByTestId('advanced-section').locator('summary').click();
  await expect(panel.getByRole('checkbox', { name: 'Stream replies', exact: true })).toHaveAccessibleDescription('Server-sent events');
  // A problem replaces the help as the description, and marks the field.
  await baseUrl.fill('nowhere');
  await expect(baseUrl).toHaveAccessibleDescription(/^Base URL must start with http/);
  await expect(baseUrl).toHaveAttribute('aria-invalid', 'true');

  // An old error goes as soon as a field changes.
  await baseUrl.fill('http://127.0.0.1:9/v1');
  await panel.getByTestId('test-connection').click();
  await expect(panel.getByTestId('settings-status')).toContainText('Cannot reach the model endpoint');
  await panel.getByTestId('setting-model').fill('glm-4.5v-2');
  await expect(panel.getByTestId('settings-status')).toHaveCount(0);

  // A preset's hint stays while the fields are the preset's, and goes when they change.
  await panel.getByTestId('preset').selectOption('ollama');
  await expect(panel.getByTestId('preset-note')).toContainText('OLLAMA_ORIGINS');
  await expect(panel.getByRole('combobox', { name: 'Preset' })).toHaveAccessibleDescription(/OLLAMA_ORIGINS/);
  await panel.getByTestId('setting-apiKey').fill('sk-other'); // not a preset field: the hint stays
  await expect(panel.getByTestId('preset-note')).toContainText('OLLAMA_ORIGINS');
  await panel.getByTestId('setting-baseUrl').fill('http://10.0.0.7:11434/v1');
  await expect(panel.getByTestId('preset-note')).toHaveText('Fills base URL, model and request options (not the key); every field stays editable.');
  await expect(panel.getByTestId('preset')).toHaveValue('');

  // Each dialect's own fields come from what it declares: the Apps list only for a grammar that opens apps.
  for (const [id, d] of Object.entries(DIALECTS)) {
    await panel.getByTestId('setting-dialect').selectOption(id);
    await expect(panel.getByTestId('setting-apps'), id).toHaveCount(d.opensApps ? 1 : 0);
  }
  expect(Object.values(DIALECTS).filter((d) => d.opensApps).length).toBeGreaterThan(0);
  await panel.getByTestId('discard-settings').click();
});

test('the live view at 360 × 800: the current step, its status and any error stay in view; the dot shows each state', async () => {
  await panel.setViewportSize({ width: 360, height: 800 });
  const held = gate();
  const failing = gate();
  const model = await fakeModel(async (q, n) => {
    const steps = [
      () => reply('The search box is at the top; I will type the words into it.', `Type [${labelIn(q, /Search words/)}]; [lamp]`),
      () => reply('Now I press Search.', `Click [${labelIn(q, /^Search$/)}]`),
      () => reply('I like this page.', `Click [${labelIn(q, /^Like$/)}]`),
      () => reply('And bookmark it.', `Click [${labelIn(q, /^Bookmark$/)}]`),
    ];
    if (n < steps.length) return steps[n]();
    if (n === steps.length) {
      await held.wait;
      return reply('Open the second page.', `Click [${labelIn(q, /Second page/)}]`);
    }
    await failing.wait;
    return { content: 'I am not sure what to do.' };
  });
  await useModel(model);
  await panel.setViewportSize({ width: 360, height: 800 });
  await start('Search for a lamp, like and bookmark the page, then open the second page');

  // Four steps done, the fifth waits for the model.
  await sayWhereTheRunIsIfNot(() => expect(panel.getByTestId('step')).toHaveCount(4, { timeout: 30_000 }), model);
  await expect(panel.getByTestId('pending')).toHaveText('Step 5: waiting for the model…');
  await expect(panel.getByTestId('run-state')).toHaveText('Running');
  await expect(panel.getByTestId('run-phase')).toHaveText('waiting for the model…');
  await expect(panel.getByTestId('run-step')).toHaveText('Step 5 of 15');
  await expect(panel.getByTestId('run-elapsed')).toHaveText(/^\d+:\d\d$/);
  const t0 = await panel.getByTestId('run-elapsed').textContent();
  await expect(panel.getByTestId('run-elapsed')).not.toHaveText(t0!, { timeout: 5000 }); // it ticks
  // The page is longer than the panel: the view followed the run down to the current step.
  expect(await panel.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(800);
  expect(await panel.evaluate(() => scrollY)).toBeGreaterThan(0);
  await expectInView(panel.getByTestId('pending'), 'the current step');
  await expectInView(panel.getByTestId('run-state'), 'the status');
  await expectInView(panel.getByTestId('run-dot'), 'the status dot');
  await expectInView(panel.getByTestId('run-step'), '"Step 5 of 15"');
  await expectInView(panel.getByTestId('stop'), 'Stop');
  // Thumbnails are small at this width: four steps, each well under a third of the panel.
  for (const h of await panel.getByTestId('step').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))) expect(h).toBeLessThan(260);
  const thumb = (await panel.locator('.thumb').first().boundingBox())!;
  expect(thumb.width).toBeLessThan(120);
  await shoot('panel-360x800-running', 'panel-light');

  // Scrolling up to read older steps stops the following; "Show the current step" brings it back.
  await panel.mouse.move(180, 500);
  await panel.mouse.wheel(0, -5000);
  await expect(panel.getByTestId('jump-current')).toBeVisible();
  await expectInView(panel.getByTestId('run-state'), 'the status, after scrolling up');
  await panel.getByTestId('jump-current').click();
  await expectInView(panel.getByTestId('pending'), 'the current step, after "Show the current step"');
  await expect(panel.getByTestId('jump-current')).toHaveCount(0);

  // Each state has its own dot.
  const look = async () => panel.getByTestId('run-dot').evaluate((el) => {
    const c = getComputedStyle(el);
    return [c.backgroundColor, c.borderLeftColor, c.borderLeftWidth, c.borderTopWidth, c.borderRadius, c.transform].join(' ');
  });
  const looks: Record<string, string> = { running: await look() };
  await panel.getByTestId('pause').click();
  await expect(panel.getByTestId('run-dot')).toHaveAttribute('data-state', 'paused');
  await expect(panel.getByTestId('run-state')).toHaveText('Paused');
  looks.paused = await look();
  await panel.getByTestId('resume').click();
  await setApproval(true);
  held.open();
  // Waiting for the person: the approval card is the current step.
  const card = panel.getByTestId('approval');
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByTestId('run-dot')).toHaveAttribute('data-state', 'waiting');
  await expect(panel.getByTestId('run-state')).toHaveText('Waiting for you');
  await expect(panel.getByTestId('run-indicator')).toHaveAttribute('data-state', 'waiting');
  // the title keeps to one line, whole, beside the tabs and their status icon
  expect(await panel.locator('header.top h1').evaluate((h) => [h.getClientRects().length, h.scrollWidth <= h.clientWidth])).toEqual([1, true]);
  looks.waiting = await look();
  await expectInView(card.getByTestId('approval-action'), 'the action waiting for approval');
  await expectInView(card.getByTestId('approve'), 'Approve');
  // A refused edit says why in the card, next to the edit box, in view.
  await card.getByTestId('edit').click();
  await card.getByTestId('edit-action').fill('Click [999]');
  await card.getByTestId('edit-action').press('Enter');
  const refused = card.getByTestId('approval-error');
  await expect(refused).toContainText('There is no element [999] on this step\'s page');
  await expectInView(refused, 'the refused edit\'s message');
  await expectInView(card.getByTestId('edit-action'), 'the edit box');
  await expect(panel.getByTestId('start-error')).toHaveCount(0);
  await panel.emulateMedia({ colorScheme: 'dark' });
  await shoot('panel-360x800-approval-dark', 'panel-dark');
  await panel.emulateMedia({ colorScheme: 'light' });

  // Approved; the next reply cannot be read three times: the run fails, the reason in view.
  await setApproval(false);
  await card.getByTestId('edit-action').press('Escape');
  await card.getByTestId('approve').click();
  failing.open();
  const reason = panel.getByTestId('stop-reason');
  await expect(reason).toContainText('The run failed: The model\'s reply could not be read 3 times in a row', { timeout: 60_000 });
  await expect(panel.getByTestId('run-dot')).toHaveAttribute('data-state', 'failed');
  await expect(panel.getByTestId('run-state')).toHaveText('Failed');
  await expect(panel.getByTestId('run-indicator')).toHaveAttribute('data-state', 'failed');
  await expectInView(reason, 'the reason the run failed');
  await shoot('panel-360x800-failed');
  looks.failed = await look();
  // Done and stopped, from short runs.
  const quick = await fakeModel(() => reply('Easy.', 'ANSWER; <content>done</content>'));
  await useModel(quick);
  await start('Finish at once');
  await expect(panel.getByTestId('run-dot')).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  looks.finished = await look();
  const slow = gate();
  const stuck = await fakeModel(async () => { await slow.wait; return reply('Late.', 'Wait'); });
  await useModel(stuck);
  await start('Get stopped');
  await expect(panel.getByTestId('pending')).toContainText('waiting for the model', { timeout: 30_000 });
  await panel.getByTestId('stop').click();
  await expect(panel.getByTestId('run-dot')).toHaveAttribute('data-state', 'stopped');
  looks.stopped = await look();
  expect(new Set(Object.values(looks)).size, JSON.stringify(looks, null, 1)).toBe(6);

  // 中文: the same panel in Chinese (the README's third picture); then back to the browser's language
  await send('settings/patch', { set: { language: 'zh_CN' } });
  await panel.reload();
  await expect(panel.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await useModel(quick);
  await start('说完成');
  await expect(panel.getByTestId('run-dot')).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await expect(panel.getByTestId('run-state')).toHaveText('完成');
  expect(await panel.locator('header.top h1').evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
  await shoot('panel-360x800-zh', 'panel-zh');
  await send('settings/patch', { set: { language: 'auto' } });
  await panel.reload();
  await expect(panel.locator('html')).toHaveAttribute('lang', 'en');
});

test('tokens from the first reply; "cost unknown" said once with a link to the price table; a take-over shown as one; replay\'s reject box', async () => {
  await panel.setViewportSize({ width: 360, height: 800 });
  const model = await fakeModel((q, n) => (n < 3
    ? reply('I will like the page.', `Click [${labelIn(q, /^Like$/)}]`)
    : reply('Done.', 'ANSWER; <content>liked</content>')), ['vision-x']);
  await useModel(model, 'vision-x');
  await setApproval(true);
  await start('Like the page');
  const card = panel.getByTestId('approval');
  await expect(card).toBeVisible({ timeout: 30_000 });
  // Step 1 waits for approval: its reply is counted already.
  expect(model.usages).toHaveLength(1);
  await expect(panel.getByTestId('run-total-tokens')).toHaveText(formatTokens(model.usages[0].promptTokens, model.usages[0].completionTokens));
  // No price for vision-x: said once, with the way to add it.
  await expect(panel.getByTestId('run-cost')).toHaveCount(0);
  await expect(panel.getByTestId('cost-unknown')).toContainText('the price table has no price for “vision-x”');
  await panel.getByTestId('cost-link').click();
  await expect(panel.getByTestId('advanced-section')).toHaveAttribute('open', '');
  const row = panel.locator('[data-testid="price-row"][data-model="vision-x"]');
  await expect(row.getByTestId('price-input')).toBeFocused();
  await expect(panel.getByTestId('start-help')).toContainText('Fix the settings first: The prices of vision-x must be numbers');
  await panel.getByTestId('discard-settings').click();

  // A take-over while the action waits: the step says so, it is not a rejection.
  await panel.getByTestId('takeover').click();
  await expect(card).toHaveCount(0);
  const first = panel.getByTestId('step').first();
  await expect(first.getByTestId('approval-tag')).toHaveText('not run: you took over');
  await expect(first.getByTestId('approval-tag')).toHaveClass(/takeover/);
  await expect(panel.getByTestId('run-state')).toHaveText('Waiting for you');
  await expect(panel.getByTestId('run-phase')).toHaveText('you have the page');
  await panel.getByTestId('resume').click();
  await expect(card).toBeVisible({ timeout: 30_000 });
  await setApproval(false);
  await card.getByTestId('approve').click();
  await answerOrSayWhy(card, model);
  const liked = await currentRun();

  // A second run of the same model: tokens only, nothing more said about the cost.
  await start('Like the page again');
  await expect(panel.getByTestId('answer')).toContainText('liked', { timeout: 30_000 });
  await expect(panel.getByTestId('run-total-tokens')).not.toHaveText(/^0 tokens/);
  await expect(panel.getByTestId('cost-unknown')).toHaveCount(0);
  await expect(panel.getByTestId('run-cost')).toHaveCount(0);

  // A replay has no model to tell: its reject box does not say so.
  const { runId } = await send<{ runId: string }>('run/replay', { runId: liked.id });
  await expect(panel.getByTestId('approval')).toBeVisible({ timeout: 30_000 });
  expect((await currentRun()).id).toBe(runId);
  const box = panel.getByTestId('reject-feedback');
  // the placeholder is short enough for a 360 px panel; the whole hint is the box's name and tooltip
  await expect(box).toHaveAttribute('placeholder', 'Why not? (optional)');
  await expect(box).toHaveAttribute('title', 'Why not? (optional, kept in the run\'s history)');
  await expect(box).not.toHaveAttribute('title', /model/);
  await panel.getByTestId('approval-stop').click();
  await waitForRun(panel, runId, (r) => r.status !== 'running', 'the replay stops');
});

test('keyboard: Ctrl+Enter starts from the task box; Esc cancels an edit and closes the lightbox', async () => {
  const model = await fakeModel((q, n) => (n === 0
    ? reply('I will like the page.', `Click [${labelIn(q, /^Like$/)}]`)
    : reply('Done.', 'ANSWER; <content>liked</content>')));
  await useModel(model);
  await setApproval(true);
  const task = panel.getByTestId('task');
  await task.fill('Like the page');
  await task.press('Enter'); // a new line, not a start
  await expect(task).toHaveValue('Like the page\n');
  expect(model.requests).toHaveLength(0);
  await task.press('Control+Enter');
  const card = panel.getByTestId('approval');
  await expect(card).toBeVisible({ timeout: 30_000 });

  // Esc in the edit box: the edit is dropped and nothing is sent.
  await card.getByTestId('edit').click();
  const edit = card.getByTestId('edit-action');
  await expect(edit).toBeFocused();
  await edit.fill('Click [999]');
  await edit.press('Escape');
  await expect(edit).toHaveCount(0);
  await expect(card.getByTestId('edit')).toBeFocused();
  await expect(card.getByTestId('edit')).toHaveAttribute('aria-expanded', 'false');
  await card.getByTestId('edit').click();
  await expect(card.getByTestId('edit-action')).toHaveValue(/^Click \[\d+\]$/); // the proposed action again
  expect(model.requests).toHaveLength(1);
  expect(site.events.filter((e) => e.type === 'like')).toHaveLength(0);

  await setApproval(false);
  await card.getByTestId('approve').click();
  await answerOrSayWhy(card, model);
  // Esc closes the enlarged screenshot; the focus goes back to the thumbnail.
  const thumb = panel.getByTestId('step').first().locator('.thumb-button');
  await thumb.click();
  await expect(panel.getByTestId('lightbox')).toBeVisible();
  await panel.keyboard.press('Escape');
  await expect(panel.getByTestId('lightbox')).toHaveCount(0);
  await expect(thumb).toBeFocused();
});

test('the open-panel command is registered with its shortcut, and its handler opens the side panel of the tab\'s window', async () => {
  const commands = await panel.evaluate(() => chrome.commands.getAll());
  expect(commands.find((c) => c.name === 'open-panel')).toEqual(expect.objectContaining({
    description: 'Open the Web Agent side panel', shortcut: 'Ctrl+Shift+Y',
  }));
  // The listener, without a keyboard: the command event is dispatched to the worker's real listener
  // with the tab a shortcut brings, and chrome.sidePanel.open is recorded (it refuses without a real
  // gesture). shortcut.spec.ts presses the real keys on an X display and sees the panel open.
  const sw = browser.context.serviceWorkers()[0];
  const calls = await sw.evaluate(async (pageUrl) => {
    const [tab] = await chrome.tabs.query({ url: pageUrl });
    const seen: unknown[] = [];
    const real = chrome.sidePanel.open;
    chrome.sidePanel.open = ((o: chrome.sidePanel.OpenOptions) => { seen.push(o); return Promise.resolve(); }) as typeof real;
    try {
      const ev = chrome.commands.onCommand as unknown as { dispatch(c: string, t: chrome.tabs.Tab): void };
      ev.dispatch('something-else', tab);
      ev.dispatch('open-panel', tab);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      chrome.sidePanel.open = real;
    }
    return { seen, windowId: tab.windowId };
  }, page.url());
  expect(calls.seen).toEqual([{ windowId: calls.windowId }]);
});
