/**
 * An update keeps everything (issue 47, docs/storage.md). The previous release's build
 * (test/fixtures/releases/webagent-0.1.0.zip) is unpacked into a folder and loaded; it is filled
 * through its own messages with settings, an endpoint profile, a secret, a guard allow-list, a
 * saved task, a Site note, a finished run with screenshots and a run paused at an approval. Then
 * the browser is closed, the folder's files are replaced by this build, and the browser starts
 * again on the same profile: the same extension (its id comes from the folder), updated. (A reload
 * in place, chrome.runtime.reload or chrome://extensions' reload button, disables an extension
 * loaded with --load-extension in this headless Chromium: tried, so the update goes through a
 * restart. Started again so, Chromium keeps running the old version's cached service worker; an
 * update from the Web Store or the Reload button registers the new one, so the test removes the
 * profile's service worker registrations, which hold nothing else, before starting it again.)
 * History opens with both runs and their pictures, the paused run says why it cannot go on, a
 * secret still fills, the note still applies to its element, settings, profile, allow-list and
 * saved task are there. Then stores a newer version wrote are refused, said in the panel, and
 * left untouched. One browser, its own profile, tests in order.
 */
import { test, expect, type Page } from './fixtures';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { DIST, launchWithExtension, openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type ModelReply } from '../fixtures/model/server';
import { labelIn, panelSend, ROOT, serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Settings } from '../../src/core/settings';
import type { MarksSnapshot } from '../../src/core/marks';
import type { ScreenDoc } from '../../src/core/docs/types';

test.describe.configure({ mode: 'serial' });

const KEY = 'sk-update-1a2b3c';
const PIN = 'pin-8391-kept';
const NOTE = 'Type the member number here, not the e-mail address.';
const PREVIOUS = path.join(ROOT, 'test', 'fixtures', 'releases', 'webagent-0.1.0.zip');
const NOW = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;

let site: StaticServer;
let model: FakeModel;
let browser: Launched;
let panel: Page;
let extDir = '';
let profile = '';
/** the runs 0.1.0 made */
let finishedId = '';
let pausedId = '';

function reply(thought: string, action: string): ModelReply {
  return { content: `Thought: ${thought}\nAction: ${action}\nMemory_Updated: {}` };
}

/** The folder's files replaced by the build in `from` (a zip's entries, or a built folder). */
function fillFolder(files: Record<string, Uint8Array> | string): void {
  for (const name of readdirSync(extDir)) rmSync(path.join(extDir, name), { recursive: true, force: true });
  if (typeof files === 'string') {
    cpSync(files, extDir, { recursive: true });
    return;
  }
  for (const [name, bytes] of Object.entries(files)) {
    if (name.endsWith('/')) continue;
    mkdirSync(path.dirname(path.join(extDir, name)), { recursive: true });
    writeFileSync(path.join(extDir, name), bytes);
  }
  // the fixture leaves out OCR's 6.7 MB (the same Tesseract files from node_modules): this build's copy
  cpSync(path.join(DIST, 'ocr'), path.join(extDir, 'ocr'), { recursive: true });
}

const send = <T>(type: string, payload: unknown) => panelSend<T>(panel, type, payload);

async function waitFor(runId: string, ok: (r: RunView) => boolean, what: string): Promise<RunView> {
  let last: RunView | null = null;
  await expect.poll(async () => { last = await send<RunView | null>('run/get', { runId }); return !!last && ok(last); }, { message: what, timeout: 90_000 }).toBe(true);
  return last!;
}

