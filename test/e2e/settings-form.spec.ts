/**
 * The Settings form as a person meets it in a 360 px side panel: a blocked Save looks blocked and
 * says why next to it, Test connection does not send a base URL the form calls wrong, a 401 to a
 * request without a key says none was sent, the currency of the prices is checked, the Temperature
 * help follows the dialect, the profile selector shows only a profile the form holds, unsaved
 * changes survive closing the panel, and the price table's model column has room.
 */
import { test, expect } from './fixtures';
import type { Page } from 'playwright-core';
import { openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';

const KEY = 'sk-settings-form-5e4d3c';
let browser: Launched;
let panel: Page;
let model: FakeModel;

test.beforeAll(async () => {
  model = await startFakeModel({ apiKey: KEY, policy: () => ({ content: 'unused' }) });
});

test.afterAll(async () => { await model.close(); });

test.beforeEach(async ({ warm }) => {
  browser = warm;
  panel = await openPanel(browser);
  await panel.setViewportSize({ width: 360, height: 800 });
  await openSettings(panel);
});


async function openSettings(p: Page) {
  await p.getByTestId('settings').evaluate((el) => { (el as HTMLDetailsElement).open = true; });
  await expect(p.getByTestId('setting-model')).toBeEnabled();
}

async function openAdvanced(p: Page) {
  await p.getByTestId('advanced-section').evaluate((el) => { (el as HTMLDetailsElement).open = true; });
}

const field = (k: string) => panel.getByTestId(`setting-${k}`);

test('a blocked Save looks blocked and says why beside it; Test connection says the form\'s message instead of sending', async () => {
  const save = panel.getByTestId('save-settings');
  const look = () => save.evaluate((b) => { const s = getComputedStyle(b); return { bg: s.backgroundColor, color: s.color, cursor: s.cursor }; });
  const enabled = await look();
  await expect(panel.getByTestId('save-blocked')).toHaveCount(0);

  await field('baseUrl').fill('127.0.0.1:8000/v1');
  await expect(save).toBeDisabled();
  const disabled = await look();
  expect(disabled.bg).not.toBe(enabled.bg);
  expect(disabled.color).not.toBe(enabled.color);
  expect(disabled.cursor).toBe('not-allowed');
  await expect(panel.getByTestId('save-blocked')).toHaveText('Save is off until this is fixed: Base URL must start with http:// or https://, e.g. http://127.0.0.1:8000/v1');

  await panel.getByTestId('test-connection').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Not tested: Base URL must start with http:// or https://, e.g. http://127.0.0.1:8000/v1');
  expect(model.connectionTests).toHaveLength(0);

  // A price row's problem is said beside Save too, with how many times a model is listed.
  await field('baseUrl').fill(model.baseUrl);
  await expect(save).toBeEnabled();
  await openAdvanced(panel);
  for (let i = 0; i < 3; i++) {
    await panel.getByTestId('price-add').click();
    const row = panel.getByTestId('price-row').last();
    await row.getByTestId('price-model').fill('vision-x');
    await row.getByTestId('price-input').fill('1');
    await row.getByTestId('price-output').fill('2');
  }
  await expect(panel.getByTestId('price-problem')).toHaveText('vision-x is in the price table 3 times: keep one row for it.');
  await expect(panel.getByTestId('save-blocked')).toContainText('vision-x is in the price table 3 times');
  await expect(save).toBeDisabled();
});

test('first use: after the first Save, Save and Test connection are at the top with "Saved.", and the task box is in view below them', async () => {
  const inView = (testid: string) => panel.getByTestId(testid).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.top < innerHeight - 10;
  });
  // a browser as new: nothing saved, the form opened by itself and fills the panel
  await expect(field('apiKey')).toHaveValue('');
  expect(await inView('task')).toBe(false);
  await field('baseUrl').fill(model.baseUrl);
  await field('apiKey').fill(KEY);
  await panel.getByTestId('save-settings').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved.');
  await expect.poll(() => inView('task')).toBe(true);
  expect(await inView('test-connection')).toBe(true);
  expect(await inView('settings-status')).toBe(true);
  // only the first Save moves the panel: a later one leaves Save where it was (mid-panel), not at the top
  await field('model').fill('glm-4.5v-2');
  await panel.getByTestId('save-settings').scrollIntoViewIfNeeded();
  const topOfSave = () => panel.getByTestId('save-settings').evaluate((b) => new Promise<number>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(b.getBoundingClientRect().top)))));
  expect(await topOfSave()).toBeGreaterThan(200);
  await panel.getByTestId('save-settings').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved.');
  expect(await topOfSave()).toBeGreaterThan(150);
});

