/**
 * History in the side panel: a run's history survives a browser restart (same profile) and shows
 * every step in full (both screenshots, the element list, the prompt, the raw reply, the memory
 * and what changed in it); search; exports to JSON, HTML report and zip from the panel (with and
 * without screenshots); import into a fresh profile shows the run like a local one and exports
 * the same JSON again; delete (with its confirm step, refused for the live run); re-run.
 *
 * The tests share two profiles and run in order: profile A runs two tasks, is restarted, searched,
 * exported and re-run; profile B (fresh) imports the export and deletes.
 */
import { test, expect, type Page, type Locator } from './fixtures';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { launchWithExtension, openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type ModelReply } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import { serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';
import type { ViewMessages } from '../../src/core/messages';
import { costOf, DEFAULT_PRICES, formatMoney, tokensOf } from '../../src/core/costs';
import { dayKey } from '../../src/core/cost-totals';

const KEY = 'sk-history-7d8e9f0a1b';
const SOUP = 'Find the tomato soup recipe and tell me its name';
const SITE_NAME = 'What is the name of this recipe site?';
const SOUP_GOALS = scriptedPolicy([
  { do: 'type', find: /soup|find a recipe/i, text: 'tomato' },
  { do: 'click', find: /Roasted Tomato Soup/ },
  { do: 'answer', text: 'Roasted Tomato Soup' },
], 'plain');

test.describe.configure({ mode: 'serial' });

let site: StaticServer;
let model: FakeModel;
let profileA: string;
let browser: Launched | null = null;
let panel: Page;
/** the soup run's id in profile A, and its trace exported from the panel (with screenshots) */
let soupId = '';
let exported: { file: string; json: Trace } | null = null;
/** while set, the model waits before answering (a live run for the delete refusal) */
let hold: { reached: () => void; gate: Promise<void> } | null = null;

test.beforeAll(async () => {
  site = await serveFixtures();
  profileA = mkdtempSync(path.join(tmpdir(), 'webagent-history-'));
  model = await startFakeModel({
    apiKey: KEY,
    policy: async (req): Promise<ModelReply> => {
      const h = hold;
      if (h) {
        hold = null;
        h.reached();
        await h.gate;
      }
      if (req.prompt?.task.includes('name of this recipe site')) {
        return { content: 'Thought: The header says it.\nAction: ANSWER; <content>Recipe Box</content>\nMemory_Updated: {"site": "Recipe Box"}' };
      }
      return SOUP_GOALS(req.prompt);
    },
  });
});

test.afterAll(async () => {
  await browser?.close();
  await model.close();
  await site.close();
  rmSync(profileA, { recursive: true, force: true });
  if (exported) rmSync(exported.file, { force: true });
});

async function launch(userDataDir?: string): Promise<void> {
  await browser?.close();
  browser = await launchWithExtension(userDataDir ? { userDataDir } : {});
  panel = await openPanel(browser);
}

function send<K extends keyof ViewMessages>(type: K, payload: ViewMessages[K]['req']): Promise<ViewMessages[K]['res']> {
  return panel.evaluate(([t, p]) => (window as unknown as { webagent: { send(t: string, p: unknown): Promise<unknown> } }).webagent.send(t as string, p), [type, payload] as const) as Promise<ViewMessages[K]['res']>;
}

/** Runs a task to its end through the same messages the panel uses; waits until the database has it ended. */
async function runTask(task: string): Promise<string> {
  const { runId } = await send('run/start', { task, url: `${site.url}recipes/index.html` });
  await expect.poll(async () => (await send('history/list', {})).runs.find((r) => r.id === runId)?.summary.status,
    { message: `the run "${task}" ends`, timeout: 60_000 }).toBe('finished');
  return runId;
}

async function openHistory(): Promise<void> {
  await panel.getByTestId('view-history').click();
  await expect(panel.getByTestId('storage')).toContainText('used'); // the list has come
}

function row(task: string | RegExp): Locator {
  return panel.getByTestId('history-run').filter({ has: panel.getByTestId('run-task').getByText(task, { exact: true }) });
}

/** Clicks an export button and reads the file the browser saved. */
async function exportFile(testid: 'export-json' | 'export-html' | 'export-zip' | 'export-playwright'): Promise<{ name: string; bytes: Buffer }> {
  const [dl] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId(testid).click()]);
  const file = await dl.path();
  expect(file, 'the download was saved').toBeTruthy();
  await expect(panel.getByTestId('export-status')).toContainText(`Saved ${dl.suggestedFilename()}`);
  return { name: dl.suggestedFilename(), bytes: readFileSync(file) };
}

