/**
 * Storage near its quota, and the person's Storage line (docs/storage.md). The extension's origin
 * gets a small quota (DevTools' Storage.overrideQuotaForOrigin: the browser refuses writes past it,
 * though navigator.storage.estimate still states the usual quota, so it is the refused write that
 * makes room here): runs go on past it, the oldest runs lose their screenshots first, never their
 * steps or answers, and History says so. Then Settings → Storage shows what the runs use and clears
 * old ones. Its own browser (the quota is the browser's, kept past a pool reset), tests in order.
 */
import { test, expect, type Page } from './fixtures';
import { launchWithExtension, openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type ModelReply } from '../fixtures/model/server';
import { labelIn, panelSend, serveFixtures, stopWorker, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { ViewMessages } from '../../src/core/messages';

test.describe.configure({ mode: 'serial' });

const KEY = 'sk-storage-77';
let site: StaticServer;
let model: FakeModel;
let browser: Launched;
let panel: Page;

type Listed = ViewMessages['history/list']['res'];
type Usage = ViewMessages['storage/usage']['res'];

function reply(action: string): ModelReply {
  return { content: `Thought: next.\nAction: ${action}\nMemory_Updated: {}` };
}

test.beforeAll(async () => {
  site = await serveFixtures();
  model = await startFakeModel({
    apiKey: KEY,
    policy: (q) => {
      const done = q.prompt?.history.length ?? 0;
      if (done === 0) return reply(`Click [${labelIn(q, /^Username$/)}]`);
      if (done === 1) return reply(`Click [${labelIn(q, /^Password$/)}]`);
      return reply(`ANSWER; <content>${q.prompt?.task} done</content>`);
    },
  });
  browser = await launchWithExtension({});
  panel = await openPanel(browser);
  // the noise is no text: OCR of it (readPictures) would only slow every step
  await panelSend(panel, 'settings/patch', { set: { baseUrl: model.baseUrl, apiKey: KEY, model: 'glm-4.5v', readPictures: false } });
});

test.afterAll(async () => {
  await browser?.close();
  await model?.close();
  await site?.close();
});

async function runTask(task: string): Promise<string> {
  const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', { task, url: `${site.url}storage/noisy.html` });
  const run = await waitForRun(panel, runId, (r) => r.status !== 'running', `"${task}" ends`);
  expect(run.status, `"${task}" ${run.stopReason ?? ''}`).toBe('finished');
  expect(run.answer).toBe(`${task} done`);
  return runId;
}

const listed = () => panelSend<Listed>(panel, 'history/list', {});
const usage = () => panelSend<Usage>(panel, 'storage/usage', {});
const shot = (runId: string, index: number) => panelSend<string | null>(panel, 'run/screenshot', { runId, index, kind: 'labelled' });

test('near a small quota the oldest runs lose their screenshots first, runs go on, and History says so', async () => {
  test.setTimeout(240_000);
  const estimate = () => panel.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  const cdp = await browser.context.newCDPSession(panel);
  const origin = `chrome-extension://${browser.extensionId}`;
  // what one run keeps, its screenshots most of it
  const start = await estimate();
  await runTask('run 0');
  const perRun = (await estimate()) - start;
  const one = await usage();
  expect(one.shotBytes, 'the screenshots are most of a run').toBeGreaterThan(perRun / 2);
  // A quota of about three runs. The browser holds an origin's new quota to storage opened after
  // it: the runs database is cleared and its worker stopped, so the runs below start under it.
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: Math.round(start + perRun * 3) });
  await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'indexeddb' });
  await stopWorker(browser.context, browser.extensionId, panel);
  expect((await listed()).runs).toHaveLength(0);

  const ids: string[] = [];
  for (let i = 1; i <= 6; i++) ids.push(await runTask(`run ${i}`));
  const first = ids[0];
  const last = ids[ids.length - 1];

  const { runs, pruned } = await listed();
  const byId = new Map(runs.map((r) => [r.id, r.summary]));
  // every run and its answer is kept
  expect(runs).toHaveLength(6);
  for (const [i, id] of ids.entries()) expect(byId.get(id)?.answer).toBe(`run ${i + 1} done`);
  // screenshots went, oldest first: the first run lost them, the last kept them
  expect(byId.get(first)?.shotsRemoved).toBeGreaterThan(0);
  expect(await shot(first, 0)).toBeNull();
  expect(byId.get(last)?.shotsRemoved).toBeUndefined();
  expect(await shot(last, 0)).toMatch(/^data:image\//);
  const removed = ids.map((id) => !!byId.get(id)?.shotsRemoved);
  expect(removed, 'no run kept its screenshots while a newer one lost them').toEqual([...removed].sort((a, b) => Number(b) - Number(a)));
  expect(pruned).toMatchObject({ runs: expect.any(Number), bytes: expect.any(Number) });
  expect(pruned!.runs).toBeGreaterThan(0);

  // what the person sees: History's notice, the run's tag, its steps still open
  await panel.getByTestId('view-history').click();
  await expect(panel.getByTestId('pruned-notice')).toContainText('the browser\'s storage for the extension was nearly full');
  await expect(panel.getByTestId('pruned-notice')).toContainText('steps, answer');
  const firstRow = panel.getByTestId('history-run').filter({ has: panel.getByTestId('run-task').getByText('run 1', { exact: true }) });
  await expect(firstRow.getByTestId('shots-removed-tag')).toHaveText('no screenshots');
  const lastRow = panel.getByTestId('history-run').filter({ has: panel.getByTestId('run-task').getByText('run 6', { exact: true }) });
  await expect(lastRow.getByTestId('shots-removed-tag')).toHaveCount(0);
  await firstRow.getByTestId('open-run').click();
  await expect(panel.getByTestId('detail-step')).toHaveCount(3);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  await cdp.detach();
});

