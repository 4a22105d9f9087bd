/**
 * The run driver: asks the pure state machine (core/run.ts) what to do next,
 * does it through the adapters, feeds the result back, and saves and
 * broadcasts every transition. The run lives here, in the service worker:
 * closing the side panel does not stop it, and a worker that Chrome stops
 * picks the run up from the database where it was (resumeAfterRestart).
 *
 * The person steers through control(): approve / edit / reject a proposed
 * action, pause, take over, resume, switch step approval; stopRun aborts the
 * model request in flight at once.
 */
import { demoState } from './demo';
import {
  createRun, effectOf, hideRun, modelText, reduce, shotOf, stepsChangedFrom, toRunView, upgradeRun, withoutStepPictures,
  type ActedElement, type ActResult, type AfterAction, type DownloadNote, type Effect, type RunEvent, type RunState, type StepRecord,
} from '../core/run';
import type { RunStream, RunView, StartRun } from '../core/messages';
import { checkSettings, normalizeSettings, parseApps, textModelSettings, type Settings } from '../core/settings';
import { peelReasoning } from '../core/dialects/shared/reply-text';
import type { Usage } from '../core/costs';
import { armClipboard } from './clipboard';
import { learnFromAction, type Explored } from './explore';
import { NEVER_WHILE_EXPLORING } from '../core/run/reduce';
import { docSink } from './doc-store';
import { docOrigin } from '../core/docs/matching';
import { DEFAULT_DIALECT, dialectOf, isDialect } from '../core/dialects/registry';
import { runDevice } from '../core/dialects/device';
import type { LabelStyle } from '../core/marks';
import { imagePartsOf, toMessages, type ChatMessage } from '../core/dialects/request';
import { isParseError, labelOf, pointOf, type Action } from '../core/action/action';
import { replayPlan, type ReplayPlan } from '../core/replay';
import { allowOnSite, guardCheckReached } from '../core/guards';
import { reachedBy } from './gate';
import { fillSecrets, placeholdersIn, secretGuard } from '../core/secrets';
import { UNSEEN_PAGE, whyNotAllowed } from '../core/pages';
import { actInput, settleAfter } from './act';
import { inspectAt } from './act/point';
import { emulatePhone, restoreDevice } from './act/device';
import { canGoBack, syncTabs, type TabbedRun } from './tabs';
import { takeFileNotes } from './act/files';
import { holdWatched, unwatchTab, watchTab } from './watch';
import { actionUnderway, answerDialog, inputOrDialog, takeDialogNotes, type HeldDialog } from './dialogs';
import { blockHeld, releaseHeld, settledOrHeld, takeHeld } from './hold';
import { dialogNote } from '../core/page-dialog';
import { isCardField } from '../core/guard-fields';
import { claimStaged, dropRunFiles } from './file-store';
import type { FileMeta } from '../core/files';
import { imagesFor } from './images';
import * as cdp from './cdp';
import { PageError, sendContent } from './content';
import { resetTab } from './label';
import { askModel, type ModelProgress } from './model';
import { screenPicture } from './image-screen';
import type { ImageScreen } from '../core/image-screen';
import { observeSteady } from './observe';
import { latestRun, latestRunHead, loadRun, loadRunConfig, markEnded, saveRun, saveRunConfig, StorageFullError } from './run-store';
import { loadSettings, saveSettings } from './settings-store';
import { personLocale, personT } from './person';
import { translatorFor } from '../core/locales';
import { awayHost } from '../core/site';
import { dropDownloads, keepDownloads, takeDownloads, undoDownloads } from './downloads';
import { settle } from './settle';

/** A live run: its state, the tabs it watches (tabs.ts), and how the person reaches it. */
interface Active extends TabbedRun {
  settings: Settings;
  /** the model request in flight: Stop and take-over abort it */
  request: AbortController | null;
  /** wakes the driver waiting for the person */
  wake: () => void;
  /** downloads an action began, paused until the person keeps or undoes them (undone if the run ends first) */
  held?: DownloadNote[];
  /** the observed step's history images still to make: started when its request left (startKeeping) */
  keep?: KeepJob | null;
  /** those images being made and stored ('kept'); joined before the action */
  keeping?: Promise<void> | null;
  /** an action's input stuck behind a page dialog held for the person: it ends once the dialog is answered */
  inputLeft?: Promise<unknown>;
  /** the last picture check (option screenImages): the same picture again is not sent (memory only) */
  lastScreen?: ImageScreen | null;
}

interface KeepJob {
  index: number;
  /** the model's screenshot of the step it is for (a step dropped and observed again is another) */
  shot: string;
  /** when the observe's settle wait ended (performance.now()) */
  settledAt: number;
  run: () => Promise<{ labelled: string; clean: string }>;
}
const active = new Map<string, Active>();
/** Keys a run was started with (runner flags may differ from the stored one), kept in memory only, to scrub exports. */
const runKeys = new Map<string, string>();
const textKeys = new Map<string, string>();
const ALARM = 'webagent-resume';
const KEEPALIVE_MS = 20_000;

export function secretsOf(runId: string): string[] {
  return [runKeys.get(runId), textKeys.get(runId)].filter((k): k is string => !!k);
}

/** per run, the steps of its last broadcast: the next one carries only the steps changed since */
const sentSteps = new Map<string, readonly StepRecord[]>();
let lastRev = 0;
/** Orders the views this worker makes; after a restart it goes on from the clock, past the old worker's. */
function nextRev(): number {
  lastRev = Math.max(Date.now(), lastRev + 1);
  return lastRev;
}

