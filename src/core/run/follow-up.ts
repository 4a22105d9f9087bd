/**
 * Follow-ups (docs/follow-ups.md): a run that has ended takes a next task from the person ("now add
 * it to the cart") and goes on as its next turn, in the same tab, with its history and memory. The
 * first follow-up makes `turns` (the first task its first turn); each turn keeps where its steps
 * begin and, once a later one begins, how it ended. The model reads the turns in its dialect's
 * words (DialectContext.followUps). Pure.
 */
import type { FollowUp } from '../dialects/types';
import { hideRun } from './secrets';
import type { RunState, Turn } from './state';

/** turns a run may have (a conversation, not an endless session: each turn's history stays in the prompt) */
export const MAX_TURNS = 20;
/** a follow-up is typed by a person */
export const MAX_FOLLOW_UP_CHARS = 20_000;

/** Why the run cannot take a follow-up now (a message key of the person's words), or null. */
export function whyNoFollowUp(s: RunState, task: string): 'followUpEmpty' | 'followUpRunning' | 'followUpReplay' | 'followUpTurns' | 'followUpLong' | null {
  if (!task.trim()) return 'followUpEmpty';
  if (task.length > MAX_FOLLOW_UP_CHARS) return 'followUpLong';
  if (s.status === 'running') return 'followUpRunning';
  if (s.replay) return 'followUpReplay';
  if ((s.turns?.length ?? 1) >= MAX_TURNS) return 'followUpTurns';
  return null;
}

/** The run's turns: `turns`, or its one task as the only turn. */
export function turnsOf(s: Pick<RunState, 'turns' | 'task' | 'startedAt'>): Turn[] {
  return s.turns?.length ? s.turns : [{ task: s.task, at: s.startedAt, fromStep: 0 }];
}

/**
 * The run going on with `task` as its next turn: the turn that ended keeps how it ended; the run
 * is running again from a fresh observation, in `tabId`, with `maxSteps` more steps. What belonged
 * to the ended turn goes (its answer, its schema and the JSON answer, a replay's or an exploration's
 * mode, a pause); the history, memory, variables, files and secrets stay.
 */
export function continueRun(s: RunState, f: { task: string; at: number; tabId: number; maxSteps: number }): RunState {
  const turns = turnsOf(s);
  const last = turns[turns.length - 1];
  const ended: Turn = {
    ...last, status: s.status === 'running' ? 'stopped' : s.status, answer: s.answer, stopReason: s.stopReason,
    ...(s.answerJson !== undefined ? { answerJson: s.answerJson } : {}),
  };
  const {
    answerSchema: _schema, answerJson: _json, answersRefused: _refused, failCause: _cause, imported: _imported,
    explore: _explore, useless: _useless, heldFindings: _held, tabStack: _stack, tabChanges: _changes, ...rest
  } = s;
  return {
    ...rest,
    turns: [...turns.slice(0, -1), ended, { task: hideRun(s, f.task.trim()), at: f.at, fromStep: s.steps.length }],
    status: 'running', phase: 'observe', answer: null, stopReason: null, endedAt: null, pending: null, paused: null,
    formatErrorsInARow: 0, tabId: f.tabId, maxSteps: s.steps.length + f.maxSteps,
  };
}

/** The follow-ups as the model reads them (secrets hidden): each with how the turn before it ended. */
export function followUpsOf(s: RunState): FollowUp[] {
  const turns = s.turns ?? [];
  return turns.slice(1).map((t, i) => ({
    task: hideRun(s, t.task),
    before: { done: turns[i].status === 'finished', answer: hideRun(s, turns[i].answer ?? null) },
  }));
}

/** The turn step `index` belongs to (0 for a run without follow-ups). */
export function turnOfStep(s: Pick<RunState, 'turns'>, index: number): number {
  const turns = s.turns ?? [];
  let k = 0;
  for (let i = 0; i < turns.length; i++) if (turns[i].fromStep <= index) k = i;
  return k;
}
