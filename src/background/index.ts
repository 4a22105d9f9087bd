/**
 * The service worker. Listeners are registered synchronously at top level so
 * a worker that Chrome restarts gets its events.
 */
import { RELEASE } from '../core/release';
import { storeProblems, updatedFrom } from './stores';
import { lingering, stopRefusing } from './refuse';
import { listenForSheets } from './sheets';
import { listenForCopies } from './clipboard';
import { demoState, listenForDemos, startDemo, stopDemo } from './demo';
import { personT } from './person';
import browser from 'webextension-polyfill';
import { isEnvelope, type Reply, type TestOnlyMessage, type ViewMessages, type ViewName } from '../core/messages';
import { runSites, toTrace } from '../core/trace';
import { vaultValues } from '../core/secrets';
import type { RunState } from '../core/run/state';
import { ensureContent } from './content';
import { labelTab, resetTab } from './label';
import { testConnection } from './model';
import { calibrate } from './calibrate';
import { ALARM, continueRun, control, currentRun, isActive, isRunTab, liveReply, liveRunId, runFilesChanged, startReplay, resumeAfterRestart, secretsOf, startRun, stopRun, stopRunsInTab, tabCreated, tabRemoved, viewOf } from './run';
import { UNSEEN_PAGE, whyNotAllowed } from '../core/pages';
import { clearOld, deleteRun, lastPruned, listRuns, loadRun, loadShot, runsUsage, saveRun, withScreenshots } from './run-store';
import { searchRuns } from '../core/trace/history';
import { fromTrace, parseTrace, traceProblemWords } from '../core/trace/import';
import { isDialect } from '../core/dialects/registry';
import { loadSettings, patchSettings } from './settings-store';
import { normalizeSettings } from '../core/settings';
import { base64Decode } from '../core/export/data-url';
import { addFile, listFiles, removeFile, STAGED } from './file-store';
import { onCommand } from './commands';
import { templateHandlers } from './template-handlers';
import { deleteEntry, docsForPage, editEntry, exportOrigin, importEntries, listEntries, listOrigins } from './doc-store';
import { docOrigin } from '../core/docs/matching';
import { readDocsFile } from '../core/docs/file';

type Handler<K extends ViewName> = (req: ViewMessages[K]['req']) => Promise<ViewMessages[K]['res']>;
/** Every message's handler; those only the tests send (TEST_ONLY_MESSAGES) are left out of the release build. */
type Handlers = { [K in Exclude<ViewName, TestOnlyMessage>]: Handler<K> } & { [K in TestOnlyMessage]?: Handler<K> };

const STARTED_AT = Date.now();

/**
 * What an export scrubs as a last line of defence: the API keys, the run's typed passwords and the
 * person's secrets, then and now (the run's text already has them hidden).
 */
async function scrubbed(s: RunState): Promise<string[]> {
  const { apiKey, textApiKey, secrets } = await loadSettings();
  return [apiKey, textApiKey, ...secretsOf(s.id), ...vaultValues(s.vault), ...secrets.map((x) => x.value)];
}