/** The whole view of a run, for a reply (run/get, a person's control). */
export function viewOf(state: RunState): RunView {
  return toRunView(state, { rev: nextRev() });
}

/** A transition, to every view: the run without the steps they already have (view.ts mergeView). */
export function broadcast(state: RunState): void {
  const stepsFrom = stepsChangedFrom(sentSteps.get(state.id), state.steps);
  if (state.status === 'running') sentSteps.set(state.id, state.steps);
  else sentSteps.delete(state.id);
  chrome.runtime.sendMessage({ event: 'run/update', run: toRunView(state, { rev: nextRev(), stepsFrom }) }).catch(() => undefined);
}

/**
 * The step's history images (the clean view, the labelled one as kept) and the store write of the
 * observed step, once: started when the model request left (or, without one, when the run needs
 * them), while the model thinks. Resolves when they are committed. A job whose step was dropped
 * (a tab change, a take-over, a stop) is dropped too: its clean view would hide and redraw an
 * overlay that is no longer the run's.
 */
function startKeeping(a: Active, sent?: { encodeMs: number; requestMs: number }): Promise<void> {
  const job = a.keep;
  if (job) {
    a.keep = null;
    if (a.state.status === 'running' && a.state.pending?.index === job.index && a.state.pending.screenshot === job.shot) {
      a.keeping = job.run()
        .catch(() => ({ labelled: '', clean: '' }))
        .then((kept) => commit(a, { type: 'kept', at: Date.now(), index: job.index, kept, ...(sent ? { sent } : {}) }));
    }
  }
  return a.keeping ?? Promise.resolve();
}

async function commit(a: Active, ev: RunEvent): Promise<void> {
  const before = a.state;
  a.state = reduce(a.state, ev);
  if (a.state === before) return;
  try {
    await saveRun(a.state);
    // The store has the finished steps' pictures now: memory lets them go (read back when needed).
    a.state = withoutStepPictures(a.state);
  } catch (err) {
    if (!(err instanceof StorageFullError)) throw err;
    // Nothing of the step that did not fit was written; the run ends there, and says why.
    a.state = reduce(a.state, { type: 'fail', at: Date.now(), reason: err.message, cause: 'storage' });
    a.request?.abort();
    await markEnded(a.state).catch(() => undefined);
  }
  broadcast(a.state);
}

/**
 * A transition kept in memory only, for the observed step on its way to the model: the request
 * does not wait for the store. A worker stopped before the step is stored ('kept') observes again.
 */
function advance(a: Active, ev: RunEvent): void {
  const before = a.state;
  a.state = reduce(a.state, ev);
  if (a.state === before) a.keep = null;
}

/** The step's picture check when the person opted in (null: off, or no screenshot to check). */
async function screenStep(a: Active, signal: AbortSignal): Promise<ImageScreen | null> {
  const shot = a.state.pending?.screenshot;
  if (!a.settings.screenImages || !shot) return null;
  const screen = await screenPicture(a.settings, shot, a.lastScreen ?? null, signal);
  a.lastScreen = screen;
  return screen;
}

/** DevTools errors that say the page's document or frame went away under the call (it reloaded or navigated). */
const PAGE_GONE = /Not attached to an active page|Cannot find context with specified id|Execution context was destroyed|Inspected target navigated or closed|No frame with given id|Frame with the given id was not found|Cannot find default execution context/i;
/** observations retried in a row when the page went away under them */
const GONE_RETRIES = 5;

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Replays a recorded run (local or imported) in a new tab at its start URL: the recorded actions
 * stand in for the model (core/replay.ts); by default every step waits for approval.
 */
export async function startReplay(runId: string, approveSteps = true): Promise<string> {
  const rec = await loadRun(runId);
  if (!rec) throw new Error(personT(await loadSettings())('noRunWithId', runId));
  const dialect = isDialect(rec.dialect) ? rec.dialect : DEFAULT_DIALECT;
  const plan = replayPlan(rec.id, rec.steps, dialect);
  if (!plan.steps.length) throw new Error(personT(await loadSettings())('noReplayActions'));
  // The recorded run's dialect: the same observation (labels or not, phone or desktop) and grammar.
  return startRun({
    task: `Replay: ${rec.task}`, url: rec.startUrl,
    config: { approveSteps, dialect, model: 'replay', maxSteps: Math.min(200, plan.steps.length + 5) },
  }, plan);
}

