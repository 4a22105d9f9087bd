/**
 * Replies and servers that misbehave (issue 12, items 7 and 8), through the built extension and the
 * fake server: a 10 MB reply, a stream that sends its headers and then nothing, a 200 with no
 * choices, and 5,000-deep memory. Each ends in a clear message in the side panel, and the run's
 * JSON export (fetched from the worker in pieces) succeeds.
 */
import { test, expect, type Page } from './fixtures';
import { startFakeModel, type FakeModel, type FakeModelOptions } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import { shareExtension, panelSend } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Trace } from '../../src/core/trace';
import type { Settings } from '../../src/core/settings';
import { MAX_REPLY_CHARS } from '../../src/core/limits';

const KEY = 'sk-hostile-3c1d5e7f9a';
let site: StaticServer;
let panel: Page;
const models: FakeModel[] = [];

shareExtension((e) => { ({ site, panel } = e); }, models);

async function fake(policy: FakeModelOptions['policy']): Promise<FakeModel> {
  const m = await startFakeModel({ apiKey: KEY, policy });
  models.push(m);
  return m;
}

/** Runs the task to its end; the final view and its JSON export, made by the panel's own exporter. */
async function runAndExport(m: FakeModel, config: Partial<Settings>): Promise<{ run: RunView; trace: Trace; bytes: number }> {
  const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', {
    task: 'Press Step one', url: `${site.url}restart/index.html`,
    config: { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v', ...config },
  });
  let run: RunView | null = null;
  await expect.poll(async () => {
    run = await panelSend<RunView | null>(panel, 'run/get', { runId });
    return run?.status;
  }, { timeout: 120_000, message: 'the run ends' }).not.toBe('running');
  const text = await panel.evaluate(async (id) => {
    const w = window as unknown as { webagent: { exportRun(id: string, kind: 'json'): Promise<{ text: string }> } };
    return (await w.webagent.exportRun(id, 'json')).text;
  }, runId);
  const trace = JSON.parse(text) as Trace;
  expect(trace.run.id).toBe(runId);
  expect(text).not.toContain(KEY);
  return { run: run!, trace, bytes: text.length };
}

test('a 10 MB reply is cut at the cap, never re-sent whole, and the run stops with a clear message', async () => {
  const m = await fake(() => ({ content: `Thought: ${'blah '.repeat(2_000_000)}\nAction: Wait`, chunkSize: 65_536 }));
  const { run, trace, bytes } = await runAndExport(m, { stream: true });
  expect(run.status).toBe('failed');
  const reason = panel.getByTestId('stop-reason');
  await expect(reason).toContainText('could not be read 3 times in a row');
  await expect(reason).toContainText(`longer than ${MAX_REPLY_CHARS} characters`);
  expect(trace.steps).toHaveLength(3);
  for (const s of trace.steps) expect(s.reply.raw.length).toBeLessThanOrEqual(MAX_REPLY_CHARS);
  // Later prompts carry the capped history, not the reply: every request stays small.
  for (const r of m.requests) expect(JSON.stringify(r.body).length).toBeLessThan(600_000);
  expect(bytes).toBeLessThan(5_000_000);
});

test('a stream that sends its headers and then nothing times out with a clear message', async () => {
  const m = await fake(() => ({ content: 'never sent', stall: true }));
  const started = Date.now();
  const { run, trace } = await runAndExport(m, { stream: true, requestTimeoutSec: 5, maxRetries: 0 });
  expect(run.status).toBe('failed');
  await expect(panel.getByTestId('stop-reason')).toContainText('sent nothing for 5 s');
  expect(Date.now() - started).toBeLessThan(60_000);
  expect(m.requests).toHaveLength(1);
  expect(trace.run.stopReason).toContain('sent nothing for 5 s');
});

test('a 200 with no choices is retried and reported as the server\'s fault, not sent back to the model', async () => {
  const m = await fake(() => ({ content: '', noChoices: true }));
  const { run, trace } = await runAndExport(m, { stream: false, maxRetries: 1 });
  expect(run.status).toBe('failed');
  await expect(panel.getByTestId('stop-reason')).toContainText('answered with no choices');
  await expect(panel.getByTestId('stop-reason')).toContainText('gave up after 2 attempts');
  expect(m.requests).toHaveLength(2);
  // No step was made of it: no format error went to the model.
  expect(trace.steps).toHaveLength(0);
});

test('5,000-deep memory is refused with a note, the previous memory kept, and the run goes on', async () => {
  const goals = scriptedPolicy([{ do: 'click', find: /^Step one$/ }, { do: 'answer', text: 'done' }], 'plain');
  const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
  const m = await fake((req, n) => {
    const r = goals(req.prompt);
    return n === 0 ? { content: r.content.replace(/Memory_Updated: .*$/s, `Memory_Updated: ${deep}`) } : r;
  });
  const { run, trace } = await runAndExport(m, {});
  expect(run.status).toBe('finished');
  await expect(panel.getByTestId('observation').first()).toContainText('Memory_Updated was too large');
  expect(trace.steps[0].observation).toContain('Memory_Updated was too large');
  expect(trace.steps[0].memory).toEqual({});
  expect(m.requests[1].prompt?.memory ?? '').not.toContain('{"a":{"a":');
});
