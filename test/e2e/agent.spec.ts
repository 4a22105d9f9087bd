/**
 * The headless runner (docs/runner.md) end to end: the built extension in
 * headless Chromium, the fake OpenAI-compatible server, and fixture sites. The multi-step run,
 * bad usage and an unreachable endpoint run `npm run agent` as a process (its output, exit status
 * and usage text as a user sees them); the other runs go through the same command in this
 * process (useAgent, test/e2e/fixtures.ts).
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { scriptedPolicy, type Goal, type ReplyStyle } from '../../scripts/scripted-model';
import { runAgentCli, serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

const KEY = 'sk-test-7f3a9c2e5b1d4e6f';
let site: StaticServer;
let model: FakeModel | null = null;
const out = mkdtempSync(path.join(tmpdir(), 'webagent-traces-'));
// The key as a person should give it: in a file, not on the command line.
const keyFile = path.join(out, 'key.txt');
writeFileSync(keyFile, `${KEY}\n`);

test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); });
test.afterEach(async () => { await model?.close(); model = null; });

async function scripted(goals: Goal[], style: ReplyStyle, ignoreStream = false) {
  const policy = scriptedPolicy(goals, style);
  model = await startFakeModel({ apiKey: KEY, ignoreStream, policy: (req) => policy(req.prompt) });
  return model;
}

function agentArgs(m: FakeModel, task: string, url: string, trace: string): string[] {
  return ['--task', task, '--url', url, '--base-url', m.baseUrl, '--api-key-file', keyFile, '--model', 'glm-4.5v', '--trace', trace, '--max-steps', '12'];
}

test('multi-step: search box, results below the fold, detail page, answer', async () => {
  const m = await scripted([
    { do: 'type', find: /soup|find a recipe/i, text: 'ramen' },
    { do: 'click', find: /Miso Ramen/ },
    { do: 'click', find: /Show nutrition/ },
    { do: 'answer', from: /Energy: (\d+ kcal)/ },
  ], 'glm');
  const traceFile = path.join(out, 'ramen.json');
  const r = await runAgentCli(agentArgs(m, 'How many calories per serving does the Miso Ramen have?', `${site.url}recipes/index.html`, traceFile));
  expect(r.stderr).not.toContain('Error:');
  expect(r.stderr, 'a key from a file draws no warning').not.toContain('warning:');
  expect(r.code).toBe(0);
  expect(r.stdout.trim().split('\n').at(-1)).toBe('ANSWER: 610 kcal');
  expect(r.stdout).toMatch(/Step 1 {2}http:\/\/127\.0\.0\.1:\d+\/recipes\/index\.html\n {2}Thought: .+\n {2}Action: Type \[\d+\]; \[ramen\]/);
  // The page state reached, as the pages reported it.
  expect(site.events).toEqual(expect.arrayContaining([
    expect.objectContaining({ type: 'search', value: 'ramen' }),
    expect.objectContaining({ type: 'view', value: 'ramen' }),
    expect.objectContaining({ type: 'nutrition', value: 'ramen' }),
  ]));
  // Every request in the seed's web format, the key only in the header.
  expect(m.violations()).toEqual([]);
  expect(m.requests.every((q) => q.authorization === `Bearer ${KEY}`)).toBe(true);
  const raw = readFileSync(traceFile, 'utf8');
  expect(raw).not.toContain(KEY);
  const trace = JSON.parse(raw) as Trace;
  expect(trace.format).toBe('webagent-trace');
  expect(trace.run).toMatchObject({ status: 'finished', answer: '610 kcal', dialect: 'glm-web', model: 'glm-4.5v', stopReason: null });
  const kinds = trace.steps.map((s) => s.action.type);
  expect(kinds[0]).toBe('type');
  expect(kinds).toContain('scroll'); // the match was below the fold
  expect(kinds.at(-1)).toBe('answer');
  for (const s of trace.steps) {
    expect(s.request.promptText).toContain('# Task:\nHow many calories per serving does the Miso Ramen have?, Please interact with');
    expect(s.viewport).toEqual({ width: 1280, height: 800, devicePixelRatio: 1 });
    expect(s.request).toMatchObject({ imageWidth: 1280, imageHeight: 800 });
    // The history keeps WebP pictures: the labelled view the model saw, and the same view without labels.
    expect(s.screenshot.slice(0, 23)).toBe('data:image/webp;base64,');
    expect(s.cleanScreenshot.slice(0, 23)).toBe('data:image/webp;base64,');
    expect(s.cleanScreenshot === s.screenshot).toBe(false);
    expect(s.elements.length).toBeGreaterThan(0);
    expect(s.usage?.promptTokens).toBeGreaterThan(0);
  }
  // The history the model saw grows by one line a step.
  expect(m.requests.map((q) => q.prompt?.history.length)).toEqual(trace.steps.map((_, i) => i));
  // glm-web's model gets the JPEG the browser captured (no PNG, no re-encoding), as the trace's size says.
  for (const [i, q] of m.requests.entries()) {
    const url = (q.body.messages as { content: { image_url?: { url: string } }[] }[])[0].content[0].image_url?.url ?? '';
    expect(url.slice(0, 23)).toBe('data:image/jpeg;base64,');
    expect(Math.abs(trace.steps[i].request.imageBytes - Buffer.from(url.slice(23), 'base64').length)).toBeLessThanOrEqual(2);
  }
  // Every observe step records its stages (the settle wait apart, label, capture, the request out);
  // how long they take is measured by `npm run bench` (part observe), not asserted here.
  for (const s of trace.steps) {
    const o = s.timings.observeStages!;
    for (const k of ['settleMs', 'labelMs', 'captureMs', 'encodeMs', 'requestMs'] as const) expect(typeof o[k], k).toBe('number');
  }
});

test('native select: the option list is labelled, choosing sets the value and fires input and change', async () => {
  const m = await scripted([
    { do: 'click', find: /gas mark|choose/i, tag: 'select' },
    { do: 'click', find: /^Gas mark 6$/ },
    { do: 'click', find: /Show in Celsius/ },
    { do: 'answer', from: /is (\d+ °C)/ },
  ], 'webvoyager');
  const traceFile = path.join(out, 'select.json');
  const r = await agent.run(agentArgs(m, 'What is gas mark 6 in Celsius?', `${site.url}recipes/convert.html`, traceFile));
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('ANSWER: 200 °C');
  // one input event before the change, and the value the page shows
  expect(site.events).toEqual(expect.arrayContaining([
    expect.objectContaining({ type: 'change', value: '6:1' }),
    expect.objectContaining({ type: 'show', value: '6' }),
  ]));
  expect(m.violations()).toEqual([]);
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  const opened = trace.steps[1].elements.map((e) => `${e.tag}:${e.text}`);
  expect(opened).toEqual(expect.arrayContaining(['option:Gas mark 1', 'option:Gas mark 6', 'option:Gas mark 8']));
  expect(opened.some((t) => t.includes('Gas mark 7'))).toBe(false); // disabled options cannot be chosen
});

test('typing an option\'s text into a native select chooses it (plain JSON replies to a streaming request)', async () => {
  const m = await scripted([
    { do: 'type', find: /gas mark/i, tag: 'select', text: 'gas mark 8' },
    { do: 'click', find: /Show in Celsius/ },
    { do: 'answer', from: /is (\d+ °C)/ },
  ], 'plain', true);
  const r = await agent.run(agentArgs(m, 'What is gas mark 8 in Celsius?', `${site.url}recipes/convert.html`, path.join(out, 'type-select.json')));
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('ANSWER: 230 °C');
  expect(site.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'change', value: '8:1' })]));
  expect(m.violations()).toEqual([]);
});

test('without an API key no Authorization header is sent', async () => {
  const policy = scriptedPolicy([{ do: 'answer', text: 'nothing to do' }], 'glm');
  model = await startFakeModel({ policy: (req) => policy(req.prompt) });
  const r = await agent.run(['--task', 'Say hello', '--url', `${site.url}recipes/index.html`, '--base-url', model.baseUrl, '--trace', path.join(out, 'nokey.json')], { VLM_API_KEY: '' });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('ANSWER: nothing to do');
  expect(model.requests).toHaveLength(1);
  expect(model.requests[0].authorization).toBeUndefined();
});

test('bad usage exits 2 with the problem and one line on where the options are (not the whole usage)', async () => {
  const r = await runAgentCli(['--url', 'http://127.0.0.1:9/']);
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toEqual(['--task is required (or --task-file).', 'Run "npm run agent -- --help" for the options, or read docs/runner.md.']);
});

test('an unreachable endpoint stops the run with exit 1 and says why', async () => {
  const traceFile = path.join(out, 'down.json');
  const r = await runAgentCli(['--task', 'anything', '--url', `${site.url}recipes/index.html`, '--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--trace', traceFile]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('Cannot reach the model endpoint at http://127.0.0.1:9/v1');
  expect(r.stderr).toContain('warning: --api-key puts the key on the command line');
  expect(r.stderr).not.toContain(KEY);
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  expect(trace.run.status).toBe('failed');
  expect(JSON.stringify(trace)).not.toContain(KEY);
});