test('a 401 to a request without a key says none was sent and where to enter one', async () => {
  await field('baseUrl').fill(model.baseUrl);
  await field('apiKey').fill('');
  await panel.getByTestId('test-connection').click();
  const status = panel.getByTestId('settings-status');
  await expect(status).toContainText('asks for an API key (HTTP 401), and none was sent: enter it in Settings → API key');
  await expect(status).not.toContainText('refused the API key');
  await field('apiKey').fill('sk-wrong');
  await panel.getByTestId('test-connection').click();
  await expect(status).toContainText('refused the API key (HTTP 401)');
});

test('the currency is checked; the Temperature help follows the dialect and says where its default comes from', async () => {
  await openAdvanced(panel);
  const currency = field('currency');
  await expect(currency).toHaveValue('USD');
  await expect(panel.getByTestId('price-table').locator('legend')).toHaveText('Prices per million tokens (USD)');
  await currency.fill('dollars');
  await expect(currency).toHaveAttribute('aria-invalid', 'true');
  await expect(panel.locator('#setting-currency-help')).toHaveText('The currency must be an ISO 4217 code of three letters, e.g. USD, EUR or CNY.');
  await expect(panel.getByTestId('save-settings')).toBeDisabled();
  await currency.fill('cny');
  await expect(currency).toHaveValue('CNY');
  await expect(panel.getByTestId('save-settings')).toBeEnabled();
  await expect(panel.locator('#setting-maxRunCost-help')).toContainText('in CNY');

  const help = panel.locator('#setting-temperature-help');
  await expect(help).toHaveText('The glm-web dialect\'s default is 0.001: as GLM-4.5V\'s reference client sends it');
  await field('dialect').selectOption('midscene');
  await expect(field('temperature')).toHaveValue('0.1');
  await expect(help).toHaveText('The midscene dialect\'s default is 0.1: Midscene.js\'s own default');
  await field('dialect').selectOption('appagent');
  await expect(help).toContainText('0: as in AppAgent\'s config.yaml');
});

test('the profile selector shows a profile only while the form holds it', async () => {
  await field('baseUrl').fill(model.baseUrl);
  await field('apiKey').fill(KEY);
  await panel.getByTestId('profile-name').fill('stand-in');
  await panel.getByTestId('save-profile').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved the profile "stand-in".');
  const select = panel.getByTestId('profile-select');
  await expect(select).toHaveValue('stand-in');
  await field('model').fill('another-model');
  await expect(select).toHaveValue('');
  await expect(panel.getByTestId('delete-profile')).toBeDisabled();
  await field('model').fill('glm-4.5v');
  await expect(select).toHaveValue('stand-in');
});

test('unsaved changes come back after the panel is closed or reloaded, and say so; Discard drops them', async () => {
  // an API key typed and not saved is not kept (keys live only in chrome.storage.local)
  const savedKey = await field('apiKey').inputValue();
  await field('apiKey').fill('sk-typed-not-saved');
  await field('model').fill('draft-model');
  await openAdvanced(panel);
  await panel.getByTestId('price-add').click();
  await panel.getByTestId('price-row').last().getByTestId('price-model').fill('half-typed');
  await expect(panel.getByTestId('settings-unsaved')).toBeVisible();
  await expect.poll(() => panel.evaluate(async () => JSON.stringify(await chrome.storage.session.get(null))), { message: 'the draft is kept' }).toContain('draft-model');
  expect(await panel.evaluate(async () => JSON.stringify(await chrome.storage.session.get(null)))).not.toContain('sk-typed-not-saved');
  await panel.reload();
  await expect(field('model')).toHaveValue('draft-model');
  await expect(field('apiKey')).toHaveValue(savedKey);
  await expect(panel.getByTestId('settings-unsaved')).toBeVisible();
  await expect(panel.getByTestId('settings-status')).toHaveText('Your unsaved changes from before are back: Save to keep them, or Discard changes.');
  await openAdvanced(panel);
  await expect(panel.getByTestId('price-row').last().getByTestId('price-model')).toHaveValue('half-typed');

  // A panel closed and opened again (a new page) gets them too.
  await panel.close();
  panel = await openPanel(browser);
  await openSettings(panel);
  await expect(field('model')).toHaveValue('draft-model');

  await panel.getByTestId('discard-settings').click();
  await expect(field('model')).toHaveValue('glm-4.5v');
  await panel.reload();
  await openSettings(panel);
  await expect(field('model')).toHaveValue('glm-4.5v');
  await expect(panel.getByTestId('settings-unsaved')).toHaveCount(0);
});

test('at 360 px: the price table\'s model column has the room, and nothing runs past the panel\'s width', async () => {
  await openAdvanced(panel);
  await panel.getByTestId('guards-section').evaluate((el) => { (el as HTMLDetailsElement).open = true; });
  const width = await panel.getByTestId('price-model').first().evaluate((el) => el.getBoundingClientRect().width);
  expect(width).toBeGreaterThan(120);
  const overflow = await panel.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
  // the phrase lists show several lines
  const rows = await panel.getByTestId('guard-words-delete-en').evaluate((el) => (el as HTMLTextAreaElement).rows);
  expect(rows).toBeGreaterThan(1);
});
