/**
 * A model dialect owns everything about one model's format: what it observes, how a request is
 * built, how replies and single actions are parsed and written, the live preview, its memory
 * form, its request defaults, its coordinate space and which exports it supports. Everything
 * else (run, guards, approval, traces, replay, panel, runner) works on the shared Action model
 * (../action/action.ts) and knows nothing of any grammar.
 *
 * A dialect is pure data and functions (no chrome, no DOM). Text in a dialect is what the model
 * reads; it is never translated.
 */
import type { Action, Memory, ParsedStep, ParseError } from '../action/action';
import type { CoordinateSpace, ShotGeometry } from '../action/coords';
import type { LabelStyle, Mark } from '../marks';
import type { DocAction, ScreenDoc } from '../docs/types';

/** Where a run's tab is shown: as it is, or emulated as a phone (background/act/device.ts). */
export type Device = 'desktop' | 'phone';

/** One past step as the dialect may show it. */
export interface HistoryEntry {
  /** the step's index in the run (a request's image part names it) */
  index: number;
  thought: string;
  /** the action in this dialect's grammar (passwords already masked) */
  action: string;
  /** "Success" or what went wrong, in the model's words */
  observation: string;
  /** the step has a screenshot the run can send again */
  hasScreenshot: boolean;
  /**
   * the model's reply as it wrote it (secrets masked as in the trace); absent when the step's
   * action is not the model's as written: the person edited it, or the person acted (take-over)
   */
  reply?: string;
  /** the memory the step's reply wrote (absent: not known) */
  memory?: Memory;
}

/** A site the person listed as an "app" (glm-mobile's open_app). */
export interface App { name: string; url: string }

export interface DialectContext {
  task: string;
  /** the site being worked on, e.g. "https://github.com/" */
  site: string;
  /** the time the step started; the dialect formats it in local time */
  now: Date;
  /** every past step, oldest first; the dialect decides how many to show */
  history: HistoryEntry[];
  memory: Memory;
  /** the element list (empty for dialects that do not observe labels) */
  marks: Mark[];
  /** the current screenshot's geometry */
  shot: ShotGeometry;
  /** the person's apps (glm-mobile) */
  apps: App[];
  /** learned documentation of the elements on screen (dialects with observes.docs; core/docs) */
  docs?: ScreenDoc[];
  /** exploring the site to learn its controls (dialects with observes.docs): the exploration prompt */
  explore?: boolean;
  /** labels of elements on screen that an exploring action found to change nothing */
  avoid?: number[];
  /** the values of the dialect's own settings (Dialect.options) */
  dialectOptions?: DialectOptionValues;
  /** the task's JSON Schema for its answer, as compact JSON (core/answer-schema.ts): told in answerFormat's words */
  answerSchema?: string;
  /** the person's follow-ups after `task`, oldest first (core/run/follow-up.ts): the last is the task to do now */
  followUps?: FollowUp[];
}

/** A follow-up the person typed after the run had ended, and how the turn before it ended. */
export interface FollowUp {
  task: string;
  /** the turn before it: whether it was done (else it was stopped or failed), and its answer */
  before: { done: boolean; answer: string | null };
}

/**
 * One part of a request, in order. Images are references the background fills in: the current
 * screenshot at full size, or an earlier step's screenshot scaled by `scale` (so the run state
 * never holds a second copy of any image). Most dialects send one user message (and midscene a
 * system message before it); a dialect prompted as a conversation (ui-tars) starts each further
 * message with a `turn`: the parts before the first turn are the first user message.
 */
export type RequestPart =
  /** the system message (sent before the user message; dialects whose seed has one: midscene) */
  | { type: 'system'; text: string }
  | { type: 'text'; text: string }
  | { type: 'image'; of: 'current' }
  | { type: 'image'; of: number; scale: number }
  /** the next message of a conversation: an earlier reply of the model's, or the user's next turn */
  | { type: 'turn'; role: 'user' | 'assistant' };

