/**
 * New tabs and windows, and files for file inputs, end to end: the built extension in headless
 * Chromium, the fake model (scripted by the element list, or the glm-mobile player that finds
 * targets by colour), fixture pages under test/fixtures/pages/tabs/ that report to the test
 * server what happened in them (loads with their width and user agent, clicks, files chosen).
 *
 * Tabs: a target=_blank link and window.open are followed and the model is told; a popup window
 * that closes itself, or a followed tab the person closes, sends the run back to its opener; a
 * phone dialect's followed tab is a phone too; the tab a run is in survives a worker restart.
 * Files: attached in the panel, a file field gets those it accepts (bytes checked by the page);
 * without files no dialog opens and the model is told; the size cap is said and loses nothing.
 */
import { test, expect, useAgent } from './fixtures';
import type { Page } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type FakeModelOptions, type ModelReply, type RecordedRequest } from '../fixtures/model/server';
import { scriptedPolicy, type Goal } from '../../scripts/scripted-model';
import { mobilePlayer } from '../fixtures/dialects/glm-mobile/player';
import { pcPlayer } from '../fixtures/dialects/glm-pc/player';
import { COLOURS } from '../fixtures/model/locate';
import { panelSend, shareExtension, stopWorker, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Trace } from '../../src/core/trace';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

const KEY = 'sk-tabs-files-3c4d5e6f';
let site: StaticServer;
let browser: Launched;
let panel: Page;
const models: FakeModel[] = [];

shareExtension(async (e) => {
  ({ site, browser, panel } = e);
  await panelSend(panel, 'settings/patch', { set: { apiKey: KEY } });
}, models);
test.afterEach(async () => {
  await panelSend(panel, 'files/remove', {});
  for (const m of models.splice(0)) await m.close();
  // Each test starts from the panel alone.
  for (const p of browser.context.pages()) if (p !== panel) await p.close().catch(() => undefined);
  site.events.length = 0;
});

async function fake(policy: FakeModelOptions['policy'], extra: Partial<FakeModelOptions> = {}): Promise<FakeModel> {
  const m = await startFakeModel({ apiKey: KEY, policy, ...extra });
  models.push(m);
  return m;
}

/** A glm-web model that plays `goals` from the element list. */
function scripted(goals: Goal[], hold?: (req: RecordedRequest, n: number) => Promise<void> | void): Promise<FakeModel> {
  const play = scriptedPolicy(goals, 'plain');
  return fake(async (req, n): Promise<ModelReply> => {
    await hold?.(req, n);
    return play(req.prompt);
  });
}

/** Starts a run in a new tab at the fixture page, as the runner does. */
async function start(m: FakeModel, task: string, page: string, config: Record<string, unknown> = {}): Promise<string> {
  const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', {
    task, url: `${site.url}${page}`, config: { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v', maxSteps: 10, ...config },
  });
  return runId;
}

function ended(runId: string): Promise<RunView> {
  return waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends');
}

function traceOf(runId: string): Promise<Trace> {
  return panelSend<Trace>(panel, 'run/trace', { runId, excludeScreenshots: true });
}

function events(type: string, value?: string): Record<string, string>[] {
  return site.events.filter((e) => e.type === type && (value === undefined || e.value === value));
}

/**
 * The person is asked about a file chooser the run's action opened (the question names the files
 * and the field's site) and says yes; the question's words.
 */
async function allowFiles(runId: string, files: string[]): Promise<string> {
  const named = files.map((f) => `"${f}"`).join(', ');
  const asked = await waitForRun(panel, runId, (r) => !!r.pending?.approval?.after && !!r.pending.approval.reason?.includes(named), `asked about ${named}`);
  await panelSend(panel, 'run/approve', { runId });
  return asked.pending?.approval?.reason ?? '';
}

/** A promise and its resolver (to hold a model reply until the test lets it go). */
function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((r) => { open = r; });
  return { wait, open };
}

