import type { AllowedSites } from '../allowed-sites';
import type { Locale } from '../i18n';
/**
 * The run's state and the events and effects of its state machine (reduce.ts, effects.ts).
 * Types and their constructors only: this file imports nothing from the rest of the run.
 */
import type { PageDialog } from '../guards/page-dialog';
import type { Held } from '../guards/request-hold';
import type { FileOffer, Landed } from '../guards/after';
import type { Action, Memory, ParsedStep, ParseError } from '../action/action';
import type { GuardHit, GuardId, GuardSettings } from '../guards';
import type { InjectionHit } from '../injection';
import type { ImageScreen } from '../image-screen';
import type { PicturesRead, PictureText } from '../picture-text';
import type { Fingerprint, HitElement, Mark, Rect, TextFinding, Viewport } from '../marks';
import type { App, DialectOptionValues, RequestPart } from '../dialects/types';
import type { Price, Usage } from '../costs';
import type { FileMeta } from '../files';
import type { Secret, Vault } from '../secrets';
import type { SettleReport } from '../settle';
import type { ScreenDoc } from '../docs/types';

export type RunStatus = 'running' | 'finished' | 'stopped' | 'failed';
export type Phase = 'observe' | 'model' | 'approve' | 'act' | 'done';
/** `note`: what the model is told besides "Success" (e.g. a browser shortcut's meaning) */
/**
 * `set`: the value an action stored in a run variable (quote, llm, clipboard); `usage`: tokens the
 * action itself used (the llm action's request), added to the step's
 */
export type ActResult = { ok: true; note?: string; set?: { name: string; value: string }; usage?: Usage | null; learned?: Learned } | { ok: false; error: string };

/**
 * What exploring learned from one action (AppAgent's reflection): the decision, why, and the
 * documentation written for the element (null: none, e.g. INEFFECTIVE, or refused by the screening).
 */
export interface Learned { decision: 'BACK' | 'INEFFECTIVE' | 'CONTINUE' | 'SUCCESS'; thought: string; doc: string | null; refused?: string }

export const PASSWORD_MASK = '••••';

/** A run variable (variables.ts): a value an action stored for later actions. */
export interface Variable {
  value: string;
  /** the step that stored it */
  step: number;
  /** typed into a password field: masked in every view and trace (the value stays in the run's memory only) */
  secret?: boolean;
}

export type Variables = Record<string, Variable>;
/** Unreadable replies in a row before the run stops. */
export const MAX_FORMAT_ERRORS = 3;
export const DEFAULT_SEARCH = 'https://www.bing.com/';
/** A proposed action the person's take-over kept from running is recorded as rejected with this feedback. */
export const TOOK_OVER_FEEDBACK = 'The user took over before this action ran.';


/**
 * The run's tab changed: an action opened a new tab or popup window and the run followed it
 * (`opened`, its URL), or the run's tab closed and the run went back to the one that opened it
 * (`closed`, the URL of the tab it is back in). Trace `tabs`.
 */
export interface TabChange { change: 'opened' | 'closed'; url: string }

/** How the person let the step's action run (trace `approval`). */
export interface Approval { decision: 'approved' | 'edited' | 'rejected' | 'auto'; feedback: string | null }

/** Why the run waits for the person before acting. */
export interface ApprovalRequest {
  /** the guard that tripped, or null: step-approval mode */
  rule: GuardId | null;
  /** the action already ran and did this (left the site, started a download): approve keeps it, reject undoes it */
  after?: boolean;
  /** e.g. "this types into a password field"; null in step-approval mode without a guard */
  reason: string | null;
  /** leave-site: the site the action would act on (or acted on); a yes allows it for the rest of the run */
  site?: string;
}

/** A download the browser started from the run's tab (background/downloads.ts): the browser's id. */
/**
 * A download an action of the run started (background/downloads.ts). Held at the response (id < 0):
 * nothing was written while the person was asked; begun (id > 0: the browser's download id): the
 * browser had begun it, paused.
 */