export async function startRun(req: StartRun, replay?: ReplayPlan): Promise<string> {
  await ready;
  const task = req.task?.trim();
  const settings = normalizeSettings({ ...(await loadSettings()), ...(req.config ?? {}) });
  const t = personT(settings);
  if (!task) throw new Error(t('typeTaskFirst'));
  const problems = Object.values(checkSettings(settings, t));
  if (problems.length) throw new Error(problems.join(' '));
  if (!isDialect(settings.dialect)) throw new Error(t('setDialect', settings.dialect));
  for (const a of active.values()) {
    if (a.state.tabId === req.tabId) throw new Error(t('runInTab'));
  }
  // a demonstration being recorded in the tab is the person's own actions: a run would mix in
  if (req.tabId !== undefined && demoState(req.tabId).recording) throw new Error(t('demoRecordingInTab'));
  let tab: chrome.tabs.Tab | undefined;
  if (req.tabId !== undefined) {
    tab = await chrome.tabs.get(req.tabId);
    if (req.url) tab = await chrome.tabs.update(req.tabId, { url: req.url });
  } else if (req.url) {
    tab = await chrome.tabs.create({ url: req.url, active: true });
  } else {
    throw new Error(t('noTab'));
  }
  if (tab?.id === undefined) throw new Error(t('tabGone'));
  const startUrl = req.url ?? tab.pendingUrl ?? tab.url ?? '';
  const why = whyNotAllowed(startUrl);
  if (why) throw new Error(t('webPagesOnly', why));
  const id = crypto.randomUUID();
  // The files attached in the panel (or by the runner) are this run's from now on.
  const files = await claimStaged(id);
  const state = createRun({
    id, task, files, startUrl, tabId: tab.id, dialect: settings.dialect,
    model: settings.model, baseUrl: settings.baseUrl, maxSteps: settings.maxSteps, at: Date.now(),
    approveSteps: settings.approveSteps, guards: settings.guards, searchStartPage: settings.searchStartPage, replay,
    apps: parseApps(settings.apps),
    limits: { maxTokens: settings.maxRunTokens, maxCost: settings.maxRunCost, price: settings.prices[settings.model] ?? null, currency: settings.currency },
    locale: personLocale(settings), secrets: settings.secrets, bbox: settings.bbox, device: settings.appagentDevice,
    dialectOptions: settings.dialectOptions[settings.dialect],
    ...(req.explore && !replay ? { explore: true } : {}),
  });
  await saveRunConfig(state.id, req.config ?? {});
  await saveRun(state);
  broadcast(state);
  if (settings.apiKey) runKeys.set(state.id, settings.apiKey);
  if (settings.textApiKey) textKeys.set(state.id, settings.textApiKey);
  void drive(newActive(state, settings));
  return state.id;
}

function newActive(state: RunState, settings: Settings): Active {
  return { state, settings, request: null, wake: () => undefined, opened: [], tabs: new Set([state.tabId, ...(state.tabStack ?? [])]), cards: [] };
}

function find(runId: string | undefined): Active | undefined {
  return runId ? active.get(runId) : [...active.values()][0];
}

/** A reason for the person as a message key and its arguments, said in the run's language. */
export interface PersonReason { key: string; args?: (string | number)[] }

function reasonText(state: RunState, reason: string | PersonReason): string {
  return typeof reason === 'string' ? reason : translatorFor(state.locale)(reason.key, ...(reason.args ?? []));
}

/** Stops a run; `reason` is a person's text or a message key of person text (public/_locales), said in the run's language. */
export async function stopRun(runId: string | undefined, reason: string | PersonReason = { key: 'stoppedByUser' }): Promise<boolean> {
  await ready;
  const a = find(runId);
  if (!a) return false;
  await commit(a, { type: 'stop', at: Date.now(), reason: reasonText(a.state, reason) });
  a.request?.abort();
  a.wake();
  return true;
}

export async function currentRun(runId?: string): Promise<RunState | undefined> {
  if (runId) return active.get(runId)?.state ?? (await loadRun(runId));
  const live = [...active.values()][0];
  return live?.state ?? (await latestRun());
}

export type Control =
  | { kind: 'approve'; edit?: string; alwaysAllow?: boolean }
  | { kind: 'reject'; feedback?: string }
  | { kind: 'pause' } | { kind: 'takeover' } | { kind: 'resume' }
  | { kind: 'mode'; approveSteps: boolean };

/** The tab's URL, or the one it is loading ('' when it has none yet). */
async function tabUrl(tabId: number): Promise<string> {
  const t = await chrome.tabs.get(tabId).catch(() => null);
  return t?.url || t?.pendingUrl || '';
}

/** The person steers the live run. Throws a message for the panel when the command does not apply. */
export async function control(runId: string | undefined, c: Control): Promise<RunView> {
  await ready;
  const a = find(runId);
  if (!a) throw new Error(personT(await loadSettings())('noRunGoing'));
  const s = a.state;
  const t = translatorFor(s.locale);
  const at = Date.now();
  switch (c.kind) {
    case 'approve': {
      if (s.phase !== 'approve' || !s.pending?.reply) throw new Error(t('noActionWaiting'));
      let edit: Action | undefined;
      let target: ActedElement | null = null;
      if (c.edit?.trim()) {
        if (s.pending.after) throw new Error(t('editAfterRan'));
        const parsed = dialectOf(s.dialect).parseAction(c.edit, shotOf(s.pending), s);
        if (!parsed.ok) throw new Error(t('editUnreadable', parsed.error));
        edit = parsed.action;
        const label = labelOf(edit);
        const n = s.pending.elements.length;
        if (label !== null && !s.pending.elements.some((m) => m.label === label)) {
          throw new Error(n ? t('noSuchLabel', label, n - 1) : t('noLabelsHere', label));
        }
        target = await probe(s, edit);
      }
      const rule = s.pending.approval?.rule;
      if (c.alwaysAllow && rule) {
        const saved = await loadSettings();
        await saveSettings({ guards: allowOnSite(saved.guards, s.site, rule) });
      }
      await commit(a, { type: 'approve', at, edit, allowRule: !!c.alwaysAllow, target });
      break;
    }
    case 'reject':
      if (s.phase !== 'approve') throw new Error(t('noActionWaiting'));
      await commit(a, { type: 'reject', at, feedback: c.feedback?.trim() || null });
      break;
    case 'pause':
      await commit(a, { type: 'pause', at, url: await tabUrl(s.tabId) });
      break;
    case 'takeover':
      await commit(a, { type: 'takeover', at, url: await tabUrl(s.tabId) });
      a.request?.abort();
      // A clean capture in flight restores our overlay: the person gets the page after it.
      await a.keeping?.catch(() => undefined);
      await resetTab(s.tabId);
      break;
    case 'resume':
      if (!s.paused) throw new Error(t('notPaused'));
      await commit(a, { type: 'resume', at, url: await tabUrl(s.tabId) });
      break;
    case 'mode':
      await commit(a, { type: 'mode', at, approveSteps: c.approveSteps });
      break;
  }
  a.wake();
  return viewOf(a.state);
}

