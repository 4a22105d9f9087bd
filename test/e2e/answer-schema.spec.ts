/**
 * Structured answers (issue 46, item 2; docs/answer-schema.md) through the built extension: a JSON
 * Schema given in the side panel's field, by the runner (--answer-schema) and in a batch task is
 * told to the model; an answer that does not match goes back to the model with the validator's
 * message and a later one that matches finishes the run; the JSON answer shows in the panel, is
 * printed by the runner and kept in the trace, result.json and results.jsonl, and the judge reads
 * it; answers that never match stop the run with the reason; a schema that cannot be used is
 * refused before anything starts. The panel at 360 px, in English and in Chinese.
 */
import { test, expect, useAgent } from './fixtures';
import type { Page } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Launched } from '../../scripts/browser';
import type { FakeModel, RecordedRequest } from '../fixtures/model/server';
import { panelSend, sharePanelWithModel, spawnScript, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Trace } from '../../src/core/trace';
import type { TaskResult } from '../../src/core/batch/types';

const agent = useAgent();
const KEY = 'sk-answer-schema-4d5e6f';
const SCHEMA = { type: 'object', properties: { title: { type: 'string' }, price: { type: 'number' } }, required: ['title', 'price'] };
/** a task with this word is answered wrongly every time */
const STUBBORN = 'stubbornly';

/**
 * The model: told no schema, it answers in words; told one, it first gives the price as a string,
 * and once told that did not match, gives the JSON with a number inside a sentence (read out of it).
 */
function answers(req: RecordedRequest): { content: string } {
  const text = req.prompt?.text ?? '';
  const told = text.includes('matches this JSON Schema');
  const refused = text.includes('does not match the JSON Schema');
  const content = !told ? 'Dune costs 9.50' : refused && !text.includes(STUBBORN) ? 'Here it is: {"title": "Dune", "price": 9.5}' : '{"title": "Dune", "price": "9.50"}';
  return { content: `Thought: I have read the price.\nAction: ANSWER; <content>${content}</content>\nMemory_Updated: {}` };
}

let site: StaticServer;
let browser: Launched;
let panel: Page;
let model: FakeModel;
const dir = mkdtempSync(path.join(tmpdir(), 'webagent-answer-schema-'));
const schemaFile = path.join(dir, 'price.schema.json');
writeFileSync(schemaFile, JSON.stringify(SCHEMA));

test.describe.configure({ mode: 'serial' });

sharePanelWithModel({ apiKey: KEY, judge: true, policy: (req) => answers(req) }, (e) => ({ site, browser, panel, model } = e));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the panel: a refused answer goes back to the model, the matching JSON shows; a schema that is not JSON is refused before the run', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${site.url}recipes/index.html`);
  await panel.getByTestId('task').fill('What does Dune cost?');
  // an unusable schema: said at Start, nothing started
  const box = panel.getByTestId('answer-schema-box');
  await box.locator('summary').click();
  await panel.getByTestId('answer-schema').fill('{"type": "object", properties: {}}');
  const asked = model.requests.length;
  await panel.getByTestId('start').click();
  await expect(panel.getByTestId('start-error')).toContainText('The answer schema cannot be used: it is not JSON (');
  await panel.getByTestId('answer-schema').fill(JSON.stringify({ type: 'objekt' }));
  await panel.getByTestId('start').click();
  await expect(panel.getByTestId('start-error')).toHaveText('The answer schema cannot be used: /type must be one of null, boolean, object, array, number, string, integer (or a list of them).');
  expect(model.requests.length).toBe(asked);

  await panel.getByTestId('answer-schema').fill(JSON.stringify(SCHEMA, null, 2));
  await panel.getByTestId('start').click();
  const started = await expect.poll(async () => (await panelSend<RunView | null>(panel, 'run/get', {}))?.task ?? null).toBe('What does Dune cost?')
    .then(() => panelSend<RunView>(panel, 'run/get', {}));
  const done = await waitForRun(panel, started.id, (r) => r.status !== 'running', 'the run with a schema ends');
  expect(done.status).toBe('finished');
  expect(done.answersRefused).toBe(1);
  expect(done.answerJson).toEqual({ title: 'Dune', price: 9.5 });
  // the model was told the schema, then why its first answer was refused
  const mine = model.requests.slice(asked);
  expect(mine).toHaveLength(2);
  expect(mine[0].prompt?.text).toContain(`that matches this JSON Schema: ${JSON.stringify(SCHEMA)}`);
  expect(mine[1].prompt?.text).toContain('The answer does not match the JSON Schema the task gave: at /price: Instance type "string" is invalid. Expected "number". Give the answer again');
  expect(done.steps[0].result).toMatchObject({ ok: false });
  await expect(panel.getByTestId('answer-json')).toHaveText(JSON.stringify({ title: 'Dune', price: 9.5 }, null, 2));
  expect(await panel.locator('main.view-run').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  // saved with the task, and put back in the field by Use
  const saved = panel.getByTestId('saved-tasks');
  await saved.locator('summary').click();
  await saved.getByTestId('tpl-name').fill('Dune price');
  await saved.getByTestId('tpl-save').click();
  await expect(saved.getByTestId('tpl-schema')).toHaveText('answer schema');
  await panel.getByTestId('answer-schema').fill('');
  await saved.getByTestId('tpl-use').click();
  await expect(panel.getByTestId('answer-schema')).toHaveValue(JSON.stringify(SCHEMA, null, 2));
  const file = await panelSend<{ text: string }>(panel, 'templates/export', {});
  expect(JSON.parse(file.text).tasks[0]).toMatchObject({ name: 'Dune price', answerSchema: SCHEMA });

  // History's run detail shows the JSON answer too
  await panel.getByTestId('view-history').click();
  await panel.locator(`[data-testid="history-run"][data-run-id="${done.id}"]`).getByTestId('open-run').click();
  await expect(panel.getByTestId('detail-answer').getByTestId('answer-json')).toContainText('"price": 9.5');
  await panel.getByTestId('view-run').click();
  await page.close();
});