test('Settings → Storage shows what runs use and clears old ones', async () => {
  await panel.getByTestId('view-run').click();
  await panel.getByTestId('settings').evaluate((el) => { (el as HTMLDetailsElement).open = true; });
  const section = panel.getByTestId('storage-section');
  await section.locator('summary').click();
  const before = await usage();
  expect(before.runs).toBe(6);
  await expect(section.getByTestId('storage-line')).toContainText('6 runs kept; their screenshots use');
  await expect(section.getByTestId('storage-line')).toContainText('used');

  // runs older than 7 days: none here
  await section.getByTestId('storage-age').selectOption('7');
  await section.getByTestId('clear-shots').click();
  await expect(section.getByTestId('storage-status')).toHaveText(/^Removed the screenshots of 0 runs/);
  expect((await usage()).shotBytes).toBe(before.shotBytes);

  // every finished run: their screenshots, then the runs, asked first
  const withShots = (await listed()).runs.filter((r) => !r.summary.shotsRemoved).length;
  expect(withShots).toBeGreaterThan(0);
  await section.getByTestId('storage-age').selectOption('0');
  await section.getByTestId('clear-shots').click();
  await expect(section.getByTestId('storage-status')).toHaveText(new RegExp(`^Removed the screenshots of ${withShots} runs? \\(.+\\)\\. `));
  const after = await usage();
  expect(after).toMatchObject({ runs: 6, shots: 0, shotBytes: 0 });
  await expect(section.getByTestId('storage-line')).toContainText('6 runs kept; their screenshots use 0 B.');
  expect((await listed()).runs.every((r) => r.summary.answer?.endsWith('done'))).toBe(true);

  await section.getByTestId('clear-runs').click();
  await expect(section.getByTestId('clear-runs-confirm')).toContainText('Delete all finished runs, with their steps, answers and screenshots?');
  await section.getByTestId('cancel-clear-runs').click();
  expect((await listed()).runs).toHaveLength(6);
  await section.getByTestId('clear-runs').click();
  await section.getByTestId('confirm-clear-runs').click();
  await expect(section.getByTestId('storage-status')).toHaveText('Deleted 6 runs (0 B of screenshots).');
  expect((await listed()).runs).toHaveLength(0);
  await expect(section.getByTestId('storage-line')).toContainText('0 runs kept');
});
