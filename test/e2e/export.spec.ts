/**
 * Exports end to end: the runner's --report and --zip on a short run of the built extension
 * (fake model, fixture site). The report must open from file:// in a plain headless Chromium
 * with the network blocked and show the whole run at a glance (summary, every step's thought,
 * action with its element and outcome), a step player beside it, reflow at 400 px and print;
 * the zip must hold a trace naming its files and a WebVoyager folder shaped like the published
 * runs; the API key must be in no exported byte.
 */
import { test, expect, useAgent } from './fixtures';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import { launchPlainChromium, ROOT, serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';
import { buildHtmlReport } from '../../src/core/export/html-report';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

const KEY = 'sk-export-e2e-4b9d2f7a1c';
const EXAMPLE = path.resolve(ROOT, 'test', 'fixtures', 'webvoyager', 'Amazon--0.json');
const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
let site: StaticServer;
/** the run's trace, for the second test */
let ranTrace: Trace | null = null;
let model: FakeModel | null = null;
const out = mkdtempSync(path.join(tmpdir(), 'webagent-export-'));

// the second test reuses the first one's run
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); await model?.close(); });

type Msg = { role: string; content: string | Array<Record<string, unknown>> };
const has = (hay: Uint8Array, needle: string) => {
  const n = Buffer.from(needle);
  return Buffer.from(hay.buffer, hay.byteOffset, hay.length).includes(n);
};

