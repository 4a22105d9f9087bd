/**
 * The ui-tars dialect end to end (docs/dialects.md, "ui-tars"). The fake model's player
 * (test/fixtures/dialects/ui-tars/player.ts) finds every target by its colour on the screenshot it
 * is sent and clicks it the way UI-TARS writes points (pixels of the smart_resized screenshot, or
 * thousandths), so the conversation's pictures and the coordinate mapping are really exercised;
 * every request is checked against the SDK's conversation (request.ts).
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FakeModel, ModelReply } from '../fixtures/model/server';
import { uiTarsPlayer, type Convention, type UiTarsGoal } from '../fixtures/dialects/ui-tars/player';
import { COLOURS } from '../fixtures/model/locate';
import { panelSend, shareExtensionWithModel, waitForRun, type SharedWithModel, runAgentCli } from './support';
import type { Trace } from '../../src/core/trace';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

const KEY = 'sk-uitars-6e7f8a9b0c';
const out = mkdtempSync(path.join(tmpdir(), 'webagent-uitars-'));

/** What the one fake model plays now (each test sets it). */
const now: { goals: UiTarsGoal[]; convention: Convention; calibration: string } = { goals: [], convention: 'resized-pixels', calibration: 'resized-pixels' };
let m: FakeModel;
let e: SharedWithModel;

shareExtensionWithModel({
  apiKey: KEY,
  models: ['ui-tars-1.5-7b'],
  dialect: 'ui-tars',
  calibration: () => now.calibration,
  policy: (req): ModelReply => uiTarsPlayer(now.goals, now.convention)(req.uiTars ?? null),
}, (shared) => { e = shared; m = shared.model; });

test.beforeEach(() => {
  m.requests.length = 0;
  m.calibrations.length = 0;
  e.site.events.length = 0;
});

const events = (type: string) => e.site.events.filter((x) => x.type === type).map((x) => x.value);

const SHOP: UiTarsGoal[] = [
  { do: 'click', colour: COLOURS.cyan, what: 'search field' },
  { do: 'type', text: 'kettle', enter: true },
  { do: 'click', colour: COLOURS.yellow, what: 'Blue kettle result' },
  { do: 'finish', answer: '42.50 EUR' },
];

function cliArgs(task: string, trace: string, extra: string[] = []): string[] {
  return ['--task', task, '--url', `${e.site.url}dialects/shop.html`, '--base-url', m.baseUrl, '--api-key', KEY, '--model', 'ui-tars-1.5-7b', '--dialect', 'ui-tars', '--trace', trace, '--max-steps', '10', ...extra];
}

