/**
 * Commit and advance: every transition goes through the pure reducer, is saved (commit) or kept in
 * memory only (advance), and is broadcast to the views. The observed step's history images are
 * made beside the step (startKeeping) and joined by the commit of the event that records the step.
 */
import { reduce, stepsChangedFrom, toRunView, withoutStepPictures, type RunEvent, type RunState, type StepRecord } from '../../core/run';
import type { RunView } from '../../core/messages';
import { translatorFor } from '../../core/locales';
import { markEnded, saveRun, StorageFullError } from '../run-store';
import type { Active } from './active';
import { KEEP_ALL_MS, within } from '../../core/deadline';

/** per run, the steps of its last broadcast: the next one carries only the steps changed since */
const sentSteps = new Map<string, readonly StepRecord[]>();
let lastRev = 0;
/** Orders the views this worker makes; after a restart it goes on from the clock, past the old worker's. */
function nextRev(): number {
  lastRev = Math.max(Date.now(), lastRev + 1);
  return lastRev;
}

/** The whole view of a run, for a reply (run/get, a person's control). */
export function viewOf(state: RunState): RunView {
  return toRunView(state, { rev: nextRev() });
}

/** A transition, to every view: the run without the steps they already have (view.ts mergeView). */
export function broadcast(state: RunState): void {
  const stepsFrom = stepsChangedFrom(sentSteps.get(state.id), state.steps);
  if (state.status === 'running') sentSteps.set(state.id, state.steps);
  else sentSteps.delete(state.id);
  chrome.runtime.sendMessage({ event: 'run/update', run: toRunView(state, { rev: nextRev(), stepsFrom }) }).catch(() => undefined);
}

/**
 * The step's history images (the clean view, the labelled one as kept) and the store write of the
 * observed step, once: started when the model request left (or, without one, when the run needs
 * them), while the model thinks and the action runs. Resolves when they are committed. A job whose
 * step was dropped (a tab change, a take-over, a stop) is dropped too.
 */
export function startKeeping(a: Active, sent?: { encodeMs: number; requestMs: number }): Promise<void> {
  const job = a.keep;
  if (job) {
    a.keep = null;
    if (a.state.status === 'running' && a.state.pending?.index === job.index && a.state.pending.screenshot === job.shot) {
      // never held for ever: images not made in time leave the step with the model's picture (core/run/step.ts finishStep)
      a.keeping = within(job.run(), KEEP_ALL_MS)
        .catch(() => ({ labelled: '', clean: '' }))
        .then((kept) => commit(a, { type: 'kept', at: Date.now(), index: job.index, kept, ...(sent ? { sent } : {}) }));
    }
  }
  return a.keeping ?? Promise.resolve();
}

/** The event records the step in progress (a step in the history): its images must be there first. */
function records(state: RunState, ev: RunEvent): boolean {
  return !!state.pending && ev.type !== 'kept' && reduce(state, ev).steps.length > state.steps.length;
}

export async function commit(a: Active, ev: RunEvent): Promise<void> {
  // whichever path the event comes by (the loop, a person's control, a time limit), a step is
  // recorded with its history images, never with the model's picture in their place
  if ((a.keep || a.keeping) && records(a.state, ev)) await startKeeping(a).catch(() => undefined);
  const before = a.state;
  a.state = reduce(a.state, ev);
  if (a.state === before) return;
  try {
    await saveRun(a.state);
    // The store has the finished steps' pictures now: memory lets them go (read back when needed).
    a.state = withoutStepPictures(a.state);
  } catch (err) {
    if (!(err instanceof StorageFullError)) throw err;
    // Nothing of the step that did not fit was written; the run ends there, and says why.
    a.state = reduce(a.state, { type: 'fail', at: Date.now(), reason: err.message, cause: 'storage' });
    a.request?.abort();
    await markEnded(a.state).catch(() => undefined);
  }
  broadcast(a.state);
}

/**
 * A transition kept in memory only, for the observed step on its way to the model: the request
 * does not wait for the store. A worker stopped before the step is stored ('kept') observes again.
 */
export function advance(a: Active, ev: RunEvent): void {
  const before = a.state;
  a.state = reduce(a.state, ev);
  if (a.state === before) a.keep = null;
}

/** A reason for the person as a message key and its arguments, said in the run's language. */
export interface PersonReason { key: string; args?: (string | number)[] }

export function reasonText(state: RunState, reason: string | PersonReason): string {
  return typeof reason === 'string' ? reason : translatorFor(state.locale)(reason.key, ...(reason.args ?? []));
}

/** The tab's URL, or the one it is loading ('' when it has none yet). */
export async function tabUrl(tabId: number): Promise<string> {
  const t = await chrome.tabs.get(tabId).catch(() => null);
  return t?.url || t?.pendingUrl || '';
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