const STREAM_EVERY_MS = 100;

/** The reply as it streams in, and retry notes, to the views (at most every 100 ms, and the last). */
function streamTo(a: Active, index: number): ModelProgress {
  const runId = a.state.id;
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let latest: RunStream | null = null;
  const flush = () => {
    timer = null;
    last = Date.now();
    if (latest) chrome.runtime.sendMessage(latest).catch(() => undefined);
  };
  return {
    onDelta: (content, reasoning) => {
      // The run's secrets hidden as in the recorded reply (a password the model repeats, say).
      latest = { event: 'run/stream', runId, index, content: hideRun(a.state, content), reasoning: hideRun(a.state, reasoning), note: null };
      if (timer) return;
      timer = setTimeout(flush, Math.max(0, STREAM_EVERY_MS - (Date.now() - last)));
    },
    onRetry: (note) => {
      chrome.runtime.sendMessage({ event: 'run/stream', runId, index, content: '', reasoning: '', note } satisfies RunStream).catch(() => undefined);
    },
  };
}

/**
 * Shows the target of an action waiting for approval on the live page: a label's box and label,
 * or a crosshair at the point with the box of the element under it.
 */
async function highlight(tabId: number, eff: Extract<Effect, { kind: 'check' }>, style?: LabelStyle): Promise<void> {
  // drawn as the model saw it (appagent: the tag N + 1 at the centre), so it matches the card
  await sendContent(tabId, 'marks/overlay', { marks: eff.mark ? [eff.mark] : [], style }).catch(() => undefined);
  const point = pointOf(eff.action);
  if (point) await sendContent(tabId, 'point/mark', { point, box: eff.target?.rect ?? null }).catch(() => undefined);
}

/**
 * What an action that is not on a label will act on: the element under its point (a hit test in
 * its own frame), or the focused field for typing into no particular element. Looked up before
 * the action is recorded, so guards, masking and the approval card know it.
 */
async function probe(state: RunState, action: Action): Promise<ActedElement | null> {
  const tabId = state.tabId;
  const point = pointOf(action);
  if (point) {
    const hit = await inspectAt(tabId, point, state.pending?.frameOffsets).catch(() => null);
    return hit ? {
      tag: hit.tag, text: hit.text, rect: hit.rect, inputType: hit.inputType, frameId: hit.frameId, fingerprint: hit.fingerprint, href: hit.href, download: hit.download,
      ...(hit.formAction ? { formAction: hit.formAction } : {}), ...(hit.navigatesTo ? { navigatesTo: hit.navigatesTo } : {}),
    } : null;
  }
  if ((action.type === 'type' && action.target.kind === 'none') || action.type === 'key') {
    const f = await sendContent(tabId, 'point/focused', {}).catch(() => null);
    return f ? { tag: f.tag, text: f.text, inputType: f.inputType, rect: { x: 0, y: 0, width: 0, height: 0 }, ...(f.formAction ? { formAction: f.formAction } : {}) } : null;
  }
  return null;
}