test('--report and --zip: an offline step player with every step, a WebVoyager-readable zip, no key anywhere', async () => {
  const policy = scriptedPolicy([
    { do: 'type', find: /soup|find a recipe/i, text: 'ramen' },
    { do: 'click', find: /Miso Ramen/ },
    { do: 'click', find: /Show nutrition/ },
    { do: 'answer', from: /Energy: (\d+ kcal)/ },
  ], 'glm');
  model = await startFakeModel({ apiKey: KEY, policy: (req) => policy(req.prompt) });
  const traceFile = path.join(out, 'run.json'), reportFile = path.join(out, 'report', 'run.html'), zipFile = path.join(out, 'run.zip');
  const r = await agent.run(['--task', 'How many calories per serving does the Miso Ramen have?', '--url', `${site.url}recipes/index.html`,
    '--base-url', model.baseUrl, '--api-key', KEY, '--model', 'glm-4.5v', '--trace', traceFile, '--report', reportFile, '--zip', zipFile, '--max-steps', '12']);
  expect(r.stderr).not.toContain('Error:');
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`Report written to ${reportFile}`);
  expect(r.stderr).toContain(`Zip written to ${zipFile}`);
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  const n = trace.steps.length;
  expect(n).toBeGreaterThanOrEqual(4);
  ranTrace = trace;

  // The API key is in no exported byte.
  const zipBytes = new Uint8Array(readFileSync(zipFile));
  const files = unzipSync(zipBytes);
  for (const f of [traceFile, reportFile]) expect([f, has(readFileSync(f), KEY)]).toEqual([f, false]);
  expect(has(zipBytes, KEY)).toBe(false);
  for (const [name, bytes] of Object.entries(files)) expect([name, has(bytes, KEY)]).toEqual([name, false]);

  // The zip: trace.json names files that are in it; the WebVoyager folder.
  const zt = JSON.parse(strFromU8(files['trace.json'])) as Trace;
  expect(zt.run).toEqual(trace.run);
  expect(zt.steps).toHaveLength(n);
  zt.steps.forEach((s, i) => {
    expect(s.screenshot).toBe(`webvoyager/screenshot${i + 1}.png`);
    expect(Array.from(files[s.screenshot].subarray(0, 8))).toEqual(PNG_SIG);
    if (s.cleanScreenshot) expect(files[s.cleanScreenshot]).toBeDefined();
  });
  const messages = JSON.parse(strFromU8(files['webvoyager/interact_messages.json'])) as Msg[];
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Msg[];
  expect(messages).toHaveLength(1 + 2 * n);
  expect(messages.map((m) => m.role)).toEqual(['system', ...Array.from({ length: n }, () => ['user', 'assistant']).flat()]);
  const keys = (ms: Msg[]) => [...new Set(ms.map((m) => Object.keys(m).sort().join()))];
  expect(keys(messages)).toEqual(keys(example));
  const partKeys = (ms: Msg[]) => [...new Set(ms.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.map((p) => `${p.type}:${Object.keys(p).sort().join()}`))))].sort();
  expect(partKeys(messages)).toEqual(partKeys(example));
  // the last three user turns carry the image part, as in the examples
  const form = (m: Msg) => `${m.role}:${typeof m.content}`;
  expect(messages.slice(-6).map(form)).toEqual(example.slice(-6).map(form));
  const firstText = typeof messages[1].content === 'string' ? messages[1].content : String(messages[1].content[0].text);
  expect(/Now given a task:(.+?)Please interact with/.exec(firstText)?.[1].trim()).toBe('How many calories per serving does the Miso Ramen have?');
  expect(messages.at(-1)!.content).toContain('Action: ANSWER; 610 kcal');

  // The report: file://, no network; the whole run at a glance, then every step in the player.
  const browser = await launchPlainChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'Asia/Tokyo' });
    const requested: string[] = [];
    context.on('request', (q) => { if (!/^(file|data):/.test(q.url())) requested.push(q.url()); });
    await context.route('**', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    const page = await context.newPage();
    await page.goto(pathToFileURL(reportFile).href);
    // summary: task, answer, status, steps, duration, tokens, cost; times in the reader's time zone
    await expect(page.locator('#task')).toHaveText('How many calories per serving does the Miso Ramen have?');
    await expect(page.locator('#answer')).toContainText('610 kcal');
    await expect(page.locator('#status')).toContainText('finished');
    const fact = (key: string) => page.locator(`.fact[data-key="${key}"] dd`);
    await expect(fact('steps')).toHaveText(String(n));
    await expect(fact('duration')).toHaveText(/^\d+(\.\d)? s$|^\d+ min \d\d s$/);
    const tokens = trace.steps.reduce((a, s) => a + (s.usage ? s.usage.promptTokens + s.usage.completionTokens : 0), 0);
    await expect(fact('tokens')).toContainText(tokens.toLocaleString('en-US'));
    await expect(fact('cost')).toHaveText(/^\$\d+\.\d+$/); // glm-4.5v has a price in the default settings, in USD
    const tokyo = new Date(trace.run.startedAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Asia/Tokyo' });
    await expect(fact('started')).toHaveText(tokyo);
    // every step's thought, action with its element, and outcome, in one list in the page's text
    const items = page.locator('#steps .step');
    await expect(items).toHaveCount(n);
    for (let i = 0; i < n; i++) {
      const s = trace.steps[i];
      const words = s.target ? `${s.actionText} <${s.target.tag}>` : s.actionText;
      await expect(items.nth(i).locator('.act')).toContainText(words);
      await expect(items.nth(i).locator('.thought')).toContainText(s.thought);
      await expect(items.nth(i).locator('.outcome')).toContainText(s.observation);
    }
    // the click on Miso Ramen names its element
    const miso = trace.steps.findIndex((s) => s.target?.text.includes('Miso Ramen') && s.action.type === 'click');
    expect(miso).toBeGreaterThan(0);
    await expect(items.nth(miso).locator('.act')).toHaveText(/^Click \[\d+\] <div> "Miso Ramen 45 minutes"$/);
    // the player: every step by keyboard
    for (let i = 0; i < n; i++) {
      const s = trace.steps[i];
      await expect(page.locator('#counter')).toHaveText(`Step ${i + 1} of ${n}`);
      await expect(page.locator('#thought')).toHaveText(s.thought);
      await expect(page.locator('#action')).toHaveText(await items.nth(i).locator('.act').innerText());
      await expect(page.locator('#url')).toHaveText(s.url);
      await expect(page.locator('#memory')).toHaveText(JSON.stringify(s.memory, null, 2));
      await expect(items.nth(i)).toHaveAttribute('aria-current', 'step');
      expect(await page.locator('#img').evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBe(1280);
      await page.keyboard.press(i % 2 ? 'j' : 'ArrowRight');
    }
    await expect(page.locator('#counter')).toHaveText(`Step ${n} of ${n}`); // stays on the last
    await page.keyboard.press('Home');
    await expect(page.locator('#counter')).toHaveText(`Step 1 of ${n}`);
    await page.keyboard.press('End');
    await page.keyboard.press('k');
    await expect(page.locator('#counter')).toHaveText(`Step ${n - 1} of ${n}`);
    await page.keyboard.press('ArrowLeft');
    await expect(page.locator('#counter')).toHaveText(`Step ${n - 2} of ${n}`);
    // a click on a step of the list shows it in the player, which stays beside the list
    await items.nth(1).locator('.thought').click();
    await expect(page.locator('#counter')).toHaveText(`Step 2 of ${n}`);
    const [list, player] = await Promise.all([page.locator('#steps').boundingBox(), page.locator('#player').boundingBox()]);
    expect(player!.x).toBeGreaterThan(list!.x + list!.width - 1);
    // full window, closed by Esc or a click; the clean view
    await page.locator('#img').click();
    await expect(page.locator('#shot')).toHaveClass('full');
    expect(await page.locator('#shot').evaluate((e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })).toEqual([1280, 900]);
    // in a window smaller than the picture, the whole picture fits: no scrollbars
    await page.setViewportSize({ width: 700, height: 500 });
    const fit = await page.locator('#img').evaluate((i) => { const r = i.getBoundingClientRect(); const s = document.getElementById('shot')!; return [r.left >= 0, r.top >= 0, r.right <= innerWidth, r.bottom <= innerHeight, s.scrollWidth <= s.clientWidth, r.width > 300]; });
    expect(fit).toEqual([true, true, true, true, true, true]);
    // and nothing of the report shows through around it (a "▶ Memory" line was seen at 360 px)
    await page.setViewportSize({ width: 360, height: 740 });
    const around = await page.evaluate(() => {
      const hit = document.elementFromPoint(180, 730);
      return { hit: hit?.id ?? hit?.tagName, bg: getComputedStyle(document.getElementById('shot')!).backgroundColor };
    });
    expect(around).toEqual({ hit: 'shot', bg: 'rgb(11, 11, 11)' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.keyboard.press('Escape');
    await expect(page.locator('#shot')).not.toHaveClass('full');
    await page.keyboard.press('z');
    await expect(page.locator('#shot')).toHaveClass('full');
    await page.locator('#img').click();
    await expect(page.locator('#shot')).not.toHaveClass('full');
    expect(trace.steps[1].cleanScreenshot).toMatch(/^data:image\/webp;base64,/);
    await page.locator('#toggle').click();
    await expect(page.locator('#img')).toHaveAttribute('alt', /clean view/);
    expect(await page.locator('#img').getAttribute('src')).toBe(trace.steps[1].cleanScreenshot);
    await page.locator('#toggle').click();
    mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'test-results', 'export-report.png'), fullPage: true });
    // 400 px wide: one column, nothing wider than the window
    await page.setViewportSize({ width: 400, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    const narrow = await Promise.all([page.locator('#steps').boundingBox(), page.locator('#player').boundingBox()]);
    expect(narrow[0]!.width).toBeGreaterThan(300);
    expect(narrow[1]!.width).toBeGreaterThan(300);
    expect(narrow[0]!.y).toBeGreaterThan(narrow[1]!.y + narrow[1]!.height - 1); // the player above the list
    await page.screenshot({ path: path.join(ROOT, 'test-results', 'export-report-400.png') });
    // printed: the summary and the whole list, no player
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('#player')).toBeHidden();
    await expect(items.nth(n - 1)).toBeVisible();
    await expect(page.locator('#task')).toBeVisible();
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await page.emulateMedia({ media: 'screen' });
    // a WebVoyager screenshot is a PNG the browser decodes at the page's size
    const png = Buffer.from(files['webvoyager/screenshot1.png']).toString('base64');
    await page.setContent(`<img id="p" src="data:image/png;base64,${png}">`);
    expect(await page.locator('#p').evaluate((img: HTMLImageElement) => img.decode().then(() => [img.naturalWidth, img.naturalHeight]))).toEqual([1280, 800]);
    expect(requested).toEqual([]);
  } finally {
    await browser.close();
  }
});

