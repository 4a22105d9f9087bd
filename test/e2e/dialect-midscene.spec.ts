/**
 * The midscene dialect (Midscene-style planner, seed 002) end to end, one fixture server, one
 * fake model and one extension browser for the file:
 * - the shop task through the headless runner with step approval, the model answering boxes in
 *   image pixels (Qwen2.5-VL's convention: the screenshot padded to multiples of 28), every request
 *   in the planner's format (the seed's system prompt as written, one image, instruction and logs);
 * - an untilBottom scroll on a long page reaches the bottom in one action;
 * - Settings → Check coordinates names the convention the stand-in answers in (each of the three),
 *   applies it, and says when nothing fits.
 * The fake model's player finds every target BY COLOUR on the screenshot it gets
 * (test/fixtures/dialects/midscene/player.ts), never at coordinates known in advance.
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FakeModel, ModelReply } from '../fixtures/model/server';
import { midscenePlayer, type Convention, type MidsceneGoal } from '../fixtures/dialects/midscene/player';
import { COLOURS } from '../fixtures/model/locate';
import { imageSize } from '../../scripts/png';
import { panelSend, shareExtensionWithModel, type SharedWithModel } from './support';
import type { Trace } from '../../src/core/trace';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

const KEY = 'sk-midscene-5d6e7f8a9b';
const APPROVE_PROMPT = 'Approve? [y = run it / n FEEDBACK = reject / e ACTION = edit / q = stop]';
const out = mkdtempSync(path.join(tmpdir(), 'webagent-midscene-'));

/** What the one fake model plays now (each test sets it). */
const now: { goals: MidsceneGoal[]; bbox: Convention; calibration: Convention | 'nonsense' } = { goals: [], bbox: 'norm-xy', calibration: 'norm-xy' };
let m: FakeModel;
let e: SharedWithModel;

shareExtensionWithModel({
  apiKey: KEY,
  dialect: 'midscene',
  padded: () => now.bbox === 'pixels',
  calibration: () => now.calibration,
  policy: (req): ModelReply => midscenePlayer(now.goals, { bbox: now.bbox })(req.midscene ?? null),
}, (shared) => { e = shared; m = shared.model; });

test.beforeEach(() => {
  m.requests.length = 0;
  m.calibrations.length = 0;
  e.site.events.length = 0;
});

function events(type: string): string[] {
  return e.site.events.filter((x) => x.type === type).map((x) => x.value);
}

function cliArgs(task: string, url: string, trace: string, bbox: Convention, extra: string[] = []): string[] {
  return ['--task', task, '--url', url, '--base-url', m.baseUrl, '--api-key', KEY, '--model', 'glm-4.5v', '--dialect', 'midscene', '--bbox', bbox, '--trace', trace, '--max-steps', '15', ...extra];
}

test('runner, pixels convention: the shop task finishes with step approval; every request in the planner format, padded to 28', async () => {
  now.bbox = 'pixels';
  now.goals = [
    { do: 'type', colour: COLOURS.cyan, text: 'kettle' },
    { do: 'click', colour: COLOURS.magenta },
    { do: 'click', colour: COLOURS.yellow },
    { do: 'answer', text: '42.50 EUR', colour: COLOURS.green },
  ];
  const traceFile = path.join(out, 'shop.json');
  const r = await agent.run(cliArgs('What does the blue kettle cost in the kitchen shop?', `${e.site.url}dialects/shop.html`, traceFile, 'pixels', ['--approve', 'step']), {}, 'y\n'.repeat(20));
  expect(r.stderr).not.toContain('Error:');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.trim().split('\n').at(-1)).toBe('ANSWER: 42.50 EUR');
  expect(events('search')).toEqual(['kettle']);
  expect(events('view')).toEqual(['kettle']);
  // each action waited for approval, written in the planner's grammar with the element under its point
  expect(r.stderr.split(APPROVE_PROMPT).length).toBeGreaterThanOrEqual(4);
  expect(r.stderr).toMatch(/Proposed action: \{"type": "Input", "locate": \{"bbox": \[\d+, \d+, \d+, \d+\], "prompt": ""\}, "param": \{"value": "kettle"\}\} <input> "Search the shop"/);
  expect(r.stderr).toMatch(/Proposed action: \{"type": "Tap", .*\} <button> "Search"/);
  expect(r.stderr).toMatch(/Proposed action: \{"type": "Tap", .*\} <a> "Blue kettle, 1\.7 l"/);

  expect(m.violations()).toEqual([]);
  expect(m.requests.length).toBe(4);
  // the screenshot went padded to multiples of 28 (1280 × 800 → 1288 × 812), the logs came back
  expect(imageSize(m.requests[0].midscene!.screenshot)).toMatchObject({ width: 1288, height: 812 });
  expect(m.requests[3].midscene!.logs).toHaveLength(3);
  expect(m.requests[3].midscene!.task).toBe('What does the blue kettle cost in the kitchen shop?');

  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  expect(trace.run).toMatchObject({ status: 'finished', answer: '42.50 EUR', dialect: 'midscene' });
  // the run maps with the screenshot it took (not the padded picture)
  expect(trace.steps[0].request).toMatchObject({ imageWidth: 1280, imageHeight: 800 });
  const clicked = trace.steps.filter((s) => s.action.type === 'click').map((s) => s.target && `${s.target.tag}:${s.target.text.trim()}`);
  expect(clicked).toEqual(['button:Search', 'a:Blue kettle, 1.7 l']);
});

