/**
 * Saved tasks (issue 46, item 5; docs/templates.md): a task typed in the side panel is saved with
 * its start page, dialect and attached file; started from the list it runs in the panel's tab with
 * all of them; exported, the same file runs headless through the runner (--task-file) unchanged
 * and imports back into the list; a file with a field this version does not know is refused with
 * the reason. The panel at the side panel's size (360 px), in English and in Chinese.
 */
import { test, expect, useAgent } from './fixtures';
import type { Page } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import { panelSend, shareExtension, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Trace } from '../../src/core/trace';
import { readTemplateFile } from '../../src/core/templates';

const agent = useAgent();
const KEY = 'sk-saved-tasks-1a2b3c';
const TASK = 'Upload my notes and say when it is done';
const NOTES = Buffer.from('Notes kept with the saved task\n');

let site: StaticServer;
let browser: Launched;
let panel: Page;
let model: FakeModel;
const models: FakeModel[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'webagent-saved-'));
let exported = '';

test.describe.configure({ mode: 'serial' });

shareExtension(async (e) => {
  ({ site, browser, panel } = e);
  model = await startFakeModel({ apiKey: KEY, policy: (req) => scriptedPolicy([{ do: 'answer', text: 'done' }], 'plain')(req.prompt) });
  models.push(model);
  await panel.setViewportSize({ width: 360, height: 800 });
  await panelSend(panel, 'settings/patch', { set: { baseUrl: model.baseUrl, apiKey: KEY, model: 'glm-4.5v', dialect: 'glm-web' } });
}, models);
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const saved = () => panel.getByTestId('saved-tasks');

test('a task saved with its page, dialect and file starts from the list with all of them', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${site.url}files/upload.html`);
  await panel.getByTestId('attach-input').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: NOTES }]);
  await panel.getByTestId('task').fill(TASK);
  await saved().locator('summary').click();
  await expect(saved().getByTestId('tpl-empty')).toBeVisible();
  await saved().getByTestId('tpl-name').fill('Notes upload');
  await saved().getByTestId('tpl-save').click();
  await expect(saved().getByTestId('tpl-notice')).toHaveText('Saved "Notes upload".');
  const row = saved().getByTestId('tpl');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('tpl-title')).toHaveText('Notes upload');
  await expect(row.getByTestId('tpl-page')).toHaveText(new URL(site.url).host);
  await expect(row.getByTestId('tpl-dialect')).toHaveText('glm-web');
  await expect(row.getByTestId('tpl-files')).toHaveText('1 file');
  await expect(saved().locator('summary')).toHaveText('Saved tasks (1)');
  // nothing of it wider than the panel
  expect(await saved().evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  // the attached file went with the next run as usual: none left staged, yet the saved task keeps its own copy
  await panel.getByTestId('attach-input').setInputFiles([]);
  await panelSend(panel, 'files/remove', {});
  await page.goto(`${site.url}recipes/index.html`); // elsewhere: the saved task goes back to its own page
  await row.getByTestId('tpl-start').click();
  const run = await expect.poll(async () => (await panelSend<RunView | null>(panel, 'run/get', {}))?.task ?? null).toBe(TASK)
    .then(() => panelSend<RunView>(panel, 'run/get', {}));
  const done = await waitForRun(panel, run.id, (r) => r.status !== 'running', 'the saved task\'s run ends');
  expect(done.status).toBe('finished');
  expect(done.startUrl).toBe(`${site.url}files/upload.html`);
  expect(done.dialect).toBe('glm-web');
  expect(done.files?.map((f) => `${f.name} ${f.size}`)).toEqual([`notes.txt ${NOTES.length}`]);
  await expect.poll(() => page.url()).toBe(`${site.url}files/upload.html`);
  // the model was asked the saved task, on the saved page
  expect(model.requests.at(-1)?.prompt?.task).toBe(TASK);
  await page.close();
});

test('exported, the same file runs through the runner and imports back; an unknown field is refused with the reason', async () => {
  const row = saved().getByTestId('tpl');
  const [dl] = await Promise.all([panel.waitForEvent('download'), row.getByTestId('tpl-export').click()]);
  expect(dl.suggestedFilename()).toBe('Notes-upload.webagent-task.json');
  exported = path.join(dir, dl.suggestedFilename());
  await dl.saveAs(exported);
  const read = readTemplateFile(JSON.parse(readFileSync(exported, 'utf8')));
  expect(read.ok && read.templates).toEqual([{ name: 'Notes upload', task: TASK, startUrl: `${site.url}files/upload.html`, dialect: 'glm-web', files: [{ name: 'notes.txt', type: 'text/plain', base64: NOTES.toString('base64') }] }]);

  // headless, unchanged: its task, page, dialect and file
  const trace = path.join(dir, 'trace.json');
  const r = await agent.run(['--task-file', exported, '--base-url', model.baseUrl, '--trace', trace], { VLM_API_KEY: KEY });
  expect(r.code, r.stderr).toBe(0);
  const t = JSON.parse(readFileSync(trace, 'utf8')) as Trace;
  expect(t.run.task).toBe(TASK);
  expect(t.run.startUrl).toBe(`${site.url}files/upload.html`);
  expect(t.run.dialect).toBe('glm-web');
  expect(t.run.files?.map((f) => `${f.name} ${f.size}`)).toEqual([`notes.txt ${NOTES.length}`]);
  const both = await agent.run(['--task-file', exported, '--task', 'x', '--base-url', model.baseUrl], { VLM_API_KEY: KEY });
  expect(both.code).toBe(2);
  expect(both.stderr).toContain('Give --task or --task-file, not both.');

  // deleted, then imported back from the file
  await row.getByTestId('tpl-delete').click();
  await expect(saved().getByTestId('tpl')).toHaveCount(0);
  await saved().getByTestId('tpl-import-file').setInputFiles(exported);
  await expect(saved().getByTestId('tpl-notice')).toHaveText(`Imported 1 saved task from ${path.basename(exported)}.`);
  await expect(saved().getByTestId('tpl-title')).toHaveText(['Notes upload']);

  // a saved task with a field this version does not know (a later version's limit) is not taken, and says why
  const doc = JSON.parse(readFileSync(exported, 'utf8'));
  doc.tasks.push({ name: 'Limited', task: 'Buy it', sites: ['shop.example'] });
  const odd = path.join(dir, 'odd.json');
  writeFileSync(odd, JSON.stringify(doc));
  await saved().getByTestId('tpl-import-file').setInputFiles(odd);
  await expect(saved().getByTestId('tpl-refused-line')).toHaveText(['Task 2 of the file was not imported: it has "sites", which this version does not know (a newer version\'s file?); nothing of it was taken.']);
  await expect(saved().getByTestId('tpl-title')).toHaveText(['Notes upload', 'Notes upload']);
  const r2 = await agent.run(['--task-file', odd, '--base-url', model.baseUrl], { VLM_API_KEY: KEY });
  expect(r2.code).toBe(2);
  expect(r2.stderr).toContain('task 2: it has "sites", which this version does not know');
});

test('in Chinese at 360 px', async () => {
  await panelSend(panel, 'settings/patch', { set: { language: 'zh_CN' } });
  await expect(saved().locator('summary')).toHaveText('保存的任务（2）');
  await expect(saved().getByTestId('tpl-save')).toHaveText('保存任务');
  await expect(saved().getByTestId('tpl-files').first()).toHaveText('1 个文件');
  expect(await saved().evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await panelSend(panel, 'settings/patch', { set: { language: 'en' } });
  await expect(saved().locator('summary')).toHaveText('Saved tasks (2)');
});
