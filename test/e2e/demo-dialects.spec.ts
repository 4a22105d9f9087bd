/**
 * The no-model demo in every dialect (issue 45): `npm run demo-model`'s scripted model, with the
 * demo bookshop, plays the shop's task from the side panel in each dialect it speaks: glm-web by
 * the element list, the others by reading the screenshot on this machine (scripts/demo-look.ts),
 * each in its own grammar (scripts/demo-speakers.ts), so a person can try any of them without a
 * model. A dialect it cannot play (appagent) is told at once, in one request.
 */
import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { DEMO_MODEL, DEMO_SITE, NOT_PLAYED, PLAYED_DIALECTS, startDemoModel } from '../../scripts/demo-model';
import type { ChatServer } from '../../scripts/chat-server';
import { serveDir, type StaticServer } from '../../scripts/static-server';
import { panelSend, shareExtension, waitForRun, type SharedExtension } from './support';

let e: SharedExtension;
let model: ChatServer;
let shop: StaticServer;

shareExtension(async (shared) => {
  e = shared;
  model = await startDemoModel();
  shop = await serveDir(DEMO_SITE);
});
test.afterAll(async () => {
  await model?.close();
  await shop?.close();
});

const TASK = 'Find the price of the hardcover edition of "Clean Code"';

const runIds = async () => (await panelSend<{ runs: Array<{ id: string }> }>(e.panel, 'history/list', {})).runs.map((r) => r.id);

/**
 * Settings for the demo model in `dialect`, the shop open in a tab, the task started from the
 * panel: the page and the new run's id.
 */
async function startIn(dialect: string): Promise<{ page: Page; runId: string }> {
  await panelSend(e.panel, 'settings/patch', { set: { baseUrl: model.baseUrl, apiKey: '', model: DEMO_MODEL, dialect, approveSteps: false, language: 'en', maxSteps: 15 } });
  const page = await e.browser.context.newPage();
  await page.goto(`${shop.url}index.html`);
  await e.panel.reload();
  const before = new Set(await runIds());
  await e.panel.getByTestId('task').fill(TASK);
  await e.panel.getByTestId('start').click();
  let runId = '';
  await expect.poll(async () => (runId = (await runIds()).find((id) => !before.has(id)) ?? ''), { message: 'the run started' }).not.toBe('');
  return { page, runId };
}

for (const dialect of PLAYED_DIALECTS) {
  test(`${dialect}: the demo model plays the shop's task from the panel; the run answers the hardcover's price`, async () => {
    // the dialects other than glm-web read each screenshot with OCR on this machine: 11–14 s alone,
    // over 60 s on a loaded two-core machine (a fresh-clone CI run, 2026-12-01)
    test.setTimeout(240_000);
    const { page, runId } = await startIn(dialect);
    try {
      const run = await waitForRun(e.panel, runId, (r) => r.status !== 'running', `the ${dialect} run ends`, 180_000);
      expect(run.stopReason ?? null).toBeNull();
      expect([run.dialect, run.status, run.answer]).toEqual([dialect, 'finished', '$49.99']);
      await expect(e.panel.getByTestId('answer')).toContainText('$49.99');
      // it went through the shop: searched, opened the book, chose the hardcover in the Format list
      expect(run.steps.length).toBeGreaterThanOrEqual(4);
      await expect(page.locator('#buy')).toContainText('Hardcover');
    } finally {
      await page.close();
    }
  });
}

test('appagent: the demo model says at once that it cannot play it, in one request', async () => {
  const { page, runId } = await startIn('appagent');
  try {
    const run = await waitForRun(e.panel, runId, (r) => r.status !== 'running', 'the appagent run ends');
    await expect(e.panel.getByTestId('stop-reason')).toContainText('cannot play appagent');
    expect(run.status).toBe('failed');
    expect(run.steps).toHaveLength(0);
    expect(NOT_PLAYED).toContain('appagent');
  } finally {
    await page.close();
  }
});