test.beforeAll(async () => {
  site = await serveFixtures();
  model = await startFakeModel({
    apiKey: KEY,
    policy: (q) => {
      const done = q.prompt?.history.length ?? 0;
      const task = q.prompt?.task ?? '';
      if (task.startsWith('Look at the sign-in page')) {
        return done === 0 ? reply('The username field.', `Click [${labelIn(q, /^Username$/)}]`) : reply('Seen.', 'ANSWER; <content>a sign-in form</content>');
      }
      if (done === 0) return reply('Type the pin.', `Type [${labelIn(q, /^Username$/)}]; [{{secret:pin}}]`);
      if (done === 1) return reply('Sign in.', `Click [${labelIn(q, /^Sign in$/)}]`);
      return reply('Done.', 'ANSWER; <content>signed in</content>');
    },
  });
  extDir = mkdtempSync(path.join(tmpdir(), 'webagent-installed-'));
  profile = mkdtempSync(path.join(tmpdir(), 'webagent-update-profile-'));
  fillFolder(unzipSync(readFileSync(PREVIOUS)));
  browser = await launchWithExtension({ extensionDir: extDir, userDataDir: profile });
  panel = await openPanel(browser);
});

test.afterAll(async () => {
  await browser?.close();
  await model?.close();
  await site?.close();
  rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  rmSync(extDir, { recursive: true, force: true });
});

const LOGIN = () => `${site.url}control/login.html`;

