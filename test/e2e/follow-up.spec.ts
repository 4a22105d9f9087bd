/**
 * Follow-ups (issue 46, item 1; docs/follow-ups.md) through the built extension: a run that has
 * ended takes the person's next task under it and goes on in the same tab as its next turn, the
 * model reading the first task, how it ended, the follow-up and every past step; a follow-up that
 * would delete is asked about like any action (no question is bypassed); History and its detail
 * show the turns; the runner goes on from a trace (--continue). The panel at 360 px, in English
 * and Chinese.
 */
import { test, expect, useAgent } from './fixtures';
import type { Page } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Launched } from '../../scripts/browser';
import type { FakeModel, RecordedRequest } from '../fixtures/model/server';
import { panelSend, sharePanelWithModel, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Trace } from '../../src/core/trace';

const agent = useAgent();
const KEY = 'sk-follow-up-7a8b9c';

/**
 * The model: in each turn it clicks the button its task names, then answers (and keeps what it
 * answered in its memory). The task of the turn is the last follow-up the prompt gives, or the first.
 */
function policy(req: RecordedRequest): { content: string } {
  const p = req.prompt;
  const text = p?.text ?? '';
  const follow = [...text.matchAll(/Follow-up \d+ from the user, the task to do now, going on in the same browser from the current screen: ([^\n]*)/g)].at(-1)?.[1];
  const want = /delete/i.test(follow ?? '') ? /Delete project/ : /sent mail/i.test(follow ?? '') ? /Sent mail/ : /Order history/;
  const last = p?.history.at(-1) ?? '';
  if (/Action:\s*Click/.test(last)) return { content: `Thought: Done.\nAction: ANSWER; <content>${want.source} open</content>\nMemory_Updated: {"answered": "${want.source}"}` };
  const el = p?.elements.find((e) => want.test(e.text));
  if (!el) return { content: 'Thought: I cannot see it.\nAction: Scroll [WINDOW]; [down]\nMemory_Updated: {}' };
  return { content: `Thought: I will press "${el.text}".\nAction: Click [${el.label}]\nMemory_Updated: {"clicked": "${el.text}"}` };
}

let site: StaticServer;
let browser: Launched;
let panel: Page;
let model: FakeModel;
const dir = mkdtempSync(path.join(tmpdir(), 'webagent-follow-up-'));

test.describe.configure({ mode: 'serial' });

sharePanelWithModel({ apiKey: KEY, policy: (req) => policy(req) }, (e) => ({ site, browser, panel, model } = e));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const current = () => panelSend<RunView>(panel, 'run/get', {});

