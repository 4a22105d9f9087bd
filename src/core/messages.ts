/**
 * The one typed message map between the extension's contexts.
 * Requests are `{ type, payload }`; replies are `{ ok: true, value } | { ok: false, error }`.
 *
 * - ViewMessages: side panel / headless runner -> background. Accepted only from
 *   the extension's own pages (checked by the receiver).
 * - ContentMessages: background -> content script (top frame).
 * - Broadcasts: background -> views, `{ event: 'run/update', run }` after every transition, and
 *   `{ event: 'run/stream', … }` while a reply streams in.
 */
import type { StoreProblem } from './stores/versions';
import type { Pruned } from './stores/prune';
import type { Fingerprint, HitElement, LabelStyle, Mark, MarksSnapshot, PointHit, Rect, Viewport } from './marks';
import type { DocAction, DocEntry, ScreenDoc } from './docs/types';
import type { DocsFile, Refused } from './docs/file';
import type { SettleReport } from './settle';
import type { RunView } from './run/view';
import type { Settings } from './settings';
import type { SettingsPatch } from './settings-patch';
import type { Trace } from './trace';
import type { RunSummary } from './trace/history';
import type { TaskTemplate, TemplateSummary } from './templates';
import type { FileMeta } from './files';
import type { FieldInfo, FormInfo } from './guards/fields';
import type { CalibrationResult } from './calibrate';

/** A form field's attributes, the form it is in and a select's options (content-scripts/details.ts, for the guards). */
export interface GuardFieldDetails { field?: FieldInfo; form?: FormInfo; options?: string[] }

export type Reply<T> = { ok: true; value: T } | { ok: false; error: string };

export type { PendingView, RunView, StepView } from './run/view';

export interface StartRun {
  task: string;
  /** run in this tab (side panel) ... */
  tabId?: number;
  /** ... or open this URL in a new tab (runner); with tabId, navigate that tab there first */
  url?: string;
  /** per-run overrides of the stored settings (runner flags); not saved */
  config?: Partial<Settings>;
  /** explore the site to learn what its controls do (a dialect with observes.docs: AppAgent's self-exploration) */
  explore?: boolean;
  /** a JSON Schema the answer must match (docs/answer-schema.md); refused before the run when the validator cannot use it */
  answerSchema?: unknown;
  /** where the run may act besides its start site: "any", or a list of sites (docs/allowed-sites.md; absent or "start": only the start site) */
  allowedSites?: unknown;
}

/**
 * A follow-up (core/run/follow-up.ts). The run goes on in its own tab while that tab is open; else
 * in `tabId` (the side panel's tab), else in a new tab at `url` (the runner's --continue).
 */
export interface ContinueRun {
  runId: string;
  task: string;
  tabId?: number;
  url?: string;
  /** per-run overrides of the stored settings (runner flags); not saved. The run keeps its dialect */
  config?: Partial<Settings>;
}

export interface AttachedFiles { files: FileMeta[]; runId: string | null }

/** A tab watched after its run (background/refuse.ts Lingering). */
export interface WatchedTab {
  tabId: number;
  /** the host it is on */
  site: string;
  /** 'secret' | 'password' | 'card' */
  kinds: string[];
  since: number;
  /** requests refused since the run ended */
  refused: number;
}

export interface ModelCheck { ms: number; models: string[]; message: string }

