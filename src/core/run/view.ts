/**
 * A run as the views (side panel, runner) see it: screenshots and prompts left out (fetched on
 * demand), the step in progress reduced to what can be shown, totals added. Pure.
 *
 * Broadcasts carry only the steps that changed since the previous broadcast (`stepsFrom`, see
 * stepsChangedFrom), so a transition costs the same at step 100 as at step 1; a view merges them
 * onto what it has (mergeView). `rev` orders views made by the worker: a later one has a larger rev.
 */
import { pointOf, type Action, type Point } from '../action/action';
import type { Viewport } from '../marks';
import { runTotals } from './budget';
import { hideRun } from './secrets';
import { shownVariables } from './variables';
import { PASSWORD_MASK, TOOK_OVER_FEEDBACK, type ActedElement, type ApprovalRequest, type RunState, type StepRecord } from './state';

export type StepView = Omit<StepRecord, 'screenshot' | 'cleanScreenshot' | 'promptText'>;

export interface PendingView {
  index: number; url: string; phase: RunState['phase']; thought: string | null; actionText: string | null;
  /** the proposed action (a typed password masked, as in actionText) */
  action: Action | null;
  /** what the proposed action will act on, once known (its label's element, what is under its point) */
  target: ActedElement | null;
  /** the person edited the proposed action: the thought is the model's, for the action it proposed */
  edited?: boolean;
  /** phase 'approve': why the run waits, and what the action would touch (its element; its point for actions at a point) */
  approval: (ApprovalRequest & { target: ActedElement | null; point: Point | null; viewport: Viewport }) | null;
}

export type RunView = Omit<RunState, 'steps' | 'pending' | 'vault'> & {
  /** the run's steps from index `stepsFrom` on (0 in a whole view; a broadcast leaves out the steps its receivers already have) */
  steps: StepView[];
  stepsFrom: number;
  /** when the worker made this view: a view with a larger rev is newer */
  rev: number;
  /** the step in progress: what the view can show before it completes */
  pending: PendingView | null;
  /** tokens so far (from the responses' usage, the step in progress's reply included) and their cost (null: no price for this model) */
  totals: { promptTokens: number; completionTokens: number; cost: number | null; currency: string | null };
};

/** The view of a run; `stepsFrom`: only the steps from there on (a broadcast's, see stepsChangedFrom). */
export function toRunView(s: RunState, { rev = 0, stepsFrom = 0 }: { rev?: number; stepsFrom?: number } = {}): RunView {
  const { steps, pending, vault: _v, ...rest } = s;
  // A reply waiting for approval (or for its action) has been paid for: count it now.
  const { tokens, cost } = runTotals(s, pending?.reply?.usage ?? null);
  return {
    ...rest,
    ...(rest.variables ? { variables: hideRun(s, shownVariables(rest.variables, PASSWORD_MASK)) } : {}),
    totals: { ...tokens, cost, currency: s.limits?.currency ?? null },
    steps: steps.slice(stepsFrom).map(({ screenshot: _s, cleanScreenshot: _c, promptText: _p, ...step }) => step),
    stepsFrom,
    rev,
    pending: pending
      ? {
        index: pending.index, url: pending.url, phase: s.phase, thought: pending.reply?.thought ?? null, actionText: pending.reply?.actionText ?? null,
        action: pending.reply ? hideRun(s, pending.reply.action) : null, ...(pending.decision?.decision === 'edited' ? { edited: true } : {}),
        target: pending.reply ? pending.target ?? null : null,
        approval: s.phase === 'approve' && pending.approval && pending.reply
          ? { ...pending.approval, target: pending.target ?? null, point: pointOf(pending.reply.action), viewport: pending.viewport }
          : null,
      }
      : null,
  };
}

/**
 * The first step that differs between the steps last broadcast and the run's steps now. The run
 * core never changes a step in place (a finished step's observation rewritten, steps masked once a
 * password is typed: new objects), so comparing references finds every change.
 */
export function stepsChangedFrom(sent: readonly StepRecord[] | undefined, steps: readonly StepRecord[]): number {
  if (!sent) return 0;
  const n = Math.min(sent.length, steps.length);
  let i = 0;
  while (i < n && sent[i] === steps[i]) i++;
  return i;
}

/**
 * A view received (whole or a broadcast's part) merged onto the view held: the newer of the two,
 * with the steps the part left out taken from the held one. null: the part cannot be placed (the
 * holder has not got the steps before it, or holds another run): fetch the whole view (run/get).
 */
export function mergeView(held: RunView | null, got: RunView): RunView | null {
  const same = held?.id === got.id ? held : null;
  if (same && got.rev < same.rev) return same;
  if (got.stepsFrom === 0) return got;
  if (!same || got.stepsFrom > same.steps.length) return null;
  return { ...got, steps: [...same.steps.slice(0, got.stepsFrom), ...got.steps], stepsFrom: 0 };
}

/** The person's take-over kept this step's action from running (recorded as a rejection with a set feedback). */
export function tookOver(step: Pick<StepView, 'approval'>): boolean {
  return step.approval?.decision === 'rejected' && step.approval.feedback === TOOK_OVER_FEEDBACK;
}