test('a target=_blank link: the run follows the new tab, the model is told, and the answer comes from the new tab', async () => {
  const m = await scripted([
    { do: 'click', find: /^Open the details$/ },
    { do: 'answer', from: /Price: (\d+ EUR)/ },
  ]);
  const runId = await start(m, 'What does the kettle cost?', 'tabs/index.html');
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.status).toBe('finished');
  expect(done.answer).toBe('42 EUR');
  const details = `${site.url}tabs/details.html`;
  const t = await traceOf(runId);
  expect(t.steps.map((s) => s.url)).toEqual([`${site.url}tabs/index.html`, details]);
  expect(t.steps[0].tabs).toEqual([{ change: 'opened', url: details }]);
  expect(t.steps[0].observation).toBe(`Success. A new tab opened: ${details}; you are now in it.`);
  expect(t.steps[1].tabs).toBeUndefined();
  // The model read it in the next prompt's history.
  expect(m.requests[1].prompt?.history[0]).toContain(`Observation:Success. A new tab opened: ${details}; you are now in it.`);
  expect(m.violations()).toEqual([]);
  // It is another tab: the desk stays open behind it, as the tab to go back to.
  expect(done.tabStack).toHaveLength(1);
  expect(done.tabId).not.toBe(done.tabStack![0]);
  expect(events('load', 'details').map((e) => e.via)).toEqual(['link']);
  // The person reads it in the panel, in their own words.
  await expect(panel.getByTestId('tab-note')).toHaveText(`The page opened a new tab; the agent followed it to ${details}.`);
});

test('a popup window: followed, and when it closes itself the run goes back to the opener and acts there', async () => {
  const held = gate();
  const reached = gate();
  const m = await scripted([
    { do: 'click', find: /^Open the popup$/ },
    { do: 'click', find: /^Got it$/ },
    { do: 'click', find: /^Mark done$/ },
    { do: 'answer', text: 'confirmed' },
  ], async (_req, n) => {
    if (n !== 1) return;
    reached.open();
    await held.wait;
  });
  const runId = await start(m, 'Say "Got it" in the popup, then mark it done', 'tabs/index.html');
  await reached.wait;
  // The run is in the popup, a window of its own.
  const now = await panelSend<RunView>(panel, 'run/get', { runId });
  const kind = await panel.evaluate(async (tabId) => (await chrome.windows.get((await chrome.tabs.get(tabId)).windowId)).type, now.tabId);
  expect(kind).toBe('popup');
  held.open();
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.answer).toBe('confirmed');
  const desk = `${site.url}tabs/index.html`;
  const popup = `${site.url}tabs/popup.html`;
  const t = await traceOf(runId);
  expect(t.steps.map((s) => s.url)).toEqual([desk, popup, desk, desk]);
  expect(t.steps[0].tabs).toEqual([{ change: 'opened', url: popup }]);
  expect(t.steps[1].tabs).toEqual([{ change: 'closed', url: desk }]);
  expect(t.steps[1].observation).toBe(`Success. The tab closed; back in the previous tab: ${desk}.`);
  expect(events('click', 'confirm')).toHaveLength(1);
  expect(events('click', 'done')).toHaveLength(1);
  expect(done.tabStack).toEqual([]);
});

test('window.open: followed; when the person closes that tab while the model thinks, the run goes back and says so', async () => {
  const held = gate();
  const reached = gate();
  const m = await scripted([
    { do: 'click', find: /^Open by script$/ },
    { do: 'click', find: /^Mark done$/ },
    { do: 'answer', text: 'done' },
  ], async (_req, n) => {
    if (n !== 1) return;
    reached.open();
    await held.wait;
  });
  const runId = await start(m, 'Open the details by script, then mark it done', 'tabs/index.html');
  await reached.wait;
  // the run already observed that tab; this process may learn of its address a moment later (a loaded machine)
  const byScript = () => browser.context.pages().find((p) => p.url().includes('details.html?via=script'));
  await expect.poll(() => byScript() !== undefined, { message: 'the script opened its tab' }).toBe(true);
  await byScript()!.close();
  held.open();
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.answer).toBe('done');
  const desk = `${site.url}tabs/index.html`;
  const t = await traceOf(runId);
  expect(t.steps[0].tabs).toEqual([{ change: 'opened', url: `${site.url}tabs/details.html?via=script` }]);
  // The step observed in the closed tab was dropped; the next recorded step tells the model.
  expect(t.steps.map((s) => s.url)).toEqual([desk, desk, desk]);
  expect(t.steps[1].tabs).toEqual([{ change: 'closed', url: desk }]);
  expect(t.steps[1].observation).toBe(`Success. The tab closed; back in the previous tab: ${desk}.`);
  expect(events('click', 'done')).toHaveLength(1);
});