test('0.1.0, filled with a person\'s data, updated: everything is there and works', async () => {
  test.setTimeout(240_000);
  expect(await panel.evaluate(() => chrome.runtime.getManifest().version)).toBe('0.1.0');

  // ---- what a person has in 0.1.0, written by 0.1.0's own code ----
  await send('settings/patch', { set: { baseUrl: model.baseUrl, apiKey: KEY, model: 'glm-4.5v', maxSteps: 7, secrets: [{ name: 'pin', value: PIN }] } });
  await send('settings/patch', { profile: { name: 'Backup endpoint', endpoint: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-backup', model: 'glm-4.5v-backup', dialect: 'glm-web' } } });
  await send('settings/patch', { allow: { site: LOGIN(), rule: 'download' } });
  await send('templates/save', { template: { name: 'Daily check', task: 'Look at the sign-in page daily', startUrl: LOGIN() } });
  const before = await send<Settings>('settings/get', {});
  expect(before.secrets).toEqual([{ name: 'pin', value: PIN }]);

  // a Site note on the Username field
  const page = await browser.context.newPage();
  await page.goto(LOGIN());
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({})).find((t) => t.url === url)!.id!, page.url());
  const snap = await send<MarksSnapshot>('marks/label', { tabId });
  const user = snap.marks.find((m) => m.text === 'Username' && m.tag === 'input')!;
  await send('docs/put', { origin: new URL(LOGIN()).origin, fingerprint: user.fingerprint, docs: { text: NOTE } });

  // a finished run with its screenshots, and a run paused at the secret's approval
  finishedId = (await send<{ runId: string }>('run/start', { task: 'Look at the sign-in page', url: LOGIN() })).runId;
  const finished = await waitFor(finishedId, (r) => r.status !== 'running', 'the first run ends');
  expect(finished.status).toBe('finished');
  expect(finished.steps.length).toBe(2);
  pausedId = (await send<{ runId: string }>('run/start', { task: 'Sign in with my pin', url: LOGIN() })).runId;
  const paused = await waitFor(pausedId, (r) => !!r.pending?.approval, 'the second run waits for approval');
  expect(paused.pending?.approval?.reason).toMatch(/secret/);
  const requestsBefore = model.requests.length;

  // ---- the update: this build's files in the same folder, the browser started again on the profile ----
  const id = browser.extensionId;
  // Chrome updates an extension under a waiting run without the old version seeing its tab close:
  // the old browser is stopped at once (a browser closed in order lets 0.1.0 stop the run as "tab closed")
  killBrowser(profile);
  await browser.close();
  rmSync(path.join(profile, 'Default', 'Service Worker'), { recursive: true, force: true });
  fillFolder(DIST);
  browser = await launchWithExtension({ extensionDir: extDir, userDataDir: profile });
  expect(browser.extensionId).toBe(id);
  panel = await openPanel(browser);
  expect(await panel.evaluate(() => chrome.runtime.getManifest().version)).toBe(NOW);
  expect(NOW).not.toBe('0.1.0');
  expect((await send<{ problems: unknown[] }>('stores/status', {})).problems).toEqual([]);

  // settings, profile, secret and allow-list, migrated, with 0.1.0's value kept beside them
  const after = await send<Settings>('settings/get', {});
  expect(after).toEqual(before);
  const local = await panel.evaluate(() => chrome.storage.local.get(null));
  expect(local.settings).toMatchObject({ schema: 1, baseUrl: model.baseUrl });
  expect(local['settings.schema0']).toMatchObject({ baseUrl: model.baseUrl, secrets: [{ name: 'pin', value: PIN }] });
  expect(local['settings.schema0']).not.toHaveProperty('schema');
  expect(after.profiles['Backup endpoint']).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', model: 'glm-4.5v-backup' });
  expect(after.guards.allow['127.0.0.1']).toEqual(['download']);
  expect((await send<Array<{ name: string; startUrl?: string }>>('templates/list', {})).map((t) => [t.name, t.startUrl])).toEqual([['Daily check', LOGIN()]]);

  // the paused run says why it cannot go on; nothing more was asked of the model for it
  const stopped = await waitFor(pausedId, (r) => r.status !== 'running', 'the paused run is settled after the update');
  expect(stopped.status).toBe('stopped');
  expect(stopped.stopReason).toBe(`The extension was updated from 0.1.0 to ${NOW} during the run, so the run was stopped: what it kept only in memory (its endpoint settings for this run, passwords it typed, the values it watches) went with the old version. Its steps are in History; start the task again to carry on.`);
  expect(model.requests.length).toBe(requestsBefore);

  // History opens, in the panel a person sees, with both runs and the first run's pictures
  await panel.getByTestId('view-history').click();
  const rows = panel.getByTestId('history-run');
  await expect(rows).toHaveCount(2);
  await expect(panel.getByTestId('history-list')).toContainText('Look at the sign-in page');
  await expect(panel.getByTestId('history-list')).toContainText('Sign in with my pin');
  await rows.filter({ hasText: 'Look at the sign-in page' }).getByTestId('open-run').click();
  await expect(panel.getByTestId('detail-step')).toHaveCount(2);
  await panel.getByTestId('expand-all').click();
  await expect(panel.getByTestId('detail-step').first().getByTestId('shot-labelled')).toHaveAttribute('src', /^data:image\/\w+;base64,./);
  await expect(panel.getByTestId('detail-step').first().getByTestId('shot-clean')).toHaveAttribute('src', /^data:image\/\w+;base64,./);

  // the note still applies to its element (what a step's observation is given)
  const again = await browser.context.newPage();
  await again.goto(LOGIN());
  const tabNow = await panel.evaluate(async (url) => (await chrome.tabs.query({})).find((t) => t.url === url)!.id!, again.url());
  const docs = await send<{ marks: Array<{ label: number; text: string }>; docs: ScreenDoc[] }>('docs/page', { tabId: tabNow });
  const userLabel = docs.marks.find((m) => m.text === 'Username')!.label;
  expect(docs.docs.find((d) => d.label === userLabel)?.docs.text).toBe(NOTE);

  // the secret still fills: a new run with the stored endpoint types it after approval
  site.events.length = 0;
  const { runId } = await send<{ runId: string }>('run/start', { task: 'Sign in with my pin again', url: LOGIN() });
  const asking = await waitFor(runId, (r) => !!r.pending?.approval || r.status !== 'running', 'the new run asks about the secret');
  expect(asking.pending?.approval?.reason).toMatch(/secret/);
  await send('run/approve', { runId });
  const done = await waitFor(runId, (r) => r.status !== 'running', 'the new run ends');
  expect(done.status).toBe('finished');
  expect(site.events.filter((e) => e.type === 'signin').map((e) => e.value)).toEqual([`${PIN}:0`]);
  for (const q of model.requests) expect(JSON.stringify(q.body)).not.toContain(PIN);
  await again.close();
});

test('stores a newer version wrote are refused, said in the panel, and left untouched', async () => {
  test.setTimeout(120_000);
  // settings a newer version wrote (schema 2)
  const stored = (await panel.evaluate(() => chrome.storage.local.get('settings'))).settings as Record<string, unknown>;
  const newer = { ...stored, schema: 2, laterField: { kept: true } };
  await panel.evaluate((s) => chrome.storage.local.set({ settings: s }), newer);
  // the runs database upgraded by a newer version: its worker closed first, so nothing holds it open
  const runsBefore = await countRuns();
  // the panel asks the worker every few seconds (which starts it again): closed meanwhile
  await panel.close();
  await closeWorkers();
  const bumped = await browser.context.newPage();
  await bumped.goto(`chrome-extension://${browser.extensionId}/icons/icon16.png`);
  await expect.poll(() => bumped.evaluate(() => new Promise<string>((resolve) => {
    const req = indexedDB.open('webagent', 9);
    req.onupgradeneeded = () => { req.result.createObjectStore('future'); };
    req.onsuccess = () => { req.result.close(); resolve('upgraded'); };
    req.onblocked = () => resolve('blocked');
    req.onerror = () => resolve(String(req.error));
  })).then(async (r) => { if (r !== 'upgraded') await closeWorkers(); return r; }), { message: 'the database is at version 9', timeout: 30_000 }).toBe('upgraded');
  await bumped.close();

  panel = await openPanel(browser);
  const notice = panel.getByTestId('store-notice');
  await expect(notice.locator('[data-store="settings"][data-kind="newer"]')).toHaveText(`Your settings, endpoint profiles and secrets were saved by a newer version of Web Agent, which this version (${NOW}) cannot read. They are left untouched: nothing is read, changed or deleted. Install the newer version again to use them.`);
  await expect(notice.locator('[data-store="runs"][data-kind="newer"]')).toContainText('Your runs and their screenshots (History) were saved by a newer version');
  await expect(panel.locator('.store-notice')).toBeVisible();

  // nothing is written over them: a settings change and a run are refused with the reason
  await expect(send('settings/patch', { set: { model: 'other' } })).rejects.toThrow(/newer version.*left untouched/);
  await expect(send('run/start', { task: 'Look at the sign-in page', url: LOGIN() })).rejects.toThrow(/newer version/);
  await expect(send('history/list', {})).rejects.toThrow(/runs store was written by a newer version/);
  expect((await panel.evaluate(() => chrome.storage.local.get('settings'))).settings).toEqual(newer);
  expect(await countRuns()).toEqual({ version: 9, runs: runsBefore.runs });
});

/** Stops the browser running on `dir` at once (Chromium's SingletonLock names its process: host-pid). */
function killBrowser(dir: string): void {
  const pid = Number(/-(\d+)$/.exec(readlinkSync(path.join(dir, 'SingletonLock')))?.[1]);
  expect(pid, 'the browser\'s process id').toBeGreaterThan(0);
  process.kill(pid, 'SIGKILL');
}

/** The runs database's version and how many runs it holds, read from an extension page. */
function countRuns(): Promise<{ version: number; runs: number }> {
  return panel.evaluate(() => new Promise((resolve, reject) => {
    const req = indexedDB.open('webagent');
    req.onsuccess = () => {
      const d = req.result;
      const c = d.transaction('runs').objectStore('runs').count();
      c.onsuccess = () => { d.close(); resolve({ version: d.version, runs: c.result }); };
      c.onerror = () => reject(c.error);
    };
    req.onerror = () => reject(req.error);
  }));
}

/** Closes the extension's pages and its service worker (nothing of it keeps a database open). */
async function closeWorkers(): Promise<void> {
  const blank = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(blank);
  type Info = { targetId: string; type: string; url: string };
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Info[] };
  for (const t of targetInfos) {
    if (t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${browser.extensionId}/`)) await cdp.send('Target.closeTarget', { targetId: t.targetId }).catch(() => undefined);
  }
  await cdp.detach().catch(() => undefined);
  await blank.close();
}