test('runner, y-x convention: an untilBottom scroll reaches the bottom of a long page in one action', async () => {
  now.bbox = 'norm-yx';
  now.goals = [{ do: 'scrollToEnd', direction: 'down' }, { do: 'answer', text: 'I reached the end.', colour: COLOURS.violet }];
  const traceFile = path.join(out, 'long.json');
  const r = await agent.run(cliArgs('Scroll to the end of the page.', `${e.site.url}dialects/long.html`, traceFile, 'norm-yx'), {});
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.trim().split('\n').at(-1)).toBe('ANSWER: I reached the end.');
  expect(events('bottom')).toHaveLength(1);
  // one scroll, then the answer: a view at a time would have needed dozens
  expect(m.requests.length).toBe(2);
  expect(m.violations()).toEqual([]);
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  expect(trace.steps[0].action).toMatchObject({ type: 'scroll', direction: 'down', until: true, target: { kind: 'window' } });
});

test.describe('Settings: Check coordinates', () => {
  test.beforeAll(async () => {
    await panelSend(e.panel, 'settings/patch', { set: { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v', dialect: 'midscene', dialectOptions: { midscene: { bbox: 'norm-xy' } }, language: 'en' } });
    await e.panel.reload();
    const settings = e.panel.getByTestId('settings');
    if (!(await settings.evaluate((d) => (d as HTMLDetailsElement).open))) await settings.locator('summary').first().click();
  });

  for (const c of ['norm-yx', 'pixels', 'norm-xy'] as const) {
    test(`names ${c} for a model answering in it, and applies it`, async () => {
      now.calibration = c;
      const panel = e.panel;
      await panel.getByTestId('check-coordinates').click();
      const result = panel.getByTestId('calibration-result');
      await expect(result).toHaveAttribute('data-fits', c);
      const names = { 'norm-xy': /0–1000, x then y/, 'norm-yx': /0–1000, y then x/, pixels: /Image pixels/ } as const;
      await expect(result).toContainText(names[c]);
      expect(m.calibrations.length).toBe(1);
      // the setting before is another convention (norm-xy, then each one this loop applied): Use it switches
      await panel.getByTestId('apply-calibration').click();
      await expect(panel.getByTestId('setting-option-bbox')).toHaveValue(c);
      await expect(result).toContainText('That is the convention set.');
      await expect(panel.getByTestId('apply-calibration')).toHaveCount(0);
      await panel.getByTestId('save-settings').click();
      await expect.poll(async () => (await panelSend<{ dialectOptions: Record<string, { bbox?: string }> }>(panel, 'settings/get', {})).dialectOptions.midscene?.bbox).toBe(c);
    });
  }

  test('says when no convention fits', async () => {
    now.calibration = 'nonsense';
    await e.panel.getByTestId('check-coordinates').click();
    const result = e.panel.getByTestId('calibration-result');
    await expect(result).toHaveAttribute('data-fits', '');
    await expect(result).toContainText('No convention fits');
    await expect(e.panel.getByTestId('apply-calibration')).toHaveCount(0);
  });
});

test('settings stored before bbox and device were dialect options (fields of their own, a profile with bbox) are read as the options', async () => {
  const panel = e.panel;
  const old = { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v', dialect: 'midscene', language: 'en', bbox: 'pixels', appagentDevice: 'desktop',
    profiles: { qwen: { baseUrl: m.baseUrl, apiKey: KEY, model: 'qwen2.5-vl', dialect: 'midscene', bbox: 'norm-yx', temperature: 0.1, maxTokens: 4096, stream: true, extraBody: '' } } };
  // written as that version wrote it, straight into the extension's storage
  await panel.evaluate((s) => chrome.storage.local.set({ settings: s }), old);
  await panel.reload();
  const settings = panel.getByTestId('settings');
  if (!(await settings.evaluate((d) => (d as HTMLDetailsElement).open))) await settings.locator('summary').first().click();
  await expect(panel.getByTestId('setting-option-bbox')).toHaveValue('pixels');
  await panel.getByTestId('setting-dialect').selectOption('appagent');
  await expect(panel.getByTestId('setting-option-device')).toHaveValue('desktop');
  await panel.getByTestId('setting-dialect').selectOption('midscene');
  await panel.getByTestId('profile-select').selectOption('qwen');
  await expect(panel.getByTestId('setting-model')).toHaveValue('qwen2.5-vl');
  await expect(panel.getByTestId('setting-option-bbox')).toHaveValue('norm-yx');
  const stored = await panelSend<{ dialectOptions: Record<string, Record<string, string>>; profiles: Record<string, { dialectOptions: Record<string, string> }> }>(panel, 'settings/get', {});
  expect(stored.dialectOptions.midscene).toEqual({ bbox: 'pixels' });
  expect(stored.dialectOptions.appagent).toEqual({ device: 'desktop' });
  expect(stored.profiles.qwen.dialectOptions).toEqual({ bbox: 'norm-yx' });
  expect(stored).not.toHaveProperty('bbox');
});