async function perform(a: Active, eff: Effect): Promise<RunEvent | null> {
  const tabId = a.state.tabId;
  switch (eff.kind) {
    case 'observe': {
      const t = await chrome.tabs.get(tabId).catch(() => null);
      if (!t) throw new PageError('The run\'s tab was closed.');
      const url = t.url || t.pendingUrl;
      const why = url ? whyNotAllowed(url) : t.status === 'complete' ? UNSEEN_PAGE : null;
      if (why) throw new PageError(`The run stopped because ${why}.`);
      const started = Date.now();
      const { observes } = dialectOf(a.state.dialect);
      const o = await observeSteady(tabId, observes);
      a.keep = { index: a.state.steps.length, shot: o.obs.screenshot.dataUrl, settledAt: o.settledAt, run: o.keep };
      return { type: 'observed', at: Date.now(), obs: o.obs, ms: Date.now() - started };
    }
    case 'ask': {
      const request = new AbortController();
      a.request = request;
      try {
        const index = a.state.pending?.index ?? a.state.steps.length;
        const t = performance.now();
        const messages = toMessages(eff.request, await imagesFor(a.state, imagePartsOf(eff.request)));
        const encodeMs = Math.round(performance.now() - t);
        const settledAt = a.keep?.settledAt;
        // The history's images and the store write start once the request has left (not before it).
        const onSent = () => void startKeeping(a, settledAt === undefined ? undefined : { encodeMs, requestMs: Math.round(performance.now() - settledAt) });
        // The opt-in picture check (image-screen.ts), beside the request: it never throws.
        const screening = screenStep(a, request.signal);
        const r = await askModel(a.settings, messages, request.signal, { ...streamTo(a, index), onSent });
        // Made while the model thought: joined before anything else touches the page or the step.
        await startKeeping(a);
        const screen = await screening;
        // Aborted by Stop or a take-over: that already changed the state; the reply is not used.
        if (request.signal.aborted) return null;
        if (!r.ok) return { type: 'fail', at: Date.now(), reason: r.error, cause: 'endpoint' };
        // What an action at a point (or into the focused field) would act on, before the reply is recorded.
        const p = a.state.pending;
        const parsed = p ? dialectOf(a.state.dialect).parseReply(r.content, r.reasoning, shotOf(p), a.state) : null;
        const target = parsed && !isParseError(parsed) ? await probe(a.state, parsed.action) : null;
        return { type: 'replied', at: Date.now(), raw: r.content, reasoning: r.reasoning, usage: r.usage, ms: r.ms, firstTokenMs: r.firstTokenMs, truncated: r.truncated, target, ...(screen ? { screen } : {}) };
      } finally {
        if (a.request === request) a.request = null;
      }
    }
    case 'replay': {
      const r = eff.next;
      if (!r.ok) return { type: 'stop', at: Date.now(), reason: r.reason };
      return { type: 'replayed', at: Date.now(), action: r.action, memory: r.memory, from: r.from, target: await probe(a.state, r.action) };
    }
    case 'check': {
      // Every element the input would reach (the target, the focused element, a drag's release point), judged as what it activates.
      const reached = await reachedBy(tabId, eff.action, eff.mark, a.state.pending?.frameOffsets);
      // A card number typed into a card field: requests that carry it wait for the person (watch.ts).
      const typed = eff.action.type === 'type' ? eff.action.text.trim() : '';
      const into = reached.find((r) => r.how === 'type')?.target;
      if (typed && into && isCardField(into.field ?? { tag: into.tag, type: into.inputType }, into.field?.label ?? into.text) && !a.cards.includes(typed)) a.cards.push(typed);
      // exploring: the rules for paying, deleting and sending apply whatever the settings say (refused in reduce.ts)
      const guards = a.state.explore
        ? { ...a.state.guards, rules: a.state.guards.rules.map((r) => (NEVER_WHILE_EXPLORING.includes(r.id) ? { ...r, on: true } : r)), allow: {} }
        : a.state.guards;
      const byRules = () => guardCheckReached(eff.action, reached, { site: a.state.site, searchStartPage: a.state.searchStartPage, apps: a.state.apps, t: translatorFor(a.state.locale) }, guards);
      const bySecrets = () => secretGuard(eff.action, a.state.site, a.state.guards, translatorFor(a.state.locale), a.state.vault?.typed);
      // A placeholder's reason names the secret; otherwise the rules' own reason comes first (a
      // password field says so, rather than "a password typed before": this action put it there).
      const hit = placeholdersIn(eff.action).length ? bySecrets() ?? byRules() : byRules() ?? bySecrets();
      if (hit || a.state.approveSteps) await highlight(tabId, eff, dialectOf(a.state.dialect).observes.labelStyle);
      return { type: 'checked', at: Date.now(), hit };
    }
    case 'act': {
      const p = a.state.pending!;
      let started = p.actStartedAt;
      let heldDialog: HeldDialog | null = null;
      const tabs = () => [...new Set([tabId, a.state.tabId, ...a.tabs])];
      actionUnderway(tabs(), true);
      await holdWatched(tabs(), a);
      try {
        if (started === undefined) {
          started = Date.now();
          await commit(a, { type: 'acting', at: started });
          let result: ActResult;
          // The person's secrets are filled in only now, as the text is typed (core/secrets.ts).
          const kept = a.state.vault?.kept ?? [];
          const filled = fillSecrets(eff.action, kept, a.state.vault?.typed);
          // a grammar that can quote the clipboard: what the page copies from now on is recorded
          if (dialectOf(a.state.dialect).observes.clipboard) await armClipboard(tabId);
          try {
            if (filled.missing.length) result = { ok: false, error: modelText.noSuchSecret(filled.missing, kept.map((s) => s.name)) };
            else {
              // A page dialog a guard cares about stops the action where it is and waits for the person (dialogs.ts).
              const r = await inputOrDialog(tabId, actInput(tabId, filled.action, {
                mark: eff.mark, frameOffsets: eff.frameOffsets, searchStartPage: a.state.searchStartPage, startUrl: a.state.startUrl, apps: a.state.apps ?? [],
                ask: (prompt) => askText(a, prompt), tabIds: [tabId, ...[...(a.state.tabStack ?? [])].reverse()],
              }));
              if ('held' in r) {
                heldDialog = r.held;
                a.inputLeft = r.input.catch(() => undefined);
                result = { ok: true };
              } else result = r.done;
            }
          } catch (err) {
            // The page changed or closed under the action: tell the model. A tab the action closed
            // (a popup's "Close") sends the run back to its opener, when there is one.
            if (!(await chrome.tabs.get(tabId).catch(() => null))) {
              if (!a.state.tabStack?.length) throw new PageError('The run\'s tab was closed.');
              result = { ok: true as const };
            } else {
              result = { ok: false as const, error: `The action could not be completed: ${messageOf(err)}` };
            }
          }
          await commit(a, { type: 'input', at: Date.now(), result: hideRun(a.state, result) });
        }
        // After a restart with the input started but not recorded, nobody knows whether it happened.
        const result = a.state.pending?.inputResult ?? { ok: false as const, error: modelText.inputUnknown };
        if (heldDialog) {
          // The page waits on its dialog: nothing settles until the person answers (the 'after' effect).
          const landed = { url: await tabUrl(a.state.tabId), downloads: await takeDownloads(tabs()), dialog: heldDialog, requests: takeHeld(tabs()) };
          a.held = landed.downloads;
          return { type: 'acted', at: Date.now(), result, ms: Date.now() - started, landed };
        }
        // A page waiting on a request the hold keeps does not settle: the question comes first.
        await settledOrHeld(tabs(), settleAfter(tabId, eff.action));
        // the model asked for a pause after its action (capped by the run: effects.ts)
        if (eff.sleepMs) await pause(eff.sleepMs);
        // Exploring: the action judged from the screenshots before and after it, its element documented (explore.ts)
        const learnt = a.state.explore && result.ok ? await learnFrom(a, tabId, eff.action) : null;

        // What file choosers the action opened got (act/files.ts) and the page's dialogs answered (dialogs.ts), for the model.
        const dialogs = takeDialogNotes(tabs());
        const notes = [...await takeFileNotes(tabId), ...dialogs.notes];
        // A tab the action opened or closed: this step records the change.
        await syncTabs(a, (ev) => commit(a, ev));
        // Where the action took the tab and what it downloaded: the guards look at it (guard-after.ts).
        const downloads = await takeDownloads(tabs());
        a.held = downloads;
        // Requests the page sent that carry a secret or a card number: held for the person (hold.ts).
        const requests = takeHeld(tabs());
        const landed = { url: await tabUrl(a.state.tabId), downloads, ...(requests.length ? { requests } : {}) };
        const learned = learnt && result.ok ? { ...result, learned: learnt.learned, usage: learnt.usage, note: result.note ? `${result.note} ${learnt.note}` : learnt.note } : result;
        // A dialog answered Cancel cut the action short: not a success.
        const outcome = dialogs.cut && learned.ok ? { ok: false as const, error: modelText.cutByDialog } : learned;
        return { type: 'acted', at: Date.now(), result: withNotes(outcome, notes), ms: Date.now() - started, landed };
      } finally {
        actionUnderway(tabs(), false);
      }
    }
    case 'after': {
      const outcome = await resolveAfter(a, eff.after, eff.before);
      a.held = [];
      return { type: 'resolved', at: Date.now(), outcome };
    }
    case 'wait':
    case 'none':
      return null;
  }
}

