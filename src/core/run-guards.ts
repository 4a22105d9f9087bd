/**
 * Guards against a run that wastes the person's budget (used by run.ts when a reply comes in):
 * - the loop guard: the same action on an unchanged page (same URL and element list) is pointed
 *   out to the model at REPEAT_NUDGE and stops the run at REPEAT_STOP; Waits in a row are capped;
 * - caps on tokens and cost per run, from the responses' usage and the model's price.
 * Pure.
 */
import type { Action } from './actions';
import { costOf, formatCost, tokensOf, type Price } from './costs';
import type { Mark } from './marks';
import type { PendingStep, RunState, Usage } from './run';

/** The same action on an unchanged page: at NUDGE the model is told so, at STOP the run stops. */
export const REPEAT_NUDGE = 3;
export const REPEAT_STOP = 5;
/** Waits in a row before the run stops. */
export const MAX_WAITS_IN_A_ROW = 5;

export interface RunLimits {
  /** stop past this many tokens (prompt + completion); 0: none */
  maxTokens: number;
  /** stop past this cost; 0: none */
  maxCost: number;
  /** the model's price, or null (unknown: the cost cap cannot apply) */
  price: Price | null;
}

/** A short stable key of the page as the model saw it: the URL and the element list. */
export function pageKeyOf(url: string, elements: Mark[]): string {
  const text = `${url}\n${elements.map((m) => `${m.tag}:${m.text}`).join('\n')}`;
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

export function repeatStop(state: RunState, p: PendingStep, actionText: string, action: Action): string | null {
  const n = repeats(state, pageKeyOf(p.url, p.elements), actionText) + 1;
  if (n >= REPEAT_STOP) return `the model proposed the same action (${actionText}) ${n} times on an unchanged page; the run was stopped so that it does not loop.`;
  if (action.type === 'wait' && waitsInARow(state) + 1 > MAX_WAITS_IN_A_ROW) return `the model waited ${MAX_WAITS_IN_A_ROW} times in a row; the run was stopped.`;
  return null;
}

export function repeatNudge(state: RunState, p: PendingStep, actionText: string): string | null {
  const n = repeats(state, pageKeyOf(p.url, p.elements), actionText) + 1;
  return n >= REPEAT_NUDGE
    ? `You have proposed this same action ${n} times on this unchanged page and it has not helped; try a different approach.`
    : null;
}

/** The run's tokens and cost so far, with this reply's usage. */
export function runTotals(state: RunState, extra: Usage | null = null): { tokens: Usage; cost: number | null } {
  const tokens = tokensOf([...state.steps.map((s) => s.usage), extra]);
  return { tokens, cost: costOf(tokens, state.limits?.price) };
}

export function overCap(state: RunState, usage: Usage | null): string | null {
  const l = state.limits;
  if (!l) return null;
  const { tokens, cost } = runTotals(state, usage);
  const used = tokens.promptTokens + tokens.completionTokens;
  if (l.maxTokens > 0 && used > l.maxTokens) return `this run used ${used} tokens, over the cap of ${l.maxTokens} set in settings.`;
  if (l.maxCost > 0 && cost !== null && cost > l.maxCost) return `this run cost ${formatCost(cost)}, over the cap of ${l.maxCost} set in settings.`;
  return null;
}