export interface DownloadNote {
  id: number;
  url: string;
  filename: string;
  /** bytes, when known (the response's Content-Length, or the browser's count) */
  size?: number;
  /** its MIME type, when known */
  type?: string;
  /** the site of the frame that started it (a frame of another site than the tab's shows here) */
  site?: string;
  /** a held response (id < 0): where the browser holds it, so a worker restarted meanwhile can still answer it */
  held?: { tabId: number; requestId: string; sessionId?: string };
}

/**
 * What an action did that a guard would have asked about, seen after it (guards/after.ts): the page
 * went to another site, or a download began. Trace `afterAction`.
 */
export interface AfterAction {
  /** the guard that asked; null: nobody was asked (the rule is off or allowed on the site) */
  rule: GuardId | null;
  /** why it asked, for the person; null when nobody was asked */
  reason: string | null;
  /** the tab's URL after the action */
  url: string;
  /** downloads the action started (empty: none) */
  downloads: DownloadNote[];
  /** a confirm of the page a guard cares about, held open: OK if kept, Cancel if undone (core/guards/page-dialog.ts) */
  dialog?: PageDialog;
  /** requests of the page that carry a secret, a typed password or a card number, held: sent if kept, blocked if undone (core/guards/request-hold.ts) */
  requests?: Held[];
  /** a file chooser the action opened, waiting: its files given if kept, none if undone (background/act/files.ts) */
  chooser?: FileOffer;
  /**
   * approved: kept; rejected: undone (the tab went back, downloads cancelled and erased); auto:
   * nobody was asked, kept; takeover: the person took over before deciding, left as it was;
   * stopped: the run ended before the person decided (its downloads removed, the rest left as it
   * was). Absent while the person decides.
   */
  decision?: 'approved' | 'rejected' | 'auto' | 'takeover' | 'stopped';
  /** the person's words with a refusal */
  feedback?: string | null;
  /** what undoing or keeping did, in the model's words (set when done) */
  outcome?: string;
}

export interface Paused {
  kind: 'pause' | 'takeover';
  at: number;
  /** the tab's URL when it was paused */
  url: string;
}

/** The element an action acted on: its label's mark, or what a hit test found under its point. */
export interface ActedElement {
  tag: string;
  text: string;
  rect: Rect;
  inputType?: string;
  frameId?: number;
  fingerprint?: Fingerprint;
  /** for the guards: the link it is or is in, its download attribute */
  href?: string | null;
  download?: boolean;
  /** for the leave-site guard: where it submits its form, a URL its inline click handler opens (absent: none known) */
  formAction?: string | null;
  navigatesTo?: string | null;
}

/**
 * A step's facts as both the run (StepRecord) and its exported trace (trace.ts TraceStep) keep
 * them, declared once. What differs (elements, the request and reply, the action, the target and
 * the approval) each declares itself.
 */
export interface StepFacts {
  index: number;
  url: string;
  title: string;
  viewport: Viewport;
  /**
   * The screenshot the model saw (labelled for label dialects), as kept: a data URL ('' when not
   * loaded or excluded; in a trace also a file name inside a zip export). The model itself got the PNG.
   */
  screenshot: string;
  /** the same view without labels or our select lists, in the same forms ('' when none) */
  cleanScreenshot: string;
  thought: string;
  /** the action in the run's dialect grammar, as history and traces show it (passwords masked) */
  actionText: string;
  memory: Memory;
  result: ActResult;
  /** what the model is told about this step next time (model text, never translated) */
  observation: string;
  /** ms; modelFirstTokenMs: until the first streamed token (null when not streamed); observeStages: the observe step's parts (absent in older traces) */
  timings: { observeMs: number; modelMs: number; modelFirstTokenMs?: number | null; actMs: number; totalMs: number; observeStages?: ObserveStages };
  usage: Usage | null;
  /** the run moved to another tab during this step (a tab it opened, or back when it closed); absent when it stayed */
  tabs?: TabChange[];
  /** text on the page the model read was aimed at the agent (injection/index.ts): the action waited for the person; absent when none */
  injection?: InjectionHit[];
  /**
   * the opt-in picture check of the screenshot (image-screen.ts): its verdict and its own cost
   * (absent: the option was off; `reused`: the same picture as the step before, no request)
   */
  imageScreen?: ImageScreen;
  /** the pictures on screen read on this machine by OCR (option readPictures, picture-text.ts): how many, read, reused, not read in time; absent: off, or no picture on screen */
  pictureText?: PictureText;
  /** the action left the site or began a download, seen after it (guards/after.ts); absent when neither */
  afterAction?: AfterAction;
  /** the model marked the action as sensitive, so the person was asked first (CogAgent); absent: not marked */
  sensitive?: boolean;
  /** what the model reported as wrong, shown to the person (Midscene's `error`); absent: nothing */
  warning?: string;
  /** exploring (AppAgent): how the model judged the action from the screenshots before and after it, and the documentation written */
  reflection?: Learned;
}

