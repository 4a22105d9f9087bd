/**
 * New tabs and windows, and files for file inputs, end to end: the built extension in headless
 * Chromium, the fake model (scripted by the element list, or the glm-mobile player that finds
 * targets by colour), fixture pages under test/fixtures/pages/tabs/ that report to the test
 * server what happened in them (loads with their width and user agent, clicks, files chosen).
 *
 * Tabs: a target=_blank link and window.open are followed and the model is told; a popup window
 * that closes itself, or a followed tab the person closes, sends the run back to its opener; a
 * phone dialect's followed tab is a phone too; the tab a run is in survives a worker restart.
 */
import { test, expect, type Page } from '@playwright/test';
import { launchWithExtension, openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type FakeModelOptions, type ModelReply, type RecordedRequest } from '../fixtures/model/server';
import { scriptedPolicy, type Goal } from '../fixtures/model/scripted';
import { mobilePlayer } from '../fixtures/model/player-mobile';
import { COLOURS } from '../fixtures/model/locate';
import { panelSend, serveFixtures, stopWorker, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Trace } from '../../src/core/trace';

const KEY = 'sk-tabs-files-3c4d5e6f';
let site: StaticServer;
let browser: Launched;
let panel: Page;
const models: FakeModel[] = [];

test.beforeAll(async () => {
  site = await serveFixtures();
  browser = await launchWithExtension();
  panel = await openPanel(browser);
  await panelSend(panel, 'settings/set', { apiKey: KEY });
});
test.afterAll(async () => {
  await browser.close();
  await site.close();
});
test.afterEach(async () => {
  for (const m of models.splice(0)) await m.close();
  // Each test starts from the panel alone.
  for (const p of browser.context.pages()) if (p !== panel) await p.close().catch(() => undefined);
  site.events.length = 0;
});

async function fake(policy: FakeModelOptions['policy'], extra: Partial<FakeModelOptions> = {}): Promise<FakeModel> {
  const m = await startFakeModel({ apiKey: KEY, policy, ...extra });
  models.push(m);
  return m;
}

/** A glm-web model that plays `goals` from the element list. */
function scripted(goals: Goal[], hold?: (req: RecordedRequest, n: number) => Promise<void> | void): Promise<FakeModel> {
  const play = scriptedPolicy(goals, 'plain');
  return fake(async (req, n): Promise<ModelReply> => {
    await hold?.(req, n);
    return play(req.prompt);
  });
}

/** Starts a run in a new tab at the fixture page, as the runner does. */
async function start(m: FakeModel, task: string, page: string, config: Record<string, unknown> = {}): Promise<string> {
  const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', {
    task, url: `${site.url}${page}`, config: { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v', maxSteps: 10, ...config },
  });
  return runId;
}

function ended(runId: string): Promise<RunView> {
  return waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends');
}

function traceOf(runId: string): Promise<Trace> {
  return panelSend<Trace>(panel, 'run/trace', { runId, excludeScreenshots: true });
}

function events(type: string, value?: string): Record<string, string>[] {
  return site.events.filter((e) => e.type === type && (value === undefined || e.value === value));
}

/** A promise and its resolver (to hold a model reply until the test lets it go). */
function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((r) => { open = r; });
  return { wait, open };
}

test('a target=_blank link: the run follows the new tab, the model is told, and the answer comes from the new tab', async () => {
  const m = await scripted([
    { do: 'click', find: /^Open the details$/ },
    { do: 'answer', from: /Price: (\d+ EUR)/ },
  ]);
  const runId = await start(m, 'What does the kettle cost?', 'tabs/index.html');
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.status).toBe('finished');
  expect(done.answer).toBe('42 EUR');
  const details = `${site.url}tabs/details.html`;
  const t = await traceOf(runId);
  expect(t.steps.map((s) => s.url)).toEqual([`${site.url}tabs/index.html`, details]);
  expect(t.steps[0].tabs).toEqual([{ change: 'opened', url: details }]);
  expect(t.steps[0].observation).toBe(`Success. A new tab opened: ${details}; you are now in it.`);
  expect(t.steps[1].tabs).toBeUndefined();
  // The model read it in the next prompt's history.
  expect(m.requests[1].prompt?.history[0]).toContain(`Observation:Success. A new tab opened: ${details}; you are now in it.`);
  expect(m.violations()).toEqual([]);
  // It is another tab: the desk stays open behind it, as the tab to go back to.
  expect(done.tabStack).toHaveLength(1);
  expect(done.tabId).not.toBe(done.tabStack![0]);
  expect(events('load', 'details').map((e) => e.via)).toEqual(['link']);
  // The person reads it in the panel, in their own words.
  await expect(panel.getByTestId('tab-note')).toHaveText(`The page opened a new tab; the agent followed it to ${details}.`);
});

