import type { Translate } from '../i18n';
import { english } from '../locales';
import type { BudgetStop } from './budget';
import { MAX_REPLY_CHARS } from '../limits';
import { modelText } from './model-text';
import type { Action, Target } from '../action/action';
import { dialectOf } from '../dialects/registry';

/**
 * What the run tells the PERSON (stop reasons shown in the panel and printed by the runner), in the
 * person's language (`t`; the strings are in public/_locales). Kept apart from what the model reads
 * (model-text.ts), which is always English.
 */
export function personTextIn(t: Translate) {
  return {
    maxSteps: (n: number) => t('stopMaxSteps', n),
    /** `capped`: the reply passed the extension's own size cap (limits.ts), not the server's max tokens */
    unreadable: (count: number, problem: string, shown: string, truncated: boolean, capped = false) =>
      t('stopUnreadable', count, problem, shown) + (capped ? t('limReplyCapped', MAX_REPLY_CHARS) : truncated ? t('stopUnreadableCut') : t('stopUnreadableCheck')),
    /** a budget or loop guard stopped the run */
    budgetStop: (b: BudgetStop): string => {
      switch (b.kind) {
        case 'repeat': return t('stopRepeat', b.action, b.n);
        case 'waits': return t('stopWaits', b.n);
        case 'tokens': return t('stopTokens', b.used, b.cap);
        case 'cost': return t('stopCost', b.cost, b.cap);
      }
    },
    /** the run followed a new tab, or went back when its tab closed (panel, runner) */
    tabChange: (c: { change: 'opened' | 'closed'; url: string }) =>
      (c.change === 'opened' ? t('tabFollowed', c.url) : t('tabBack', c.url)),
    /** the model said the task cannot be done (glm-pc FAIL, glm-mobile infeasible) */
    modelGaveUp: (why: string) => (why ? t('stopGaveUpWhy', why) : t('stopGaveUp')),
    /** the task's JSON Schema refused the model's answers (core/answer-schema.ts) */
    answerRefused: (n: number, error: string) => t('stopAnswerSchema', n, error),
  };
}

/** In English: the runner's and the tests' default. */
export const personText = personTextIn(english);

/** An element as a person reads it in an action: its tag and its text. */
export interface ElementWords { tag: string; text: string }

/** How much of an element's text an action description shows. */
export const ELEMENT_TEXT_MAX = 80;

/** `<button> "Search"`: an element's tag and its text, whitespace collapsed, cut at ELEMENT_TEXT_MAX. */
export function elementInWords(e: ElementWords): string {
  const text = e.text.replace(/\s+/g, ' ').trim();
  const cut = text.length > ELEMENT_TEXT_MAX ? `${text.slice(0, ELEMENT_TEXT_MAX - 1)}…` : text;
  return `<${e.tag}>${cut ? ` "${cut}"` : ''}`;
}

/**
 * `Click [12] <button> "Search"`: the action as the dialect wrote it, plus the element it acts on.
 * A dialect whose "no action" is the bare word `null` (midscene's end of the task) gets a gloss in
 * the person's language (`t`), so a person does not read a stray `null`.
 */
export function actionInWords(actionText: string, element: ElementWords | null | undefined, t: Translate = english): string {
  if (/^\s*null\s*$/i.test(actionText)) return t('actionNullEnd', actionText.trim());
  return element ? `${actionText} ${elementInWords(element)}` : actionText;
}

/** Where an action acts, in words: its element (`<a> "Clean Code"`), else the place its target names. */
function placeInWords(target: Target, element: ElementWords | null | undefined, t: Translate): string {
  if (element) return elementInWords(element);
  switch (target.kind) {
    case 'label': return t('placeLabel', target.label);
    case 'point': return t('placePoint', Math.round(target.x), Math.round(target.y));
    case 'window': return t('placePage');
    case 'none': return t('placeFocused');
  }
}

const DIRECTION_KEYS = { up: 'dirUp', down: 'dirDown', left: 'dirLeft', right: 'dirRight' } as const;

/** Every message key actionWords uses (the HTML report carries their texts: it opens outside the extension). */
export const ACTION_WORD_KEYS = [
  'placeLabel', 'placePoint', 'placePage', 'placeFocused', 'dirUp', 'dirDown', 'dirLeft', 'dirRight',
  'doClick', 'doDoubleClick', 'doRightClick', 'doMiddleClick', 'doHover', 'doLongPress', 'doDrag', 'doType', 'doTypeEnter',
  'doScrollPage', 'doScrollPageEnd', 'doScrollIn', 'doScrollInEnd', 'doKey', 'doWait', 'doGoBack', 'doGoHome', 'doSearch', 'doNavigate', 'doOpenApp', 'doQuote',
  'doLlm', 'doClipboard', 'doAnswer', 'doReply', 'doFinish', 'doFinishBare', 'doGiveUp', 'doGiveUpBare', 'actionNullEnd',
] as const;