test('in Chinese at 360 px', async () => {
  await panelSend(panel, 'settings/patch', { set: { language: 'zh_CN' } });
  const box = panel.getByTestId('answer-schema-box');
  await expect(box.locator('summary')).toHaveText('答案格式（可选）');
  await expect(panel.getByTestId('answer-json')).toBeVisible();
  expect(await panel.locator('main.view-run').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await panel.getByTestId('answer-schema').fill('[');
  await panel.getByTestId('start').click();
  await expect(panel.getByTestId('start-error')).toContainText('答案格式（JSON Schema）无法使用：it is not JSON');
  await panelSend(panel, 'settings/patch', { set: { language: 'en' } });
  await panel.getByTestId('answer-schema').fill('');
});

test('the runner: --answer-schema prints the JSON and keeps it in the trace; answers that never match stop the run; a bad schema file is refused', async () => {
  const trace = path.join(dir, 'runner.json');
  const r = await agent.run(['--task', 'What does Dune cost?', '--url', `${site.url}recipes/index.html`, '--base-url', model.baseUrl, '--answer-schema', schemaFile, '--trace', trace], { VLM_API_KEY: KEY });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('ANSWER_JSON: {"title":"Dune","price":9.5}');
  expect(r.stdout.trim().split('\n').at(-1)).toBe('ANSWER: Here it is: {"title": "Dune", "price": 9.5}');
  const t = JSON.parse(readFileSync(trace, 'utf8')) as Trace;
  expect(t.run).toMatchObject({ answerSchema: SCHEMA, answerJson: { title: 'Dune', price: 9.5 }, answersRefused: 1, status: 'finished' });

  const stubborn = path.join(dir, 'stubborn.json');
  const s = await agent.run(['--task', `Say ${STUBBORN} what Dune costs`, '--url', `${site.url}recipes/index.html`, '--base-url', model.baseUrl, '--answer-schema', schemaFile, '--trace', stubborn], { VLM_API_KEY: KEY });
  expect(s.code).toBe(1);
  expect(s.stderr).toContain('Failed: The model\'s answer did not match the task\'s answer schema 3 times, so the run stopped. The last problem: at /price: Instance type "string" is invalid.');
  const st = JSON.parse(readFileSync(stubborn, 'utf8')) as Trace;
  expect(st.run).toMatchObject({ status: 'failed', answersRefused: 3 });
  expect(st.run.answerJson).toBeUndefined();
  expect(st.steps).toHaveLength(3);

  const bad = path.join(dir, 'bad.schema.json');
  writeFileSync(bad, '{"required": "title"}');
  const b = await agent.run(['--task', 'x', '--url', `${site.url}recipes/index.html`, '--base-url', model.baseUrl, '--answer-schema', bad], { VLM_API_KEY: KEY });
  expect(b.code).toBe(2);
  expect(b.stderr).toContain(`--answer-schema ${bad}: /required must be a list of property names.`);
});

test('a batch task\'s answerSchema: the JSON answer in result.json and results.jsonl, and the judge reads it', async () => {
  test.setTimeout(180_000);
  const tasks = path.join(dir, 'tasks.json');
  writeFileSync(tasks, JSON.stringify([{ id: 'Price--0', task: 'What does Dune cost?', url: `${site.url}recipes/index.html`, answerSchema: SCHEMA }]));
  const out = path.join(dir, 'out');
  const judged = model.judgings.length;
  const r = await spawnScript('batch', ['--tasks', tasks, '--out', out, '--base-url', model.baseUrl, '--model', 'glm-4.5v', '--max-steps', '4', '--judge'], { VLM_API_KEY: KEY }).done;
  expect(r.code, r.stderr).toBe(0);
  const line = JSON.parse(readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim()) as TaskResult;
  expect(line).toMatchObject({ id: 'Price--0', kind: 'finished', answerJson: { title: 'Dune', price: 9.5 } });
  expect(JSON.parse(readFileSync(path.join(out, 'taskPrice--0', 'result.json'), 'utf8')).answerJson).toEqual({ title: 'Dune', price: 9.5 });
  // the judge was given the JSON the answer was read as, not the sentence around it
  const judge = JSON.stringify(model.judgings.slice(judged));
  expect(judge).toContain('Result Response: {\\"title\\":\\"Dune\\",\\"price\\":9.5}');
  // a task file whose schema cannot be used is refused with the reason, before any run
  writeFileSync(tasks, JSON.stringify([{ id: 'Price--1', task: 'x', url: `${site.url}recipes/index.html`, answerSchema: { type: 'money' } }]));
  const bad = await spawnScript('batch', ['--tasks', tasks, '--out', path.join(dir, 'out2'), '--base-url', model.baseUrl], { VLM_API_KEY: KEY }).done;
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('its answer schema cannot be used: /type must be one of');
});
