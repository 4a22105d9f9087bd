/**
 * The side panel, opened as a tab (chrome.sidePanel.open needs
 * a user gesture; the page works the same as a tab): settings, test connection,
 * task, Start, live steps, the answer, and clear errors.
 */
import { test, expect } from './fixtures';
import type { Page } from 'playwright-core';
import { openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type RecordedRequest } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import { serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';

const KEY = 'sk-panel-0c1d2e3f4a5b';
let site: StaticServer;
let model: FakeModel;
let browser: Launched;
let panel: Page;

test.beforeAll(async () => {
  site = await serveFixtures();
  const policy = scriptedPolicy([
    { do: 'type', find: /soup|find a recipe/i, text: 'tomato' },
    { do: 'click', find: /Roasted Tomato Soup/ },
    { do: 'answer', text: 'Roasted Tomato Soup' },
  ], 'plain');
  model = await startFakeModel({ apiKey: KEY, policy: (req) => policy(req.prompt) });
});

test.afterAll(async () => {
  await model.close();
  await site.close();
});

test.beforeEach(async ({ warm }) => {
  browser = warm;
  const page = await browser.context.newPage();
  await page.goto(`${site.url}recipes/index.html`);
  panel = await openPanel(browser);
});


async function fillSettings(p: Page, s: { baseUrl: string; apiKey: string; model: string }) {
  await p.locator('summary', { hasText: 'Settings' }).first().evaluate((el) => { (el.parentElement as HTMLDetailsElement).open = true; });
  await p.getByTestId('setting-baseUrl').fill(s.baseUrl);
  await p.getByTestId('setting-apiKey').fill(s.apiKey);
  await p.getByTestId('setting-model').fill(s.model);
}

test('settings, test connection, start, live steps and the answer', async () => {
  await fillSettings(panel, { baseUrl: model.baseUrl, apiKey: KEY, model: 'glm-4.5v' });
  await panel.locator('summary', { hasText: 'Advanced' }).click();
  await panel.getByTestId('setting-stream').uncheck(); // exercise the JSON (non-streaming) path
  await panel.getByTestId('save-settings').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved.');
  await panel.getByTestId('test-connection').click();
  await expect(panel.getByTestId('settings-status')).toContainText('the server offers "glm-4.5v"');

  await panel.getByTestId('task').fill('Find the tomato soup recipe and tell me its name');
  await panel.getByTestId('start').click();
  await expect(panel.getByTestId('answer')).toContainText('Roasted Tomato Soup', { timeout: 60_000 });
  const steps = panel.getByTestId('step');
  const n = await steps.count();
  expect(n).toBeGreaterThanOrEqual(3);
  await expect(steps.nth(0).getByTestId('action')).toHaveText(/^Type \[\d+\]; \[tomato\] <textarea> "Find a recipe"$/); // with the element it typed into
  await expect(steps.nth(0).getByTestId('observation')).toHaveText('Success');
  await expect(steps.nth(0).getByTestId('thought')).not.toBeEmpty();
  await expect(steps.nth(n - 1).getByTestId('action')).toHaveText('ANSWER; <content>Roasted Tomato Soup</content>');
  await expect(steps.nth(n - 1).getByTestId('memory')).toContainText('"answer": "Roasted Tomato Soup"');
  // The labelled screenshot thumbnail enlarges on click.
  await steps.nth(1).locator('img.thumb').click();
  await expect(panel.locator('.lightbox img')).toBeVisible();
  expect(model.requests.at(-1)?.body.stream).toBe(false);
  expect(model.violations()).toEqual([]);
  // Closing and reopening the panel shows the same run.
  await panel.close();
  const again = await openPanel(browser);
  await expect(again.getByTestId('answer')).toContainText('Roasted Tomato Soup');
});

test('Stop during a slow model reply ends the run at once; no further request or action', async () => {
  let release: () => void = () => undefined;
  const slow = await startFakeModel({
    apiKey: KEY,
    policy: () => new Promise((r) => { release = () => r({ content: 'Thought: late\nAction: Click [0]' }); }),
  });
  try {
    await fillSettings(panel, { baseUrl: slow.baseUrl, apiKey: KEY, model: 'glm-4.5v' });
    await panel.getByTestId('save-settings').click();
    await panel.getByTestId('task').fill('Find a soup');
    await panel.getByTestId('start').click();
    await expect(panel.getByTestId('pending')).toContainText('waiting for the model');
    await expect.poll(() => slow.requests.length).toBe(1);
    await panel.getByTestId('stop').click();
    await expect(panel.getByTestId('stop-reason')).toHaveText('The run stopped: Stopped by the user.');
    release();
    await expect(panel.getByTestId('step')).toHaveCount(0);
    // The page was not touched and the model was not asked again.
    const pages = browser.context.pages().filter((p) => p.url().includes('/recipes/'));
    await expect(pages[0]).toHaveURL(/recipes\/index\.html$/);
    expect(slow.requests).toHaveLength(1);
  } finally {
    release();
    await slow.close();
  }
});

test('closing the panel does not stop the run; reopening shows it live', async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => { release = r; });
  const m = await startFakeModel({
    apiKey: KEY,
    policy: async (_q, n) => {
      if (n === 0) await gate;
      return { content: n === 0 ? 'Thought: look\nAction: Scroll [WINDOW]; [down]' : 'Thought: ok\nAction: ANSWER; <content>still here</content>' };
    },
  });
  try {
    await fillSettings(panel, { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v' });
    await panel.getByTestId('save-settings').click();
    await panel.getByTestId('task').fill('Keep going without the panel');
    await panel.getByTestId('start').click();
    await expect.poll(() => m.requests.length).toBe(1);
    await panel.close();
    release();
    await expect.poll(() => m.requests.length).toBe(2);
    const again = await openPanel(browser);
    await expect(again.getByTestId('answer')).toContainText('still here');
    await expect(again.getByTestId('step')).toHaveCount(2);
  } finally {
    release();
    await m.close();
  }
});

test('every action of the grammar runs: Type, Scroll, GoBack, Bing (search start page), Wait, Key, Click, ANSWER', async () => {
  const label = (q: RecordedRequest, re: RegExp) => q.prompt?.elements.find((e) => re.test(e.text))?.label ?? -1;
  const script: ((q: RecordedRequest) => string)[] = [
    () => 'GoBack', // the tab's first page: nothing to go back to
    (q) => `Type [${label(q, /find a recipe/i)}]; [ramen]`,
    () => 'Scroll [WINDOW]; [down]',
    (q) => `Scroll [${label(q, /Ramen/)}]; [up]`,
    () => 'GoBack',
    () => 'Bing',
    () => 'Wait',
    (q) => `Click [${label(q, /Show in Celsius/)}]`,
    () => 'Key; [Return]',
    () => 'ANSWER; <content>done</content>',
  ];
  const m = await startFakeModel({ apiKey: KEY, policy: (q, n) => ({ content: `Thought: step ${n}\nAction: ${script[n](q)}\nMemory_Updated: {"n": ${n}}` }) });
  try {
    await fillSettings(panel, { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v' });
    await panel.getByTestId('setting-searchStartPage').fill(`${site.url}recipes/convert.html`);
    await panel.getByTestId('save-settings').click();
    await panel.getByTestId('task').fill('Exercise every action');
    await panel.getByTestId('start').click();
    await expect(panel.getByTestId('answer')).toContainText('done', { timeout: 60_000 });
    const steps = panel.getByTestId('step');
    await expect(steps).toHaveCount(script.length);
    await expect(steps.nth(0).getByTestId('observation')).toHaveText('There is no previous web page to go back to.');
    for (let i = 1; i < script.length; i++) await expect(steps.nth(i).getByTestId('observation')).toHaveText('Success');
    // Where each step was taken: typed -> results, back -> index, Bing -> the configured start page.
    const urls = m.requests.map((q) => q.prompt?.text.match(/Please interact with (\S+) and/)?.[1]);
    expect(new Set(urls).size).toBe(1); // {Web} stays the task's site
    const heads = await steps.locator('.step-head small').allTextContents();
    expect(heads[2]).toContain('/recipes/results.html?q=ramen');
    expect(heads[5]).toMatch(/\/recipes\/index\.html$/);
    expect(heads[6]).toContain('/recipes/convert.html');
    expect(site.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'show', value: '' })]));
    expect(m.violations()).toEqual([]);
  } finally {
    await m.close();
  }
});

for (const c of [
  { name: 'a wrong API key', settings: { apiKey: 'sk-wrong-key-123' }, message: 'refused the API key (HTTP 401)' },
  { name: 'an unknown model', settings: { model: 'glm-9000' }, message: 'The model "glm-9000" was not found' },
  { name: 'an unreachable endpoint', settings: { baseUrl: 'http://127.0.0.1:9/v1' }, message: 'Cannot reach the model endpoint at http://127.0.0.1:9/v1' },
]) {
  test(`a clear error for ${c.name}`, async () => {
    await fillSettings(panel, { baseUrl: model.baseUrl, apiKey: KEY, model: 'glm-4.5v', ...c.settings });
    await panel.getByTestId('save-settings').click();
    await panel.getByTestId('test-connection').click();
    await expect(panel.getByTestId('settings-status')).toContainText(c.message);
    await panel.getByTestId('task').fill('Find a soup');
    await panel.getByTestId('start').click();
    const reason = panel.getByTestId('stop-reason');
    await expect(reason).toContainText(c.message, { timeout: 30_000 });
    if (c.name === 'an unknown model') await expect(reason).toContainText('The server offers: glm-4.5v');
    await expect(panel.getByTestId('start')).toBeEnabled();
  });
}
