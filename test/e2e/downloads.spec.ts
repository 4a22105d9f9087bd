/**
 * Every download is the run's (issue 48 item 3: src/background/downloads.ts, hold.ts
 * catchDownloads): a download from the page or from a frame of another site (in its own process),
 * from a server or made by the page itself (a blob), one or many at once, is asked about with its
 * name, type, size and site, and nothing lands in the Downloads folder while the person is asked;
 * on "no" nothing is written, on "yes" the file is saved and the model is told.
 *
 * Chromium as a person runs it (scripts/browser.ts, personsBrowser; headed under Xvfb), with its
 * Downloads folder set in the profile: Playwright's own launch sends every download to a folder
 * of its own through the debugger, which is not what a person's browser does.
 *
 * One run on downloads/shop.html (127.0.0.1), whose partner frame is localhost's:
 * 1. the frame's "Get the launcher": a 3 MB `.desktop` file from its server (slow), refused;
 * 2. the frame's "Save the setup notes": a 3 MB `.desktop` blob the frame makes, refused;
 * 3. the frame's "Get all the tools": five `.exe` files at once (a hidden frame each), refused;
 * 4. the page's "Get the manual": an HTML page by a download link, approved before the click (the
 *    link says it downloads), so not asked again;
 * 5. the page's "Get the catalogue": an HTML attachment from the server, kept;
 * 6. the page's "Export the price list": a CSV blob, kept;
 * then the answer.
 */
import { test, expect } from './fixtures';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { launchWithExtension, openPanel, type Launched } from '../../scripts/browser';
import { hasXvfb, startXvfb, type Display } from '../../scripts/xvfb';
import type { RunView } from '../../src/core/messages';
import type { StaticServer } from '../../scripts/static-server';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import type { PromptParts } from '../fixtures/dialects/glm-web/request';
import { panelSend, serveFixtures, stopWorker, waitForRun } from './support';

type Item = { id: number; filename: string; state: string; url: string; exists: boolean };
interface Asked { run: RunView; files: string[]; items: Item[]; requested: string[] }

let display: Display | null = null;
let site: StaticServer;
let model: FakeModel;
let browser: Launched;
let panel: Page;
let profile: string;
let folder: string;
const asked: Asked[] = [];
const after: { files: string[]; items: Item[]; end?: RunView; sizes: Record<string, number> } = { files: [], items: [], sizes: {} };

const filesNow = () => readdirSync(folder);
const itemsOf = (worker: Worker) => worker.evaluate(() => chrome.downloads.search({})) as Promise<Item[]>;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  display = hasXvfb() || !process.env.DISPLAY ? await startXvfb() : null;
  site = await serveFixtures();
  profile = mkdtempSync(path.join(tmpdir(), 'webagent-downloads-'));
  folder = path.join(profile, 'Downloads');
  mkdirSync(folder);
  mkdirSync(path.join(profile, 'Default'));
  writeFileSync(path.join(profile, 'Default', 'Preferences'), JSON.stringify({ download: { default_directory: folder, prompt_for_download: false, directory_upgrade: true } }));
  browser = await launchWithExtension({ headed: true, personsBrowser: true, display: display?.display, userDataDir: profile });
  panel = await openPanel(browser);
  const worker = browser.context.serviceWorkers()[0];
  // each click once its element is there (the partner frame loads after the page), in this order
  const clicks = [/^Get the launcher$/, /^Save the setup notes$/, /^Get all the tools$/, /^Get the manual$/, /^Get the catalogue$/, /^Export the price list$/];
  let next = 0;
  model = await startFakeModel({
    policy: (req) => {
      const p = req.prompt as PromptParts;
      if (next === clicks.length) return { content: 'Thought: Done.\nAction: ANSWER; <content>done</content>\nMemory_Updated: {}' };
      const el = p.elements.find((e) => clicks[next].test(e.text));
      if (!el) return { content: 'Thought: The page is still loading.\nAction: Wait\nMemory_Updated: {}' };
      next++;
      return { content: `Thought: I will click ${el.text}.\nAction: Click [${el.label}]\nMemory_Updated: {}` };
    },
  });
  const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', {
    task: 'Get the tools', url: `${site.url}downloads/shop.html`,
    config: { baseUrl: model.baseUrl, apiKey: 'sk-downloads', model: 'glm-4.5v', approveSteps: false, maxSteps: 20 },
  });
  const answers: Array<[RegExp, 'approve' | 'reject']> = [
    [/launcher/, 'reject'], [/notes/, 'reject'], [/tool-1/, 'reject'], [/download link/, 'approve'], [/catalogue/, 'approve'], [/prices/, 'approve'],
  ];
  for (const [about, answer] of answers) {
    const run = await waitForRun(panel, runId, (r) => about.test(r.pending?.approval?.reason ?? '') || r.status !== 'running', `the run asks about ${about}`, 90_000);
    if (run.status !== 'running') throw new Error(`the run ended before it asked about ${about}: ${JSON.stringify(run.steps.map((s) => s.observation ?? s.result))}`);
    // what is on disk and in the browser's list while the person is asked
    asked.push({ run, files: filesNow(), items: await itemsOf(worker), requested: site.events.filter((e) => e.type === 'download').map((e) => e.value) });
    // the panel's own message (the run's tab is in front of the panel's, which then cannot be clicked)
    await panelSend(panel, answer === 'approve' ? 'run/approve' : 'run/reject', { runId });
  }
  after.end = await waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends', 90_000);
  await expect.poll(async () => (await itemsOf(worker)).filter((i) => i.state === 'complete').length, { message: 'the three kept downloads finish', timeout: 30_000 }).toBe(3);
  after.files = filesNow();
  after.items = await itemsOf(worker);
  for (const f of after.files) after.sizes[f] = statSync(path.join(folder, f)).size;
});