export interface StepRecord extends StepFacts {
  /** the labelled elements of the page (also for dialects that do not show them to the model) */
  elements: Mark[];
  promptText: string;
  imageBytes: number;
  imageWidth: number;
  imageHeight: number;
  raw: string;
  reasoning: string | null;
  action: Action | null;
  /** what the action acted on (label's mark or the element under its point); null: none or unknown */
  target?: ActedElement | null;
  /** the page as the model saw it (URL and element list), to tell an unchanged page (loop guard) */
  pageKey?: string;
  /** the model's screenshot of that page, as a key (unchanged.ts: an action that changed nothing) */
  shotKey?: string;
  /** null: no action was proposed (unreadable reply, take-over step) */
  approval: Approval | null;
  /** what the person was asked about this step, when a guard (or the page's words, or the model) made it ask: the rule and the question */
  guard?: { rule: GuardId | null; reason: string };
  /** 'person': the person took over and acted; everything else is a model step */
  kind?: 'person';
}

export type FrameOffsets = Record<number, { x: number; y: number }>;

/**
 * Where an observe step's time went (ms). The settle wait is apart: the rest is what the model
 * waits for once the page is there. `encodeMs` and `requestMs` are known once the request left
 * (absent for a replay, or when no request left).
 */
export interface ObserveStages {
  /** waiting for the page: its load, our content scripts in it */
  settleMs: number;
  /** labeling passes (and the check that the labels did not move under the screenshot), retries included */
  labelMs: number;
  /** part of labelMs: the screens of the text and the pictures on screen in the page (every frame's, the last pass's) */
  screenMs?: number;
  /** the screenshot(s) the model gets */
  captureMs: number;
  /** part of captureMs: the capture decoded, the labels drawn onto it, the picture encoded (dialects whose model reads labels) */
  drawMs?: number;
  /** the request's images made ready (this step's as captured; earlier steps' scaled) */
  encodeMs?: number;
  /** from the end of the settle wait until the request left: label, capture, the list, the request built and sent */
  requestMs?: number;
  /** frames that answered the labeling pass but got no labels, and why (core/frames.ts mergeFrames) */
  framesLeftOut?: string[];
}

export interface PendingReply {
  raw: string; reasoning: string | null; thought: string; action: Action; actionText: string;
  memory: Memory; notes: string[]; usage: Usage | null; modelMs: number; firstTokenMs?: number | null;
  /** the action types into a password field: its text is masked everywhere it is kept */
  secret?: boolean;
  /** from the parsed reply (ParsedStep) */
  sensitive?: boolean;
  /** the model asks the person for help (ParsedStep.asksPerson): asked like a sensitive action, with its thought */
  asksPerson?: boolean;
  sleepMs?: number;
  endsAfter?: string;
  warning?: string;
}