const handlers: Handlers = {
  ...templateHandlers,
  ...(RELEASE ? {} : { 'worker/info': async () => ({ startedAt: STARTED_AT }) }),
  'stores/status': async () => ({ problems: await storeProblems(), version: chrome.runtime.getManifest().version }),
  'settings/get': () => loadSettings(),
  'settings/patch': (patch) => patchSettings(patch),
  'model/test': async ({ config }) => {
    const s = normalizeSettings({ ...(await loadSettings()), ...(config ?? {}) });
    const r = await testConnection(s);
    if (!r.ok) throw new Error(r.error);
    return { ms: r.ms, models: r.models, message: r.message };
  },
  'model/calibrate': async ({ config }) => calibrate(normalizeSettings({ ...(await loadSettings()), ...(config ?? {}) })),
  'run/start': async (req) => ({ runId: await startRun(req) }),
  'run/continue': async (req) => ({ runId: await continueRun(req) }),
  'watch/list': async () => (await lingering()).map(({ homes: _homes, ...w }) => w),
  'watch/release': async ({ tabId }) => {
    await stopRefusing(tabId);
    return (await lingering()).map(({ homes: _homes, ...w }) => w);
  },
  'run/stop': async ({ runId, reason }) => ({ stopped: await stopRun(runId, reason?.trim() ? `Stopped: ${reason.trim().slice(0, 200)}` : undefined) }),
  'run/approve': ({ runId, edit, alwaysAllow }) => control(runId, { kind: 'approve', edit, alwaysAllow }),
  'run/reject': ({ runId, feedback }) => control(runId, { kind: 'reject', feedback }),
  'run/pause': ({ runId }) => control(runId, { kind: 'pause' }),
  'run/takeover': ({ runId }) => control(runId, { kind: 'takeover' }),
  'run/resume': ({ runId }) => control(runId, { kind: 'resume' }),
  'run/mode': async ({ runId, approveSteps }) => {
    await patchSettings({ set: { approveSteps } });
    return control(runId, { kind: 'mode', approveSteps }).catch(() => null);
  },
  'run/get': async ({ runId }) => {
    const s = await currentRun(runId);
    return s ? viewOf(s) : null;
  },
  'run/live': ({ runId }) => liveReply(runId),
  'run/screenshot': async ({ runId, index, kind = 'labelled' }) => {
    const s = await currentRun(runId);
    if (!s) return null;
    if (s.pending && s.pending.index === index) return kind === 'clean' ? s.pending.kept?.clean || null : s.pending.screenshot;
    const step = s.steps[index];
    const inMemory = kind === 'clean' ? step?.cleanScreenshot : step?.screenshot;
    return inMemory || (await loadShot(s.id, index, kind));
  },
  'history/list': async ({ query }) => {
    const runs = searchRuns(await listRuns(), query ?? '');
    const est = await navigator.storage.estimate().catch(() => null);
    return { runs, usedBytes: est?.usage ?? null, quotaBytes: est?.quota ?? null, pruned: await lastPruned() };
  },
  'storage/usage': async () => {
    const est = await navigator.storage.estimate().catch(() => null);
    return { ...(await runsUsage()), usedBytes: est?.usage ?? null, quotaBytes: est?.quota ?? null };
  },
  'storage/clear': async ({ days, what }) => {
    if (!Number.isFinite(days) || days < 0 || (what !== 'screenshots' && what !== 'runs')) throw new Error('storage/clear: days (0 or more) and what (screenshots or runs)');
    return clearOld(Date.now() - days * 86_400_000, what);
  },
  'run/replay': async ({ runId, approveSteps }) => ({ runId: await startReplay(runId, approveSteps ?? true) }),
  'history/delete': async ({ runId }) => {
    if (await isActive(runId)) throw new Error(personT(await loadSettings())('runStillGoing'));
    await deleteRun(runId);
    return null;
  },
  'history/import': async ({ trace }) => {
    const parsed = parseTrace(trace);
    if (!parsed.ok) throw new Error(traceProblemWords(parsed.problem, personT(await loadSettings())));
    const run = fromTrace(parsed.trace);
    const taken = !!(await loadRun(run.id));
    const state = taken ? { ...run, id: crypto.randomUUID() } : run;
    await saveRun(state);
    // a dialect this version does not have is said, not read as another's (the run keeps its id)
    return { runId: state.id, renamed: taken, unknownDialect: isDialect(run.dialect) ? null : String(run.dialect).slice(0, 60) };
  },
  'marks/label': async ({ tabId }) => {
    await ensureContent(tabId);
    return labelTab(tabId);
  },
  'marks/clear': async ({ tabId }) => {
    await resetTab(tabId);
    return null;
  },
  'files/add': async ({ name, type, lastModified, base64 }) => {
    const bytes = base64Decode(String(base64 ?? ''));
    const runId = await liveRunId();
    const files = await addFile(runId ?? STAGED, { name: String(name || 'file'), type: String(type ?? ''), lastModified: Number(lastModified) || Date.now(), bytes: new Blob([bytes as Uint8Array<ArrayBuffer>]) });
    if (runId) await runFilesChanged(runId, files);
    return { files, runId };
  },
  'files/list': async () => {
    const runId = await liveRunId();
    return { files: await listFiles(runId ?? STAGED), runId };
  },
  'files/remove': async ({ index }) => {
    const runId = await liveRunId();
    const files = await removeFile(runId ?? STAGED, typeof index === 'number' ? index : undefined);
    if (runId) await runFilesChanged(runId, files);
    return { files, runId };
  },
  'run/trace': async ({ runId, excludeScreenshots }) => {
    const s = (await currentRun(runId)) ?? (await loadRun(runId));
    if (!s) throw new Error(personT(await loadSettings())('noRunWithId', runId));
    return toTrace(excludeScreenshots ? s : await withScreenshots(s), await scrubbed(s), { excludeScreenshots });
  },
  'run/trace-part': async ({ runId, from, count, excludeScreenshots }) => {
    const s = (await currentRun(runId)) ?? (await loadRun(runId));
    if (!s) throw new Error(personT(await loadSettings())('noRunWithId', runId));
    const part = { ...s, steps: s.steps.slice(Math.max(0, from), Math.max(0, from) + Math.max(1, count)) };
    const trace = toTrace(excludeScreenshots ? part : await withScreenshots(part), await scrubbed(s), { excludeScreenshots });
    // where the whole run acted, not this part
    return { trace: { ...trace, run: { ...trace.run, sites: runSites(s) } }, stepCount: s.steps.length };
  },
  'demo/start': ({ tabId, task }) => startDemo(tabId, task),
  'demo/state': async ({ tabId }) => demoState(tabId),
  'demo/stop': ({ tabId }) => stopDemo(tabId),
  'docs/list': async ({ origin }) => {
    const site = typeof origin === 'string' ? docOrigin(origin) : null;
    return { origins: await listOrigins(), entries: site ? await listEntries(site) : [] };
  },
  'docs/put': async (req) => editEntry(req, personT(await loadSettings())),
  'docs/delete': async ({ id }) => {
    await deleteEntry(String(id));
    return null;
  },
  'docs/export': async ({ origin }) => {
    const site = docOrigin(String(origin));
    if (!site) throw new Error(personT(await loadSettings())('docBadOrigin'));
    return exportOrigin(site);
  },
  'docs/import': async ({ file, origin, fileName }) => {
    const t = personT(await loadSettings());
    const only = typeof origin === 'string' ? docOrigin(origin) ?? undefined : undefined;
    const read = readDocsFile(file, Date.now(), t, only, typeof fileName === 'string' ? fileName : undefined);
    if (!read.ok) throw new Error(read.error);
    const done = await importEntries(read.entries, t);
    // the store's own refusals are numbered by the entries it was given: give them the file's numbers
    const kept = read.entries.length ? fileNumbers(read.entries.length, read.refused) : [];
    return { ...done, refused: [...read.refused, ...done.refused.map((r) => ({ ...r, entry: kept[r.entry - 1] }))].sort((a, b) => a.entry - b.entry) };
  },
  'docs/page': async ({ tabId }) => {
    await ensureContent(tabId);
    const snap = await labelTab(tabId);
    const origin = docOrigin(snap.url);
    const marks = snap.marks.map(({ label, tag, text }) => ({ label, tag, text }));
    return { origin, marks, docs: origin ? await docsForPage(origin, snap.marks) : [] };
  },
};

