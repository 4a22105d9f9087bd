/**
 * Run variables: values an action stored (a quoted text, a language model's answer, the page's
 * clipboard) for later actions to use by name. The grammar names them (Dialect.variableRefs:
 * CogAgent writes `__CogName_Price__`); the run keeps them by that name, fills them into a typed
 * text or a language-model prompt just before the action runs, and never into what is kept: the
 * action, its text and the trace keep the names.
 */
import type { Action } from '../action/action';
import type { Dialect } from '../dialects/types';
import type { Variables } from './state';

export type { Variable, Variables } from './state';

/** Longest value kept (a whole quoted list can be long; an LLM prompt built from it must stay sendable). */
export const MAX_VARIABLE_CHARS = 100_000;

/** The text of an action that variables are filled into: a typed text, a language-model prompt. */
export function variableText(a: Action): string | null {
  if (a.type === 'type') return a.text;
  if (a.type === 'llm') return a.prompt;
  return null;
}

/** The variable names the action refers to (in the dialect's syntax), once each, in order. */
export function variablesUsed(a: Action, dialect: Pick<Dialect, 'variableRefs'>): string[] {
  const text = variableText(a);
  if (text === null || !dialect.variableRefs) return [];
  return [...new Set(dialect.variableRefs(text))];
}

/** The action with its variables' values filled in; `missing`: names no action stored (the action is then not run). */
export function fillVariables(a: Action, dialect: Pick<Dialect, 'variableRefs'>, vars: Variables | undefined): { action: Action; missing: string[] } {
  const names = variablesUsed(a, dialect);
  if (!names.length) return { action: a, missing: [] };
  const missing = names.filter((n) => !vars || !Object.prototype.hasOwnProperty.call(vars, n));
  if (missing.length) return { action: a, missing };
  // one pass, longest names first (a name that contains another is filled whole; a value that
  // holds a name is not filled again)
  const pattern = new RegExp([...names].sort((x, y) => y.length - x.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const fill = (text: string) => text.replace(pattern, (n) => vars![n].value);
  if (a.type === 'type') return { action: { ...a, text: fill(a.text) }, missing: [] };
  if (a.type === 'llm') return { action: { ...a, prompt: fill(a.prompt) }, missing: [] };
  return { action: a, missing: [] };
}

/** A value as kept: capped. */
export function keptValue(value: string): string {
  return value.length > MAX_VARIABLE_CHARS ? value.slice(0, MAX_VARIABLE_CHARS) : value;
}

/** A value as shown in an observation: one line, at most `max` characters. */
export function previewValue(value: string, max = 300): string {
  const one = value.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** The variables with secret values masked (views, traces, exports). */
export function shownVariables(vars: Variables | undefined, mask: string): Variables {
  const out: Variables = {};
  for (const [k, v] of Object.entries(vars ?? {})) out[k] = v.secret ? { ...v, value: mask } : v;
  return out;
}
