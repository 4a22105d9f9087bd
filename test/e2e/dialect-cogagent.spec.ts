/**
 * The cogagent dialect end to end, through the headless runner: CogAgent-9B-20241220's query
 * (Task / History steps / Platform / answer format, one clean screenshot), its replies (Action
 * sentence, Grounded Operation with boxes in thousandths, the marker).
 *
 * The fake model's player (test/fixtures/dialects/cogagent/player.ts) finds every target BY COLOUR
 * on the screenshot it is sent and answers the target's box, so the box centre and the coordinate
 * mapping are exercised; every request is checked against CogAgent's format
 * (test/fixtures/dialects/cogagent/request.ts): `violations()` empty. One fixture server per file.
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { cogPlayer, type CogGoal } from '../fixtures/dialects/cogagent/player';
import { COLOURS } from '../fixtures/model/locate';
import { imageSize } from '../../scripts/png';
import { panelSend, serveFixtures, waitForRun } from './support';
import { launchWithExtension, openPanel } from '../../scripts/browser';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

const KEY = 'sk-cogagent-5d6e7f8a9b';
const APPROVE_PROMPT = 'Approve? [y = run it / n FEEDBACK = reject / e ACTION = edit / q = stop]';

let site: StaticServer;
const models: FakeModel[] = [];
const out = mkdtempSync(path.join(tmpdir(), 'webagent-cogagent-'));

test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); });
test.afterEach(async () => {
  for (const m of models.splice(0)) await m.close();
  site.events.length = 0;
});

async function fakeModel(goals: CogGoal[], llm?: (prompt: string) => string): Promise<FakeModel> {
  const play = cogPlayer(goals, { llm });
  const m = await startFakeModel({ apiKey: KEY, dialect: 'cogagent', models: ['cogagent-9b-20241220'], policy: (req) => play(req.cogagent ?? null, req.llm ?? null) });
  models.push(m);
  return m;
}

function cliArgs(m: FakeModel, task: string, url: string, trace: string, extra: string[] = []): string[] {
  return ['--task', task, '--url', url, '--base-url', m.baseUrl, '--api-key', KEY, '--model', 'cogagent-9b-20241220', '--dialect', 'cogagent', '--trace', trace, '--max-steps', '15', ...extra];
}

const events = (type: string) => site.events.filter((e) => e.type === type).map((e) => e.value);

test('cogagent, runner: the shop task finishes with step approval, the answer is the END step\'s Action sentence; every request in CogAgent\'s format', async () => {
  const goals: CogGoal[] = [
    { do: 'type', colour: COLOURS.cyan, text: 'kettle', info: 'Search the shop' },
    { do: 'click', colour: COLOURS.magenta, info: 'Search' },
    { do: 'click', colour: COLOURS.yellow, info: 'Blue kettle, 1.7 l' },
    { do: 'answer', text: '42.50 EUR', colour: COLOURS.green },
  ];
  const m = await fakeModel(goals);
  const traceFile = path.join(out, 'shop.json');
  const r = await agent.run(cliArgs(m, 'What does the blue kettle cost in the kitchen shop?', `${site.url}dialects/shop.html`, traceFile, ['--approve', 'step']), {}, 'y\n'.repeat(20));
  expect(r.stderr).not.toContain('Error:');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.trim().split('\n').at(-1)).toBe('ANSWER: 42.50 EUR');
  expect(events('search')).toEqual(['kettle']);
  expect(events('view')).toEqual(['kettle']);

  // each proposed action waited for approval, shown as the Grounded Operation with the element under its point
  expect(r.stderr.split(APPROVE_PROMPT).length).toBeGreaterThanOrEqual(goals.length);
  expect(r.stderr).toMatch(/Proposed action: TYPE\(box=\[\[\d{3},\d{3},\d{3},\d{3}\]\], text='kettle'.*\) <input> /);
  expect(r.stderr).toMatch(/Proposed action: CLICK\(box=\[\[\d{3},\d{3},\d{3},\d{3}\]\].*\) <button> "Search"/);
  expect(r.stderr).toMatch(/Proposed action: CLICK\(.*\) <a> "Blue kettle, 1\.7 l"/);

  expect(m.violations()).toEqual([]);
  expect(m.requests.length).toBeGreaterThanOrEqual(goals.length);
  expect(m.requests.every((q) => q.cogagent && q.llm === null)).toBe(true);
  expect(imageSize(m.requests[0].cogagent!.screenshot)).toMatchObject({ format: 'png', width: 1280 });
  // the last query's history: the earlier steps, numbered from 0, each "operation\tAction sentence"
  const last = m.requests.at(-1)!.cogagent!;
  expect(last.steps.map((s) => s.n)).toEqual([...last.steps.keys()]);
  expect(last.steps[0].operation).toMatch(/^TYPE\(box=\[\[\d{3},\d{3},\d{3},\d{3}\]\], text='kettle'/);
  expect(last.steps[0].sentence).toMatch(/^Type "kettle" into the cyan field\./);

  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  expect(trace.run).toMatchObject({ status: 'finished', answer: '42.50 EUR', dialect: 'cogagent' });
  const typed = trace.steps.find((s) => s.action.type === 'type');
  expect(typed?.action).toMatchObject({ type: 'type', text: 'kettle', clear: false, enter: false, target: { kind: 'point' } });
  expect(typed?.target?.tag).toBe('input');
  const clicked = trace.steps.filter((s) => s.action.type === 'click').map((s) => s.target && `${s.target.tag}:${s.target.text.trim()}`);
  expect(clicked).toEqual(['button:Search', 'a:Blue kettle, 1.7 l']);
  for (const s of trace.steps) expect(s.request.promptText).not.toMatch(/\[\d+\]: (?:<[a-z]+> )?"/);
  expect(JSON.stringify(trace)).not.toContain(KEY);
});

test('cogagent, runner: QUOTE_TEXT → LLM → TYPE with a variable: the quoted price reaches the language model, its answer is typed and saved', async () => {
  const goals: CogGoal[] = [
    { do: 'quote', colour: COLOURS.orange, output: '__CogName_Price__', info: 'Price' },
    { do: 'llm', prompt: 'Write a short note about the price __CogName_Price__', output: '__CogName_Note__' },
    { do: 'type', colour: COLOURS.cyan, text: 'Note: __CogName_Note__', info: 'Note' },
    { do: 'click', colour: COLOURS.magenta, info: 'Save' },
    { do: 'answer', text: 'The note is saved.' },
  ];
  const m = await fakeModel(goals, (prompt) => `costs ${/(\d+\.\d+ EUR)/.exec(prompt)?.[1] ?? 'nothing'}`);
  const traceFile = path.join(out, 'note.json');
  const r = await agent.run(cliArgs(m, 'Write a note with the price of the kettle and save it', `${site.url}dialects/note.html`, traceFile));
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.trim().split('\n').at(-1)).toBe('ANSWER: The note is saved.');
  // the page got the language model's answer, filled into the typed text
  expect(events('saved')).toEqual(['Note: costs 42.50 EUR']);

  expect(m.violations()).toEqual([]);
  // the LLM action's call: text only, its variable filled with the quoted price
  const calls = m.requests.filter((q) => q.llm);
  expect(calls.map((q) => q.llm!.prompt)).toEqual(['Write a short note about the price 42.50 EUR']);
  // the model learned what was stored, on the history line of the step that stored it
  const last = m.requests.filter((q) => q.cogagent).at(-1)!.cogagent!;
  expect(last.steps[0].operation).toMatch(/^QUOTE_TEXT\(/);
  expect(last.steps[0].observation).toMatch(/__CogName_Price__.*42\.50 EUR/);
  expect(last.steps[1].observation).toMatch(/__CogName_Note__.*costs 42\.50 EUR/);

  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  expect(trace.run).toMatchObject({ status: 'finished', answer: 'The note is saved.', dialect: 'cogagent' });
  // the trace keeps the names, not the values
  expect(trace.steps.map((s) => s.action.type)).toEqual(['quote', 'llm', 'type', 'click', 'finish']);
  expect(trace.steps[2].action).toMatchObject({ type: 'type', text: 'Note: __CogName_Note__' });
  expect(trace.steps[1].action).toMatchObject({ type: 'llm', prompt: 'Write a short note about the price __CogName_Price__' });
});

test('cogagent, runner: a step marked <<敏感操作>> asks the person even without step approval; a rejection goes back to the model', async () => {
  const goals: CogGoal[] = [
    { do: 'type', colour: COLOURS.cyan, text: 'kettle', info: 'Search the shop' },
    { do: 'click', colour: COLOURS.magenta, info: 'Search', sensitive: true },
    { do: 'answer', text: 'Searched.' },
  ];
  const m = await fakeModel(goals);
  const traceFile = path.join(out, 'sensitive.json');
  // auto approval: only the sensitive click is asked about; the first time it is rejected, then approved
  const r = await agent.run(cliArgs(m, 'Search the shop for kettles', `${site.url}dialects/shop.html`, traceFile), {}, 'n not yet\ny\n');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr.split(APPROVE_PROMPT).length - 1).toBe(2);
  expect(r.stderr).toMatch(/Proposed action: CLICK\(.*\) <button> "Search"/);
  expect(events('search')).toEqual(['kettle']);
  expect(m.violations()).toEqual([]);
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  const clicks = trace.steps.filter((s) => s.action.type === 'click');
  expect(clicks.map((s) => [s.sensitive, s.approval?.decision])).toEqual([[true, 'rejected'], [true, 'approved']]);
  expect(trace.steps.find((s) => s.action.type === 'type')?.sensitive).toBeUndefined();
  // the model read the rejection on the history line of the rejected step
  const after = m.requests.find((q) => q.cogagent && q.cogagent.steps.length === 2)!.cogagent!;
  expect(after.steps[1].observation).toMatch(/not yet/);
});

test('cogagent, side panel: QUOTE_CLIPBOARD keeps what the page copied (clipboard.writeText, execCommand copy); the panel lists the variables', async () => {
  const goals: CogGoal[] = [
    { do: 'click', colour: COLOURS.yellow, info: 'Copy code A' },
    { do: 'clipboard', output: '__CogName_A__' },
    { do: 'click', colour: COLOURS.orange, info: 'Copy code B' },
    { do: 'clipboard', output: '__CogName_B__' },
    { do: 'type', colour: COLOURS.cyan, text: '__CogName_A__ and __CogName_B__', info: 'Codes' },
    { do: 'click', colour: COLOURS.magenta, info: 'Save' },
    { do: 'answer', text: 'Both codes are saved.' },
  ];
  const m = await fakeModel(goals);
  const browser = await launchWithExtension();
  try {
    const panel = await openPanel(browser);
    const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', {
      task: 'Copy both codes and save them', url: `${site.url}dialects/copy.html`,
      config: { baseUrl: m.baseUrl, apiKey: KEY, model: 'cogagent-9b-20241220', dialect: 'cogagent' },
    });
    const done = await waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends');
    expect(done, done.stopReason ?? '').toMatchObject({ status: 'finished', answer: 'Both codes are saved.' });
    expect(events('saved')).toEqual(['ABC-123 and XYZ-789']);
    expect(m.violations()).toEqual([]);
    // the panel shows the variables, each with the step that stored it
    const shown = panel.locator('[data-testid="variable"]');
    await expect(shown).toHaveCount(2);
    await expect(panel.locator('[data-testid="variable"][data-name="__CogName_A__"]')).toContainText('ABC-123');
    await expect(panel.locator('[data-testid="variable"][data-name="__CogName_B__"]')).toContainText('XYZ-789');
    await expect(panel.locator('[data-testid="variable"][data-name="__CogName_A__"]')).toContainText('step 2');
  } finally {
    await browser.close();
  }
});
