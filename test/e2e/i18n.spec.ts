/**
 * The Chinese interface (issue 11 item 12): the language chosen in Settings applies at once (no
 * reload) and is saved; History and a run's detail speak it; the HTML report exported from the
 * panel is written in it (lang zh-CN, its player's words too); the model's prompts stay English;
 * English comes back the same way. One browser for the whole file; the panel at
 * the side panel's size (360x800).
 */
import { test, expect, type Page } from './fixtures';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import { panelSend, ROOT, shareExtension, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { Settings } from '../../src/core/settings';

const KEY = 'sk-i18n-5c6d7e8f';
const TASK = 'Find the tomato soup recipe and tell me its name';
const HAN = /\p{Script=Han}/u;

test.describe.configure({ mode: 'serial' });

let site: StaticServer;
let model: FakeModel;
let browser: Launched;
let panel: Page;
let runId = '';
let steps = 0;

const models: FakeModel[] = [];
shareExtension(async (e) => {
  ({ site, browser, panel } = e);
  const policy = scriptedPolicy([
    { do: 'type', find: /soup|find a recipe/i, text: 'tomato' },
    { do: 'click', find: /Roasted Tomato Soup/ },
    { do: 'answer', text: 'Roasted Tomato Soup' },
  ], 'plain');
  model = await startFakeModel({ apiKey: KEY, policy: (req) => policy(req.prompt) });
  models.push(model);
  await panel.setViewportSize({ width: 360, height: 800 }); // the side panel's size
  await panelSend(panel, 'settings/patch', { set: { baseUrl: model.baseUrl, apiKey: KEY, model: 'glm-4.5v' } });
}, models);

/** Picks a language in the Settings form (in the Run view), as a person does. */
async function chooseLanguage(value: 'zh_CN' | 'en'): Promise<void> {
  await panel.getByTestId('view-run').click();
  const select = panel.getByTestId('setting-language');
  if (!(await select.isVisible())) await panel.getByTestId('settings').locator('summary').first().click();
  await select.selectOption(value);
}

test('Chinese from the Settings select: at once, saved; History and a run\'s detail in Chinese; prompts stay English', async () => {
  await expect(panel.getByTestId('view-history')).toHaveText('History');
  await panel.evaluate(() => { (window as unknown as { notReloaded: boolean }).notReloaded = true; });
  // a message of ours already shown changes language with the panel ("Saved." stayed English)
  if (!(await panel.getByTestId('save-settings').isVisible())) await panel.getByTestId('settings').locator('summary').first().click();
  await panel.getByTestId('save-settings').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved.');
  await chooseLanguage('zh_CN');
  await expect(panel.getByTestId('view-history')).toHaveText('历史');
  await expect(panel.getByTestId('settings-status')).toHaveText('已保存。');
  await expect(panel.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect.poll(async () => (await panelSend<Settings>(panel, 'settings/get', {})).language, { message: 'the language is saved' }).toBe('zh_CN');

  ({ runId } = await panelSend<{ runId: string }>(panel, 'run/start', { task: TASK, url: `${site.url}recipes/index.html` }));
  const run = await waitForRun(panel, runId, (r) => r.status === 'finished', 'the run finishes');
  steps = run.steps.length;
  expect(steps).toBeGreaterThanOrEqual(3);
  // The Run view in Chinese: the run bar and the totals.
  await expect(panel.getByTestId('run-state')).toHaveText('完成');
  await expect(panel.getByTestId('run-step')).toHaveText(`共 ${steps} 步`);
  await expect(panel.getByTestId('run-total-tokens')).toContainText('个 token');
  await expect(panel.getByTestId('step').first().getByTestId('step-timings')).toContainText('观察');
  // What the model reads is untouched: English prompts in the seed format.
  expect(model.violations()).toEqual([]);
  const sent = model.requests.map((r) => JSON.stringify(r.body.messages)).join('\n');
  expect(sent).toContain(TASK);
  expect(HAN.test(sent), 'no Chinese in what the model was sent').toBe(false);

  await panel.getByTestId('view-history').click();
  const row = panel.getByTestId('history-run').filter({ has: panel.getByText(TASK, { exact: true }) });
  await expect(row.getByTestId('run-status')).toHaveText('已完成');
  await expect(row.getByTestId('run-steps')).toHaveText(`${steps} 步`);
  await expect(row.getByTestId('run-answer')).toHaveText('答案： Roasted Tomato Soup');
  await expect(row.getByTestId('open-run')).toHaveText('打开');
  // its cost, and the totals per day and per model, in Chinese and the panel's number format
  const listed = (await panelSend<{ runs: Array<{ id: string; summary: { cost?: number | null } }> }>(panel, 'history/list', {})).runs;
  const cost = listed.find((r) => r.id === runId)!.summary.cost!;
  const money = new Intl.NumberFormat('zh-CN', { style: 'currency', currency: 'USD', minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(cost);
  await expect(row.getByTestId('run-cost')).toHaveText(money);
  const totals = panel.getByTestId('cost-totals');
  await expect(totals.getByTestId('cost-total')).toContainText(`费用：`);
  await expect(totals.getByTestId('cost-total')).toContainText(`次运行）`);
  await totals.getByTestId('cost-total').click();
  await expect(totals).toContainText('按日');
  await expect(totals).toContainText('按模型');
  await expect(totals.getByTestId('cost-by-model').getByTestId('cost-row').first()).toHaveAttribute('data-key', 'glm-4.5v');
  // nothing of it wider than the 360 px panel
  expect(await totals.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expect(panel.getByTestId('history-search')).toHaveAttribute('placeholder', '任务、网站、答案…');
  mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
  await panel.screenshot({ path: path.join(ROOT, 'test-results', 'i18n-history-zh-360.png') });

  await row.getByTestId('open-run').click();
  await expect(panel.getByTestId('run-detail')).toBeVisible();
  await expect(panel.getByTestId('back-to-history')).toHaveText('← 历史');
  await expect(panel.getByTestId('detail-status')).toHaveText('已完成');
  await expect(panel.getByTestId('export-html')).toHaveText('HTML 报告');
  await expect(panel.getByTestId('exports')).toContainText('不含截图');
  await panel.getByTestId('expand-all').click();
  const first = panel.getByTestId('detail-step').first();
  await expect(first.getByTestId('step-toggle')).toContainText('第 1 步：');
  await expect(first.getByTestId('detail-approval')).toHaveText('自动（未请求批准）');
  await expect(first.getByTestId('elements-section').locator('summary')).toHaveText(/^元素（\d+）$/);
  await expect(first.getByTestId('shot-labelled')).toHaveAttribute('alt', '第 1 步的带标签截图');
  expect(await panel.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  await panel.getByTestId('collapse-all').click();
  expect(await panel.evaluate(() => document.documentElement.scrollWidth), 'nothing wider than the panel').toBeLessThanOrEqual(360);
  await panel.evaluate(() => scrollTo(0, 0));
  await panel.screenshot({ path: path.join(ROOT, 'test-results', 'i18n-panel-zh-360.png') });
});

test('the HTML report exported from the Chinese panel is written in Chinese, its player too', async () => {
  const [dl] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('export-html').click()]);
  const file = await dl.path();
  await expect(panel.getByTestId('export-status')).toHaveClass('note'); // saved, not failed
  const html = readFileSync(file, 'utf8');
  expect(html).toContain('<html lang="zh-CN">');
  expect(html).toContain(`<title>运行报告：${TASK}</title>`);
  expect(html).not.toContain('Run report');

  const page = await browser.context.newPage();
  try {
    const named = test.info().outputPath(dl.suggestedFilename()); // the download's own path has no .html
    writeFileSync(named, html);
    await page.goto(pathToFileURL(named).href);
    await expect(page.locator('#steps-h')).toHaveText('所有步骤');
    await expect(page.locator('#status')).toContainText('已完成');
    await expect(page.locator('#counter')).toHaveText(`第 1 步，共 ${steps} 步`); // written by the report's script
    await expect(page.locator('#next')).toHaveText('下一步 →');
    await expect(page.locator('.fact[data-key="steps"] dt')).toHaveText('步数');
  } finally {
    await page.close();
  }
});

test('a run started in Chinese says why it stopped in Chinese', async () => {
  await panel.getByTestId('view-run').click();
  const { runId: id } = await panelSend<{ runId: string }>(panel, 'run/start', { task: TASK, url: `${site.url}recipes/index.html` });
  await panelSend(panel, 'run/stop', { runId: id });
  const run = await waitForRun(panel, id, (r) => r.status === 'stopped', 'the run stops');
  expect(run.stopReason).toBe('已被用户停止。');
  await expect(panel.getByTestId('stop-reason')).toHaveText('运行已停止：已被用户停止。');
});

test('back to English from the same select, without a reload', async () => {
  await expect(panel.getByTestId('view-run')).toHaveText('运行');
  await chooseLanguage('en');
  await expect(panel.getByTestId('view-run')).toHaveText('Run');
  await expect(panel.getByTestId('view-history')).toHaveText('History');
  await expect(panel.locator('html')).toHaveAttribute('lang', 'en');
  await panel.getByTestId('view-history').click();
  const row = panel.getByTestId('history-run').filter({ has: panel.getByTestId('run-status').getByText('finished', { exact: true }) });
  await expect(row.getByTestId('run-steps')).toHaveText(`${steps} steps`);
  await expect(panel.getByTestId('history-run').getByTestId('run-status')).toHaveText(['stopped', 'finished']);
  await row.getByTestId('open-run').click();
  await expect(panel.getByTestId('back-to-history')).toHaveText('← History');
  await expect(panel.getByTestId('detail-status')).toHaveText('finished');
  await expect(panel.getByTestId('expand-all')).toHaveText('Expand all steps');
  expect(await panel.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await expect.poll(async () => (await panelSend<Settings>(panel, 'settings/get', {})).language).toBe('en');

  const [dl] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('export-html').click()]);
  const html = readFileSync((await dl.path())!, 'utf8');
  expect(html).toContain('<html lang="en">');
  expect(html).toContain(`<title>Run report: ${TASK}</title>`);
});