const BACK_SETTLE_MS = 8_000;
/** How long an action's input may take to end once the dialog it was stuck behind is answered. */
const INPUT_AFTER_DIALOG_MS = 10_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Exploring (background/explore.ts): the step's own screenshot is the "before" picture; the
 * site's documentation store gets what was learned (masked for the passwords this run typed,
 * screened for page instructions). Stopped with the run.
 */
async function learnFrom(a: Active, tabId: number, action: Action): Promise<Explored | null> {
  const p = a.state.pending;
  const origin = p ? docOrigin(p.url) : null;
  if (!p?.reply || !origin) return null;
  const request = new AbortController();
  a.request = request;
  try {
    const memory = p.reply.memory;
    return await learnFromAction({
      tabId, settings: a.settings, signal: request.signal, task: a.state.task, summary: typeof memory === 'string' ? memory : p.reply.thought,
      action, fingerprint: p.target?.fingerprint, before: p.screenshot, origin, style: dialectOf(a.state.dialect).observes.labelStyle ?? 'corner',
      store: docSink('explore', () => a.state.vault?.typed ?? []),
    });
  } catch (err) {
    return { learned: { decision: 'CONTINUE', thought: '', doc: null, refused: messageOf(err) }, note: `The action could not be judged: ${messageOf(err)}`, usage: null };
  } finally {
    if (a.request === request) a.request = null;
  }
}

/**
 * The llm action: one text-only request to the text model (Settings: empty fields use the run's
 * endpoint), stopped with the run. Its tokens are added to the step's (the run's totals and caps count them).
 */
async function askText(a: Active, prompt: string): Promise<{ ok: true; text: string; usage: Usage | null } | { ok: false; error: string }> {
  const request = new AbortController();
  a.request = request;
  try {
    const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: prompt }] }];
    const r = await askModel(textModelSettings(a.settings), messages, request.signal);
    if (!r.ok) return { ok: false, error: r.error };
    const { body } = peelReasoning(r.content, r.reasoning);
    return { ok: true, text: body.trim(), usage: r.usage };
  } finally {
    if (a.request === request) a.request = null;
  }
}

/**
 * Keeps what an action did (downloads resumed) or undoes it (downloads cancelled and erased; the
 * tab back when it is still on the other site), as the person decided; what happened, for the model.
 */