/** Every step of the open run against its trace: both screenshots, elements, prompt, raw reply, memory diff. */
async function expectEveryStep(t: Trace): Promise<void> {
  const steps = panel.getByTestId('detail-step');
  await expect(steps).toHaveCount(t.steps.length);
  await panel.getByTestId('expand-all').click();
  for (let i = 0; i < t.steps.length; i++) {
    const s = t.steps[i];
    const step = steps.nth(i);
    await expect(step).toHaveAttribute('data-open', 'true');
    // the action with the element it acted on (a label's element, from the step's list)
    const el = s.action.type === 'click' || s.action.type === 'type' ? s.target : null;
    await expect(step.getByTestId('detail-action')).toHaveText(el ? `${s.actionText} <${el.tag}> "${el.text.replace(/\s+/g, ' ').trim().slice(0, 79)}` + (el.text.trim().length > 80 ? '…"' : '"') : s.actionText);
    await expect(step.getByTestId('step-summary-action')).toHaveText(await step.getByTestId('detail-action').innerText());
    await expect(step.getByTestId('detail-observation')).toHaveText(s.observation);
    expect(JSON.parse(await step.getByTestId('action-json').textContent() ?? 'null')).toEqual(s.action);
    for (const kind of ['labelled', 'clean']) {
      await expect(step.getByTestId(`shot-${kind}`)).toHaveAttribute('src', /^data:image\/webp;base64,./);
    }
    await step.getByTestId('elements-section').locator('summary').click();
    const elements = step.getByTestId('elements');
    for (const e of s.elements.slice(0, 5)) await expect(elements).toContainText(`[${e.label}]: `);
    expect((await elements.textContent())?.split('\n')).toHaveLength(s.elements.length);
    await step.getByTestId('prompt-section').locator('summary').click();
    await expect(step.getByTestId('prompt-text')).toBeVisible();
    expect(await step.getByTestId('prompt-text').textContent()).toBe(s.request.promptText);
    await step.getByTestId('raw-section').locator('summary').click();
    expect(await step.getByTestId('raw-reply').textContent()).toBe(s.reply.raw);
    if (s.reply.reasoning) {
      await step.getByTestId('reasoning-section').locator('summary').click();
      expect(await step.getByTestId('reasoning').textContent()).toBe(s.reply.reasoning);
    }
    await expect(step.getByTestId('timings')).toContainText('observe');
    // the observe step's stages, as the trace has them (a step of the model's was observed)
    if (s.action.type === 'takeover') continue;
    const o = s.timings.observeStages;
    expect(o, `step ${i + 1} has its observe stages`).toBeTruthy();
    const d = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
    await expect(step.getByTestId('observe-stages')).toContainText(`labels ${d(o!.labelMs)} · screenshot ${d(o!.captureMs)}`);
  }
}

