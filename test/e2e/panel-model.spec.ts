/**
 * The side panel and the model: the reply as it streams in (thought growing, reasoning collapsed,
 * Stop cancelling the stream), retry notes, endpoint presets and saved profiles, the price table
 * and the run's cost, token and cost caps, Test connection with an image. The panel is opened as
 * a tab, as in panel.spec.ts; the model is the fake OpenAI-compatible server.
 */
import { test, expect } from './fixtures';
import type { Page } from 'playwright-core';
import { openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type FakeModelOptions } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import { serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';
import { costOf, formatMoney, tokensOf } from '../../src/core/costs';
import { formatTokens } from '../../sidepanel/format';

const KEY = 'sk-panel-model-7a6b5c4d';
let site: StaticServer;
let browser: Launched;
let panel: Page;
const models: FakeModel[] = [];

test.beforeAll(async () => {
  site = await serveFixtures();
});

test.afterAll(async () => {
  for (const m of models) await m.close();
  await site.close();
});

test.beforeEach(async ({ warm }) => {
  browser = warm;
  const page = await browser.context.newPage();
  await page.goto(`${site.url}recipes/index.html`);
  panel = await openPanel(browser);
});


async function fake(policy: FakeModelOptions['policy'], extra: Partial<FakeModelOptions> = {}): Promise<FakeModel> {
  const m = await startFakeModel({ apiKey: KEY, policy, ...extra });
  models.push(m);
  return m;
}

async function openSettings(p: Page) {
  await p.locator('summary', { hasText: 'Settings' }).first().evaluate((el) => { (el.parentElement as HTMLDetailsElement).open = true; });
}

async function openAdvanced(p: Page) {
  await p.getByTestId('advanced-section').evaluate((el) => { (el as HTMLDetailsElement).open = true; });
}

async function fillSettings(p: Page, s: { baseUrl: string; apiKey: string; model: string }) {
  await openSettings(p);
  await p.getByTestId('setting-baseUrl').fill(s.baseUrl);
  await p.getByTestId('setting-apiKey').fill(s.apiKey);
  await p.getByTestId('setting-model').fill(s.model);
}

async function save(p: Page) {
  await p.getByTestId('save-settings').click();
  await expect(p.getByTestId('settings-status')).toHaveText('Saved.');
}

async function start(p: Page, task: string) {
  await p.getByTestId('task').fill(task);
  await p.getByTestId('start').click();
}

const THOUGHT = 'The recipes are listed on this page; I will scroll down to see more of them before choosing one.';
const REASONING = 'First I read the list of recipes and look for a soup among them.';

test('the reply streams into the panel: the thought grows, reasoning is collapsed; Stop cancels the stream', async () => {
  const m = await fake((_q, n) => ({
    // The second reply is long, so that Stop lands in the middle of it.
    content: `Thought: ${n === 0 ? THOUGHT : THOUGHT.repeat(6)}\nAction: Scroll [WINDOW]; [down]\nMemory_Updated: {}`,
    reasoning: REASONING,
  }), { chunkSize: 6, chunkDelayMs: 150 });
  await fillSettings(panel, { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v' });
  await save(panel);
  await start(panel, 'Look at the recipes');

  // Watch the first step's reply arrive, until the step is done.
  const samples: Array<{ thought: string | null; reasoning: string | null; open: boolean | null }> = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const s = await panel.evaluate(() => {
      const t = document.querySelector('[data-testid="live-thought"]');
      const r = document.querySelector('[data-testid="live-reasoning"]') as HTMLDetailsElement | null;
      return { thought: t ? t.textContent : null, reasoning: r ? r.textContent : null, open: r ? r.open : null, steps: document.querySelectorAll('[data-testid="step"]').length };
    });
    if (s.steps > 0) break;
    samples.push({ thought: s.thought, reasoning: s.reasoning, open: s.open });
    expect(Date.now(), 'the first step completes').toBeLessThan(deadline);
    await panel.waitForTimeout(40);
  }
  const thoughts = [...new Set(samples.map((s) => s.thought).filter((t): t is string => !!t))];
  expect(thoughts.length, `live thoughts seen: ${JSON.stringify(thoughts)}`).toBeGreaterThanOrEqual(2);
  // Only the thought (after "Thought:", before "Action:"), growing towards the whole of it.
  for (const t of thoughts) expect(THOUGHT.startsWith(t), t).toBe(true);
  const withReasoning = samples.filter((s) => s.reasoning !== null);
  expect(withReasoning.some((s) => s.reasoning!.includes(REASONING)), 'the whole reasoning was shown').toBe(true);
  expect(withReasoning.every((s) => s.open === false), 'the reasoning stays collapsed').toBe(true);
  await expect(panel.getByTestId('step').first().getByTestId('thought')).toHaveText(THOUGHT);

  // The second reply: Stop in the middle of it.
  await expect(panel.getByTestId('pending')).toContainText('Step 2');
  await expect(panel.getByTestId('live-thought')).not.toBeEmpty();
  expect(m.requests).toHaveLength(2);
  await panel.getByTestId('stop').click();
  await expect(panel.getByTestId('stop-reason')).toHaveText('The run stopped: Stopped by the user.');
  await expect(panel.getByTestId('live-reply')).toHaveCount(0);
  await panel.waitForTimeout(1500);
  expect(m.requests).toHaveLength(2);
  await expect(panel.getByTestId('step')).toHaveCount(1);
  await expect(panel.getByTestId('live-reply')).toHaveCount(0);
});

test('a rate-limited request shows the retry note, also to a panel opened during the wait, then the run finishes', async () => {
  let n = 0;
  // The retry is held until the test has seen the note twice (a loaded machine may take longer than the 2 s wait).
  let release!: () => void;
  const seen = new Promise<void>((r) => { release = r; });
  const m = await fake(async () => {
    if (n++ === 0) return { status: 429, message: 'Rate limit reached', headers: { 'retry-after': '2' } };
    await seen;
    return { content: 'Thought: I know it.\nAction: ANSWER; <content>after the wait</content>' };
  });
  await fillSettings(panel, { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v' });
  await save(panel);
  await start(panel, 'Answer after a rate limit');
  const note = 'The endpoint is rate-limiting (HTTP 429); retrying in 2 s (attempt 2 of 4)';
  await expect(panel.getByTestId('retry-note')).toContainText(note);
  // A panel opened after the note was sent asks the worker for it.
  await panel.reload();
  await expect(panel.getByTestId('retry-note')).toContainText(note);
  release();
  await expect(panel.getByTestId('answer')).toContainText('after the wait', { timeout: 30_000 });
  await expect(panel.getByTestId('retry-note')).toHaveCount(0);
  expect(m.requests).toHaveLength(2);
});

test('presets fill the endpoint fields and stay editable; saved profiles load, survive a reload, and can be deleted', async () => {
  await openSettings(panel);
  const field = (k: string) => panel.getByTestId(`setting-${k}`);
  await field('apiKey').fill('sk-first-key');
  await openAdvanced(panel);

  await panel.getByTestId('preset').selectOption('ollama');
  await expect(field('baseUrl')).toHaveValue('http://127.0.0.1:11434/v1');
  await expect(field('model')).toHaveValue('qwen2.5vl');
  await expect(field('extraBody')).toHaveValue('');
  await expect(field('maxTokens')).toHaveValue('4096');
  await expect(field('apiKey')).toHaveValue('sk-first-key');
  await expect(panel.getByTestId('preset-note')).toContainText('OLLAMA_ORIGINS=chrome-extension://*');
  // Every field stays editable after a preset.
  await field('model').fill('llava:13b');
  await field('temperature').fill('0.2');
  await expect(field('model')).toHaveValue('llava:13b');
  await expect(field('temperature')).toHaveValue('0.2');
  await panel.getByTestId('profile-name').fill('ollama-local');
  await panel.getByTestId('save-profile').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved the profile "ollama-local".');

  await panel.getByTestId('preset').selectOption('vllm');
  await expect(field('extraBody')).toHaveValue('{"skip_special_tokens": false}');
  await expect(field('model')).toHaveValue('glm-4.5v');
  await field('baseUrl').fill('http://10.0.0.5:8000/v1');
  await field('apiKey').fill('sk-second-key');
  // The dialect is kept with the profile; glm-mobile asks for its apps, glm-pc does not.
  await expect(field('dialect')).toHaveValue('glm-web');
  await field('dialect').selectOption('glm-mobile');
  await expect(panel.getByTestId('dialect-note')).toContainText('phone');
  await field('apps').fill('not an app line');
  await expect(panel.getByTestId('save-settings')).toBeDisabled();
  await field('apps').fill('Mail = https://mail.example/');
  await expect(panel.getByTestId('save-settings')).toBeEnabled();
  await field('dialect').selectOption('glm-pc');
  await expect(field('apps')).toHaveCount(0);
  await expect(panel.getByTestId('dialect-note')).toContainText('points of the screenshot');
  await panel.getByTestId('profile-name').fill('vllm-box');
  await panel.getByTestId('save-profile').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved the profile "vllm-box".');

  const expectOllama = async () => {
    await expect(field('baseUrl')).toHaveValue('http://127.0.0.1:11434/v1');
    await expect(field('model')).toHaveValue('llava:13b');
    await expect(field('apiKey')).toHaveValue('sk-first-key');
    await expect(field('temperature')).toHaveValue('0.2');
    await expect(field('extraBody')).toHaveValue('');
    await expect(field('dialect')).toHaveValue('glm-web');
  };
  const expectVllm = async () => {
    await expect(field('baseUrl')).toHaveValue('http://10.0.0.5:8000/v1');
    await expect(field('model')).toHaveValue('glm-4.5v');
    await expect(field('apiKey')).toHaveValue('sk-second-key');
    await expect(field('temperature')).toHaveValue('0.001');
    await expect(field('extraBody')).toHaveValue('{"skip_special_tokens": false}');
    await expect(field('dialect')).toHaveValue('glm-pc');
  };
  await panel.getByTestId('profile-select').selectOption('ollama-local');
  await expectOllama();
  await panel.getByTestId('profile-select').selectOption('vllm-box');
  await expectVllm();

  // The profiles are stored: a reload keeps them.
  await panel.reload();
  await openSettings(panel);
  await openAdvanced(panel);
  await expect(panel.getByTestId('profile-select').locator('option')).toHaveText(['Load a saved profile…', 'ollama-local', 'vllm-box']);
  await panel.getByTestId('profile-select').selectOption('ollama-local');
  await expectOllama();
  await panel.getByTestId('profile-select').selectOption('vllm-box');
  await expectVllm();
  await panel.getByTestId('delete-profile').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Deleted the profile "vllm-box".');
  await expect(panel.getByTestId('profile-select').locator('option')).toHaveText(['Load a saved profile…', 'ollama-local']);
  await panel.reload();
  await expect(panel.getByTestId('profile-select').locator('option')).toHaveText(['Load a saved profile…', 'ollama-local']);
});

test('the price table sets the cost: the run shows tokens and cost as the server counted them', async () => {
  const policy = scriptedPolicy([
    { do: 'type', find: /soup|find a recipe/i, text: 'tomato' },
    { do: 'click', find: /Roasted Tomato Soup/ },
    { do: 'answer', text: 'Roasted Tomato Soup' },
  ], 'plain');
  const m = await fake((req) => policy(req.prompt));
  await fillSettings(panel, { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v' });
  await openAdvanced(panel);
  const rows = panel.getByTestId('price-row');
  while (await rows.count()) await rows.first().getByTestId('price-remove').click();
  await panel.getByTestId('price-add').click();
  await expect(rows).toHaveCount(1);
  await rows.first().getByTestId('price-model').fill('glm-4.5v');
  await rows.first().getByTestId('price-input').fill('3');
  // A half-filled row cannot be saved.
  await expect(panel.getByTestId('save-settings')).toBeDisabled();
  await expect(panel.getByTestId('price-problem')).toContainText('must be numbers');
  await rows.first().getByTestId('price-output').fill('15');
  // the prices' currency, beside the table: every cost is written in it
  await panel.getByTestId('setting-currency').fill('eur');
  await expect(panel.getByTestId('price-table').locator('legend')).toHaveText('Prices per million tokens (EUR)');
  await expect(panel.locator('#setting-maxRunCost-help')).toContainText('in EUR');
  await save(panel);
  await panel.reload();
  await openSettings(panel);
  await openAdvanced(panel);
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('price-model')).toHaveValue('glm-4.5v');
  await expect(rows.first().getByTestId('price-input')).toHaveValue('3');
  await expect(rows.first().getByTestId('price-output')).toHaveValue('15');

  await start(panel, 'Find the tomato soup recipe and tell me its name');
  await expect(panel.getByTestId('answer')).toContainText('Roasted Tomato Soup', { timeout: 60_000 });
  const steps = panel.getByTestId('step');
  await expect(steps).toHaveCount(m.usages.length);
  const total = tokensOf(m.usages);
  expect(total.promptTokens).toBeGreaterThan(0);
  await expect(panel.getByTestId('run-total-tokens')).toHaveText(formatTokens(total.promptTokens, total.completionTokens));
  const cost = formatMoney(costOf(total, { inputPerMillion: 3, outputPerMillion: 15 })!, 'EUR');
  expect(cost).toMatch(/^€0\.\d+$/);
  await expect(panel.getByTestId('run-cost')).toHaveText(cost);
  for (let i = 0; i < m.usages.length; i++) {
    const u = m.usages[i];
    await expect(steps.nth(i).getByTestId('step-tokens')).toHaveText(formatTokens(u.promptTokens, u.completionTokens));
    // Streamed: the model time comes with the time to the first token.
    await expect(steps.nth(i).getByTestId('step-timings')).toHaveText(/^observe .+ · model .+ \(first token .+\) · act .+$/);
  }
  // The history's detail has the same cost and the time to the first token.
  await panel.getByTestId('view-history').click();
  await panel.getByTestId('history-run').first().getByTestId('open-run').click();
  await expect(panel.getByTestId('detail-cost')).toHaveText(cost);
  const first = panel.getByTestId('detail-step').first();
  await first.getByTestId('step-toggle').click();
  await expect(first.getByTestId('timings')).toHaveText(/^Timings observe .+ · model .+ \(first token .+\) · act .+ · total .+$/);
});

test('a token cap and a cost cap set in the form stop the run with the reason', async () => {
  const m = await fake(() => ({ content: 'Thought: Let me look further down.\nAction: Scroll [WINDOW]; [down]' }));
  await fillSettings(panel, { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v' });
  await openAdvanced(panel);
  await panel.getByTestId('setting-maxRunTokens').fill('500');
  await save(panel);
  await start(panel, 'Scroll until the cap');
  await expect(panel.getByTestId('stop-reason')).toContainText('over the cap of 500 set in settings', { timeout: 60_000 });
  expect(m.requests).toHaveLength(1);
  await expect(panel.getByTestId('step')).toHaveCount(1);
  await expect(panel.getByTestId('step').first().getByTestId('observation')).toContainText('Not run');

  // The cost cap, with the default price of glm-4.5v.
  await panel.getByTestId('setting-maxRunTokens').fill('0');
  await panel.getByTestId('setting-maxRunCost').fill('0.0001');
  await save(panel);
  await start(panel, 'Scroll until the cost cap');
  await expect(panel.getByTestId('stop-reason')).toContainText('over the cap of $0.0001 set in settings', { timeout: 60_000 });
  expect(m.requests).toHaveLength(2);
  await expect(panel.getByTestId('step')).toHaveCount(1);
  await expect(panel.getByTestId('run-cost')).not.toContainText('unknown');
});

test('Test connection sends an image and shows that the endpoint accepted it', async () => {
  const m = await fake(() => ({ content: 'unused' }));
  await fillSettings(panel, { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v' });
  await panel.getByTestId('test-connection').click();
  await expect(panel.getByTestId('settings-status')).toContainText('The model accepted an image and answered in');
  expect(m.connectionTests).toHaveLength(1);
  expect(m.requests).toHaveLength(0);
});