/**
 * An action in the person's words and language, whatever grammar the model wrote it in:
 * `Click <a> "Clean Code"`, `Type "kettle" into <input> "Search", then press Enter`, `Answer: $54.50`.
 * The call as the model wrote it stays a click away where this is shown (ActionText).
 */
export function actionWords(a: Action, element: ElementWords | null | undefined, t: Translate = english): string {
  switch (a.type) {
    case 'click': {
      const at = placeInWords(a.target, element, t);
      if (a.count === 2) return t('doDoubleClick', at);
      return a.button === 'right' ? t('doRightClick', at) : a.button === 'middle' ? t('doMiddleClick', at) : t('doClick', at);
    }
    case 'hover': return t('doHover', placeInWords(a.target, element, t));
    case 'press': return t('doLongPress', placeInWords(a.target, element, t));
    case 'drag': return t('doDrag', placeInWords(a.target, element, t), t('placePoint', Math.round(a.to.x), Math.round(a.to.y)));
    case 'type': return t(a.enter ? 'doTypeEnter' : 'doType', a.text, placeInWords(a.target, element, t));
    case 'scroll': {
      const dir = t(DIRECTION_KEYS[a.direction]);
      if (a.target.kind === 'window' && !element) return t(a.until ? 'doScrollPageEnd' : 'doScrollPage', dir);
      return t(a.until ? 'doScrollInEnd' : 'doScrollIn', dir, placeInWords(a.target, element, t));
    }
    case 'key': return t('doKey', a.keys);
    case 'wait': return t('doWait');
    case 'goBack': return t('doGoBack');
    case 'goHome': return t('doGoHome');
    case 'search': return t('doSearch');
    case 'navigate': return t('doNavigate', a.url);
    case 'openApp': return t('doOpenApp', a.name);
    case 'quote': return t('doQuote', a.output);
    case 'llm': return t('doLlm', a.prompt, a.output);
    case 'clipboard': return t('doClipboard', a.output);
    case 'answer': return t('doAnswer', a.text);
    case 'reply': return t('doReply', a.text);
    case 'finish':
      if (a.outcome === 'failed') return a.text ? t('doGiveUp', a.text) : t('doGiveUpBare');
      return a.text ? t('doFinish', a.text) : t('doFinishBare');
  }
}

/**
 * How a step's action is shown to a person: `words`, and `raw`, the call as the model wrote it,
 * when the words are not the call itself (null: the dialect's calls read as words, glm-web's
 * `Click [5] <a> "Clean Code"`; an action the run could not read; a person's step).
 */
export function describedAction(
  dialect: string,
  actionText: string,
  action: Action | null | undefined,
  element: ElementWords | null | undefined,
  t: Translate = english,
): { words: string; raw: string | null } {
  if (!action || dialectOf(dialect).callsReadAsWords) return { words: actionInWords(actionText, element, t), raw: null };
  return { words: actionWords(action, element, t), raw: actionText };
}

/** describedAction of a step (live view, History, the HTML report). */
export function describedStep(dialect: string, step: StepLike, t: Translate = english): { words: string; raw: string | null } {
  return describedAction(dialect, step.actionText, step.action as Action | null, actedElement(step), t);
}

/**
 * A step's observation as a person reads it: the model's "Success" (model-text.ts) in the
 * person's language; any other observation is shown as the model was told it.
 */
export function observationInWords(observation: string, t: Translate = english): string {
  return observation === modelText.success ? t('obsSuccess') : observation;
}

/** What a step (live, in the history, in a trace) has that says what its action acted on. */
export interface StepLike {
  action: { type: string; target?: { kind: string; label?: number } } | null;
  actionText: string;
  /** the element recorded for the action: its label's mark or what was under its point */
  target?: ElementWords | null;
  elements: ReadonlyArray<ElementWords & { label: number }>;
}

/**
 * The element a step's action acted on: the one recorded with the step (a label's element, the
 * element under a point, the focused field), else, for a label action (traces of version 1 kept
 * no target), that label's element in the step's element list.
 */
export function actedElement(step: StepLike): ElementWords | null {
  if (step.target) return step.target;
  const t = step.action?.target;
  if (t?.kind !== 'label') return null;
  return step.elements.find((e) => e.label === t.label) ?? null;
}

/**
 * The one description of a step's action everywhere a person reads it (live view, History, the
 * HTML report, the runner's stdout and approval prompt): `Click [12] <button> "Search"`.
 */
export function stepActionInWords(step: StepLike, t: Translate = english): string {
  return actionInWords(step.actionText, actedElement(step), t);
}

/**
 * Text from a page or a model made safe to print as part of one terminal line: line breaks
 * (LF and CR LF as `\n`), other control characters (escape sequences included), the Unicode
 * line and paragraph separators and the bidi controls (overrides, embeddings, isolates, marks)
 * are written as escapes (`\r`, `\t`, `\u001b`, `\u2028`, `\u202e`, …), so such text can never
 * start a line of its own (a fake `ANSWER:` line), move the cursor, or read backwards.
 */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n/g, '\n').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
