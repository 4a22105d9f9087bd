/**
 * The runs database's records (IndexedDB `webagent`, background/run-store.ts) and the migrations
 * between its versions, as pure functions: the database's upgrade walks its stores with cursors
 * and writes what these return, in the upgrade's one transaction (all or nothing).
 *
 * - Version 1 kept whole runs, steps and PNG data URLs inside, in `runs`.
 * - Version 2 keeps each finished step in `steps` and its pictures in `shots`; the run record keeps
 *   no steps and has a summary for the history list.
 * - Version 3 writes every action (steps, a pending reply, a replay plan) in the shared Action
 *   model (core/action/legacy.ts); version 2 kept GLM-web-only actions (`{type:'click', label}`).
 * - Version 4 adds `sizes`, each kept picture's size by the picture's key, so the room the runs
 *   take is measured without reading a picture (a picture read stays on disk until the reader lets
 *   it go, so removing it would free nothing). Its upgrade only reads sizes: no data changes.
 *
 * A run saved in an older shape of the same version is brought to today's when read (core/run
 * upgradeRun): those changes only added fields.
 */
import { upgradeAction } from '../action/legacy';
import { runSummary, type RunSummary } from '../trace/history';
import type { RunState, StepRecord } from '../run';

/** What the runs store keeps: the run without its finished steps, and its summary. */
export type RunRecord = Omit<RunState, 'steps'> & { steps: []; summary: RunSummary };

export function toRecord(s: RunState): RunRecord {
  return { ...s, steps: [], summary: runSummary(s) };
}

/** Version 1 -> 2: a whole run becomes its record and its finished steps (the adapter stores their pictures apart). */
export function splitRunV1(old: RunState): { record: RunRecord; steps: StepRecord[] } {
  const steps = Array.isArray(old.steps) ? old.steps : [];
  return { record: toRecord({ ...old, steps }), steps };
}

/** Version 2 -> 3: a step's action in the shared model (a step with none, or one not understood, as it was). */
export function stepV2ToV3<S extends { action?: unknown }>(step: S): S {
  if (!step.action) return step;
  const action = upgradeAction(step.action);
  return action ? { ...step, action } : step;
}

/** Version 2 -> 3: a run record's pending reply and replay plan in the shared Action model. */
export function recordV2ToV3(r: RunRecord): RunRecord {
  const reply = r.pending?.reply;
  const action = reply ? upgradeAction(reply.action) : null;
  const plan = r.replay ? { ...r.replay, steps: r.replay.steps.map((st) => ({ ...st, action: upgradeAction(st.action) ?? st.action })) } : undefined;
  return {
    ...r,
    ...(r.pending && reply && action ? { pending: { ...r.pending, reply: { ...reply, action } } } : {}),
    ...(plan ? { replay: plan } : {}),
  };
}