test('a popup window: followed, and when it closes itself the run goes back to the opener and acts there', async () => {
  const held = gate();
  const reached = gate();
  const m = await scripted([
    { do: 'click', find: /^Open the popup$/ },
    { do: 'click', find: /^Confirm$/ },
    { do: 'click', find: /^Mark done$/ },
    { do: 'answer', text: 'confirmed' },
  ], async (_req, n) => {
    if (n !== 1) return;
    reached.open();
    await held.wait;
  });
  const runId = await start(m, 'Confirm in the popup, then mark it done', 'tabs/index.html');
  await reached.wait;
  // The run is in the popup, a window of its own.
  const now = await panelSend<RunView>(panel, 'run/get', { runId });
  const kind = await panel.evaluate(async (tabId) => (await chrome.windows.get((await chrome.tabs.get(tabId)).windowId)).type, now.tabId);
  expect(kind).toBe('popup');
  held.open();
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.answer).toBe('confirmed');
  const desk = `${site.url}tabs/index.html`;
  const popup = `${site.url}tabs/popup.html`;
  const t = await traceOf(runId);
  expect(t.steps.map((s) => s.url)).toEqual([desk, popup, desk, desk]);
  expect(t.steps[0].tabs).toEqual([{ change: 'opened', url: popup }]);
  expect(t.steps[1].tabs).toEqual([{ change: 'closed', url: desk }]);
  expect(t.steps[1].observation).toBe(`Success. The tab closed; back in the previous tab: ${desk}.`);
  expect(events('click', 'confirm')).toHaveLength(1);
  expect(events('click', 'done')).toHaveLength(1);
  expect(done.tabStack).toEqual([]);
});

test('window.open: followed; when the person closes that tab while the model thinks, the run goes back and says so', async () => {
  const held = gate();
  const reached = gate();
  const m = await scripted([
    { do: 'click', find: /^Open by script$/ },
    { do: 'click', find: /^Mark done$/ },
    { do: 'answer', text: 'done' },
  ], async (_req, n) => {
    if (n !== 1) return;
    reached.open();
    await held.wait;
  });
  const runId = await start(m, 'Open the details by script, then mark it done', 'tabs/index.html');
  await reached.wait;
  const opened = browser.context.pages().find((p) => p.url().includes('details.html?via=script'));
  expect(opened, 'the script opened its tab').toBeTruthy();
  await opened!.close();
  held.open();
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.answer).toBe('done');
  const desk = `${site.url}tabs/index.html`;
  const t = await traceOf(runId);
  expect(t.steps[0].tabs).toEqual([{ change: 'opened', url: `${site.url}tabs/details.html?via=script` }]);
  // The step observed in the closed tab was dropped; the next recorded step tells the model.
  expect(t.steps.map((s) => s.url)).toEqual([desk, desk, desk]);
  expect(t.steps[1].tabs).toEqual([{ change: 'closed', url: desk }]);
  expect(t.steps[1].observation).toBe(`Success. The tab closed; back in the previous tab: ${desk}.`);
  expect(events('click', 'done')).toHaveLength(1);
});

test('glm-mobile: the followed tab is a phone too (width, user agent, touch)', async () => {
  const play = mobilePlayer([
    { do: 'click', colour: COLOURS.yellow },
    { do: 'answer', text: '42 EUR', colour: COLOURS.green },
  ], { variant: 'plain' });
  const m = await fake((req) => play(req.mobile), { dialect: 'glm-mobile' });
  const runId = await start(m, 'What does the kettle cost?', 'tabs/index.html', { dialect: 'glm-mobile' });
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.answer).toBe('42 EUR');
  expect(m.violations()).toEqual([]);
  const loads = events('load', 'details');
  expect(loads.at(-1)).toMatchObject({ width: '412', mobile: 'true', touch: '5' });
  const t = await traceOf(runId);
  expect(t.steps[0].tabs).toEqual([{ change: 'opened', url: `${site.url}tabs/details.html` }]);
  expect(t.steps[1].viewport.width).toBe(412);
  expect(t.steps[1].request.imageWidth).toBe(412);
});

test('a worker restart in a followed tab: the run goes on there, and back to the opener when it closes', async () => {
  const held = gate();
  const reached = gate();
  const m = await scripted([
    { do: 'click', find: /^Open by script$/ },
    { do: 'click', find: /^Close this tab$/ },
    { do: 'click', find: /^Mark done$/ },
    { do: 'answer', text: 'done' },
  ], async (_req, n) => {
    if (n !== 1) return;
    reached.open();
    await held.wait;
  });
  const runId = await start(m, 'Open the details by script, close them, then mark it done', 'tabs/index.html');
  await reached.wait;
  await stopWorker(browser.context, browser.extensionId, panel);
  held.open();
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.answer).toBe('done');
  const desk = `${site.url}tabs/index.html`;
  const t = await traceOf(runId);
  expect(t.steps.map((s) => s.url)).toEqual([desk, `${site.url}tabs/details.html?via=script`, desk, desk]);
  expect(t.steps[1].tabs).toEqual([{ change: 'closed', url: desk }]);
  expect(events('click', 'close')).toHaveLength(1);
  expect(events('click', 'done')).toHaveLength(1);
});
