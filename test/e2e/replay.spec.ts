/**
 * Replay without the model: a recorded run's actions done again on the live site, targets found
 * by their stored fingerprints (not their old label numbers), through the real extension.
 * Between the run and its replay the fixture page changes (test/fixtures/pages/replay/common.js):
 * "shifted" puts three buttons first so every label number moves; "no-lamp" removes the target
 * of the second action, and the replay stops there, saying which step and why.
 */
import { test, expect, type Page } from './fixtures';
import type { Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import { cogPlayer } from '../fixtures/dialects/cogagent/player';
import { COLOURS } from '../fixtures/model/locate';
import { panelSend, shareExtension, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Trace } from '../../src/core/trace';

const KEY = 'sk-replay-1a2b3c4d5e';
let site: StaticServer;
let model: FakeModel;
let browser: Launched;
let panel: Page;

const models: FakeModel[] = [];
shareExtension(async (e) => {
  ({ site, browser, panel } = e);
  const policy = scriptedPolicy([
    { do: 'type', find: /Search lamps/, text: 'desk lamp' },
    { do: 'click', find: /^Desk lamp$/ },
    { do: 'click', find: /^Add to basket$/ },
    { do: 'answer', text: '$25' },
  ], 'plain');
  model = await startFakeModel({ apiKey: KEY, policy: (req) => policy(req.prompt) });
  models.push(model);
}, models);

function send<T>(type: string, payload: unknown): Promise<T> {
  return panelSend<T>(panel, type, payload);
}

function until(runId: string, ok: (r: RunView) => boolean, what: string): Promise<RunView> {
  return waitForRun(panel, runId, ok, what);
}

async function setLayout(layout: string): Promise<void> {
  const p = await browser.context.newPage();
  await p.goto(`${site.url}replay/index.html`);
  await p.evaluate((l) => localStorage.setItem('layout', l), layout);
  await p.close();
}

function count(type: string, value: string): number {
  return site.events.filter((e) => e.type === type && e.value === value).length;
}

function typedLabel(t: Trace): number | undefined {
  const a = t.steps.find((s) => s.action.type === 'type')?.action as { target?: { label?: number } } | undefined;
  return a?.target?.label;
}

let recorded = '';

test('a recorded run replays on a changed page, each target found by its fingerprint', async () => {
  await setLayout('plain');
  const { runId } = await send<{ runId: string }>('run/start', {
    task: 'Find the desk lamp, put it in the basket and tell me its price', url: `${site.url}replay/index.html`,
    config: { baseUrl: model.baseUrl, apiKey: KEY, model: 'glm-4.5v' },
  });
  recorded = runId;
  const done = await until(runId, (r) => r.status !== 'running', 'the recorded run ends');
  expect(done).toMatchObject({ status: 'finished', answer: '$25' });
  expect(count('search', 'desk lamp')).toBe(1);
  expect(count('click', 'Add to basket')).toBe(1);
  const requests = model.requests.length;
  const original = await send<Trace>('run/trace', { runId });

  await setLayout('shifted');
  const replay = await send<{ runId: string }>('run/replay', { runId, approveSteps: false });
  const after = await until(replay.runId, (r) => r.status !== 'running', 'the replay ends');
  expect(after.stopReason).toBeNull();
  expect(after).toMatchObject({ status: 'finished', answer: '$25' });
  // Everything happened again, without asking the model.
  expect(count('search', 'desk lamp')).toBe(2);
  expect(count('view', '/replay/item.html?name=Desk%20lamp')).toBe(2);
  expect(count('click', 'Add to basket')).toBe(2);
  expect(model.requests.length).toBe(requests);
  const replayed = await send<Trace>('run/trace', { runId: replay.runId });
  expect(replayed.steps.map((s) => s.action.type)).toEqual(original.steps.map((s) => s.action.type));
  // The labels moved (three buttons came first), and the replay followed the element, not the number.
  expect(typedLabel(replayed)).toBe((typedLabel(original) ?? -10) + 3);
  expect(replayed.steps[0].elements.find((e) => e.label === typedLabel(replayed))?.text).toBe('Search lamps');
});

test('the replay stops at the first target it cannot find and says which and why; by default it asks before each action', async () => {
  expect(recorded).not.toBe('');
  await setLayout('no-lamp');
  const before = count('click', 'Add to basket');
  const replay = await send<{ runId: string }>('run/replay', { runId: recorded });
  // Default: step by step, with the same approval controls as a run.
  const waiting = await until(replay.runId, (r) => r.pending?.phase === 'approve', 'the first replayed action waits');
  expect(waiting.pending?.approval?.target?.text).toBe('Search lamps');
  await send('run/approve', { runId: replay.runId });
  const stopped = await until(replay.runId, (r) => r.status !== 'running', 'the replay stops');
  expect(stopped.status).toBe('stopped');
  expect(stopped.stopReason).toContain('Replay stopped at recorded step 2: its target <a> "Desk lamp" was not found on');
  expect(stopped.stopReason).toContain('/replay/results.html');
  expect(count('click', 'Add to basket')).toBe(before);
});

test('the History view replays a run from its detail, asking before each action', async () => {
  expect(recorded).not.toBe('');
  await setLayout('plain');
  await panel.reload();
  await panel.getByTestId('view-history').click();
  await panel.locator(`[data-testid="history-run"][data-run-id="${recorded}"]`).getByTestId('open-run').click();
  await panel.getByTestId('detail-replay').click();
  await expect(panel.getByTestId('approval')).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByTestId('approval')).toContainText('Search lamps');
  await panel.getByTestId('stop').click();
  const runs = await send<{ runs: Array<{ id: string; summary: { task: string; status: string } }> }>('history/list', { query: 'Replay' });
  expect(runs.runs[0].summary.task).toBe('Replay: Find the desk lamp, put it in the basket and tell me its price');
  await expect.poll(async () => (await send<{ runs: Array<{ summary: { status: string } }> }>('history/list', { query: 'Replay' })).runs[0].summary.status).toBe('stopped');
});

