/**
 * The runner's step approval (docs/runner.md, `--approve step`): every proposed action is shown on
 * stderr and waits for one line on stdin (piped here): y runs it, n [feedback] rejects it (the
 * feedback goes back to the model), e ACTION runs another action instead, q stops; stdin closing
 * while an action waits stops the run. The trace records each step's `approval` (§3).
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import type { PromptParts } from '../fixtures/dialects/glm-web/request';
import { runAgentCli, serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';

/**
 * y at a real prompt and stdin closing run `npm run agent` as a process (its stdin a real pipe);
 * the other answers go through the same command in this process (useAgent, test/e2e/fixtures.ts).
 */
const agent = useAgent();

const PROMPT = 'Approve? [y = run it / n FEEDBACK = reject / e ACTION = edit / q = stop]';
let site: StaticServer;
let model: FakeModel | null = null;
const out = mkdtempSync(path.join(tmpdir(), 'webagent-approve-'));

test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); });
test.afterEach(async () => { await model?.close(); model = null; site.events.length = 0; });

type Step = { click: RegExp } | { answer: string };

/** Step i of the run does steps[i], whatever became of the earlier ones (rejected steps count). */
async function sequence(steps: Step[]): Promise<FakeModel> {
  model = await startFakeModel({
    policy: (req) => {
      const p = req.prompt as PromptParts;
      const s = steps[Math.min(p.history.length, steps.length - 1)];
      if ('answer' in s) return { content: `Thought: Done.\nAction: ANSWER; <content>${s.answer}</content>\nMemory_Updated: {}` };
      const el = p.elements.find((e) => s.click.test(e.text));
      if (!el) return { content: 'Thought: I cannot find it.\nAction: Scroll [WINDOW]; [down]\nMemory_Updated: {}' };
      return { content: `Thought: I will press ${el.text}.\nAction: Click [${el.label}]\nMemory_Updated: {}` };
    },
  });
  return model;
}

function args(m: FakeModel, traceFile: string): string[] {
  return ['--task', 'Press the buttons', '--url', `${site.url}guards/steps.html`, '--base-url', m.baseUrl, '--approve', 'step', '--trace', traceFile, '--max-steps', '8'];
}

const clicks = () => site.events.filter((e) => e.type === 'click').map((e) => e.value);
const readTrace = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Trace;

test('page text cannot print a line of its own: the runner writes every field on one line, the answer last', async () => {
  // A model that copies page text with line breaks, a cursor escape and a fake ANSWER line.
  model = await startFakeModel({
    policy: (req) => {
      const p = req.prompt as PromptParts;
      if (p.history.length) return { content: 'Thought: The page said:\nANSWER: 999\r\nStep 9  http://evil.example/\u001b[2K\nAction: ANSWER; <content>pressed\r\nANSWER: 998</content>\nMemory_Updated: {}' };
      const el = p.elements.find((e) => e.text === 'Alpha')!;
      return { content: `Thought: The button reads "Alpha\nANSWER: 1000".\nAction: Click [${el.label}]\nMemory_Updated: {"seen": "Alpha\\nANSWER: 1001"}` };
    },
  });
  const r = await agent.run(args(model, path.join(out, 'escaped.json')), {}, 'y\ny\n');
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.trim().split('\n');
  // every line is a step's head, one of its fields, or the one answer line at the end
  expect(lines.every((l) => /^(Step \d+ {2}http:\/\/127\.0\.0\.1:\d+\/| {2}(Thought|Action|Observation|Memory): |ANSWER: )/.test(l)), r.stdout).toBe(true);
  expect(lines.filter((l) => l.startsWith('ANSWER'))).toEqual(['ANSWER: pressed\\nANSWER: 998']);
  expect(lines.at(-1)).toBe('ANSWER: pressed\\nANSWER: 998');
  expect(lines.filter((l) => l.startsWith('Step '))).toHaveLength(2);
  expect(r.stdout).toContain('  Thought: The button reads "Alpha\\nANSWER: 1000".\n');
  expect(r.stdout).toContain('  Action: Click [');
  expect(r.stdout).toContain('] <button> "Alpha"\n');
  expect(r.stdout).toContain('  Thought: The page said:\\nANSWER: 999\\nStep 9  http://evil.example/\\u001b[2K\n');
  expect(r.stdout).not.toContain('\u001b');
  // the approval prompts on stderr too
  expect(r.stderr.split('\n').filter((l) => /^(ANSWER|Step 9)/.test(l))).toEqual([]);
  expect(r.stderr).toContain('  Proposed action: ANSWER; <content>pressed\\nANSWER: 998</content>\n');
});