test('glm-mobile: the followed tab is a phone too (width, user agent, touch)', async () => {
  const play = mobilePlayer([
    { do: 'click', colour: COLOURS.yellow },
    { do: 'answer', text: '42 EUR', colour: COLOURS.green },
  ], { variant: 'plain' });
  const m = await fake((req) => play(req.mobile), { dialect: 'glm-mobile' });
  const runId = await start(m, 'What does the kettle cost?', 'tabs/index.html', { dialect: 'glm-mobile' });
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.answer).toBe('42 EUR');
  expect(m.violations()).toEqual([]);
  const loads = events('load', 'details');
  expect(loads.at(-1)).toMatchObject({ width: '412', mobile: 'true', touch: '5' });
  const t = await traceOf(runId);
  expect(t.steps[0].tabs).toEqual([{ change: 'opened', url: `${site.url}tabs/details.html` }]);
  expect(t.steps[1].viewport.width).toBe(412);
  expect(t.steps[1].request.imageWidth).toBe(412);
});

test('a worker restart in a followed tab: the run goes on there, and back to the opener when it closes', async () => {
  const held = gate();
  const reached = gate();
  const m = await scripted([
    { do: 'click', find: /^Open by script$/ },
    { do: 'click', find: /^Close this tab$/ },
    { do: 'click', find: /^Mark done$/ },
    { do: 'answer', text: 'done' },
  ], async (_req, n) => {
    if (n !== 1) return;
    reached.open();
    await held.wait;
  });
  const runId = await start(m, 'Open the details by script, close them, then mark it done', 'tabs/index.html');
  await reached.wait;
  await stopWorker(browser.context, browser.extensionId, panel);
  held.open();
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.answer).toBe('done');
  const desk = `${site.url}tabs/index.html`;
  const t = await traceOf(runId);
  expect(t.steps.map((s) => s.url)).toEqual([desk, `${site.url}tabs/details.html?via=script`, desk, desk]);
  expect(t.steps[1].tabs).toEqual([{ change: 'closed', url: desk }]);
  expect(events('click', 'close')).toHaveLength(1);
  expect(events('click', 'done')).toHaveLength(1);
});

// ---------------------------------------------------------------------------------------------
// Files: attached in the panel, chosen when an action opens a file field's chooser.

const NOTES = Buffer.from('Hello from the person\n');
const CAT = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
const DOG = Buffer.from(Array.from({ length: 1234 }, (_, i) => (i * 13 + 5) % 256));

/** The page's checksum of a file's bytes (test/fixtures/pages/files/upload.html). */
function sum(b: Buffer): string {
  return String(b.reduce((a, x) => (a + x) % 65521, 0));
}

