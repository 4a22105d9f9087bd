/**
 * Runs that survive the browser: Chrome may stop the extension's service worker at any moment.
 * These tests stop it on purpose (CDP Target.closeTarget on the service-worker target) while the
 * run waits for the model, while an action runs, and while it waits for approval; the next
 * message wakes the worker, which picks the run up from the database. The trace afterwards has
 * every step exactly once and every click happened exactly once.
 * Also: a run stops with the reason when its tab moves to a page extensions may not touch, or closes.
 */
import { test, expect, type Page } from './fixtures';
import { launchWithExtension, openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type ModelReply } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import type { PromptParts } from '../fixtures/dialects/glm-web/request';
import { serveFixtures, panelSend, stopWorker as stopWorkerIn, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Trace } from '../../src/core/trace';

const KEY = 'sk-restart-5e6f7a8b9c';
const GOALS = scriptedPolicy([
  { do: 'click', find: /^Step one$/ },
  { do: 'click', find: /^Slow button$/ },
  { do: 'answer', text: 'all three done' },
], 'plain');

let site: StaticServer;
let browser: Launched;
let panel: Page;
let model: FakeModel | null = null;

test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); });
test.beforeEach(async () => {
  site.events.length = 0;
  browser = await launchWithExtension();
  panel = await openPanel(browser);
});
test.afterEach(async () => {
  await browser.close();
  await model?.close();
  model = null;
});

function send<T>(type: string, payload: unknown): Promise<T> {
  return panelSend<T>(panel, type, payload);
}