test('the report shows hostile page text as text and steps without screenshots as "screenshot excluded"', async () => {
  expect(ranTrace).not.toBeNull();
  const hostile = '</script><img src=x onerror="document.title=\'pwned\'"><b>bold</b>';
  const t: Trace = { ...ranTrace!, steps: ranTrace!.steps.map((s, i) => ({ ...s, thought: hostile, screenshot: i === 0 ? '' : s.screenshot, cleanScreenshot: i === 0 ? '' : s.cleanScreenshot })) };
  const file = path.join(out, 'hostile.html');
  writeFileSync(file, buildHtmlReport(t));
  const browser = await launchPlainChromium();
  try {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    await page.goto(pathToFileURL(file).href);
    await expect(page.locator('#thought')).toHaveText(hostile);
    await expect(page.locator('#steps .step').first().locator('.thought')).toContainText(hostile);
    await expect(page.locator('#noshot')).toBeVisible();
    await expect(page.locator('#noshot')).toHaveText('screenshot excluded');
    await expect(page.locator('#img')).toBeHidden();
    expect(await page.locator('b, img[src="x"]').count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('#counter')).toHaveText(`Step 2 of ${t.steps.length}`);
    await expect(page.locator('#img')).toBeVisible();
    await expect(page.locator('#noshot')).toBeHidden();
    expect(await page.title()).toBe(`Run report: ${t.run.task}`);
    expect(dialogs).toEqual([]);
  } finally {
    await browser.close();
  }
});
