/**
 * Sites allowed up front (issue 46, item 4; docs/allowed-sites.md) through the built extension:
 * by default a step that would act on another site asks, and a yes allows that site for the rest
 * of the run (asked once: going there again later does not ask); sites listed before the run, or
 * "anywhere", are not asked about; the run shows and the trace keeps where it could act and did.
 * The side panel's "Where it may act" and the runner's --sites; the panel at 360 px in English
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
const KEY = 'sk-allowed-sites-0d1e2f';
/** the model's way: to the other site, back home, to the other site again, then the answer */
const WAY = [/^Away one$/, /^Back home$/, /^Away two$/];

function policy(req: RecordedRequest): { content: string } {
  const p = req.prompt;
  const n = p?.history.length ?? 0;
  if (n >= WAY.length) return { content: 'Thought: I am there again.\nAction: ANSWER; <content>done</content>\nMemory_Updated: {}' };
  const el = p?.elements.find((e) => WAY[n].test(e.text));
  if (!el) return { content: 'Thought: I cannot see it.\nAction: Scroll [WINDOW]; [down]\nMemory_Updated: {}' };
  return { content: `Thought: I will click "${el.text}".\nAction: Click [${el.label}]\nMemory_Updated: {}` };
}

let site: StaticServer;
let browser: Launched;
let panel: Page;
let model: FakeModel;
const dir = mkdtempSync(path.join(tmpdir(), 'webagent-sites-'));
const home = () => `${site.url}sites/home.html`;

test.describe.configure({ mode: 'serial' });

sharePanelWithModel({ apiKey: KEY, policy: (req) => policy(req) }, (e) => ({ site, browser, panel, model } = e));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the panel: another site is asked about once, and a yes allows it for the run; listed sites are not asked about', async () => {
  expect(home()).toMatch(/^http:\/\/127\.0\.0\.1:/);
  const page = await browser.context.newPage();
  await page.goto(home());
  await panel.getByTestId('task').fill('Visit the other site twice');
  await expect(panel.getByTestId('sites-mode')).toHaveValue('start');
  await panel.getByTestId('start').click();
  const first = await expect.poll(async () => (await panelSend<RunView | null>(panel, 'run/get', {}))?.task ?? null).toBe('Visit the other site twice')
    .then(() => panelSend<RunView>(panel, 'run/get', {}));
  const asked = await waitForRun(panel, first.id, (r) => r.pending?.phase === 'approve', 'the first step to the other site asks');
  expect(asked.pending?.approval).toMatchObject({ rule: 'leave-site', site: 'localhost' });
  await expect(panel.getByTestId('approval-site-note')).toHaveText('Yes allows localhost for the rest of this run.');
  await panel.getByTestId('approve').click();
  const done = await waitForRun(panel, first.id, (r) => r.status !== 'running', 'the run ends');
  expect(done.status).toBe('finished');
  // going there again (step 3) was not asked about
  expect(done.steps.map((s) => s.approval?.decision)).toEqual(['approved', 'auto', 'auto', 'auto']);
  expect(done.sitesGranted).toEqual(['localhost']);
  await expect(panel.getByTestId('sites-may')).toHaveText('May act on: 127.0.0.1, localhost');
  await expect(panel.getByTestId('sites-acted')).toHaveText('Acted on: 127.0.0.1, localhost');

  // listed up front: nothing asked
  await page.goto(home());
  await panel.getByTestId('sites-mode').selectOption('list');
  await panel.getByTestId('sites-list').fill('http://localhost/');
  await panel.getByTestId('start').click();
  const second = await expect.poll(async () => (await panelSend<RunView | null>(panel, 'run/get', {}))?.id ?? null).not.toBe(first.id)
    .then(() => panelSend<RunView>(panel, 'run/get', {}));
  const listed = await waitForRun(panel, second.id, (r) => r.status !== 'running' || r.pending?.phase === 'approve', 'the listed run ends');
  expect(listed.status).toBe('finished');
  expect(listed.sitesAllowed).toEqual(['localhost']);
  expect(listed.steps.every((s) => s.approval?.decision === 'auto')).toBe(true);
  expect(await panel.locator('main.view-run').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  // a list that is not sites is refused at Start
  await panel.getByTestId('sites-list').fill('shop.example, !!');
  await panel.getByTestId('start').click();
  await expect(panel.getByTestId('start-error')).toContainText('The allowed sites cannot be used: "!!" is not a site');
  await panel.getByTestId('sites-mode').selectOption('start');
  await page.close();
});

test('in Chinese at 360 px', async () => {
  await panelSend(panel, 'settings/patch', { set: { language: 'zh_CN' } });
  await expect(panel.locator('label[for="sites-mode"]')).toHaveText('可以操作的网站');
  await expect(panel.getByTestId('sites-mode').locator('option')).toHaveText(['只有起始网站', '起始网站和这些网站', '任何网站']);
  await expect(panel.getByTestId('sites-acted')).toHaveText('操作过的网站：127.0.0.1, localhost');
  expect(await panel.locator('main.view-run').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await panelSend(panel, 'settings/patch', { set: { language: 'en' } });
});

test('the runner: asked once by default, never with --sites LIST or any; the trace keeps the sites', async () => {
  const run = async (name: string, args: string[], input = '') => {
    const trace = path.join(dir, `${name}.json`);
    const r = await agent.run(['--task', 'Visit the other site twice', '--url', home(), '--base-url', model.baseUrl, '--trace', trace, ...args], { VLM_API_KEY: KEY }, input);
    return { r, t: r.code === 0 ? JSON.parse(readFileSync(trace, 'utf8')) as Trace : null };
  };
  const asked = await run('asked', [], 'y\n');
  expect(asked.r.code, asked.r.stderr).toBe(0);
  expect(asked.r.stderr.match(/Guard: /g)).toHaveLength(1);
  expect(asked.r.stderr).toContain('Guard: this leaves 127.0.0.1 for localhost (rule "leave-site")\n  y also allows localhost for the rest of this run (asked once)');
  expect(asked.t!.run.sites).toEqual({ allowed: 'start', granted: ['localhost'], actedOn: ['127.0.0.1', 'localhost'] });

  const listed = await run('listed', ['--sites', 'localhost']);
  expect(listed.r.code, listed.r.stderr).toBe(0);
  expect(listed.r.stderr).not.toContain('Guard: ');
  expect(listed.t!.run.sites).toEqual({ allowed: ['localhost'], granted: [], actedOn: ['127.0.0.1', 'localhost'] });

  const any = await run('any', ['--sites', 'any']);
  expect(any.r.code, any.r.stderr).toBe(0);
  expect(any.r.stderr).not.toContain('Guard: ');
  expect(any.t!.run.sites?.allowed).toBe('any');

  // without an answer the question stops the run: nothing was done on the other site
  const closed = await run('closed', []);
  expect(closed.r.code).toBe(1);
  expect(closed.r.stderr).toContain('Guard: this leaves 127.0.0.1 for localhost');

  const bad = await run('bad', ['--sites', 'a b,!!']);
  expect(bad.r.code).toBe(2);
  expect(bad.r.stderr).toContain('--sites a b,!!: "!!" is not a site');
});