/** What has been gathered for the step in progress. */
export type PendingStep = Omit<StepRecord, 'raw' | 'reasoning' | 'thought' | 'action' | 'actionText' | 'memory' | 'result' | 'observation' | 'usage' | 'timings' | 'approval' | 'kind' | 'cleanScreenshot' | 'target' | 'tabs' | 'afterAction'> & {
  /** the PNG data URL the model gets in `screenshot`; these are the JPEGs kept once the step is done */
  kept?: { labelled: string; clean: string };
  observeMs: number;
  /** absent in runs saved by older versions */
  observeStages?: ObserveStages;
  startedAt: number;
  frameOffsets?: FrameOffsets;
  /** the controls' values, hashed (Observation.values): for the loop guard's page key */
  values?: string;
  reply?: PendingReply;
  /** the guards have looked at the action (phase act) */
  checked?: boolean;
  /** what the action will act on (its label's mark, or what is under its point or has focus) */
  target?: ActedElement | null;
  /** this step's request: text parts and image references (the prompt is built once, when observed) */
  request?: RequestPart[];
  /** waiting for the person (phase approve) */
  approval?: ApprovalRequest;
  /** how the action was let through */
  decision?: Approval;
  /** the input of the action started (written before it, so a restart knows) */
  actStartedAt?: number;
  /** the input of the action is done, with this outcome (written before the page settles) */
  inputResult?: ActResult;
  /** text on the page aimed at the agent (injection/index.ts): the action waits for the person */
  injection?: InjectionHit[];
  /** the guard that looked at the action before it ran asked about this (kept after approval) */
  guardRule?: GuardId;
  /** the leave-site guard's hit: the site the action would act on (a yes allows it for the rest of the run) */
  guardSite?: string;
  /** the action ran, with this outcome, and what it did waits for the person or to be kept or undone */
  acted?: { result: ActResult; ms: number };
  /** what the action did that a guard looks at after it (see AfterAction) */
  after?: AfterAction;
};

/** A recorded run's action to do again (replay.ts), with what it touched. */
export interface ReplayStep {
  /** the recorded step's index (for messages) */
  from: number;
  action: Action;
  /** what the action touched, or null (window, nothing, or unknown) */
  target: { tag: string; text: string; fingerprint: Fingerprint | null; rect: Rect } | null;
  memory: Memory;
}

export interface ReplayPlan {
  /** the recorded run */
  of: string;
  /** the recorded run's dialect: its grammar writes the replayed actions in the history */
  dialect?: string;
  steps: ReplayStep[];
}

/** Token and cost caps (budget.ts). */
export interface RunLimits {
  /** stop past this many tokens (prompt + completion); 0: none */
  maxTokens: number;
  /** stop past this cost; 0: none */
  maxCost: number;
  /** the model's price, or null (unknown: the cost cap cannot apply) */
  price: Price | null;
  /** the price's currency (ISO 4217, settings); absent in runs made before it was kept: costs show without a unit */
  currency?: string | null;
}

/**
 * One turn of a run (core/run/follow-up.ts): the first task, or a follow-up typed after the run had
 * ended. Where its steps begin, and how it ended once a later turn began (the last turn's ending is
 * the run's own status, answer and stop reason).
 */
export interface Turn {
  task: string;
  /** when it began (ms) */
  at: number;
  /** the index of its first step */
  fromStep: number;
  /** how it ended, once a later turn began */
  status?: Exclude<RunStatus, 'running'>;
  answer?: string | null;
  stopReason?: string | null;
  answerJson?: unknown;
}