/** Starts a run as the runner does: the key saved in settings (chrome.storage.local), the rest as per-run config. */
async function start(m: FakeModel, extra: Record<string, unknown> = {}): Promise<string> {
  await send('settings/patch', { set: { apiKey: KEY } });
  const { runId } = await send<{ runId: string }>('run/start', {
    task: 'Press the buttons in order', url: `${site.url}restart/index.html`,
    config: { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v', ...extra },
  });
  return runId;
}

function until(runId: string, ok: (r: RunView) => boolean, what: string): Promise<RunView> {
  return waitForRun(panel, runId, ok, what);
}

/** Stops the extension's service worker the way Chrome does (support.ts). */
function stopWorker(): Promise<void> {
  return stopWorkerIn(browser.context, browser.extensionId, panel);
}

function clicks(value: string): number {
  return site.events.filter((e) => e.type === 'click' && e.value === value).length;
}

async function traceOf(runId: string): Promise<Trace> {
  return send<Trace>('run/trace', { runId });
}

/** Every step once, in order: Click "Step one", Click "Slow button", the answer. */
function expectCompleteTrace(t: Trace) {
  expect(t.run.status).toBe('finished');
  expect(t.run.answer).toBe('all three done');
  expect(t.steps.map((s) => s.index)).toEqual([0, 1, 2]);
  expect(t.steps.map((s) => s.action.type)).toEqual(['click', 'click', 'answer']);
  expect(t.steps.map((s) => s.elements.find((e) => e.label === (s.action as { target?: { label?: number } }).target?.label)?.text ?? null))
    .toEqual(['Step one', 'Slow button', null]);
  expect(clicks('one')).toBe(1);
  expect(clicks('slow')).toBe(1);
  expect(clicks('three')).toBe(0);
}

test('the worker stopped while the model is answering: the question is asked again, nothing is lost or repeated', async () => {
  let release: () => void = () => undefined;
  let reached: () => void = () => undefined;
  const held = new Promise<void>((r) => { release = r; });
  const atHold = new Promise<void>((r) => { reached = r; });
  let holding = true;
  model = await startFakeModel({
    apiKey: KEY,
    policy: async (req): Promise<ModelReply> => {
      if (holding && (req.prompt as PromptParts | null)?.history.length === 1) {
        holding = false;
        reached();
        await held;
      }
      return GOALS(req.prompt);
    },
  });
  const runId = await start(model);
  await atHold;
  // What survives a worker restart in memory-only storage never includes the key.
  const session = await panel.evaluate(() => chrome.storage.session.get(null));
  expect(Object.keys(session).some((k) => k.startsWith('config:'))).toBe(true);
  expect(JSON.stringify(session)).not.toContain(KEY);
  const before = model.requests.length;
  await stopWorker();
  release();
  const done = await until(runId, (r) => r.status !== 'running', 'the run ends after the restart');
  expect(done.stopReason).toBeNull();
  expectCompleteTrace(await traceOf(runId));
  // The step that was being asked was asked once more, with the same history.
  expect(model.requests.length).toBe(before + 2);
  expect(model.requests[before].prompt?.history).toEqual(model.requests[before - 1].prompt?.history);
  expect(model.violations()).toEqual([]);
});

/** The run's record in the extension's database as it stands: its pending step, if any. */
function storedPending(runId: string) {
  return panel.evaluate((id) => new Promise<{ index: number; labelled: string; clean: string } | null>((resolve, reject) => {
    const open = indexedDB.open('webagent');
    open.onerror = () => reject(open.error);
    // The run record keeps the step in progress; its kept pictures are in the shots store (run-store.ts).
    open.onsuccess = () => {
      const tx = open.result.transaction(['runs', 'shots']);
      const get = tx.objectStore('runs').get(id);
      get.onsuccess = () => {
        const p = get.result?.pending;
        if (!p) { open.result.close(); resolve(null); return; }
        const shot = (kind: string) => new Promise<string>((done) => {
          const r = tx.objectStore('shots').get([id, p.index, kind]);
          r.onsuccess = () => done(p.kept && r.result ? `data:${(r.result as Blob).type};base64,` : '');
          r.onerror = () => done('');
        });
        Promise.all([shot('labelled'), shot('clean')]).then(([labelled, clean]) => {
          open.result.close();
          resolve({ index: p.index, labelled, clean });
        }, reject);
      };
      get.onerror = () => reject(get.error);
    };
  }), runId);
}

test('the observed step is stored with its clean view while the model thinks; a restart then asks again', async () => {
  let release: () => void = () => undefined;
  let reached: () => void = () => undefined;
  const held = new Promise<void>((r) => { release = r; });
  const atHold = new Promise<void>((r) => { reached = r; });
  let holding = true;
  let runId = '';
  model = await startFakeModel({
    apiKey: KEY,
    policy: async (req): Promise<ModelReply> => {
      if (holding && (req.prompt as PromptParts | null)?.history.length === 1) {
        holding = false;
        reached();
        await held;
      }
      return GOALS(req.prompt);
    },
  });
  runId = await start(model);
  await atHold;
  // The step's images and its write start once its request has left: the stored step says so by
  // the time its request took (observeStages.requestMs, below: only a write started by the
  // request's leaving has it). (Reading the database as the request arrives would race the write.)
  // The request is out and unanswered: the step, its labelled view as kept and its clean view reach the database.
  await expect.poll(() => storedPending(runId), { message: 'step 2 stored while its request waits', timeout: 20_000, intervals: [50] })
    .toEqual({ index: 1, labelled: 'data:image/webp;base64,', clean: 'data:image/webp;base64,' });
  const before = model.requests.length;
  await stopWorker();
  release();
  await until(runId, (r) => r.status !== 'running', 'the run ends after the restart');
  const t = await traceOf(runId);
  expectCompleteTrace(t);
  // picked up where the database had it: the step asked again with the same history
  expect(model.requests.length).toBe(before + 2);
  expect(model.requests[before].prompt?.history).toEqual(model.requests[before - 1].prompt?.history);
  expect(t.steps[1].cleanScreenshot.slice(0, 23)).toBe('data:image/webp;base64,');
  expect(t.steps[1].timings.observeStages?.requestMs).toBeGreaterThan(0);
});

test('the worker stopped while an action runs: the click is not repeated and its step is kept', async () => {
  model = await startFakeModel({ apiKey: KEY, policy: (req) => GOALS(req.prompt) });
  const runId = await start(model);
  await expect.poll(() => clicks('slow'), { message: 'the slow button was clicked', timeout: 60_000, intervals: [20] }).toBe(1);
  // The page stays busy for ~4 s after the click, so the run is still settling after it.
  const mid = await send<RunView>('run/get', { runId });
  expect(mid.pending?.phase).toBe('act');
  await stopWorker();
  await until(runId, (r) => r.status !== 'running', 'the run ends after the restart');
  const t = await traceOf(runId);
  expectCompleteTrace(t);
  expect(t.steps[1].result).toEqual({ ok: true });
  expect(t.steps[1].observation).toBe('Success');
});

test('the worker stopped while an action waits for approval: it still waits, and runs once approved', async () => {
  model = await startFakeModel({ apiKey: KEY, policy: (req) => GOALS(req.prompt) });
  const runId = await start(model, { approveSteps: true });
  const waiting = await until(runId, (r) => r.pending?.phase === 'approve', 'the first action waits for approval');
  expect(waiting.pending?.approval?.target?.text).toBe('Step one');
  await stopWorker();
  const after = await until(runId, (r) => r.pending?.phase === 'approve', 'still waiting after the restart');
  expect(after.pending?.index).toBe(0);
  expect(clicks('one')).toBe(0);
  expect(model.requests.length).toBe(1);
  for (let i = 0; i < 3; i++) {
    await until(runId, (r) => r.pending?.phase === 'approve' && r.pending.index === i, `step ${i + 1} waits for approval`);
    await send('run/approve', { runId });
  }
  await until(runId, (r) => r.status !== 'running', 'the run ends');
  const t = await traceOf(runId);
  expectCompleteTrace(t);
  expect(t.steps.map((s) => s.approval?.decision)).toEqual(['approved', 'approved', 'approved']);
});

test('the run stops with the reason when its tab moves to a chrome:// page, or closes', async () => {
  let reached: () => void = () => undefined;
  const atHold = new Promise<void>((r) => { reached = r; });
  model = await startFakeModel({
    apiKey: KEY,
    policy: async () => { reached(); return new Promise<ModelReply>(() => undefined); },
  });
  const runId = await start(model);
  await atHold;
  const tab = browser.context.pages().find((p) => p.url().includes('/restart/index.html'));
  expect(tab, 'the run opened its tab').toBeTruthy();
  await tab!.goto('chrome://version').catch(() => undefined);
  const stopped = await until(runId, (r) => r.status !== 'running', 'the run stops');
  expect(stopped.status).toBe('stopped');
  expect(stopped.stopReason).toMatch(/chrome:\/\/.*extensions may not control/);

  const second = await start(model);
  await until(second, (r) => r.status === 'running' && (r.pending?.phase === 'model'), 'the second run asks the model');
  const tab2 = browser.context.pages().find((p) => p.url().includes('/restart/index.html'));
  await tab2!.close();
  const closed = await until(second, (r) => r.status !== 'running', 'the second run stops');
  expect(closed.stopReason).toBe('The run\'s tab was closed.');
});
