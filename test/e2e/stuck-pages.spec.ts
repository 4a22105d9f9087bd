/**
 * Pages that would stop a run (issue 42, item 3; docs/labeling.md "Pages that do not answer"):
 * a click that opens alert() after alert() without end, a frame from another site whose script
 * spins forever, frames that each load two more of themselves. Each run, through the runner with
 * the scripted glm-web model, ends with an answer within a stated time, and its trace says what
 * was cut. An alert() open before a run attaches (which the debugger is never told of) is handled
 * like any other, through the runner and in a tab the person had open. A click whose handler never
 * returns fails its step in its time, and the run stops saying the page is stuck. Test pages:
 * test/fixtures/pages/stuck/.
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sequence, type Step } from './scripted-runs';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { panelSend, serveFixtures, shareExtension, waitForRun, type SharedExtension } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';

const agent = useAgent();
const models: FakeModel[] = [];
let shared: SharedExtension;
shareExtension((e) => { shared = e; }, models);
const out = mkdtempSync(path.join(tmpdir(), 'webagent-stuck-'));
let site: StaticServer;
test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); });

/** The run over `page` with the scripted steps: its trace. */
async function run(page: string, steps: Step[]): Promise<{ trace: Trace; stderr: string }> {
  const model = await sequence(steps);
  try {
    const traceFile = path.join(out, `${page}.json`);
    const r = await agent.run(['--task', 'Look at the page', '--url', `${site.url}stuck/${page}`, '--base-url', model.baseUrl, '--trace', traceFile, '--max-steps', String(steps.length + 2)], {}, '');
    expect(r.code, r.stderr).toBe(0);
    return { trace: JSON.parse(readFileSync(traceFile, 'utf8')) as Trace, stderr: r.stderr };
  } finally {
    await model.close();
  }
}

test('a click that opens alert() after alert(): the flood is ended, the page loaded again, the model told; the run goes on to its answer', async () => {
  const { trace } = await run('alert-flood.html', [{ click: /^Open deals$/ }, { answer: 'done' }]);
  expect(trace.run.status).toBe('finished');
  expect(trace.steps[0].observation).toContain('The page opened dialog after dialog');
  expect(trace.steps[1].elements.map((e) => e.text)).toContain('Open deals'); // the page, loaded again, is read
});

test('a frame from another site that spins forever: left out of the labels and said; the top page is read and the run goes on', async () => {
  const { trace } = await run('spinning-frame.html', [{ click: /^Read more$/ }, { answer: 'done' }]);
  expect(trace.run.status).toBe('finished');
  expect(trace.steps[0].elements.map((e) => e.text)).toContain('Read more');
  expect(trace.steps.flatMap((s) => s.timings?.observeStages?.framesLeftOut ?? []).join('\n')).toMatch(/did not answer within 6 s/);
});

test('frames that each load two more of themselves: at most the frame budget is read, the rest said; the run goes on', async () => {
  const { trace } = await run('frame-bomb.html', [{ click: /^Top button$/ }, { answer: 'done' }]);
  expect(trace.run.status).toBe('finished');
  expect(trace.steps[0].elements.map((e) => e.text)).toContain('Top button');
  expect(trace.steps.flatMap((s) => s.timings?.observeStages?.framesLeftOut ?? []).join('\n')).toMatch(/more frames not read: a page is read in at most 60 frames|further frame loads are blocked/);
});

test('the run\'s time limit (--max-minutes 0.1) stops it wherever it is, here waiting on a model that does not answer', async () => {
  const model = await startFakeModel({ policy: async () => { await new Promise((r) => setTimeout(r, 30_000)); return { content: 'Thought: late.\nAction: Wait\nMemory_Updated: {}' }; } });
  try {
    const traceFile = path.join(out, 'time-limit.json');
    const r = await agent.run(['--task', 'Look at the page', '--url', `${site.url}stuck/alert-flood.html`, '--base-url', model.baseUrl, '--trace', traceFile, '--max-minutes', '0.1'], {}, '');
    const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
    expect(trace.run.status, r.stderr).toBe('stopped');
    expect(trace.run.stopReason).toBe('Stopped: the run went past its time limit of 0.1 minutes.');
  } finally {
    await model.close();
  }
});

test('an alert() as the page loads, through the runner (it may open before or after the run attaches): answered, and the run goes on', async () => {
  const { trace } = await run('alert-at-load.html', [{ click: /^Shop now$/ }, { answer: 'done' }]);
  expect(trace.run.status).toBe('finished');
  expect(trace.steps[0].elements.map((e) => e.text)).toContain('Shop now');
});

test('an alert() already open in the person\'s tab when the run starts there (the debugger is not told of it): the page is loaded again, its alert answered like any other, the model told; the run goes on', async () => {
  const model = await sequence([{ click: /^Shop now$/ }, { answer: 'done' }]);
  models.push(model);
  const { browser, site: shop, panel } = shared;
  const page = await browser.context.newPage();
  let shown = 0;
  page.on('dialog', () => { shown++; }); // left open, as a person who has not answered it yet
  const url = `${shop.url}stuck/alert-at-load.html`;
  void page.goto(url).catch(() => undefined);
  await expect.poll(() => shown, { message: 'the alert is open' }).toBe(1);
  const tabId = await panel.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);
  const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', { task: 'Shop', tabId, config: { baseUrl: model.baseUrl, model: 'glm-4.5v', approveSteps: false } });
  const done = await waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends');
  expect(done.status, done.stopReason ?? '').toBe('finished');
  expect(shown, 'the page, loaded again, opened its alert again').toBe(2);
  expect(done.steps[0].elements.map((e) => e.text)).toContain('Shop now');
  expect(done.steps[0].observation).toContain('When the run began, the page did not answer within 8 s');
  expect(done.steps[0].observation).toContain('Welcome to the shop');
  await page.close();
});

test('a click whose handler spins the page for ever: the step fails once the input has had its time, and the run stops, saying the page is stuck', async () => {
  const model = await sequence([{ click: /^Open deals$/ }, { answer: 'done' }]);
  try {
    const traceFile = path.join(out, 'spin-click.json');
    const r = await agent.run(['--task', 'Open the deals', '--url', `${site.url}stuck/spin-click.html`, '--base-url', model.baseUrl, '--trace', traceFile, '--max-steps', '4'], {}, '');
    const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
    expect(trace.run.status, r.stderr).toBe('stopped');
    expect(trace.steps[0].observation).toBe('The page did not take the action within 10 s (its script seems stuck or very busy), so it may have been done in part or not at all; look at the page before repeating it.');
    expect(trace.run.stopReason).toMatch(/^The page did not answer within 20 s: its script seems stuck \(a loop\) or very busy/);
  } finally {
    await model.close();
  }
});