test('files attached in the panel: a click on a file field, and on a styled button in front of one, chooses them as the field accepts', async () => {
  await panel.getByTestId('attach-input').setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: NOTES },
    { name: 'cat.png', mimeType: 'image/png', buffer: CAT },
    { name: 'dog.png', mimeType: 'image/png', buffer: DOG },
  ]);
  await expect(panel.getByTestId('attached-file')).toHaveText([/^notes\.txt 22 B/, /^cat\.png 3 KB/, /^dog\.png 1 KB/]);
  const m = await scripted([
    { do: 'click', find: /Your document/, tag: 'input' },
    { do: 'click', find: /^Choose photos$/ },
    { do: 'click', find: /^Finish$/ },
    { do: 'answer', text: 'uploaded' },
  ]);
  await panelSend(panel, 'settings/patch', { set: { baseUrl: m.baseUrl, model: 'glm-4.5v' } });
  const page = await browser.context.newPage();
  await page.goto(`${site.url}files/upload.html`);
  await panel.getByTestId('task').fill('Upload my document and my photos');
  await panel.getByTestId('start').click();
  const run = await expect.poll(async () => (await panelSend<RunView | null>(panel, 'run/get', {}))?.files?.length ?? 0).toBe(3).then(() => panelSend<RunView>(panel, 'run/get', {}));
  // Each chooser asks first, naming the files it would get and the page's site; nothing is given before the yes.
  const host = new URL(site.url).host;
  await expect(panel.getByTestId('approval-reason')).toHaveText(`Passwords, saved secrets and attached files: the page at ${host} opened a file chooser and would get "notes.txt" from the files you attached; it gets them only if you allow it`);
  expect(events('change')).toEqual([]);
  await panel.getByTestId('approve').click();
  expect(await allowFiles(run.id, ['cat.png', 'dog.png'])).toContain(host);
  const done = await ended(run.id);
  expect(done.stopReason).toBeNull();
  expect(done.answer).toBe('uploaded');
  // The run took the files, and they went with it: none are left for the next one.
  await expect(panel.getByTestId('attachments')).toContainText('Files for the task');
  await expect(panel.getByTestId('attached-file')).toHaveCount(0);

  // The page read the bytes it was given, through input and change events.
  const doc = events('change', 'doc');
  expect(doc).toHaveLength(1);
  expect(doc[0]).toMatchObject({ names: 'notes.txt', types: 'text/plain', sizes: String(NOTES.length), sums: sum(NOTES), text: NOTES.toString() });
  expect(events('input', 'doc')).toHaveLength(1);
  const photos = events('change', 'photos');
  expect(photos).toHaveLength(1);
  expect(photos[0]).toMatchObject({ names: 'cat.png|dog.png', types: 'image/png|image/png', sizes: `${CAT.length}|${DOG.length}`, sums: `${sum(CAT)}|${sum(DOG)}` });

  const t = await traceOf(run.id);
  expect(t.steps[0].observation).toBe('Success. The file chooser got the attached file "notes.txt". Not chosen, because the field accepts only .txt,text/plain: "cat.png", "dog.png".');
  expect(t.steps[1].observation).toBe('Success. The file chooser got the attached files "cat.png", "dog.png". Not chosen, because the field accepts only image/*: "notes.txt".');
  // The trace names the files; their bytes are not in it.
  expect(t.run.files).toEqual([
    { name: 'notes.txt', size: NOTES.length, type: 'text/plain' },
    { name: 'cat.png', size: CAT.length, type: 'image/png' },
    { name: 'dog.png', size: DOG.length, type: 'image/png' },
  ]);
  expect(JSON.stringify(t)).not.toContain(CAT.toString('base64').slice(0, 40));
});

test('glm-pc: a click at the point of a styled button that opens a hidden file field chooses the attached files', async () => {
  for (const [name, type, bytes] of [['cat.png', 'image/png', CAT], ['notes.txt', 'text/plain', NOTES]] as const) {
    await panelSend(panel, 'files/add', { name, type, base64: bytes.toString('base64') });
  }
  const play = pcPlayer([{ do: 'click', colour: COLOURS.blue, info: 'Choose photos' }, { do: 'answer', text: 'chosen' }]);
  const m = await fake((req) => play(req.pc), { dialect: 'glm-pc' });
  const runId = await start(m, 'Choose my photos', 'files/upload.html', { dialect: 'glm-pc' });
  await allowFiles(runId, ['cat.png']);
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(events('change', 'photos')).toEqual([expect.objectContaining({ names: 'cat.png', sizes: String(CAT.length), sums: sum(CAT) })]);
  const t = await traceOf(runId);
  expect(t.steps[0].action).toMatchObject({ type: 'click', target: { kind: 'point' } });
  expect(t.steps[0].target).toMatchObject({ tag: 'button', text: 'Choose photos' });
  expect(t.steps[0].observation).toBe('Success. The file chooser got the attached file "cat.png". Not chosen, because the field accepts only image/*: "notes.txt".');
});

test('no files attached: a click on a file field opens no dialog, the model is told, and the run goes on', async () => {
  const m = await scripted([
    { do: 'click', find: /Your document/, tag: 'input' },
    { do: 'answer', text: 'need a file' },
  ]);
  const runId = await start(m, 'Upload my document', 'files/upload.html');
  const done = await ended(runId);
  expect(done.stopReason).toBeNull();
  expect(done.answer).toBe('need a file');
  const t = await traceOf(runId);
  expect(t.steps[0].observation).toBe('Success. This opened a file chooser, but the person has attached no files to this run, so no file was chosen. Ask the person to attach the file in the side panel, or say that the task needs a file.');
  expect(m.requests[1].prompt?.history[0]).toContain('no files to this run');
  expect(events('change')).toEqual([]);
  expect(t.run.files).toBeUndefined();
});

