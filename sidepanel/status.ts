/**
 * What the panel's run bar says about a run: one state for the status dot (each drawn differently),
 * the phase in words, "Step 3 of 15" and the time it has taken. Pure: no DOM, tested in node.
 */
import { t } from './i18n';
import type { RunView } from '../src/core/messages';
import { describedAction } from '../src/core/run/person-text';

export type DotState = 'running' | 'waiting' | 'paused' | 'failed' | 'finished' | 'stopped';

const DOT_KEYS: Record<DotState, string> = {
  running: 'dotRunning',
  waiting: 'dotWaiting',
  paused: 'dotPaused',
  failed: 'dotFailed',
  finished: 'dotFinished',
  stopped: 'dotStopped',
};

/** The words next to the dot (and its tooltip). */
export function dotText(state: DotState): string {
  return t(DOT_KEYS[state]);
}

export function dotState(run: RunView): DotState {
  if (run.status !== 'running') return run.status === 'finished' ? 'finished' : run.status;
  // A take-over hands the page to the person: the agent waits for them, as for an approval.
  if (run.paused?.kind === 'takeover') return 'waiting';
  if (run.paused) return 'paused';
  return run.pending?.phase === 'approve' ? 'waiting' : 'running';
}

const PHASE_KEYS = {
  observe: 'phaseObserve',
  model: 'phaseModel',
  approve: 'phaseApprove',
  act: 'phaseAct',
} as const;

/** What the run is doing now, in a few words ('' when it has ended). */
export function phaseText(run: RunView): string {
  if (run.status !== 'running') return '';
  if (run.paused?.kind === 'takeover') return t('phaseTakeover');
  const p = run.pending;
  if (!p) return run.paused ? t('phasePaused') : t('phaseStarting');
  // Paused after the reply came: the action has not started and will not until Resume.
  const doing = () => describedAction(run.dialect, p.actionText ?? '', p.action, p.target, t).words;
  if (run.paused && p.phase === 'act' && p.actionText) return t('phasePausedBefore', doing());
  if (p.phase === 'act' && p.actionText) return t('phaseActing', doing());
  return p.phase === 'done' ? '' : t(PHASE_KEYS[p.phase]);
}

/**
 * "Step 3 of 15": the step in progress and the step limit; for a replay, the number of recorded
 * actions (its step limit leaves room for a retry or two). An ended run: how many steps it took.
 */
export function stepText(run: RunView): string {
  const n = run.pending ? run.pending.index + 1 : run.steps.length;
  if (run.status !== 'running') return t('stepsTaken', n);
  const of = run.replay ? Math.max(n, run.replay.steps.length) : run.maxSteps;
  return n === 0 ? t('noStepsYet', of) : t('stepOf', n, of);
}

/** 0:42, 12:05, 1:02:03. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** How long the run has taken: until now while it runs, until its end after. */
export function elapsedOf(run: Pick<RunView, 'startedAt' | 'endedAt'>, now: number): number {
  return (run.endedAt ?? now) - run.startedAt;
}
