/**
 * Storage of a run that types a password: the text never reaches the database (run-store.ts keeps
 * it in memory-only session storage while its action is pending). Pure.
 */
import { PASSWORD_MASK, type PendingReply, type RunState } from './state';

/**
 * Storage split: a pending action that types into a password field keeps its text out of what is
 * written to the database (`state` has it masked); `secret` is the text, kept in memory-only storage.
 */
export function splitSecret(state: RunState): { state: RunState; secret: string | null } {
  const r = state.pending?.reply;
  if (!r?.secret || r.action.type !== 'type' || r.action.text === PASSWORD_MASK) return { state, secret: null };
  const reply: PendingReply = { ...r, action: { ...r.action, text: PASSWORD_MASK } };
  return { state: { ...state, pending: { ...state.pending!, reply } }, secret: r.action.text };
}

/**
 * The inverse of splitSecret after a restart. When the secret is gone (the browser restarted), a
 * password action that has not started is dropped and the step asked again, so "••••" is never typed.
 */
export function joinSecret(state: RunState, secret: string | null): RunState {
  const p = state.pending;
  const r = p?.reply;
  if (!p || !r?.secret || r.action.type !== 'type' || r.action.text !== PASSWORD_MASK) return state;
  if (secret !== null) return { ...state, pending: { ...p, reply: { ...r, action: { ...r.action, text: secret } } } };
  if (p.actStartedAt !== undefined) return state; // the input already ran (or may have): it is not repeated
  const { reply: _r, approval: _a, checked: _c, decision: _d, ...observed } = p;
  return { ...state, phase: 'model', pending: observed };
}