export interface ViewMessages {
  'settings/get': { req: Record<string, never>; res: Settings };
  /** when this service worker started (a restarted worker answers a later time) */
  /** tests only (TEST_ONLY_MESSAGES): when this worker started; not answered by the release build */
  'worker/info': { req: Record<string, never>; res: { startedAt: number } };
  /** the stores this version refuses (written by a newer version, or unreadable: core/stores/versions.ts), and this version */
  'stores/status': { req: Record<string, never>; res: { problems: StoreProblem[]; version: string } };
  /** every settings write: what changes (core/settings-patch.ts), merged into the stored settings in the background */
  'settings/patch': { req: SettingsPatch; res: Settings };
  'model/test': { req: { config?: Partial<Settings> }; res: ModelCheck };
  /** the coordinate check (core/calibrate.ts): which bounding-box convention the model's answers fit */
  'model/calibrate': { req: { config?: Partial<Settings> }; res: CalibrationResult };
  'run/start': { req: StartRun; res: { runId: string } };
  /** `reason`: why, in the person's or the runner's words (default "Stopped by the user.") */
  'run/stop': { req: { runId?: string; reason?: string }; res: { stopped: boolean } };
  'run/get': { req: { runId?: string }; res: RunView | null };
  /** the reply streaming in for the pending step and its retry note, for a view opened after they were sent */
  'run/live': { req: { runId: string }; res: RunStream | null };
  /** a step's screenshot as a data URL: the labelled one (default) or the clean one; null when none */
  'run/screenshot': { req: { runId: string; index: number; kind?: 'labelled' | 'clean' }; res: string | null };
  /** past runs, newest first, whose task / site / answer / model match every word of `query`; and the storage used */
  /** pruned: the last time screenshots were removed to make room (core/stores/prune.ts), or null */
  'history/list': { req: { query?: string }; res: { runs: Array<{ id: string; summary: RunSummary }>; usedBytes: number | null; quotaBytes: number | null; pruned: Pruned | null } };
  /** Settings' Storage line: the runs, their screenshots' bytes, and what the browser says of the extension's storage */
  'storage/usage': { req: Record<string, never>; res: { runs: number; shots: number; shotBytes: number; usedBytes: number | null; quotaBytes: number | null } };
  /** finished runs started more than `days` days ago: their screenshots removed, or the runs deleted */
  'storage/clear': { req: { days: number; what: 'screenshots' | 'runs' }; res: { runs: number; bytes: number } };
  'history/delete': { req: { runId: string }; res: null };
  /** do a recorded run's actions again on the live site, targets found by fingerprint (default: approve each step) */
  'run/replay': { req: { runId: string; approveSteps?: boolean }; res: { runId: string } };
  /** a follow-up: the ended run `runId` goes on with `task` as its next turn (docs/follow-ups.md) */
  'run/continue': { req: ContinueRun; res: { runId: string } };
  /** a trace file's JSON, shown in the history like a local run (a new id when its id is taken) */
  /** unknownDialect: the trace's dialect when this version does not have it (shown as recorded, not replayable) */
  'history/import': { req: { trace: unknown }; res: { runId: string; renamed: boolean; unknownDialect: string | null } };
  /** saved tasks (core/templates.ts): the list, without the files' bytes */
  'templates/list': { req: Record<string, never>; res: TemplateSummary[] };
  /** `withFiles`: the files attached for the next run are saved with it */
  'templates/save': { req: { template: TaskTemplate; withFiles?: boolean }; res: TemplateSummary[] };
  'templates/delete': { req: { id: string }; res: TemplateSummary[] };
  /** a saved-task file's text: every template, or those of `ids` */
  'templates/export': { req: { ids?: string[] }; res: { text: string; count: number } };
  /** a saved-task file read (untrusted): the good templates added, each bad one refused with its reason */
  'templates/import': { req: { file: unknown }; res: { added: number; refused: Array<{ index: number; problem: string }>; list: TemplateSummary[] } };
  /** starts a saved task in this tab (its start page opened there first, its files attached, its dialect for this run) */
  'templates/start': { req: { id: string; tabId: number }; res: { runId: string } };
  /** the run's trace (docs/trace-format.md); `excludeScreenshots`: '' in both screenshot fields */
  'run/trace': { req: { runId: string; excludeScreenshots?: boolean }; res: Trace };
  /**
   * A piece of the trace: its steps `from` … `from + count - 1` (the run's fields as in run/trace) and how
   * many steps the run has. Exports fetch a trace this way so no single message nears Chrome's 64 MiB limit.
   */
  'run/trace-part': { req: { runId: string; from: number; count: number; excludeScreenshots?: boolean }; res: { trace: Trace; stepCount: number } };
  /** let the proposed action run; `edit`: another action in the dialect's syntax instead; `alwaysAllow`: never stop for this guard on this site again */
  'run/approve': { req: { runId?: string; edit?: string; alwaysAllow?: boolean }; res: RunView };
  /** do not run it; the feedback is the step's observation for the model */
  'run/reject': { req: { runId?: string; feedback?: string }; res: RunView };
  /** finish nothing new until resumed */
  'run/pause': { req: { runId?: string }; res: RunView };
  /** pause and hand the page to the person (labels removed) */
  'run/takeover': { req: { runId?: string }; res: RunView };
  'run/resume': { req: { runId?: string }; res: RunView };
  /** switch step approval on or off for the live run (the panel also saves it in settings) */
  'run/mode': { req: { runId?: string; approveSteps: boolean }; res: RunView | null };
  /** tabs watched after their run ended (a value the run typed is still in their page: background/refuse.ts) */
  'watch/list': { req: Record<string, never>; res: WatchedTab[] };
  /** the person lets a watched tab go: what it sends is no longer refused */
  'watch/release': { req: { tabId: number }; res: WatchedTab[] };
  /** label a tab now (all frames, overlay drawn) without running anything: the panel's "Show labels", the bench */
  'marks/label': { req: { tabId: number }; res: MarksSnapshot };
  'marks/clear': { req: { tabId: number }; res: null };
  /**
   * attach a file for the page's file fields (bytes as base64): to the run going on, else for the
   * next run; the files attached now, or the reason it was refused (size cap)
   */
  'files/add': { req: { name: string; type: string; lastModified?: number; base64: string }; res: AttachedFiles };
  /** the files of the run going on (`runId`), else those attached for the next run (`runId` null) */
  'files/list': { req: Record<string, never>; res: AttachedFiles };
  /** remove the file at `index`, or all of them without an index (of the run going on, else of the next run) */
  'files/remove': { req: { index?: number }; res: AttachedFiles };
  /** record a demonstration in the tab (background/demo.ts): the person acts, each action on a labelled element is recorded with the pictures before and after it */
  'demo/start': { req: { tabId: number; task: string }; res: { recording: true } };
  /** `ready`: the pictures after the recorded actions are taken (the person may act again) */
  'demo/state': { req: { tabId: number }; res: { recording: boolean; actions: number; ready: boolean } };
  /** stop recording and write the documentation of each element the person used (refused: element and why) */
  'demo/stop': { req: { tabId: number }; res: { actions: number; documented: number; refused: string[] } };
  /** learned documentation (docs/learned-docs.md): every site with entries, and the entries of `origin` (newest first) */
  'docs/list': { req: { origin?: string }; res: { origins: Array<{ origin: string; count: number }>; entries: DocEntry[] } };
  /**
   * the person's edit of an entry (`id`), or of the element's entry found by fingerprint (a new one when none):
   * its texts replaced by `docs`; masked and screened (refused: the error says why)
   */
  'docs/put': { req: { id?: string; origin: string; fingerprint: Fingerprint; docs: Partial<Record<DocAction, string>> }; res: DocEntry };
  'docs/delete': { req: { id: string }; res: null };
  /** a site's entries as a webagent-docs file */
  'docs/export': { req: { origin: string }; res: DocsFile };
  /** a webagent-docs file's JSON (text or parsed) merged into the store; `origin`: take only that site's entries */
  'docs/import': { req: { file: unknown; origin?: string; /** the imported file's name, kept on its notes (shown as text) */ fileName?: string }; res: { added: number; updated: number; refused: Refused[] } };
  /** label a tab now and give the documentation of its elements on screen, as a step's observation would get it */
  'docs/page': { req: { tabId: number }; res: { origin: string | null; marks: Array<Pick<Mark, 'label' | 'tag' | 'text'>>; docs: ScreenDoc[] } };
}