test('the history survives a browser restart and shows every step in full', async () => {
  await launch(profileA);
  await send('settings/patch', { set: { baseUrl: model.baseUrl, apiKey: KEY, model: 'glm-4.5v' } });
  soupId = await runTask(SOUP);
  // The second run has a take-over: the person's step is in its history too.
  let reached: () => void = () => undefined;
  let release: () => void = () => undefined;
  const atHold = new Promise<void>((r) => { reached = r; });
  hold = { reached, gate: new Promise<void>((r) => { release = r; }) };
  const { runId: nameId } = await send('run/start', { task: SITE_NAME, url: `${site.url}recipes/index.html` });
  await atHold;
  await send('run/takeover', { runId: nameId });
  await send('run/resume', { runId: nameId });
  release();
  await expect.poll(async () => (await send('history/list', {})).runs.find((r) => r.id === nameId)?.summary.status,
    { message: 'the second run ends', timeout: 60_000 }).toBe('finished');

  // The same profile after a restart.
  await browser!.close();
  browser = null;
  await launch(profileA);
  await openHistory();
  await expect(panel.getByTestId('history-run')).toHaveCount(2);
  // Newest first.
  await expect(panel.getByTestId('run-task')).toHaveText([SITE_NAME, SOUP]);
  await expect(panel.getByTestId('storage')).toHaveText(/^\d[\d.]* (B|kB|MB|GB) of \d[\d.]* (B|kB|MB|GB|TB) used$/);

  const trace = await send('run/trace', { runId: soupId });
  expect(trace.steps.length).toBeGreaterThanOrEqual(3);
  const soup = row(SOUP);
  await expect(soup).toHaveAttribute('data-run-id', soupId);
  await expect(soup.getByTestId('run-status')).toHaveText('finished');
  await expect(soup.getByTestId('run-steps')).toHaveText(`${trace.steps.length} steps`);
  await expect(soup.getByTestId('run-site')).toHaveText('127.0.0.1');
  const tokens = trace.steps.reduce((n, s) => n + (s.usage ? s.usage.promptTokens + s.usage.completionTokens : 0), 0);
  expect(tokens).toBeGreaterThan(0);
  await expect(soup.getByTestId('run-tokens')).toHaveText(`${tokens.toLocaleString('en-US')} tokens`);
  await expect(soup.getByTestId('imported-tag')).toHaveCount(0);
  // each run's answer is in the list
  await expect(soup.getByTestId('run-answer')).toHaveText('Answer: Roasted Tomato Soup');
  await expect(row(SITE_NAME).getByTestId('run-answer')).toHaveText('Answer: Recipe Box');

  await soup.getByTestId('open-run').click();
  await expect(panel.getByTestId('detail-task')).toHaveText(SOUP);
  await expect(panel.getByTestId('detail-status')).toHaveText('finished');
  await expect(panel.getByTestId('detail-answer')).toContainText('Roasted Tomato Soup');
  await expect(panel.getByTestId('detail-model')).toHaveText('glm-4.5v');
  await expect(panel.getByTestId('detail-steps')).toHaveText(String(trace.steps.length));
  await expectEveryStep(trace);

  // The task text reached the prompt, and the memory's changes step by step.
  await expect(panel.getByTestId('prompt-text').first()).toContainText(SOUP);
  const steps = panel.getByTestId('detail-step');
  const last = trace.steps.length - 1;
  await expect(steps.nth(0).getByTestId('memory-added')).toHaveText(['+ goal: 0']);
  await expect(steps.nth(0).getByTestId('memory-changed')).toHaveCount(0);
  await expect(steps.nth(1).getByTestId('memory-changed')).toHaveText(['~ goal: 0 → 1']);
  await expect(steps.nth(last).getByTestId('memory-added')).toHaveText(['+ answer: "Roasted Tomato Soup"']);
  await expect(steps.nth(last).getByTestId('memory-removed')).toHaveCount(0);

  // The soup's click names what it clicked.
  const click = trace.steps.findIndex((s) => s.action.type === 'click');
  await expect(steps.nth(click).getByTestId('step-summary-action')).toHaveText(/^Click \[\d+\] <\w+> "Roasted Tomato Soup/);

  // A screenshot enlarges on click; Esc or a click closes it; it can fill the browser window.
  const lightbox = panel.getByTestId('lightbox');
  await steps.nth(0).getByTestId('shot-clean').click();
  await expect(lightbox.locator('img')).toHaveAttribute('src', /^data:image\/webp;base64,/);
  await panel.keyboard.press('Escape');
  await expect(lightbox).toHaveCount(0);
  await expect(steps.nth(0)).toHaveAttribute('data-open', 'true'); // Esc closed the picture only
  await steps.nth(0).getByTestId('shot-labelled').click();
  const [tab] = await Promise.all([browser!.context.waitForEvent('page'), lightbox.getByTestId('lightbox-tab').click()]);
  await tab.waitForLoadState();
  expect(tab.url()).toMatch(/^blob:chrome-extension:\/\//);
  await tab.setViewportSize({ width: 1400, height: 900 });
  expect(await tab.evaluate(() => { const i = document.images[0]; return [i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width]; })).toEqual([1280, 800, 1280]);
  await tab.close();
  await expect(lightbox).toBeVisible();
  await lightbox.locator('img').click();
  await expect(lightbox).toHaveCount(0);

  // Collapse all hides the heavy parts again.
  await panel.getByTestId('collapse-all').click();
  await expect(panel.locator('[data-testid="shot-labelled"]')).toHaveCount(0);

  // The run with the take-over: the person's step says so, with what happened.
  await panel.getByTestId('back-to-history').click();
  await row(SITE_NAME).getByTestId('open-run').click();
  await expect(panel.getByTestId('detail-answer')).toContainText('Recipe Box');
  const nameTrace = await send('run/trace', { runId: nameId });
  const personAt = nameTrace.steps.findIndex((s) => s.action.type === 'takeover');
  expect(personAt).toBeGreaterThanOrEqual(0);
  const person = panel.getByTestId('detail-step').nth(personAt);
  await expect(person).toHaveAttribute('data-kind', 'person');
  await expect(person.getByTestId('detail-action')).toHaveText('You took over');
  await expect(person.getByTestId('detail-observation')).toHaveText(nameTrace.steps[personAt].observation);
  await expect(panel.locator('[data-testid="detail-step"][data-kind="person"]')).toHaveCount(1);
});

test('search filters the list', async () => {
  await openHistory();
  const search = panel.getByTestId('history-search');
  await search.fill('tomato soup');
  await expect(panel.getByTestId('run-task')).toHaveText([SOUP]);
  await search.fill('recipe SITE');
  await expect(panel.getByTestId('run-task')).toHaveText([SITE_NAME]);
  await search.fill('no-such-run-xyz');
  await expect(panel.getByTestId('history-run')).toHaveCount(0);
  await expect(panel.getByTestId('history-empty')).toHaveText('No runs match "no-such-run-xyz".');
  await search.fill('');
  await expect(panel.getByTestId('history-run')).toHaveCount(2);
});

test('each run\'s cost, and what the listed runs cost per day and per model, following the search', async () => {
  await openHistory();
  const price = DEFAULT_PRICES['glm-4.5v'];
  const money = (x: number) => formatMoney(x, 'USD', 'en');
  const runs = (await send('history/list', {})).runs;
  expect(runs).toHaveLength(2);
  for (const r of runs) {
    // the run's own tokens at the default price of its model, in the price table's currency
    expect(r.summary.model).toBe('glm-4.5v');
    expect(r.summary.currency).toBe('USD');
    expect(r.summary.cost).toBeCloseTo(costOf(r.summary, price)!, 12);
    await expect(row(r.summary.task).getByTestId('run-cost')).toHaveText(money(r.summary.cost!));
  }
  // the soup run's tokens are what the model server reported for its replies (it ran first, alone;
  // the other run's reply cut off by the take-over was never received, so it is not counted)
  const soup = runs.find((r) => r.summary.task === SOUP)!;
  expect(tokensOf([soup.summary])).toEqual(tokensOf(model.usages.slice(0, soup.summary.steps)));
  const total = runs.reduce((sum, r) => sum + r.summary.cost!, 0);
  expect(total).toBeGreaterThan(0);
  await expect(panel.getByTestId('cost-total')).toHaveText(`Cost: ${money(total)} on 2 runs`);
  await panel.getByTestId('cost-total').click();
  const today = dayKey(runs[0].summary.startedAt, -new Date(runs[0].summary.startedAt).getTimezoneOffset());
  await expect(panel.getByTestId('cost-by-day').getByTestId('cost-row')).toHaveCount(1);
  await expect(panel.getByTestId('cost-by-day').getByTestId('cost-row')).toHaveAttribute('data-key', today);
  await expect(panel.getByTestId('cost-by-day').getByTestId('cost-amount')).toHaveText(money(total));
  const byModel = panel.getByTestId('cost-by-model').getByTestId('cost-row');
  await expect(byModel).toHaveCount(1);
  await expect(byModel).toHaveAttribute('data-key', 'glm-4.5v');
  await expect(byModel).toContainText(`${money(total)}2 runs`);
  // the totals are over the runs the search lists
  await panel.getByTestId('history-search').fill('tomato soup');
  await expect(panel.getByTestId('cost-total')).toHaveText(`Cost: ${money(soup.summary.cost!)} on 1 run`);
  await panel.getByTestId('history-search').fill('');
  await expect(panel.getByTestId('cost-total')).toHaveText(`Cost: ${money(total)} on 2 runs`);
});

test('export to JSON, HTML report and zip from the panel; JSON without screenshots', async () => {
  await openHistory();
  await row(SOUP).getByTestId('open-run').click();
  const trace = await send('run/trace', { runId: soupId });

  const json = await exportFile('export-json');
  // named so that a folder sorts by site, then time: site-date-task words
  const d = new Date(trace.run.startedAt);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const stamp = `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())}-${p2(d.getHours())}${p2(d.getMinutes())}`;
  expect(json.name).toBe(`127.0.0.1-${stamp}-find-the-tomato-soup-recipe-and.json`);
  const full = JSON.parse(json.bytes.toString('utf8')) as Trace;
  expect(full).toEqual(trace);
  for (const s of full.steps) {
    expect(s.screenshot).toMatch(/^data:image\/webp;base64,./);
    expect(s.cleanScreenshot).toMatch(/^data:image\/webp;base64,./);
  }
  const file = path.join(profileA, '..', `${path.basename(profileA)}-export.json`);
  writeFileSync(file, json.bytes);
  exported = { file, json: full };

  // The HTML report lists every step and shows each one's action and raw reply.
  const html = await exportFile('export-html');
  expect(html.name).toBe(`127.0.0.1-${stamp}-find-the-tomato-soup-recipe-and.html`);
  const report = await browser!.context.newPage();
  await report.setContent(html.bytes.toString('utf8'));
  const items = report.locator('#steps .step');
  await expect(items).toHaveCount(trace.steps.length);
  for (const [i, s] of trace.steps.entries()) {
    await items.nth(i).locator('.step-n').click();
    await expect(report.locator('#counter')).toHaveText(`Step ${i + 1} of ${trace.steps.length}`);
    await expect(report.locator('#action')).toHaveText(await panel.getByTestId('detail-step').nth(i).getByTestId('step-summary-action').innerText());
    await expect(report.locator('#raw')).toHaveText(s.reply.raw);
  }
  await report.close();

  // The zip tells how far it is while it converts the screenshots.
  await panel.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    new MutationObserver(() => {
      const busy = document.querySelector('[data-testid="export-busy"]');
      const text = busy?.textContent ?? '';
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const zip = await exportFile('export-zip');
  expect(zip.name).toBe(`127.0.0.1-${stamp}-find-the-tomato-soup-recipe-and.zip`);
  const seen = await panel.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
  const n = trace.steps.length;
  expect(seen[0]).toBe('Preparing the zip…');
  expect(seen).toContain(`Preparing the zip… converting screenshot 1 of ${n} to PNG`);
  expect(seen).toContain(`Preparing the zip… converting screenshot ${n} of ${n} to PNG`);
  await expect(panel.getByTestId('export-busy')).toHaveCount(0);
  const files = unzipSync(new Uint8Array(zip.bytes));
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['trace.json', 'webvoyager/interact_messages.json']));
  const inZip = JSON.parse(strFromU8(files['trace.json'])) as Trace;
  expect(inZip.run).toEqual(trace.run);
  expect(inZip.steps.map((s) => s.actionText)).toEqual(trace.steps.map((s) => s.actionText));
  for (const s of inZip.steps) expect(files[s.screenshot], `${s.screenshot} is in the zip`).toBeTruthy();
  expect(Array.isArray(JSON.parse(strFromU8(files['webvoyager/interact_messages.json'])))).toBe(true);

  // the run as a Playwright script (run against a site in playwright-export.spec): its actions, from this run
  const script = await exportFile('export-playwright');
  expect(script.name).toBe(`webagent-run-${trace.run.id.slice(0, 8)}.playwright.mjs`);
  const text = script.bytes.toString('utf8');
  expect(text).toContain(`// webagent: run ${trace.run.id}, exported as a Playwright script`);
  expect(text).toContain(`"startUrl": ${JSON.stringify(trace.run.startUrl)}`);

  // Safe to share: no screenshots at all.
  await panel.getByTestId('exclude-screenshots').check();
  const bare = await exportFile('export-json');
  await expect(panel.getByTestId('export-status')).toContainText('without screenshots');
  const lean = JSON.parse(bare.bytes.toString('utf8')) as Trace;
  expect(lean.steps).toHaveLength(trace.steps.length);
  for (const s of lean.steps) {
    expect(s.screenshot).toBe('');
    expect(s.cleanScreenshot).toBe('');
  }
  expect(lean.steps.map((s) => s.request.promptText)).toEqual(trace.steps.map((s) => s.request.promptText));
  expect(bare.bytes.length).toBeLessThan(json.bytes.length);
});

test('re-run starts a new run with the same task; the live run cannot be deleted', async () => {
  await openHistory();
  let reached: () => void = () => undefined;
  let release: () => void = () => undefined;
  const atHold = new Promise<void>((r) => { reached = r; });
  hold = { reached, gate: new Promise<void>((r) => { release = r; }) };
  try {
    const pagesBefore = browser!.context.pages().length;
    await row(SOUP).getByTestId('rerun').click();
    // The Run view shows the new run, in a new tab on the same start page.
    await expect(panel.getByTestId('run')).toContainText(SOUP);
    await expect(panel.getByTestId('run')).toHaveAttribute('data-status', 'running');
    await atHold;
    expect(browser!.context.pages().length).toBe(pagesBefore + 1);
    expect(browser!.context.pages().filter((p) => p.url().includes('/recipes/'))).toHaveLength(1);

    await openHistory();
    const rows = row(SOUP);
    await expect(rows).toHaveCount(2);
    const live = rows.first();
    await expect(live.getByTestId('run-status')).toHaveText('running');
    expect(await live.getAttribute('data-run-id')).not.toBe(soupId);
    await live.getByTestId('delete-run').click();
    await live.getByTestId('confirm-delete').click();
    await expect(panel.getByTestId('history-error')).toHaveText('This run is still going on; stop it first.');
    await expect(rows).toHaveCount(2);
  } finally {
    hold = null;
    release();
  }
  await panel.getByTestId('view-run').click();
  await expect(panel.getByTestId('answer')).toContainText('Roasted Tomato Soup', { timeout: 60_000 });
  await openHistory();
  await expect(row(SOUP).first().getByTestId('run-status')).toHaveText('finished');
});

test('import into a fresh profile: shown like a local run, and it exports the same JSON', async () => {
  expect(exported, 'the export test ran').toBeTruthy();
  await launch(); // a new profile
  await openHistory();
  await expect(panel.getByTestId('history-empty')).toHaveText('No runs yet.');

  const input = panel.getByTestId('import-file');
  await input.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "webagent-trace", ') });
  // what the file is, in words, never a parser's error or the trace's internals
  await expect(panel.getByTestId('history-error')).toHaveText('"broken.json" is not a trace: it is not valid JSON (perhaps cut short). In History, import the .json file that Export → JSON made.');
  await input.setInputFiles({ name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') });
  await expect(panel.getByTestId('history-error')).toHaveText('Could not import "other.json": it is JSON, but not a trace this extension exported.');
  await input.setInputFiles({ name: 'step-1.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]) });
  await expect(panel.getByTestId('history-error')).toHaveText('"step-1.png" is a PNG picture, not a trace. In History, import the .json file that Export → JSON made.');

  await input.setInputFiles(exported!.file);
  await expect(panel.getByTestId('history-notice')).toHaveText(`Imported "${path.basename(exported!.file)}".`);
  await expect(panel.getByTestId('run-detail')).toHaveAttribute('data-run-id', soupId);
  await expect(panel.getByTestId('detail-task')).toHaveText(SOUP);
  await expect(panel.getByTestId('run-detail').getByTestId('imported-tag')).toBeVisible();
  await expectEveryStep(exported!.json);

  const again = await exportFile('export-json');
  expect(JSON.parse(again.bytes.toString('utf8'))).toEqual(JSON.parse(readFileSync(exported!.file, 'utf8')));

  await panel.getByTestId('back-to-history').click();
  const soup = row(SOUP);
  await expect(soup).toHaveCount(1);
  await expect(soup.getByTestId('imported-tag')).toHaveText('imported');
  await expect(soup.getByTestId('run-status')).toHaveText('finished');
  await expect(soup.getByTestId('run-steps')).toHaveText(`${exported!.json.steps.length} steps`);

  // The same file again: its id is taken, so it gets a new one.
  await panel.getByTestId('import-file').setInputFiles(exported!.file);
  await expect(panel.getByTestId('history-notice')).toContainText('the imported copy is listed as a run of its own');
  await expect(panel.getByTestId('run-detail')).not.toHaveAttribute('data-run-id', soupId);
  await expect(panel.getByTestId('detail-dialect')).toHaveText('glm-web');
  await panel.getByTestId('back-to-history').click();
  await expect(row(SOUP)).toHaveCount(2);

  // A trace of a dialect this version does not have (a newer version's): said at the import, in
  // the detail, and replay refuses rather than reading its actions as another dialect's.
  const newer = { ...exported!.json, run: { ...exported!.json.run, id: 'from-a-newer-version', task: 'A run of a newer version', dialect: 'glm-tv' } };
  await panel.getByTestId('import-file').setInputFiles({ name: 'newer.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(newer)) });
  await expect(panel.getByTestId('history-notice')).toHaveText('Imported "newer.json". It was made with the dialect "glm-tv", which this version does not have: its steps are shown as they were recorded, but it cannot be replayed.');
  await expect(panel.getByTestId('detail-dialect')).toHaveText('glm-tv (not in this version)');
  await expect(panel.getByTestId('detail-step')).toHaveCount(exported!.json.steps.length);
  await panel.getByTestId('detail-replay').click();
  await expect(panel.getByTestId('history-error')).toHaveText('This run was made with the dialect "glm-tv", which this version does not have: its actions cannot be read to replay them.');
  await send('history/delete', { runId: 'from-a-newer-version' });
  await panel.getByTestId('back-to-history').click();
});

test('delete removes a run from the list (after a confirm step); the storage used is shown', async () => {
  await openHistory();
  const storage = panel.getByTestId('storage');
  await expect(storage).toHaveText(/^\d[\d.]* (B|kB|MB|GB) of \d[\d.]* (B|kB|MB|GB|TB) used$/);
  const rows = row(SOUP);
  await expect(rows).toHaveCount(2);
  const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')));
  expect(ids).toContain(soupId);
  const copyId = ids.find((id) => id !== soupId)!;
  expect(copyId).toBeTruthy();

  // Cancel keeps it.
  await rows.first().getByTestId('delete-run').click();
  await rows.first().getByTestId('cancel-delete').click();
  await expect(rows).toHaveCount(2);

  await panel.locator(`[data-run-id="${copyId}"]`).getByTestId('delete-run').click();
  await panel.locator(`[data-run-id="${copyId}"]`).getByTestId('confirm-delete').click();
  await expect(panel.getByTestId('history-notice')).toHaveText('The run was deleted.');
  await expect(panel.locator(`[data-testid="history-run"][data-run-id="${copyId}"]`)).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  expect((await send('history/list', {})).runs.map((r) => r.id)).toEqual([soupId]);
  expect(await send('run/get', { runId: copyId })).toBeNull();

  await panel.locator(`[data-run-id="${soupId}"]`).getByTestId('delete-run').click();
  await panel.locator(`[data-run-id="${soupId}"]`).getByTestId('confirm-delete').click();
  await expect(panel.getByTestId('history-empty')).toHaveText('No runs yet.');
  await expect(storage).toContainText(' used');
});