/** What a dialect observes each step. */
export interface Observes {
  /** labels drawn on the model's screenshot and the element list in the prompt (else a clean screenshot) */
  labels: boolean;
  /** earlier screenshots a request may carry (the dialect's request names which) */
  pastScreenshots: number;
  /** 'phone': the run's tab is emulated as a phone for the run */
  device: Device;
  /**
   * the screenshot's format as the model gets it, captured so by the browser (no re-encoding);
   * absent: PNG (exact pixels, for dialects that point at them)
   */
  image?: { mime: 'image/jpeg'; quality: number };
  /** what the page copies is recorded for the grammar's clipboard action (never the system clipboard) */
  clipboard?: boolean;
  /**
   * how labels are drawn: 'corner' (the default: label N at the element's top-left corner) or
   * 'centre-from-1' (AppAgent's tags: numbered from 1, at the element's centre; the grammar's
   * numbers are then label + 1)
   */
  labelStyle?: LabelStyle;
  /** the learned documentation of the elements on screen is looked up for each step (DialectContext.docs) */
  docs?: boolean;
}

/** An exploring action's verdict (AppAgent's reflection). */
export type Verdict = 'BACK' | 'INEFFECTIVE' | 'CONTINUE' | 'SUCCESS';

export interface Reflection { decision: Verdict; thought: string; doc: string | null }

/** What an action on an element is, for the learning prompts: its kind, the reflection's verb, a swipe's direction. */
export interface Use { kind: DocAction; label: number; verb: string; swipeDir?: string }

/**
 * How a dialect that observes learned documentation (observes.docs) learns a site's elements:
 * exploring (background/explore.ts) and a person's demonstration (background/demo.ts) reach
 * these through the registry (registry.ts learnerFor), never the dialect's folder.
 */
export interface LearnHooks {
  /** the use an action makes of a labelled element, or null (nothing to learn) */
  useOf(a: Action): Use | null;
  /** a use by kind (a demonstration reports the person's this way) */
  useFor(kind: DocAction, label: number, swipeDir?: string): Use;
  /** the reflection prompt (sent with the screenshots before and after) */
  reflectPrompt(use: Use, summary: string, task: string): string;
  /** the documentation prompt for the element used; `old`: its entry to refine */
  docPrompt(use: Use, task: string, old: string | null): string;
  parseReflection(content: string, reasoning?: string | null): Reflection | null;
  parseDoc(content: string, reasoning?: string | null): string | null;
}

/** The request fields the model was tuned with (filled into the settings when the dialect is chosen). */
export interface RequestDefaults { temperature: number; maxTokens: number; extraBody: string }

/** The live preview of a reply still streaming in. */
export interface Preview { thought: string | null; action: string | null }

/**
 * What the run knows that changes how a reply is read and an action written: the values of the
 * dialect's own settings (Dialect.options; midscene's endpoint bounding-box convention, say).
 * Absent: each option's default.
 */
export interface ParseOptions {
  /** the values of the dialect's own settings (Dialect.options), each checked against its choices (RunState.dialectOptions) */
  dialectOptions?: DialectOptionValues;
}

/**
 * A setting of the dialect's own, declared as data: Settings stores its value per dialect, the
 * settings form shows it while the dialect is chosen and the runner takes it as
 * `--dialect-option name=value` (docs/runner.md); the run carries the value into ParseOptions
 * and DialectContext. Labels are message keys (public/_locales): the person's words are
 * translated, the model never reads them.
 */
export interface DialectOption {
  /** its name in settings and on the runner's command line (letters, digits, "-") */
  name: string;
  choices: readonly string[];
  default: string;
  /** message keys: the field's label, its help, and each choice's name (by choice) */
  label: string;
  help: string;
  choiceLabels: Readonly<Record<string, string>>;
}

/**
 * Settings → Check coordinates for a dialect whose option chooses among coordinate conventions:
 * the check's picture is sent with `prompt` (in the dialect's grammar), `read` gives each target's
 * box or point from the reply, and the choice whose space puts every answer on its target is the
 * model's (core/calibrate.ts). Dialects without it have no Check coordinates.
 */