test.afterAll(async () => {
  await browser?.close();
  await model?.close();
  await site?.close();
  await display?.close();
  rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

const visible = (files: string[]) => files.filter((f) => !f.startsWith('.'));
const reasonOf = (n: number) => asked[n].run.pending!.approval!.reason;

test('a server download in a frame of another site is held before any byte lands, asked with its name, type, size and site, and nothing is written on "no"', () => {
  const port = new URL(site.url).port;
  expect(reasonOf(0)).toBe(`this action started a download: "launcher.desktop" (application/x-desktop, 2.9 MB) from localhost:${port}`);
  // the server answered, and the browser holds its answer: no file, no download in the browser's list
  expect(asked[0].requested).toContain('launcher.desktop');
  expect(asked[0].files).toEqual([]);
  expect(asked[0].items).toEqual([]);
  const step = after.end!.steps.find((st) => st.afterAction?.downloads.some((d) => d.filename === 'launcher.desktop'))!;
  expect(step.afterAction).toMatchObject({ rule: 'download', decision: 'rejected', downloads: [{ filename: 'launcher.desktop', type: 'application/x-desktop', size: 3_000_000, site: `localhost:${port}` }] });
  expect(step.afterAction!.downloads[0].id).toBeLessThan(0);
  expect(step.result).toEqual({ ok: false, error: `The page started downloading "launcher.desktop" (application/x-desktop, 2.9 MB) from localhost:${port}; the user did not allow it, so nothing was saved.` });
});

test('a file a frame of another site makes itself (a blob) is asked about, never saved under its name while asked, and gone on "no"', () => {
  const port = new URL(site.url).port;
  expect(reasonOf(1)).toBe(`this action started a download: "notes.desktop" (application/x-desktop, 2.9 MB) from localhost:${port}`);
  // The browser writes a page-made file as the download begins, to a hidden temporary file: never
  // a file of the folder under its name, and the download is paused without one.
  expect(visible(asked[1].files)).toEqual([]);
  const notes = asked[1].items.find((i) => i.url.startsWith('blob:'));
  expect(notes).toMatchObject({ state: 'in_progress', filename: '' });
  const notesStep = after.end!.steps.find((st) => st.afterAction?.downloads.some((d) => d.filename === 'notes.desktop'))!;
  expect(notesStep.afterAction).toMatchObject({ rule: 'download', decision: 'rejected', downloads: [{ filename: 'notes.desktop', site: `localhost:${port}` }] });
  expect(notesStep.result).toMatchObject({ ok: false, error: expect.stringContaining('so the download was cancelled and deleted') });
});

test('many files at once are asked about in one question, and none is written on "no"', () => {
  const names = [1, 2, 3, 4, 5].map((i) => `tool-${i}.exe`);
  for (const n of names) expect(reasonOf(2)).toContain(`"${n}" (application/x-msdownload, 195 KB)`);
  expect(asked[2].requested).toEqual(expect.arrayContaining(names));
  expect(visible(asked[2].files)).toEqual([]);
  expect(asked[2].items.filter((i) => i.url.includes('tool-'))).toEqual([]);
  const toolsStep = after.end!.steps.find((st) => st.afterAction?.downloads.some((d) => d.filename === 'tool-1.exe'))!;
  expect(toolsStep.afterAction!.downloads.map((d) => d.filename).sort()).toEqual(names);
  expect(toolsStep.afterAction!.decision).toBe('rejected');
});

test('the page\'s own downloads: kept on "yes" (a link that says it downloads, asked before the click), saved whole, in the trace, and the model told', () => {
  const host = new URL(site.url).host;
  const steps = after.end!.steps;
  const stepOf = (name: string) => steps.find((st) => st.afterAction?.downloads.some((d) => d.filename === name))!;
  // the download link is asked about before the click, and what it started is not asked again
  expect(reasonOf(3)).toBe('this clicks a download link');
  expect(stepOf('manual.html').afterAction).toMatchObject({ decision: 'auto', downloads: [{ filename: 'manual.html', type: 'text/html', site: host }] });
  expect(reasonOf(4)).toBe(`this action started a download: "catalogue.html" (text/html, 5 KB) from ${host}`);
  expect(asked[4].files.filter((f) => f.includes('catalogue'))).toEqual([]);
  expect(stepOf('catalogue.html').afterAction).toMatchObject({ decision: 'approved', downloads: [{ filename: 'catalogue.html', type: 'text/html', size: 5000, site: host }] });
  expect(stepOf('catalogue.html').observation).toBe(`Success. The browser began downloading "catalogue.html" (text/html, 5 KB) from ${host}; the download was kept.`);
  expect(reasonOf(5)).toBe(`this action started a download: "prices.csv" (text/csv, 28 B) from ${host}`);
  expect(stepOf('prices.csv').afterAction).toMatchObject({ decision: 'approved', downloads: [{ filename: 'prices.csv', size: 28, type: 'text/csv', site: host }] });
  // on disk: the three kept files whole, and nothing of the three refused
  expect(visible(after.files).sort()).toEqual(['catalogue.html', 'manual.html', 'prices.csv']);
  expect(after.sizes['catalogue.html']).toBe(5000);
  expect(after.sizes['prices.csv']).toBe(28);
  expect(after.items.map((i) => i.url).filter((u) => /launcher|tool-|blob:http:\/\/localhost/.test(u))).toEqual([]);
  expect(after.end!.status).toBe('finished');
});

test('a worker Chrome stops while the question is open still answers the held download: "no" writes nothing', async () => {
  test.setTimeout(120_000);
  const m = await startFakeModel({
    policy: (req) => {
      const p = req.prompt as PromptParts;
      const el = p.elements.find((e) => /^Get the launcher$/.test(e.text));
      if (p.history.length > 0) return { content: 'Thought: Done.\nAction: ANSWER; <content>done</content>\nMemory_Updated: {}' };
      if (!el) return { content: 'Thought: The page is still loading.\nAction: Wait\nMemory_Updated: {}' };
      return { content: `Thought: I will click ${el.text}.\nAction: Click [${el.label}]\nMemory_Updated: {}` };
    },
  });
  try {
    const before = site.events.filter((e) => e.value === 'launcher.desktop').length;
    const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', {
      task: 'Get the launcher', url: `${site.url}downloads/shop.html`,
      config: { baseUrl: m.baseUrl, apiKey: 'sk-downloads', model: 'glm-4.5v', approveSteps: false, maxSteps: 10 },
    });
    await waitForRun(panel, runId, (r) => /launcher/.test(r.pending?.approval?.reason ?? ''), 'the launcher is asked about', 60_000);
    expect(site.events.filter((e) => e.value === 'launcher.desktop').length).toBe(before + 1);
    await stopWorker(browser.context, browser.extensionId, panel);
    await panelSend(panel, 'run/reject', { runId });
    const end = await waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends', 60_000);
    const step = end.steps.find((st) => st.afterAction?.downloads.some((d) => d.filename === 'launcher.desktop'))!;
    expect(step.afterAction).toMatchObject({ decision: 'rejected' });
    // the run's end lets the debugger go, which would let a response still held go on: it was refused before
    await new Promise((r) => setTimeout(r, 4_000));
    expect(visible(filesNow()).filter((f) => f.startsWith('launcher'))).toEqual([]);
    const worker = browser.context.serviceWorkers().at(-1)!;
    expect((await itemsOf(worker)).filter((i) => i.url.includes('launcher'))).toEqual([]);
  } finally {
    await m.close();
  }
});