test('files attached while the run goes on are its own: the next click on the file field gets them', async () => {
  const held = gate();
  const reached = gate();
  const m = await scripted([
    { do: 'click', find: /Your document/, tag: 'input' },
    { do: 'click', find: /Your document/, tag: 'input' },
    { do: 'answer', text: 'uploaded' },
  ], async (_req, n) => {
    if (n !== 1) return;
    reached.open();
    await held.wait;
  });
  const runId = await start(m, 'Upload my document', 'files/upload.html');
  await reached.wait;
  // The model was told there were no files; the person attaches one now.
  await expect(panel.getByTestId('attachments')).toContainText('Files for this run');
  await panel.getByTestId('attach-input').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: NOTES }]);
  await expect(panel.getByTestId('attached-file')).toHaveText([/^notes\.txt/]);
  held.open();
  await allowFiles(runId, ['notes.txt']);
  const done = await ended(runId);
  expect(done.answer).toBe('uploaded');
  const t = await traceOf(runId);
  expect(t.steps[0].observation).toContain('the person has attached no files to this run');
  expect(t.steps[1].observation).toBe('Success. The file chooser got the attached file "notes.txt".');
  expect(t.run.files).toEqual([{ name: 'notes.txt', size: NOTES.length, type: 'text/plain' }]);
  expect(events('change', 'doc')).toEqual([expect.objectContaining({ names: 'notes.txt', text: NOTES.toString() })]);
  // Nothing was left for the next run.
  await expect(panel.getByTestId('attachments')).toContainText('Files for the task');
  await expect(panel.getByTestId('attached-file')).toHaveCount(0);
});

test('a file past the size cap is refused with the reason; the files already attached stay', async () => {
  await panel.getByTestId('attach-input').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: NOTES }]);
  await expect(panel.getByTestId('attached-file')).toHaveCount(1);
  await panel.getByTestId('attach-input').setInputFiles([{ name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(21 * 1024 * 1024) }]);
  await expect(panel.getByTestId('attach-error')).toHaveText('"huge.bin" (21.0 MB) was not attached: the files of one run may add up to 20.0 MB, and 22 B is already attached.');
  await expect(panel.getByTestId('attached-file')).toHaveText([/^notes\.txt/]);
  // The background refuses it too (the runner and other views go through it).
  const err = await panel.evaluate(async () => {
    try {
      await (window as unknown as { webagent: { send(t: string, p: unknown): Promise<unknown> } }).webagent.send('files/add', { name: 'big.bin', type: '', base64: 'A'.repeat(28 * 1024 * 1024) });
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  });
  expect(err).toMatch(/^"big\.bin" \(21\.0 MB\) was not attached/);
  await panel.getByTestId('remove-file').click();
  await expect(panel.getByTestId('attached-file')).toHaveCount(0);
});

test('runner --file: the files go with the run; Type on a file field chooses the one its text names', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'webagent-files-'));
  writeFileSync(path.join(dir, 'other.txt'), 'not this one');
  writeFileSync(path.join(dir, 'notes.txt'), NOTES);
  const m = await scripted([
    { do: 'type', find: /Your document/, tag: 'input', text: 'notes.txt' },
    { do: 'answer', text: 'uploaded' },
  ]);
  const r = await agent.run([
    '--task', 'Upload my notes', '--url', `${site.url}files/upload.html`, '--base-url', m.baseUrl, '--api-key', KEY,
    '--file', path.join(dir, 'other.txt'), '--file', path.join(dir, 'notes.txt'), '--trace', path.join(dir, 'trace.json'),
  ], {}, 'y\n');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('Observation: Success. The file chooser got the attached file "notes.txt".');
  expect(events('change', 'doc')).toEqual([expect.objectContaining({ names: 'notes.txt', text: NOTES.toString() })]);
  const t = JSON.parse(readFileSync(path.join(dir, 'trace.json'), 'utf8')) as Trace;
  expect(t.run.files?.map((f) => `${f.name} ${f.type} ${f.size}`)).toEqual(['other.txt text/plain 12', `notes.txt text/plain ${NOTES.length}`]);

  const bad = await agent.run(['--task', 'x', '--url', `${site.url}files/upload.html`, '--base-url', m.baseUrl, '--file', path.join(dir, 'missing.pdf')]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain(`--file ${path.join(dir, 'missing.pdf')}: ENOENT`);
  rmSync(dir, { recursive: true, force: true });
});