export interface SelectPick {
  ok: boolean; expected: string; actual: string; text: string; changed: boolean;
  /** grows with every choice in the frame: tells a new choice from an old one */
  seq?: number;
  /** a multiple select: the option was toggled; `selected` is its state now */
  multiple?: boolean;
  selected?: boolean;
}

export type ResolvedMark =
  | { ok: true; rect: Rect; center: { x: number; y: number }; tag: string; inputType?: string; editable: boolean }
  | { ok: false; reason: 'unknown-label' | 'detached' | 'changed' | 'not-visible' | 'covered'; detail: string };

export interface ContentMessages {
  'content/ping': { req: Record<string, never>; res: { url: string } };
  'marks/draw': { req: Record<string, never>; res: MarksSnapshot };
  /** top frame: draw the merged marks of all frames */
  /** `style`: how the labels are drawn (absent: 'corner') */
  'marks/overlay': { req: { marks: Mark[]; style?: LabelStyle }; res: null };
  'marks/hide': { req: Record<string, never>; res: null };
  'marks/reset': { req: Record<string, never>; res: null };
  /** what the guards need about a label's element: the link it is or is in (absolute URL), a download attribute; a form field's attributes, form and options; where it submits its form, a URL its click handler goes to */
  'marks/details': { req: { label: number }; res: ({ href: string | null; download: boolean; formAction?: string | null; navigatesTo?: string | null; names?: string[]; picture?: boolean; buttonOf?: FormInfo & { submits: boolean } } & GuardFieldDetails) | null };
  'marks/resolve': { req: { label: number }; res: ResolvedMark };
  'marks/focus': { req: { label: number }; res: boolean };
  /** a Type action's field (label null: the focused element): its value, to tell whether typing changed it (content-scripts/field.ts) */
  'field/read': { req: { label: number | null }; res: { value: string; type: string } | null };
  /** set a field keystrokes cannot fill (core/field-value.ts) as a person's input ends: its value, then input and change; read back */
  'field/set': { req: { label: number | null; value: string }; res: { before: string; after: string } | null };
  'page/scroll': { req: { direction: 'up' | 'down' }; res: { moved: number } };
  /** Scroll [N] on a scrollable container: scroll that element itself (null: N is gone) */
  'marks/scroll': { req: { label: number; direction: 'up' | 'down' }; res: { moved: number } | null };
  /** the visible text inside a box of this frame's viewport (CSS px); `all`: its scroll container scrolled to the end (content-scripts/quote.ts) */
  'page/quote': { req: { box: Rect; all: boolean }; res: { text: string; pages: number; capped: boolean } };
  'page/settle': { req: { quietMs: number; capMs: number }; res: { quiet: boolean; ms: number } };
  /** before an observation: custom elements defined, fonts ready, network quiet (core/settle.ts), at most capMs; `load` is 0 here */
  'page/ready': { req: { capMs: number }; res: SettleReport };
  /** the outcome of the last option chosen in a rewritten select */
  'select/last-pick': { req: Record<string, never>; res: SelectPick | null };
  /** Type [N]; [text] on a <select>: choose the option the text names (null: N is not a select) */
  'select/choose': { req: { label: number; text: string }; res: { pick: SelectPick | null; options: string[] } | null };
  /** the element at a point of this frame's viewport (CSS px), deep through shadow roots; an iframe there is reported as such */
  'point/inspect': { req: { x: number; y: number }; res: PointHit };
  /** the focused element of this frame (deep), for typing into the focused field; null when nothing editable has focus */
  'point/focused': { req: Record<string, never>; res: ({ tag: string; text: string; inputType?: string; editable: boolean; formAction?: string | null } & GuardFieldDetails) | null };
  /** the focused element of this frame (deep), whatever it is, described for the gate (guards); null: the page itself */
  'point/active': { req: Record<string, never>; res: Omit<HitElement, 'frameId'> | null };
  /** draw a crosshair at a point (top-frame viewport CSS px) with the hit element's box; null point: remove it */
  'point/mark': { req: { point: { x: number; y: number } | null; box: Rect | null }; res: null };
}

