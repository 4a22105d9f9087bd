/**
 * What the background must do next for a run in a given state (reduce.ts makes the states).
 * Pure. The background performs the effect and feeds the outcome back as an event.
 */
import type { Action } from '../action/action';
import { dialectOf } from '../dialects/registry';
import type { RequestPart } from '../dialects/types';
import type { Mark } from '../marks';
import { nextReplayed, type ReplayNext } from '../trace/replay';
import { historyOf, markOf, modelSteps, shotOf } from './reduce';
import { hideRun, taskForModel } from './secrets';
import { schemaText } from '../answer-schema';
import { followUpsOf } from './follow-up';
import type { ActedElement, AfterAction, FrameOffsets, RunState } from './state';
import { fillVariables } from './variables';

export type Effect =
  | { kind: 'observe' }
  /** ask the model with this request (image parts are references the background fills in) */
  | { kind: 'ask'; request: RequestPart[] }
  /** a replay's next recorded action, or why it cannot go on */
  | { kind: 'replay'; next: ReplayNext }
  /** let the guards look at the action; `mark`: its label's mark; `target`: what it acts on */
  | { kind: 'check'; action: Action; mark: Mark | null; target: ActedElement | null }
  /** `action`: with the run variables filled in (variables.ts); `sleepMs`: wait this long after it (the model asked) */
  | { kind: 'act'; action: Action; mark: Mark | null; frameOffsets?: FrameOffsets; sleepMs?: number }
  /**
   * keep (resume the downloads) or undo (cancel and erase them; the tab back from `after.url` to
   * `before`) what the action did, as the person decided -> 'resolved'
   */
  | { kind: 'after'; after: AfterAction; before: string }
  /** nothing to do until the person decides (approve, reject, resume) */
  | { kind: 'wait' }
  | { kind: 'none' };

/** The longest wait after an action a model may ask for (ms). */
export const MAX_SLEEP_MS = 10_000;

export function effectOf(state: RunState): Effect {
  if (state.status !== 'running') return { kind: 'none' };
  if (state.paused || state.phase === 'approve') return { kind: 'wait' };
  const p = state.pending;
  if (state.phase === 'observe' || !p) return { kind: 'observe' };
  if (state.phase === 'model' && state.replay) {
    return { kind: 'replay', next: nextReplayed(state.replay, modelSteps(state), p.elements, p.url) };
  }
  if (state.phase === 'model') {
    // Built once when observed; a run saved by an older version builds it now.
    const request = p.request ?? dialectOf(state.dialect).buildRequest({
      task: taskForModel(state), site: state.site, now: new Date(p.startedAt), history: historyOf(state), memory: hideRun(state, state.memory),
      marks: dialectOf(state.dialect).observes.labels ? p.elements : [], shot: shotOf(p), apps: state.apps ?? [],
      ...(state.dialectOptions ? { dialectOptions: state.dialectOptions } : {}),
      ...(state.answerSchema ? { answerSchema: schemaText(state.answerSchema) } : {}),
      ...(state.turns ? { followUps: followUpsOf(state) } : {}),
    });
    return { kind: 'ask', request };
  }
  if (state.phase === 'act' && p.reply) {
    const a = fillVariables(p.reply.action, dialectOf(state.dialect), state.variables).action;
    const mark = markOf(p.elements, a);
    if (p.acted) return p.after?.decision && p.after.outcome === undefined ? { kind: 'after', after: p.after, before: p.url } : { kind: 'none' };
    if (!p.checked) return { kind: 'check', action: a, mark, target: p.target ?? null };
    const sleepMs = p.reply.sleepMs ? Math.min(Math.max(0, p.reply.sleepMs), MAX_SLEEP_MS) : 0;
    return { kind: 'act', action: a, mark, frameOffsets: p.frameOffsets, ...(sleepMs ? { sleepMs } : {}) };
  }
  return { kind: 'none' };
}