for (const convention of ['resized-pixels', 'thousandths'] as const) {
  test(`runner, ${convention}: the shop task finishes; every request is the SDK's conversation`, async () => {
    now.goals = SHOP;
    now.convention = convention;
    const traceFile = path.join(out, `shop-${convention}.json`);
    const extra = convention === 'thousandths' ? ['--dialect-option', 'coordinates=thousandths'] : [];
    const r = await agent.run(cliArgs('What does the blue kettle cost in the kitchen shop?', traceFile, extra), {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('ANSWER: 42.50 EUR');
    expect(events('search')).toEqual(['kettle']);
    expect(events('view')).toEqual(['kettle']);
    expect(m.violations()).toEqual([]);
    // a conversation: each request carries the earlier replies as assistant messages
    expect(m.requests.map((q) => q.uiTars!.steps.length)).toEqual([0, 1, 2, 3]);
    const last = m.requests.at(-1)!.body.messages as Array<{ role: string }>;
    expect(last.map((x) => x.role)).toEqual(['user', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
    expect(trace.run).toMatchObject({ status: 'finished', answer: '42.50 EUR', dialect: 'ui-tars', dialectOptions: { coordinates: convention } });
    const clicked = trace.steps.filter((s) => s.action.type === 'click').map((s) => s.target && `${s.target.tag}:${s.target.text.trim()}`);
    expect(clicked).toEqual(['input:Search the shop', 'a:Blue kettle, 1.7 l']);
    expect(trace.steps[1].action).toMatchObject({ type: 'type', text: 'kettle', enter: true });
    expect(trace.steps[0].request.promptText).toMatch(/^\[user\]\nYou are a GUI agent\./);
    expect(JSON.stringify(trace)).not.toContain(KEY);
  });
}

test('runner: call_user() stops the run when nobody can answer, with the model\'s thought', async () => {
  now.goals = [{ do: 'call-user', why: 'The shop wants me to log in; I need the user for that.' }];
  now.convention = 'resized-pixels';
  const traceFile = path.join(out, 'call-user.json');
  // a real process with its stdin closed, as when nobody is at the terminal
  const r = await runAgentCli(cliArgs('Buy the blue kettle.', traceFile), {});
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('the model asks for your help: “The shop wants me to log in; I need the user for that.”');
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  expect(trace.run.status).not.toBe('finished');
  expect(trace.steps.every((s) => s.approval?.decision !== 'approved')).toBe(true);
});

test('panel: call_user() asks the person; approved, the model looks again and goes on', async () => {
  now.goals = [{ do: 'call-user', why: 'Please accept the cookie banner for me.' }, { do: 'finish', answer: 'done after your help' }];
  const { runId } = await panelSend<{ runId: string }>(e.panel, 'run/start', {
    task: 'Open the shop', url: `${e.site.url}dialects/shop.html`,
    config: { baseUrl: m.baseUrl, apiKey: KEY, model: 'ui-tars-1.5-7b', dialect: 'ui-tars', approveSteps: false, language: 'en' },
  });
  await waitForRun(e.panel, runId, (r) => !!r.pending?.approval, 'the call_user step waits for the person');
  const card = e.panel.getByTestId('approval');
  await expect(card.getByTestId('approval-reason')).toContainText('the model asks for your help: “Please accept the cookie banner for me.”');
  await card.getByTestId('approve').click();
  const done = await waitForRun(e.panel, runId, (r) => r.status !== 'running', 'the run ends');
  expect(done.status).toBe('finished');
  expect(done.answer).toBe('done after your help');
  expect(m.requests).toHaveLength(2);
});

test.describe('Settings: Check coordinates', () => {
  test.beforeAll(async () => {
    await panelSend(e.panel, 'settings/patch', { set: { baseUrl: m.baseUrl, apiKey: KEY, model: 'ui-tars-1.5-7b', dialect: 'ui-tars', language: 'en' } });
    await e.panel.reload();
    const settings = e.panel.getByTestId('settings');
    if (!(await settings.evaluate((d) => (d as HTMLDetailsElement).open))) await settings.locator('summary').first().click();
  });

  for (const c of ['thousandths', 'resized-pixels'] as const) {
    test(`names ${c} for a model clicking in it, and Use it sets the option`, async () => {
      now.calibration = c;
      const panel = e.panel;
      const field = panel.getByTestId('dialect-option-coordinates');
      await field.getByTestId('check-coordinates').click();
      const result = field.getByTestId('calibration-result');
      await expect(result).toHaveAttribute('data-fits', c);
      await expect(result).toContainText(c === 'thousandths' ? /Thousandths \(UI-TARS 1\.0/ : /Pixels of the resized screenshot/);
      // the check was asked in UI-TARS's grammar
      const asked = JSON.stringify(m.calibrations[0]);
      expect(asked).toContain("click(start_box='(x,y)')");
      if (c === 'thousandths') {
        await field.getByTestId('apply-calibration').click();
        await expect(panel.getByTestId('setting-option-coordinates')).toHaveValue(c);
        await panel.getByTestId('save-settings').click();
        await expect.poll(async () => (await panelSend<{ dialectOptions: Record<string, Record<string, string>> }>(panel, 'settings/get', {})).dialectOptions['ui-tars']?.coordinates).toBe(c);
      } else {
        await expect(result).not.toContainText('That is the convention set.');
      }
    });
  }
});