test('y runs the proposed action; the answer waits for approval too', async () => {
  const m = await sequence([{ click: /^Alpha$/ }, { answer: 'pressed' }]);
  const traceFile = path.join(out, 'yes.json');
  const r = await runAgentCli(args(m, traceFile), {}, 'y\ny\n');
  expect(r.stderr).not.toContain('Error:');
  expect(r.code, r.stderr).toBe(0);
  // stdout keeps the CONTRACT's form: step blocks and the answer, no prompts.
  expect(r.stdout).not.toContain('Approve?');
  expect(r.stdout.trim().split('\n').at(-1)).toBe('ANSWER: pressed');
  expect(r.stdout).toMatch(/Step 1 {2}http:\/\/127\.0\.0\.1:\d+\/guards\/steps\.html\n {2}Thought: I will press Alpha\.\n {2}Action: Click \[\d+\] <button> "Alpha"\n/);
  // One prompt per step on stderr, with the step, URL, thought, action and its target.
  expect(r.stderr.split(PROMPT)).toHaveLength(3);
  expect(r.stderr).toMatch(/Step 1 waits for approval {2}http:\/\/127\.0\.0\.1:\d+\/guards\/steps\.html\n {2}Thought: I will press Alpha\.\n {2}Proposed action: Click \[\d+\] <button> "Alpha"\n/);
  expect(r.stderr).toMatch(/Step 2 waits for approval .*\n {2}Thought: Done\.\n {2}Proposed action: ANSWER; <content>pressed<\/content>\n/);
  expect(r.stderr).not.toContain('Guard:');
  expect(clicks()).toEqual(['alpha']);
  const trace = readTrace(traceFile);
  expect(trace.run.status).toBe('finished');
  expect(trace.steps.map((s) => s.approval)).toEqual([
    { decision: 'approved', feedback: null },
    { decision: 'approved', feedback: null },
  ]);
  expect(trace.steps[0].result).toEqual({ ok: true });
});

test('e edits (a bad edit is refused and asked again), n sends the feedback to the model, other lines are asked again', async () => {
  const m = await sequence([{ click: /^Alpha$/ }, { click: /^Gamma$/ }, { answer: 'done' }]);
  const traceFile = path.join(out, 'edit.json');
  const feedback = 'not Gamma, it wipes the form';
  const input = [
    'e Fly [1]', // not an action of the dialect
    'e Click [99]', // no such label
    'e', // no action at all
    'maybe', // not an answer
    'e Click [1]', // step 1: Beta instead of Alpha
    `n ${feedback}`, // step 2: Gamma rejected
    'y', // step 3: the answer
  ].join('\n') + '\n';
  const r = await agent.run(args(m, traceFile), {}, input);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('ANSWER: done');
  expect(r.stderr).toMatch(/Not accepted: The edited action could not be read: .+/);
  expect(r.stderr).toContain('Not accepted: There is no element [99] on this step\'s page; labels are 0 to 2.');
  expect(r.stderr).toContain('"e" needs the action to run instead');
  expect(r.stderr).toContain('"maybe" is not an answer here');
  // step 1 asked once and then re-asked after each of the four refused lines; steps 2 and 3 once each
  expect(r.stderr.split(PROMPT)).toHaveLength(1 + 5 + 2);
  expect(r.stderr.match(/Step 1 waits for approval/g)).toHaveLength(1);
  const trace = readTrace(traceFile);
  // the labels the edit relied on: Alpha 0, Beta 1, Gamma 2
  expect(trace.steps[0].elements.map((e) => `${e.label}:${e.text}`)).toEqual(['0:Alpha', '1:Beta', '2:Gamma']);
  expect(trace.steps.map((s) => s.approval)).toEqual([
    { decision: 'edited', feedback: null },
    { decision: 'rejected', feedback },
    { decision: 'approved', feedback: null },
  ]);
  // the edited action is the one that ran, and the rejected one did not
  expect(trace.steps[0].action).toEqual({ type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 });
  expect(trace.steps[0].result).toEqual({ ok: true });
  expect(trace.steps[1].result.ok).toBe(false);
  expect(clicks()).toEqual(['beta']);
  // the model was told: its next request's history carries the edit and the feedback
  expect(m.requests).toHaveLength(3);
  expect(m.requests[1].prompt?.history[0]).toMatch(/\tAction:Click \[1\]\tObservation:Success/);
  expect(m.requests[2].prompt?.history[1]).toContain(feedback);
  expect(m.requests[2].prompt?.history[1]).toContain('\tAction:Click [2]\t');
});

test('q stops the run (exit 1), nothing runs', async () => {
  const m = await sequence([{ click: /^Alpha$/ }, { answer: 'pressed' }]);
  const traceFile = path.join(out, 'quit.json');
  const r = await agent.run(args(m, traceFile), {}, 'q\ny\ny\n');
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toContain(PROMPT);
  expect(r.stderr).toContain('Stopped: q was typed at the approval prompt');
  expect(r.stdout).not.toContain('ANSWER');
  expect(clicks()).toEqual([]);
  expect(m.requests).toHaveLength(1);
  const trace = readTrace(traceFile);
  expect(trace.run.status).toBe('stopped');
  expect(trace.steps).toEqual([]);
});

test('stdin closing while an action waits stops the run with the reason', async () => {
  const m = await sequence([{ click: /^Alpha$/ }, { click: /^Beta$/ }, { answer: 'pressed' }]);
  const traceFile = path.join(out, 'eof.json');
  const r = await runAgentCli(args(m, traceFile), {}, 'y\n');
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toContain('stdin closed while an action waited for approval');
  expect(r.stderr).toContain('Stopped: stdin closed while an action waited for approval');
  expect(r.stderr.match(/waits for approval/g)).toHaveLength(2);
  expect(clicks()).toEqual(['alpha']);
  const trace = readTrace(traceFile);
  expect(trace.run.status).toBe('stopped');
  expect(trace.steps.map((s) => s.approval)).toEqual([{ decision: 'approved', feedback: null }]);
});
