/** What the person does to a run: take over, approve, reject, resume, attach files; and the run's tab changes (reduce.ts). Pure. */
import { endsRun, labelOf } from '../action/action';
import { hostKey } from '../guards';
import { fileFindings } from './findings';
import { dialectOf } from '../dialects/registry';
import { modelText } from './model-text';
import { TOOK_OVER_FEEDBACK, type AfterAction, type Approval, type Paused, type RunEvent, type RunState } from './state';
import { actedOn, endWith, finishStep, personStep, shotOf, typedPassword, withOutcome, withSecretMasked } from './step';

/**
 * The person takes the page. A proposed action that has not started is recorded as not run (its
 * reply is kept); a step still being observed or asked is dropped: its screenshot would be stale
 * once the person acts, and it is taken again after resume.
 */
export function takeOver(state: RunState, at: number, url: string): RunState {
  if (state.paused?.kind === 'takeover') return state;
  const paused: Paused = { kind: 'takeover', at, url: state.paused?.url ?? url };
  const p = state.pending;
  if (p?.reply && p.acted && p.after && !p.after.decision) {
    // Asked about what the action did: the person now has the browser, and it is left as it is.
    const after: AfterAction = { ...p.after, decision: 'takeover', outcome: modelText.afterTakeover };
    const done = finishStep({ ...state, pending: { ...p, approval: undefined, after } }, at, withOutcome(p.acted.result, after), p.reply.notes, p.acted.ms);
    return done.status === 'running' ? { ...done, paused } : done;
  }
  if (p?.reply && p.actStartedAt === undefined && (state.phase === 'act' || state.phase === 'approve')) {
    const withDecision: RunState = { ...state, pending: { ...p, approval: undefined, decision: { decision: 'rejected', feedback: TOOK_OVER_FEEDBACK } } };
    const done = finishStep(withDecision, at, { ok: false, error: modelText.tookOverBeforeRun }, [], 0);
    return done.status === 'running' ? { ...done, paused } : done;
  }
  if (state.phase === 'act' && p?.actStartedAt !== undefined) return { ...state, paused }; // the action finishes first
  return { ...state, pending: null, phase: 'observe', paused };
}

/**
 * The run moves to another tab. An action under way finishes first: its step records the change.
 * A proposed action that has not started was meant for the page it saw: recorded as not run. A
 * step still being observed or asked is dropped and observed again, in the new tab. The change is
 * told to the model with the next recorded step.
 */
export function onTab(state: RunState, ev: Extract<RunEvent, { type: 'tab' }>): RunState {
  if (ev.tabId === state.tabId) return state;
  const stack = state.tabStack ?? [];
  const tabStack = ev.change === 'opened' ? [...stack, state.tabId] : stack.slice(0, Math.max(0, stack.lastIndexOf(ev.tabId)));
  const moved: RunState = { ...state, tabId: ev.tabId, tabStack, tabChanges: [...(state.tabChanges ?? []), { change: ev.change, url: ev.url }] };
  const p = state.pending;
  if (p?.acted || (state.phase === 'act' && p?.actStartedAt !== undefined)) return moved;
  if (p?.reply && (state.phase === 'act' || state.phase === 'approve')) {
    return finishStep({ ...moved, pending: { ...p, approval: undefined, decision: undefined } }, ev.at, { ok: false, error: modelText.tabChangedBeforeRun }, [], 0);
  }
  return { ...moved, pending: null, phase: 'observe' };
}

export function onApprove(state: RunState, ev: Extract<RunEvent, { type: 'approve' }>): RunState {
  const p = state.pending;
  if (state.phase !== 'approve' || !p?.reply) return state;
  let reply = p.reply;
  let target = p.target ?? null;
  let guards = state.guards;
  if (ev.allowRule && p.approval?.rule) {
    const key = hostKey(state.site);
    const now = guards.allow[key] ?? [];
    if (!now.includes(p.approval.rule)) guards = { ...guards, allow: { ...guards.allow, [key]: [...now, p.approval.rule] } };
  }
  // a yes to acting on another site allows that site for the rest of the run (asked once)
  const granted = p.approval?.rule === 'leave-site' && p.approval.site && !ev.edit ? grantSite(state, p.approval.site) : state;
  // What the action did is kept (an edit has nothing to change: the action ran).
  if (p.after && !p.after.decision) {
    if (ev.edit) return state;
    return { ...granted, guards, phase: 'act', pending: { ...p, approval: undefined, after: { ...p.after, decision: 'approved' } } };
  }
  state = granted;
  if (ev.edit) {
    const label = labelOf(ev.edit);
    if (label !== null && !p.elements.some((m) => m.label === label)) return state; // validated by the caller
    target = actedOn(p.elements, ev.edit, ev.target);
    const actionText = dialectOf(state.dialect).formatAction(ev.edit, shotOf(p), state);
    reply = withSecretMasked({ ...reply, action: ev.edit, actionText }, target, state, p);
  }
  state = typedPassword(state, reply);
  const decision: Approval = { decision: ev.edit ? 'edited' : 'approved', feedback: null };
  const next: RunState = { ...state, guards, pending: { ...state.pending!, reply, target, approval: undefined, decision, checked: true }, phase: 'act' };
  return endsRun(reply.action) ? endWith(next, ev.at, reply.action) : next;
}

/** The run with `site` allowed from now on (core/allowed-sites.ts), once. */
function grantSite(state: RunState, site: string): RunState {
  const now = state.sitesGranted ?? [];
  return now.includes(site) ? state : { ...state, sitesGranted: [...now, site] };
}

/** The person said no to the proposed action (or to what it did). */
export function onReject(state: RunState, ev: Extract<RunEvent, { type: 'reject' }>): RunState {
  const p = state.pending;
  if (state.phase !== 'approve' || !p?.reply) return state;
  const feedback = ev.feedback?.trim() || null;
  if (p.after && !p.after.decision) return { ...state, phase: 'act', pending: { ...p, approval: undefined, after: { ...p.after, decision: 'rejected', feedback } } };
  const withDecision: RunState = { ...state, pending: { ...p, approval: undefined, decision: { decision: 'rejected', feedback } } };
  return finishStep(withDecision, ev.at, { ok: false, error: modelText.rejected(feedback) }, [], 0);
}

/** The run goes on after a pause or a take-over (a take-over records that the person acted). */
export function onResume(state: RunState, ev: Extract<RunEvent, { type: 'resume' }>): RunState {
  if (!state.paused) return state;
  if (state.paused.kind === 'pause') return { ...state, paused: null };
  const steps = [...state.steps, personStep(state, state.paused, ev.at, ev.url)];
  return { ...state, steps, paused: null, pending: null, phase: 'observe', tabChanges: [] };
}

/** The files the person attached: their names are screened like the page. */
export function onFiles(state: RunState, ev: Extract<RunEvent, { type: 'files' }>): RunState {
  // the model is told the attached files' names: a name aimed at the agent makes the next action wait
  const named = fileFindings(ev.files.filter((f) => !state.files?.some((g) => g.name === f.name)));
  return { ...state, files: ev.files, ...(named.length ? { heldFindings: [...(state.heldFindings ?? []), ...named] } : {}) };
}