export interface RunState {
  id: string;
  /** the first task (a follow-up's is in `turns`) */
  task: string;
  /** every turn, the first included, once the run has had a follow-up (absent: one turn, `task`) */
  turns?: Turn[];
  startUrl: string;
  /** the site the task is about */
  site: string;
  /** the tab the run works in now (a tab it followed, after one it opened) */
  tabId: number;
  /** the tabs to go back to when the current one closes: the openers, oldest first (absent: none) */
  tabStack?: number[];
  /** tab changes not yet recorded in a step: the next finished step records them and tells the model */
  tabChanges?: TabChange[];
  dialect: string;
  /** the values of the dialect's own settings (Dialect.options: midscene's bounding boxes, appagent's device; absent: it has none) */
  dialectOptions?: DialectOptionValues;
  model: string;
  baseUrl: string;
  maxSteps: number;
  startedAt: number;
  endedAt: number | null;
  status: RunStatus;
  phase: Phase;
  answer: string | null;
  /** the task's JSON Schema for its answer (core/answer-schema.ts; absent: a free answer) */
  answerSchema?: Record<string, unknown>;
  /** the answer as JSON, once it matched answerSchema */
  answerJson?: unknown;
  /** answers the schema refused so far (each went back to the model with the validator's message) */
  answersRefused?: number;
  /** why the run ended, for the person (panel, runner), in `locale` */
  stopReason: string | null;
  /** a failed run: what outside the agent failed (absent: the agent's own failure, or not failed) */
  failCause?: FailCause;
  /** the person's language when the run started (person text only; the model reads English) */
  locale?: Locale;
  memory: Memory;
  steps: StepRecord[];
  pending: PendingStep | null;
  formatErrorsInARow: number;
  /** ask the person before every action */
  approveSteps: boolean;
  guards: GuardSettings;
  /** where "Bing" goes (the leave-site guard needs it) */
  searchStartPage: string;
  /** sites the person listed as apps (glm-mobile's open_app) */
  apps?: App[];
  /** sites besides the start site the person allowed before the run (core/allowed-sites.ts; absent: only the start site) */
  sitesAllowed?: string[];
  /** the run may act anywhere: the leave-site guard does not ask in it */
  anySite?: boolean;
  /** sites the person allowed during the run, each when a step first would act there (asked once) */
  sitesGranted?: string[];
  paused: Paused | null;
  /** brought in from a trace file (history import), not run here */
  imported?: boolean;
  /** screenshots of this run removed to make room in the browser's storage (core/stores/prune.ts); its steps stay */
  shotsRemoved?: number;
  /** a replay: the recorded actions stand in for the model (replay.ts) */
  replay?: ReplayPlan;
  /** token and cost caps (absent: none) */
  limits?: RunLimits;
  /** files the person attached for the page's file inputs: names, sizes, types (never the bytes) */
  files?: FileMeta[];
  /** values actions stored for later actions, by the name the grammar uses (variables.ts; absent: none) */
  variables?: Variables;
  /**
   * words aimed at the agent found in what the last action stored (a quoted text, the clipboard, a
   * language model's answer): they reach later prompts, so the next action waits for the person
   * (taken into the next step's findings, then cleared)
   */
  heldFindings?: InjectionHit[];
  /** exploring the site to learn its controls (AppAgent): each action is judged and documented after it */
  explore?: boolean;
  /** elements an exploring action found to change nothing (INEFFECTIVE): not to be tried again */
  useless?: Fingerprint[];
  /**
   * The person's secrets and the passwords this run typed, to hide them in everything kept and
   * sent (core/secrets/index.ts). Memory only: storage keeps it out of the database (secrets.ts), views
   * and traces leave it out.
   */
  vault?: Vault;
}

export interface Observation {
  url: string;
  title: string;
  viewport: Viewport;
  marks: Mark[];
  /** where each labelled frame sits in the top page */
  frameOffsets?: FrameOffsets;
  screenshot: { dataUrl: string; bytes: number; width: number; height: number };
  /** data URLs kept for the history: the view the model saw and the clean one ('' when not taken) */
  kept?: { labelled: string; clean: string };
  /** what the page was waited for before it was labelled, and how long (core/settle.ts) */
  settle?: SettleReport;
  /** where the time went (the request's part is added by the 'kept' event) */
  stages?: ObserveStages;
  /** learned documentation of the elements on screen (dialects with observes.docs) */
  docs?: ScreenDoc[];
  /** words aimed at the agent in what the page shows besides its controls (the frames' page text screen) */
  findings?: TextFinding[];
  /** the labelled controls' values and states, hashed (MarksSnapshot.values): part of the loop guard's page key */
  values?: string;
}