async function resolveAfter(a: Active, after: AfterAction, before: string): Promise<string> {
  const keep = after.decision !== 'rejected';
  const said: string[] = [];
  // Only the person's yes sends a held request or answers OK; a take-over blocks the requests and
  // leaves the dialog to the person, who now has the page.
  const yes = after.decision === 'approved';
  if (after.dialog && after.decision !== 'takeover') {
    // OK or Cancel, as the person said; then the action's input ends and the page settles.
    await answerDialog(a.state.tabId, yes);
    await Promise.race([a.inputLeft, pause(INPUT_AFTER_DIALOG_MS)]);
    a.inputLeft = undefined;
    await settle(a.state.tabId, BACK_SETTLE_MS);
    said.push(dialogNote(after.dialog, yes, 'user'));
  }
  if (after.requests?.length) {
    if (yes) await releaseHeld(after.requests);
    else await blockHeld(after.requests);
    said.push(yes ? modelText.requestsSent(after.requests.map((r) => r.what)) : modelText.requestsBlocked(after.requests.map((r) => r.what)));
  }
  if (after.downloads.length) {
    const names = after.downloads.map((d) => d.filename);
    if (keep) await keepDownloads(after.downloads);
    else await undoDownloads(after.downloads);
    said.push(keep ? modelText.downloadKept(names) : modelText.downloadUndone(names));
  }
  if (after.rule === 'leave-site') {
    if (keep) said.push(modelText.leftSiteKept(after.url));
    else {
      const tabId = a.state.tabId;
      // Not again after a restart that already went back.
      if (awayHost(before, await tabUrl(tabId), a.state.apps)) {
        await chrome.tabs.goBack(tabId).catch(() => undefined);
        await settle(tabId, BACK_SETTLE_MS);
      }
      const now = await tabUrl(tabId);
      // A tab this action opened has nowhere to go back to: it is closed, and the run goes back to its opener (syncTabs).
      const opened = !!a.state.tabStack?.length && (a.state.tabChanges ?? []).some((c) => c.change === 'opened');
      if (awayHost(before, now, a.state.apps) && opened && (await chrome.tabs.remove(tabId).then(() => true, () => false))) {
        said.push(modelText.leftSiteClosed(after.url));
        // This step records the way back too.
        await syncTabs(a, (ev) => commit(a, ev));
      } else said.push(awayHost(before, now, a.state.apps) ? modelText.leftSiteStuck(after.url) : modelText.leftSiteUndone(after.url, now));
    }
  }
  return said.join(' ');
}

/** An action's outcome with more for the model to read (file choosers). */
function withNotes(r: ActResult, notes: string[]): ActResult {
  if (!notes.length) return r;
  const more = notes.join(' ');
  if (r.ok) return { ok: true, note: r.note ? `${r.note} ${more}` : more };
  return { ok: false, error: `${r.error} ${more}` };
}

/** Resolves when the person acts on the run (control, stop). */
function changed(a: Active): Promise<void> {
  return new Promise((resolve) => { a.wake = resolve; });
}

async function drive(a: Active): Promise<void> {
  active.set(a.state.id, a);
  // A run picked up after a restart whose tab closed meanwhile goes back to its opener first.
  if (await canGoBack(a.state)) await syncTabs(a, (ev) => commit(a, ev)).catch(() => undefined);
  const tabId = a.state.tabId;
  // Extension API calls keep the worker alive during long model replies and approvals; the alarm
  // wakes a worker Chrome stopped anyway, so the run resumes (resumeAfterRestart).
  const keepAlive = setInterval(() => { void chrome.runtime.getPlatformInfo().catch(() => undefined); }, KEEPALIVE_MS);
  void chrome.alarms.create(ALARM, { periodInMinutes: 0.5 });
  const phone = runDevice(a.state) === 'phone';
  try {
    await cdp.attach(tabId);
    // A phone dialect's tab is a phone for the run only (restored below).
    if (phone) {
      await emulatePhone(tabId);
      // The page was loaded as a desktop page: load it again so the site sees the phone (its
      // user agent and width) from the first step. A restarted worker finds the tab already a phone.
      if (!a.state.steps.length && !a.state.pending) await cdp.send(tabId, 'Page.reload', {}).catch(() => undefined);
    }
    // File choosers, the page's dialogs and its requests are watched for the run (watch.ts).
    await watchTab(tabId, a);
    let goneInARow = 0;
    while (a.state.status === 'running') {
      await syncTabs(a, (ev) => commit(a, ev));
      if (a.state.status !== 'running') break;
      const eff = effectOf(a.state);
      // Any effect but the request waits for the observed step's images (a replay, a pause, a dropped step).
      if (eff.kind !== 'ask') await startKeeping(a);
      if (eff.kind === 'wait') {
        await changed(a);
        continue;
      }
      let ev: RunEvent | null;
      try {
        ev = await perform(a, eff);
      } catch (err) {
        // The page reloaded or navigated under a DevTools call (its document or frame is gone): an
        // observation is taken again (a page that never holds still is stopped by observeSteady, or
        // here after a few tries); an action under way is not run again: the run stops and says why.
        const gone = !(err instanceof PageError) && PAGE_GONE.test(messageOf(err));
        goneInARow = gone ? goneInARow + 1 : 0;
        if (gone && eff.kind === 'observe' && goneInARow < GONE_RETRIES) continue;
        const reason = err instanceof PageError ? (err.person ? reasonText(a.state, err.person) : err.message)
          : gone ? reasonText(a.state, { key: 'stopPageGone' }) : `Unexpected error: ${messageOf(err)}`;
        ev = { type: err instanceof PageError || gone ? 'stop' : 'fail', at: Date.now(), reason };
        // The run's tab closed under the step: back to its opener at the top of the loop.
        if (await canGoBack(a.state)) ev = null;
      }
      if (ev) goneInARow = 0;
      // The observed step goes to the model at once; it is stored with its images ('kept', startKeeping).
      if (ev?.type === 'observed') advance(a, ev);
      else if (ev) await commit(a, ev);
    }
  } catch (err) {
    await commit(a, { type: 'fail', at: Date.now(), reason: `Could not control the tab: ${messageOf(err)}`, cause: 'tab' });
  } finally {
    clearInterval(keepAlive);
    // A clean capture in flight restores our overlay: let it end before the tabs are reset.
    await a.keeping?.catch(() => undefined);
    active.delete(a.state.id);
    if (!active.size) void chrome.alarms.clear(ALARM);
    await dropRunFiles(a.state.id).catch(() => undefined);
    // Downloads nobody said yes to (the run stopped while asking, or before it could ask) are undone.
    await undoDownloads(a.held ?? []).catch(() => undefined);
    await dropDownloads([...new Set([tabId, a.state.tabId, ...a.tabs])]).catch(() => undefined);
    for (const t of new Set([tabId, a.state.tabId, ...a.tabs])) {
      if (!(await chrome.tabs.get(t).catch(() => null))) continue;
      await unwatchTab(t);
      await resetTab(t);
      if (phone) await restoreDevice(t).catch(() => undefined);
      await cdp.detach(t);
    }
  }
}

