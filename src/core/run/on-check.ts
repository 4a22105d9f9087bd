/** The 'checked' event (reduce.ts). Pure. */
import { checkDecision } from './guard-decision';
import { modelText } from './model-text';
import { placeholdersIn } from '../secrets';
import { type RunEvent, type RunState } from './state';
import { finishStep, withSecretMasked } from './step';

/** The guards' verdict on the proposed action: run it, ask the person, or refuse it (exploring). */
export function onChecked(state: RunState, ev: Extract<RunEvent, { type: 'checked' }>): RunState {
  const p = state.pending;
  if (state.phase !== 'act' || !p?.reply || p.checked) return state;
  // A field the password guard knows from its attributes or label (a password shown as text, a
  // PIN, a one-time code): what is typed there is masked from now on, as in a password field.
  const a = p.reply.action;
  const masks = ev.hit?.id === 'password' && !p.reply.secret && a.type === 'type' && !placeholdersIn(a).length;
  const q = masks ? { ...p, reply: withSecretMasked(p.reply, p.target ?? null, state, p, true) } : p;
  // what the guard leads to is decided in guard-decision.ts
  const d = checkDecision(state, p, ev.hit);
  if (d.kind === 'refused') {
    const refused: RunState = { ...state, pending: { ...q, checked: true, guardRule: d.rule, decision: { decision: 'rejected', feedback: modelText.exploreNever } } };
    return finishStep(refused, ev.at, { ok: false, error: modelText.exploreNever }, [], 0);
  }
  if (d.kind === 'auto') return { ...state, pending: { ...q, checked: true, decision: { decision: 'auto', feedback: null } } };
  const site = d.rule === 'leave-site' && ev.hit?.site ? { site: ev.hit.site } : {};
  return {
    ...state, phase: 'approve',
    pending: {
      ...q, checked: true, ...(ev.hit ? { guardRule: ev.hit.id } : {}), ...(site.site ? { guardSite: site.site } : {}), approval: { rule: d.rule, reason: d.reason, ...site },
      ...(d.reason ? { guard: { rule: d.rule, reason: d.reason } } : {}),
    },
  };
}
