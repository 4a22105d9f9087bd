/**
 * Guards against a run that wastes the person's budget (used by reduce.ts when a reply comes in):
 * - the loop guard: the same action on an unchanged page (same URL, element list and control values) is pointed
 *   out to the model at REPEAT_NUDGE and stops the run at REPEAT_STOP; Waits in a row are capped;
 * - caps on tokens and cost per run, from the responses' usage and the model's price.
 * Reasons come back as data; model-text.ts and person-text.ts word them for each audience. Pure.
 */
import type { Action } from '../action/action';
import { costOf, formatCost, formatMoney, tokensOf, type Usage } from '../costs';
import type { Mark } from '../marks';
import type { PendingStep, RunState } from './state';

/** The same action on an unchanged page: at NUDGE the model is told so, at STOP the run stops. */
export const REPEAT_NUDGE = 3;
export const REPEAT_STOP = 5;
/** Waits in a row before the run stops. */
export const MAX_WAITS_IN_A_ROW = 5;

export type BudgetStop =
  | { kind: 'repeat'; action: string; n: number }
  | { kind: 'waits'; n: number }
  | { kind: 'tokens'; used: number; cap: number }
  | { kind: 'cost'; cost: string; cap: string };

/**
 * A short stable key of the page as the model saw it: the URL, the element list, and the
 * controls' values and states (hashed in the page: a spinner's value, a checkbox, aria-valuenow),
 * so an action that keeps changing a value is not taken for one that changes nothing.
 */
export function pageKeyOf(url: string, elements: Mark[], values = ''): string {
  return textKey(`${url}\n${elements.map((m) => `${m.tag}:${m.text}`).join('\n')}\n${values}`);
}

/** A short key of a text (its length and a 32-bit hash): equal texts, equal keys. */
export function textKey(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = ((h * 33) ^ text.charCodeAt(i)) >>> 0;
  return `${text.length}:${h.toString(36)}`;
}

/** How many steps in a row, ending with the last one, proposed `actionText` on this same page. */
function repeats(state: RunState, key: string, actionText: string): number {
  let n = 0;
  for (let i = state.steps.length - 1; i >= 0; i--) {
    const s = state.steps[i];
    if (s.kind === 'person' || s.pageKey !== key || s.actionText !== actionText) break;
    n++;
  }
  return n;
}

function waitsInARow(state: RunState): number {
  let n = 0;
  for (let i = state.steps.length - 1; i >= 0 && state.steps[i].action?.type === 'wait'; i--) n++;
  return n;
}

export function repeatStop(state: RunState, p: PendingStep, actionText: string, action: Action): BudgetStop | null {
  const n = repeats(state, pageKeyOf(p.url, p.elements, p.values), actionText) + 1;
  if (n >= REPEAT_STOP) return { kind: 'repeat', action: actionText, n };
  if (action.type === 'wait' && waitsInARow(state) + 1 > MAX_WAITS_IN_A_ROW) return { kind: 'waits', n: MAX_WAITS_IN_A_ROW };
  return null;
}

/** How many times in a row this action has been proposed on this page, when the model should be told. */
export function repeatCount(state: RunState, p: PendingStep, actionText: string): number | null {
  const n = repeats(state, pageKeyOf(p.url, p.elements, p.values), actionText) + 1;
  return n >= REPEAT_NUDGE ? n : null;
}

/** The run's tokens and cost so far, with this reply's usage. */
export function runTotals(state: RunState, extra: Usage | null = null): { tokens: Usage; cost: number | null } {
  const tokens = tokensOf([...state.steps.map((s) => s.usage), extra]);
  return { tokens, cost: costOf(tokens, state.limits?.price) };
}

export function overCap(state: RunState, usage: Usage | null): BudgetStop | null {
  const l = state.limits;
  if (!l) return null;
  const { tokens, cost } = runTotals(state, usage);
  const used = tokens.promptTokens + tokens.completionTokens;
  if (l.maxTokens > 0 && used > l.maxTokens) return { kind: 'tokens', used, cap: l.maxTokens };
  if (l.maxCost > 0 && cost !== null && cost > l.maxCost) return { kind: 'cost', cost: formatCost(cost, l.currency ?? null), cap: formatMoney(l.maxCost, l.currency ?? null) };
  return null;
}