export type RunEvent =
  | { type: 'observed'; at: number; obs: Observation; ms: number }
  /**
   * step `index`'s images for the history (the clean view, the labelled one as kept), made while
   * the model thinks: after the request left (`sent`: its encode and request times), before the
   * action
   */
  | { type: 'kept'; at: number; index: number; kept: { labelled: string; clean: string }; sent?: { encodeMs: number; requestMs: number } }
  /**
   * `target`: what the reply's action would act on when it is not a label (a point, the focused
   * field), looked up before the reply is recorded so a password typed there is masked at once
   */
  | {
    type: 'replied'; at: number; raw: string; reasoning: string | null; usage: Usage | null; ms: number; firstTokenMs?: number | null; truncated?: boolean; target?: ActedElement | null;
    /** the reply as parsed by the run's dialect (parseModelReply), once: the background probes its point with it; absent: reduce reads it */
    parsed?: ParsedStep | ParseError;
    /** the picture check made beside the request (option screenImages): its finding joins the step's, its tokens the step's usage */
    screen?: ImageScreen;
    /** the pictures on screen read by OCR since the observation (option readPictures): their findings join the step's */
    pictures?: PicturesRead;
  }
  /** a replay's next action, instead of a model reply */
  | { type: 'replayed'; at: number; action: Action; memory: Memory; from: number; target?: ActedElement | null }
  /** `target`: what the action will act on, when the check found it (points, the focused field) */
  | { type: 'checked'; at: number; hit: GuardHit | null }
  /** `target`: for an edit that is not on a label, what it would act on */
  | { type: 'approve'; at: number; edit?: Action; allowRule?: boolean; target?: ActedElement | null }
  | { type: 'reject'; at: number; feedback: string | null }
  | { type: 'acting'; at: number }
  | { type: 'input'; at: number; result: ActResult }
  /**
   * `landed`: where the tab is after the action and the downloads it started (paused), for the
   * guards that look after an action (guards/after.ts); absent: not looked at (older worker)
   */
  | { type: 'acted'; at: number; result: ActResult; ms: number; landed?: Landed<DownloadNote> }
  /** what the action did was kept or undone (after 'approve' / 'reject' of an AfterAction): `outcome` in the model's words */
  | { type: 'resolved'; at: number; outcome: string }
  | { type: 'pause'; at: number; url: string }
  | { type: 'takeover'; at: number; url: string }
  | { type: 'resume'; at: number; url: string }
  | { type: 'mode'; at: number; approveSteps: boolean }
  /**
   * The run moves to another tab: `opened`: the new tab `tabId` that the current one opened;
   * `closed`: the current tab closed, back to `tabId` (an opener on the stack). `url`: that tab's.
   */
  | { type: 'tab'; at: number; change: TabChange['change']; tabId: number; url: string }
  /** the person attached or removed files while the run goes on (names, sizes, types) */
  | { type: 'files'; at: number; files: FileMeta[] }
  | { type: 'stop'; at: number; reason: string }
  /** `cause`: something outside the agent failed (the model endpoint, the tab, storage): FailCause */
  | { type: 'fail'; at: number; reason: string; cause?: FailCause };

/**
 * What outside the agent made a run fail: the model endpoint (an error after its retries), the
 * browser tab it works in (could not be controlled), or the extension's storage (full). A batch
 * retries such runs; a run the agent itself failed (gave up, unreadable replies) it does not.
 */
export type FailCause = 'endpoint' | 'tab' | 'storage';

export interface NewRun {
  id: string; task: string; startUrl: string; tabId: number; dialect: string;
  model: string; baseUrl: string; maxSteps: number; at: number;
  /** default false; guards default to DEFAULT_GUARDS; searchStartPage to Bing */
  approveSteps?: boolean; guards?: GuardSettings; searchStartPage?: string;
  apps?: App[];
  replay?: ReplayPlan;
  limits?: RunLimits;
  files?: FileMeta[];
  /** the dialect's empty memory */
  memory?: Memory;
  /** the language of what the run says to the person (stop reasons); English when absent */
  locale?: Locale;
  /** the person's secrets (Settings): hidden from the model as placeholders */
  secrets?: Secret[];
  /** the dialect's own settings as stored (checked and completed with defaults when the run is made) */
  dialectOptions?: unknown;
  /** explore the site to learn its controls (AppAgent's self-exploration) instead of doing a task */
  explore?: boolean;
  /** a JSON Schema the answer must match (core/answer-schema.ts; checked before the run is made) */
  answerSchema?: Record<string, unknown>;
  /** where the run may act besides its start site (core/allowed-sites.ts; absent: only the start site) */
  allowedSites?: AllowedSites;
}

/** "https://github.com/" for any URL on github.com; the URL itself when it cannot be parsed. */
export function siteOf(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? `${u.protocol}//${u.host}/` : url;
  } catch {
    return url;
  }
}

export type { Action, HitElement, Usage };
