/**
 * The run state machine: reduce(state, event) -> state. Pure: no chrome, no DOM, no clock (times
 * come in with the events). effects.ts says what the background must do next.
 *
 * 1. observe: label the page, take the screenshot -> 'observed' (the dialect builds the request here, once)
 * 2. model: ask the model -> 'replied' (parsed by the dialect; unreadable -> format-error step),
 *    or in a replay the next recorded action -> 'replayed'
 * 3. check: the guards look at the proposed action -> 'checked'; in step-approval mode, or when a
 *    guard trips, the run waits in phase 'approve' for 'approve' (maybe edited) or 'reject'
 * 4. act: 'acting' is written before the input, 'input' after it, 'acted' after the page settled,
 *    so a worker that Chrome stopped mid-action knows whether the input happened
 * 5. repeat until the task is answered, done or failed, max steps, 3 unreadable replies in a
 *    row, stop or failure.
 *
 * At any time: 'pause', 'takeover' (the person acts; a proposed action that has not run is
 * recorded as not run), 'resume' (after a take-over, a step records that the person acted).
 *
 * Each event's handling is in its own file: on-observe.ts, on-reply.ts, on-check.ts, on-act.ts,
 * on-person.ts (the person's answers, take-over, tabs, files); what they share (recording and
 * ending a step, masking what a reply types) in step.ts; a new run in create.ts. The secrets are
 * hidden in an event's page text once, before it is handled (secrets.ts hideEvent).
 */
import type { RunEvent, RunState } from './state';
import { endKeepingAction } from './step';
import { hideEvent } from './secrets';
import { onObserved, onKept } from './on-observe';
import { onReply, onReplayed } from './on-reply';
import { onChecked } from './on-check';
import { onActing, onActed, onInput, onResolved } from './on-act';
import { onApprove, onFiles, onReject, onResume, onTab, takeOver } from './on-person';

export { createRun, upgradeRun } from './create';
export { historyOf, markOf, modelSteps, parseModelReply, shotOf, withSecretMasked } from './step';

export function reduce(state: RunState, event: RunEvent): RunState {
  if (state.status !== 'running') return state;
  // what the page reports, secrets hidden once, here (secrets.ts hideEvent)
  const ev = hideEvent(state, event);
  switch (ev.type) {
    case 'stop': return endKeepingAction(state, ev.at, 'stopped', ev.reason);
    case 'fail': return { ...endKeepingAction(state, ev.at, 'failed', ev.reason), ...(ev.cause ? { failCause: ev.cause } : {}) };
    case 'mode': return { ...state, approveSteps: ev.approveSteps };
    case 'pause': return state.paused ? state : { ...state, paused: { kind: 'pause', at: ev.at, url: ev.url } };
    case 'takeover': return takeOver(state, ev.at, ev.url);
    case 'resume': return onResume(state, ev);
    case 'checked': return onChecked(state, ev);
    case 'tab': return onTab(state, ev);
    case 'files': return onFiles(state, ev);
    case 'approve': return onApprove(state, ev);
    case 'reject': return onReject(state, ev);
    case 'acting': return onActing(state, ev);
    case 'input': return onInput(state, ev);
    case 'observed': return onObserved(state, ev);
    case 'kept': return onKept(state, ev);
    case 'replied': return onReply(state, ev);
    case 'replayed': return onReplayed(state, ev);
    case 'acted': return onActed(state, ev);
    case 'resolved': return onResolved(state, ev);
  }
}
