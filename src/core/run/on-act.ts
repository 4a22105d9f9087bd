/** The events of an action under way: 'acting', 'input', 'acted', 'resolved' (reduce.ts). Pure. */
import { afterActionHit, type Landed } from '../guards/after';
import { translatorFor } from '../locales';
import { siteOfTyped } from '../allowed-sites';
import { guardApps, withRunSites } from './guard-decision';
import { type AfterAction, type PendingStep, type RunEvent, type RunState } from './state';
import { finishStep, withOutcome } from './step';

/** The input is about to be given (a worker stopped now knows the action may have started). */
export function onActing(state: RunState, ev: Extract<RunEvent, { type: 'acting' }>): RunState {
  const p = state.pending;
  if (state.phase !== 'act' || !p?.reply || p.actStartedAt !== undefined) return state;
  return { ...state, pending: { ...p, actStartedAt: ev.at } };
}

/** The input was given. */
export function onInput(state: RunState, ev: Extract<RunEvent, { type: 'input' }>): RunState {
  const p = state.pending;
  if (state.phase !== 'act' || !p?.reply || p.actStartedAt === undefined || p.inputResult) return state;
  return { ...state, pending: { ...p, inputResult: ev.result } };
}

/** The page settled after the action: the step is recorded, or what it did waits for the person. */
export function onActed(state: RunState, ev: Extract<RunEvent, { type: 'acted' }>): RunState {
  const p = state.pending;
  if (state.phase !== 'act' || !p?.reply || p.acted) return state;
  if (ev.landed) {
    const after = afterAction(state, p, ev.landed);
    if (after) {
      const pending: PendingStep = { ...p, acted: { result: ev.result, ms: ev.ms }, after };
      if (after.decision) return { ...state, pending };
      const site = after.rule === 'leave-site' ? siteOfTyped(after.url) : null;
      const guard = after.reason ? { guard: { rule: after.rule, reason: after.reason } } : {};
      return { ...state, phase: 'approve', pending: { ...pending, ...guard, approval: { rule: after.rule, reason: after.reason, after: true, ...(site ? { site } : {}) } } };
    }
  }
  return finishStep({ ...state, formatErrorsInARow: 0 }, ev.at, ev.result, p.reply.notes, ev.ms);
}

/** What the action did was kept or undone as the person said: the step is recorded. */
export function onResolved(state: RunState, ev: Extract<RunEvent, { type: 'resolved' }>): RunState {
  const p = state.pending;
  if (state.phase !== 'act' || !p?.reply || !p.acted || !p.after?.decision || p.after.outcome !== undefined) return state;
  const after: AfterAction = { ...p.after, outcome: ev.outcome };
  return finishStep({ ...state, formatErrorsInARow: 0, pending: { ...p, after } }, ev.at, withOutcome(p.acted.result, after), p.reply.notes, p.acted.ms);
}

/**
 * What the action did that the guards look at after it: asked about (no decision yet), or
 * downloads nobody needs to be asked about (kept: decision 'auto'); null: nothing of the kind.
 */
function afterAction(state: RunState, p: PendingStep, landed: Landed<AfterAction['downloads'][number]>): AfterAction | null {
  const approved = p.decision?.decision === 'approved' ? p.guardRule ?? null : null;
  const hit = afterActionHit(landed, { site: state.site, before: p.url, apps: guardApps(state), approved, t: translatorFor(state.locale) }, withRunSites(state, state.guards));
  const chooser = landed.chooser ? { chooser: landed.chooser } : {};
  const held = { ...(landed.dialog ? { dialog: landed.dialog.dialog } : {}), ...(landed.requests?.length ? { requests: landed.requests } : {}), ...chooser };
  const { url, downloads } = landed;
  if (hit) return { rule: hit.id, reason: hit.reason, url, downloads, ...held };
  // nobody to ask (the rule is off or always allowed): downloads kept, a chooser given its files
  return downloads.length || landed.chooser ? { rule: null, reason: null, url, downloads, ...chooser, decision: 'auto' } : null;
}