test('a run in a coordinate dialect (cogagent: boxes on the screenshot) replays, each point\'s element found again', async () => {
  const play = cogPlayer([
    { do: 'type', colour: COLOURS.cyan, text: 'kettle', info: 'Search the shop' },
    { do: 'click', colour: COLOURS.magenta, info: 'Search' },
    { do: 'click', colour: COLOURS.yellow, info: 'Blue kettle, 1.7 l' },
    { do: 'answer', text: '42.50 EUR', colour: COLOURS.green },
  ]);
  const cog = await startFakeModel({ apiKey: KEY, dialect: 'cogagent', models: ['cogagent-9b-20241220'], policy: (req) => play(req.cogagent ?? null, req.llm ?? null) });
  try {
    const { runId } = await send<{ runId: string }>('run/start', {
      task: 'What does the blue kettle cost?', url: `${site.url}dialects/shop.html`,
      config: { baseUrl: cog.baseUrl, apiKey: KEY, model: 'cogagent-9b-20241220', dialect: 'cogagent' },
    });
    const done = await until(runId, (r) => r.status !== 'running', 'the cogagent run ends');
    expect(done, `${done.stopReason} ${cog.violations().join('; ')}`).toMatchObject({ status: 'finished', answer: '42.50 EUR', dialect: 'cogagent' });
    expect(cog.violations()).toEqual([]);
    const asked = cog.requests.length;
    const original = await send<Trace>('run/trace', { runId });
    expect(original.steps.slice(0, 3).map((s) => s.action.type === 'finish' ? 'finish' : (s.action as { target?: { kind: string } }).target?.kind)).toEqual(['point', 'point', 'point']);
    const searched = site.events.filter((e) => e.type === 'search').length;

    const replay = await send<{ runId: string }>('run/replay', { runId, approveSteps: false });
    const after = await until(replay.runId, (r) => r.status !== 'running', 'the replay ends');
    expect(after.stopReason).toBeNull();
    expect(after).toMatchObject({ status: 'finished', answer: '42.50 EUR' });
    expect(site.events.filter((e) => e.type === 'search').length).toBe(searched + 1);
    expect(cog.requests.length).toBe(asked);
    const replayed = await send<Trace>('run/trace', { runId: replay.runId });
    // written in the recorded run's grammar, the same elements acted on
    expect(replayed.steps.map((s) => s.actionText.split('(')[0])).toEqual(original.steps.map((s) => s.actionText.split('(')[0]));
    expect(replayed.steps.map((s) => s.target?.text)).toEqual(original.steps.map((s) => s.target?.text));
  } finally {
    await cog.close();
  }
});
