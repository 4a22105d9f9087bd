/**
 * The one action model every dialect maps into (a discriminated union on `type`). Where an
 * action acts, its `target` says where: a label of the element list, a point of the page, the
 * window, or nothing. Points are CSS pixels of the top page's viewport: a dialect's parser maps
 * its model's coordinates there with the shared mapper (coords.ts), so run, guards, replay,
 * traces, exports, panel and runner never see a model's coordinate space.
 *
 * Nothing here writes any grammar: a dialect formats and parses its own (Dialect.formatAction).
 */
export interface Point { x: number; y: number }

export type Target =
  | { kind: 'label'; label: number }
  | ({ kind: 'point' } & Point)
  | { kind: 'window' }
  | { kind: 'none' };

/** A rectangle in CSS px of the top page's viewport. */
export interface Box { x: number; y: number; width: number; height: number }

export type MouseButton = 'left' | 'right' | 'middle';
export type Direction = 'up' | 'down' | 'left' | 'right';

export type Action =
  /** a click (count 2: a double click) on a label or at a point */
  | { type: 'click'; target: Target; button: MouseButton; count: 1 | 2 }
  | { type: 'hover'; target: Target }
  /** a long press (touch-and-hold) */
  | { type: 'press'; target: Target }
  /** press at the target, move to `to` (CSS px), release */
  | { type: 'drag'; target: Target; to: Point }
  /**
   * Type text. target 'none': into the focused field. `clear`: empty the field first; `enter`:
   * press Enter after typing (the GLM web grammar does both).
   */
  | { type: 'type'; target: Target; text: string; clear: boolean; enter: boolean }
  /**
   * scroll the content (not the finger) in `direction`; `ticks`: wheel notches, or `pixels`
   * (absent both: about 2/3 of a view); `until`: on to the end (bottom, top, left or right edge)
   */
  | { type: 'scroll'; target: Target; direction: Direction; ticks?: number; pixels?: number; until?: boolean }
  /** a key or a key combination, keys joined by "+" with our names: "Enter", "Control+a" */
  | { type: 'key'; keys: string }
  | { type: 'wait' }
  | { type: 'goBack' }
  /** the run's start page (a phone's home key) */
  | { type: 'goHome' }
  /** the search start page ("Bing") */
  | { type: 'search' }
  | { type: 'navigate'; url: string }
  /** a site the person listed as an app in settings */
  | { type: 'openApp'; name: string }
  /**
   * The page's visible text inside `box` into the run variable `output` (CogAgent QUOTE_TEXT).
   * `target`: the box's centre. `all`: scroll the box's scroll container to its end, collecting
   * every line once (a long list).
   */
  | { type: 'quote'; target: Target; box: Box; all: boolean; output: string }
  /** a text-only model call with the run's variables filled into `prompt`; its reply into `output` (CogAgent LLM) */
  | { type: 'llm'; prompt: string; output: string }
  /** what the page last put on the clipboard, into `output` (CogAgent QUOTE_CLIPBOARD) */
  | { type: 'clipboard'; output: string }
  /** answer and end the run as finished */
  | { type: 'answer'; text: string }
  /** tell the person the answer; the run goes on (GLM mobile's answer, then status) */
  | { type: 'reply'; text: string }
  /** end the run: done (finished) or not possible (failed), with the model's explanation */
  | { type: 'finish'; outcome: 'done' | 'failed'; text: string };

export type ActionType = Action['type'];

const NONE: Target = { kind: 'none' };

/** Where the action acts ({kind:'none'} for actions that act on no element or place). */
export function targetOf(a: Action): Target {
  return 'target' in a ? a.target : NONE;
}

/** The label an action targets, or null. */
export function labelOf(a: Action): number | null {
  const t = targetOf(a);
  return t.kind === 'label' ? t.label : null;
}

/** The point an action acts at (CSS px, top page), or null. */
export function pointOf(a: Action): Point | null {
  const t = targetOf(a);
  return t.kind === 'point' ? { x: t.x, y: t.y } : null;
}

/** The same action aimed at another target (replay finds a recorded target again). */
export function withTarget(a: Action, target: Target): Action {
  return 'target' in a ? { ...a, target } : a;
}

/** Actions that only read (the page, the clipboard) or think, and store the result in a run variable. */
export function storesVariable(a: Action): a is Extract<Action, { output: string }> {
  return a.type === 'quote' || a.type === 'llm' || a.type === 'clipboard';
}

/** Actions that end the run when they are taken. */
export function endsRun(a: Action): boolean {
  return a.type === 'answer' || a.type === 'finish';
}

/** Label targets and their builders, for dialects and tests. */
export const at = {
  label: (label: number): Target => ({ kind: 'label', label }),
  point: (x: number, y: number): Target => ({ kind: 'point', x, y }),
  window: (): Target => ({ kind: 'window' }),
  none: (): Target => NONE,
};

/** A parsed reply, in every dialect. */
export interface ParsedStep {
  thought: string;
  action: Action;
  /** the action in the dialect's grammar, for the history the model reads (Dialect.formatAction) */
  actionText: string;
  /** the memory in the dialect's form; null when the reply had no usable memory */
  memory: Memory | null;
  /** notes for the next observation, in the model's words */
  notes: string[];
  /** reasoning (think block or reasoning_content), for display only */
  reasoning: string | null;
  /** the model marked the action as sensitive (CogAgent's <<敏感操作>>): the person is asked first, in any mode */
  sensitive?: boolean;
  /** wait this long after the action (ms; the run caps it) */
  sleepMs?: number;
  /** the run ends after this action has run (successfully), finished with this answer (Midscene's last action) */
  endsAfter?: string;
  /** something the model reports as wrong, shown to the person (Midscene's `error`) */
  warning?: string;
  /**
   * the model asks the person for help (UI-TARS's call_user): the person is asked before the
   * action runs, in any mode, with the model's thought; where nobody can answer, the run stops
   */
  asksPerson?: boolean;
}

export interface ParseError {
  error: string;
  reasoning: string | null;
}

export function isParseError(x: ParsedStep | ParseError): x is ParseError {
  return (x as ParseError).error !== undefined;
}

/** A run's memory in its dialect's form: a JSON object (web), a list of objects (PC) or text (mobile). */
export type Memory = Record<string, unknown> | unknown[] | string;