export interface CoordinateCheck {
  /** the option (DialectOption.name) whose choices are the conventions */
  option: string;
  /** the coordinate space a choice means */
  spaceOf(choice: string): CoordinateSpace;
  /** the request's text; it must start with the check's mark (core/calibrate.ts CALIBRATION_MARK) */
  prompt(targets: readonly { name: string; colourName: string }[]): string;
  /** each named target's numbers (a box or a point) as the reply gives them */
  read(reply: string, names: readonly string[]): Record<string, number[]>;
}

/** A dialect's option values by name. */
export type DialectOptionValues = Readonly<Record<string, string>>;

/**
 * The dialect's own words for the person, as message keys (public/_locales; the meta-test checks
 * both locales have them): what it is for (under the dialect menu) and where its request defaults
 * come from (the temperature's help).
 */
export interface DialectMessages { note: string; requestSource: string }

export type ActionParse = { ok: true; action: Action; notes: string[] } | { ok: false; error: string };

export interface Dialect {
  /** its key in the registry (registry.ts DialectId), the runner's --dialect */
  id: string;
  /** the model it speaks to (shown in settings; a name, not a sentence to translate) */
  model: string;
  observes: Observes;
  coords: CoordinateSpace;
  request: RequestDefaults;
  /** the zip export's WebVoyager folder holds messages and screenshots whatever the grammar */
  exports: { webvoyager: boolean };
  /** the memory a run starts with */
  emptyMemory(): Memory;
  /** the parts of this step's single user message */
  buildRequest(ctx: DialectContext): RequestPart[];
  /** Parse a model reply. `reasoning`: the separate reasoning field some servers fill. Never throws. */
  parseReply(content: string, reasoning: string | null, shot: ShotGeometry, options?: ParseOptions): ParsedStep | ParseError;
  /** Parse one action as a person writes it in this grammar (Edit, the runner's `e ACTION`). Never throws. */
  parseAction(text: string, shot: ShotGeometry, options?: ParseOptions): ActionParse;
  /** Write an action in this grammar (history, approval card, runner prompt, replay's history). */
  formatAction(action: Action, shot: ShotGeometry, options?: ParseOptions): string;
  /** what is readable of a reply still streaming in */
  preview(partial: string): Preview;
  /** the observation that tells the model its last reply could not be read */
  formatErrorObservation(error: string): string;
  /**
   * Whether the model's screenshot is sent padded to multiples of 28 (background/images.ts), given
   * the run's option values (midscene with its boxes in image pixels). Absent: never.
   */
  padsScreenshot?(options: DialectOptionValues): boolean;
  /**
   * The run variables a text refers to, as written (CogAgent's `__CogName_Price__`): the run fills
   * them in before typing or asking the language model (run/variables.ts). Absent: the grammar has
   * no variables.
   */
  variableRefs?(text: string): string[];
  /**
   * The device the run's tab is shown as, given the run's option values (appagent's "device"
   * option: a phone unless the person chose a desktop viewport). Absent: always observes.device.
   */
  deviceOf?(options: DialectOptionValues): Device;
  /**
   * Its grammar opens the person's apps, the sites listed in Settings (glm-mobile's open_app,
   * cogagent's LAUNCH): the settings form shows the list, the run carries it. Absent: no apps.
   */
  opensApps?: boolean;
  /**
   * Its calls read as words to a person (glm-web's `Click [5]`, `Type [3]; [text]`): the panel
   * shows the call itself. Absent: the panel shows the action in the person's words
   * (run/person-text.ts actionWords) and the call as written a click away (JSON, boxes, thousandths).
   */
  callsReadAsWords?: boolean;
  /** How it learns a site's elements (dialects with observes.docs). */
  learn?: LearnHooks;
  /** how Check coordinates asks its model which of its conventions it writes */
  coordinateCheck?: CoordinateCheck;
  /** its settings of its own (rendered by the settings form, flags of the runner) */
  options?: readonly DialectOption[];
  /** its words for the person (message keys) */
  messages: DialectMessages;
  /**
   * What the model is told when the task gives a JSON Schema for its answer (core/answer-schema.ts),
   * in the grammar's own words: where its answer goes, and that it must be JSON matching `schema`.
   */
  answerFormat: (schema: string) => string;
  /** the grammar's action that ends a task, as a follow-up's line names it ("ANSWER", "DONE()", "finished()") */
  endAction: string;
}