/** The run going on in this worker, if any (files attached now are its). */
export async function liveRunId(): Promise<string | null> {
  await ready;
  return find(undefined)?.state.id ?? null;
}

/** The person attached or removed files of the live run: its state says so (trace run.files). */
export async function runFilesChanged(runId: string, files: FileMeta[]): Promise<void> {
  const a = active.get(runId);
  if (a) await commit(a, { type: 'files', at: Date.now(), files });
}

/** The run is going on in this worker. */
export async function isActive(runId: string): Promise<boolean> {
  await ready;
  return active.has(runId);
}

export function isRunTab(tabId: number): boolean {
  return [...active.values()].some((a) => a.state.tabId === tabId);
}

/** A new tab: when a run's tab opened it, the run follows it (syncTabs). */
export function tabCreated(tab: chrome.tabs.Tab): void {
  if (tab.id === undefined || tab.openerTabId === undefined) return;
  for (const a of active.values()) {
    // Its current tab, or a tab it is about to follow; not a tab it left behind (on the stack).
    const opener = tab.openerTabId;
    if (a.state.tabId !== opener && (!a.tabs.has(opener) || a.state.tabStack?.includes(opener))) continue;
    a.opened.push({ tabId: tab.id, opener });
    a.wake();
  }
}

/** A closed tab: a run in it goes back to the tab that opened it (syncTabs), or stops. */
export function tabRemoved(tabId: number): void {
  for (const a of active.values()) {
    a.opened = a.opened.filter((o) => o.tabId !== tabId);
    if (a.state.tabId !== tabId) continue;
    if (!a.state.tabStack?.length) {
      void stopRun(a.state.id, { key: 'tabClosed' });
      continue;
    }
    // A reply about the closed tab's page is of no use: ask again in the tab the run goes back to.
    a.request?.abort();
    a.wake();
  }
}

/** The run's tab went away, or moved where the agent may not act: stop with that reason. */
export function stopRunsInTab(tabId: number, reason: PersonReason): void {
  for (const a of active.values()) if (a.state.tabId === tabId) void stopRun(a.state.id, reason);
}

/**
 * A worker that Chrome stopped comes back without its runs in memory. Pick the latest run up
 * where the database says it was: observing or asking the model (asked again), waiting for the
 * person (waits again), paused, or acting (the input is not repeated: see perform 'act').
 */
async function resumeLatest(): Promise<void> {
  // Called on every resume alarm (each 30 s of a run): look at the run's record before its steps.
  const head = await latestRunHead();
  if (!head || head.status !== 'running' || active.has(head.id)) return;
  const saved = await loadRun(head.id);
  if (!saved) return;
  const last = upgradeRun(saved);
  const config = await loadRunConfig(last.id);
  const settings = normalizeSettings({
    ...(await loadSettings()), baseUrl: last.baseUrl, model: last.model, dialect: last.dialect, maxSteps: last.maxSteps, ...config,
  });
  if (settings.apiKey) runKeys.set(last.id, settings.apiKey);
  const a = newActive(last, settings);
  if (!config) {
    // Tab ids start over after a browser restart: never carry on in whatever tab has the old id.
    await commit(a, { type: 'stop', at: Date.now(), reason: reasonText(a.state, { key: 'restarted' }) });
    await dropRunFiles(last.id).catch(() => undefined);
    return;
  }
  // A closed tab with an opener still open: the run goes back there (drive).
  const tab = await chrome.tabs.get(last.tabId).catch(() => null);
  if (!tab && !last.tabStack?.length) {
    await commit(a, { type: 'stop', at: Date.now(), reason: reasonText(a.state, { key: 'tabClosed' }) });
    await dropRunFiles(last.id).catch(() => undefined);
    return;
  }
  void drive(a);
}

let ready: Promise<void> = Promise.resolve();

/** Called when the worker starts and on the resume alarm; commands wait for it. */
export function resumeAfterRestart(): Promise<void> {
  ready = ready.then(resumeLatest).catch(() => undefined);
  return ready;
}