/** The file's entry numbers (1-based) of the entries a reader kept, given those it refused. */
function fileNumbers(keptCount: number, refused: Array<{ entry: number }>): number[] {
  const out: number[] = [];
  const gone = new Set(refused.map((r) => r.entry));
  for (let n = 1; out.length < keptCount; n++) if (!gone.has(n)) out.push(n);
  return out;
}

/** Commands that read or steer runs come only from the extension's own pages (side panel, runner page). */
function fromExtensionPage(sender: browser.Runtime.MessageSender): boolean {
  return sender.id === browser.runtime.id && !!sender.url && sender.url.startsWith(browser.runtime.getURL(''));
}

browser.runtime.onMessage.addListener((msg: unknown, sender: browser.Runtime.MessageSender): Promise<Reply<unknown>> | undefined => {
  if (!isEnvelope(msg) || !Object.prototype.hasOwnProperty.call(handlers, msg.type)) return undefined;
  if (!fromExtensionPage(sender)) return Promise.resolve({ ok: false, error: 'Refused: this command is accepted only from the extension\'s own pages.' });
  const handler = handlers[msg.type as ViewName] as (req: unknown) => Promise<unknown>;
  return handler((msg.payload ?? {}) as never).then(
    (value) => ({ ok: true as const, value }),
    (err: unknown) => ({ ok: false as const, error: err instanceof Error ? err.message : String(err) }),
  );
});

// What pages copy, for grammars that quote the clipboard (clipboard.ts).
listenForCopies();
// What the person does while a demonstration is recorded (demo.ts).
listenForDemos();
// The texts of other origins' style sheets, for the labeler (sheets.ts).
listenForSheets();

// A run follows a tab its tab opens, and goes back to the opener when that tab closes (tabs.ts).
chrome.tabs.onCreated.addListener((tab) => tabCreated(tab));
chrome.tabs.onRemoved.addListener((tabId) => tabRemoved(tabId));
chrome.tabs.onUpdated.addListener((tabId, info, tab) => {
  if (!isRunTab(tabId)) return;
  // Without the "tabs" permission Chrome hides the URL of pages we have no host access to
  // (chrome://, the Web Store): a loaded page whose URL we cannot see is one of those.
  const url = info.url ?? tab.url ?? tab.pendingUrl;
  const why = url ? whyNotAllowed(url) : info.status === 'complete' ? UNSEEN_PAGE : null;
  if (why) stopRunsInTab(tabId, { key: 'stoppedBecause', args: [why] });
});
// Wakes a worker that Chrome stopped during a run, so the run goes on (run/resume.ts).
chrome.alarms.onAlarm.addListener((alarm) => { if (alarm.name === ALARM) void resumeAfterRestart(); });
// The side panel keeps a port open and reconnects when the worker goes away: that also wakes it.
chrome.runtime.onConnect.addListener(() => undefined);
chrome.debugger.onDetach.addListener((source, reason) => {
  if (source.tabId !== undefined && reason === 'canceled_by_user') stopRunsInTab(source.tabId, { key: 'debugCancelled' });
});

// The toolbar button opens the side panel.
chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
// So does the keyboard shortcut (manifest "commands", default Ctrl+Shift+Y).
chrome.commands.onCommand.addListener((command, tab) => { void onCommand(command, tab); });

// the version that ran before, learned before anything is opened or migrated (stores.ts)
void updatedFrom();
void resumeAfterRestart();