test('a follow-up goes on in the same tab with the run\'s history; one that would delete is still asked about', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${site.url}guards/form.html`);
  await panel.getByTestId('task').fill('Open the order history');
  await panel.getByTestId('start').click();
  const first = await expect.poll(async () => (await panelSend<RunView | null>(panel, 'run/get', {}))?.task ?? null).toBe('Open the order history').then(current);
  const done = await waitForRun(panel, first.id, (r) => r.status !== 'running', 'the first turn ends');
  expect(done).toMatchObject({ status: 'finished', answer: 'Order history open' });
  expect(done.turns).toBeUndefined();

  // the follow-up, typed under the ended run
  const asked = model.requests.length;
  await panel.getByTestId('follow-up').fill('Now open Sent mail');
  await panel.getByTestId('follow-up-send').click();
  await expect(panel.getByTestId('follow-up')).toHaveValue('');
  const second = await waitForRun(panel, first.id, (r) => r.status !== 'running' && (r.turns?.length ?? 0) === 2, 'the follow-up ends');
  expect(second).toMatchObject({ id: first.id, status: 'finished', answer: 'Sent mail open', tabId: done.tabId });
  expect(second.steps).toHaveLength(4);
  expect(second.turns?.map((x) => [x.task, x.fromStep, x.status ?? null, x.answer ?? null])).toEqual([
    ['Open the order history', 0, 'finished', 'Order history open'], ['Now open Sent mail', 2, null, null],
  ]);
  // in the same tab, on the same page; the model read the first task, how it ended, and the steps so far
  expect(second.steps.slice(2).every((s) => s.url === `${site.url}guards/form.html`)).toBe(true);
  const told = model.requests[asked].prompt!;
  expect(told.text).toContain('Open the order history\n\nThe task above is done (it ended with ANSWER, answer: Order history open).\nFollow-up 1 from the user, the task to do now, going on in the same browser from the current screen: Now open Sent mail');
  expect(told.history).toHaveLength(2);
  expect(told.memory).toContain('Order history');
  await expect(panel.locator('main.view-run').getByTestId('turn-start')).toHaveText(['Follow-up 1: Now open Sent mail']);
  await expect(panel.getByTestId('answer')).toContainText('Sent mail open');
  expect(await panel.locator('main.view-run').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  // a follow-up is a turn like any other: its delete waits for the person
  await panel.getByTestId('follow-up').fill('Now delete the project');
  await panel.getByTestId('follow-up-send').click();
  const held = await waitForRun(panel, first.id, (r) => r.pending?.phase === 'approve', 'the delete waits for the person');
  expect(held.pending?.approval?.rule).toBe('delete');
  await panelSend(panel, 'run/stop', { runId: first.id });
  const stopped = await waitForRun(panel, first.id, (r) => r.status === 'stopped', 'stopped at the question');
  expect(stopped.turns?.map((x) => x.status ?? null)).toEqual(['finished', 'finished', null]);
  await expect(panel.locator('main.view-run').getByTestId('turn-start')).toHaveText(['Follow-up 1: Now open Sent mail', 'Follow-up 2: Now delete the project']);
  await page.close();
});

test('History shows the turns; in Chinese at 360 px', async () => {
  await panel.getByTestId('view-history').click();
  const row = panel.getByTestId('history-run').first();
  await expect(row.getByTestId('run-turns')).toHaveText('3 turns');
  await row.getByTestId('open-run').click();
  await expect(panel.locator('main.view-history').getByTestId('turn-start')).toHaveText(['Follow-up 1: Now open Sent mail', 'Follow-up 2: Now delete the project']);
  await panel.getByTestId('view-run').click();
  await panelSend(panel, 'settings/patch', { set: { language: 'zh_CN' } });
  await expect(panel.locator('label[for="follow-up"]')).toHaveText('后续任务');
  await expect(panel.getByTestId('follow-up-send')).toHaveText('发送后续任务');
  await expect(panel.locator('main.view-run').getByTestId('turn-start').first()).toHaveText('后续任务 1：Now open Sent mail');
  expect(await panel.locator('main.view-run').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await panelSend(panel, 'settings/patch', { set: { language: 'en' } });
});

test('the runner goes on from a trace with --continue', async () => {
  const t1 = path.join(dir, 'first.json');
  const r1 = await agent.run(['--task', 'Open the order history', '--url', `${site.url}guards/form.html`, '--base-url', model.baseUrl, '--trace', t1], { VLM_API_KEY: KEY });
  expect(r1.code, r1.stderr).toBe(0);
  const t2 = path.join(dir, 'second.json');
  const r2 = await agent.run(['--continue', t1, '--task', 'Now open Sent mail', '--base-url', model.baseUrl, '--trace', t2], { VLM_API_KEY: KEY });
  expect(r2.code, r2.stderr).toBe(0);
  expect(r2.stdout.trim().split('\n').at(-1)).toBe('ANSWER: Sent mail open');
  // only the follow-up's steps are printed
  expect(r2.stdout.match(/^Step \d+ /gm)).toEqual(['Step 3 ', 'Step 4 ']);
  const t = JSON.parse(readFileSync(t2, 'utf8')) as Trace;
  expect(t.steps).toHaveLength(4);
  expect(t.run.turns?.map((x) => [x.task, x.fromStep, x.status ?? null])).toEqual([['Open the order history', 0, 'finished'], ['Now open Sent mail', 2, null]]);
  expect(t.run.status).toBe('finished');

  const bad = await agent.run(['--continue', path.join(dir, 'nope.json'), '--task', 'x', '--base-url', model.baseUrl], { VLM_API_KEY: KEY });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--continue ');
  const noTask = await agent.run(['--continue', t1, '--base-url', model.baseUrl], { VLM_API_KEY: KEY });
  expect(noTask.code).toBe(2);
  expect(noTask.stderr).toContain('--task is required: the follow-up to do.');
});