/** background -> the offscreen document (src/offscreen/ocr.ts) */
export interface OffscreenMessages {
  /** the words in a picture (a data URL), read on this machine by Tesseract; `confidence` 0-100 */
  'ocr/read': { req: { image: string }; res: { text: string; confidence: number } };
  /**
   * the words in each box (image px) of one capture, in order (picture-text.ts): `reused` when the
   * same pixels were read before; null when not read within `budgetMs`
   */
  'ocr/pictures': { req: { image: string; boxes: Rect[]; budgetMs: number }; res: { reads: Array<{ text: string; reused: boolean } | null> } };
  /**
   * a step's history images (core/trace/history.ts KEPT_IMAGE) from its clean capture (a data URL): the
   * clean view, and the labelled one with `labels` drawn as on the model's picture (null: the
   * dialect draws none, and both are the clean view)
   */
  'keep/images': { req: KeepImagesRequest; res: { labelled: string; clean: string } };
}

export interface KeepImagesRequest {
  image: string;
  labels: { marks: Mark[]; viewport: Viewport; style: LabelStyle } | null;
  kept: { mime: string; quality: number };
}

/** Messages only the tests send (a restarted worker answers a later time): the release build leaves them out. */
export const TEST_ONLY_MESSAGES = ['worker/info'] as const;
export type TestOnlyMessage = typeof TEST_ONLY_MESSAGES[number];

export type ViewName = keyof ViewMessages;
export type ContentName = keyof ContentMessages;

export type Envelope<M, K extends keyof M> = M[K] extends { req: infer R } ? { type: K; payload: R } : never;

export interface RunUpdate { event: 'run/update'; run: RunView }

/** The model's reply for step `index` as it streams in (content and reasoning so far), or a retry note. */
export interface RunStream { event: 'run/stream'; runId: string; index: number; content: string; reasoning: string; note: string | null }

export function isEnvelope(x: unknown): x is { type: string; payload: unknown } {
  return !!x && typeof x === 'object' && typeof (x as { type?: unknown }).type === 'string';
}
