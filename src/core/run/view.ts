/**
 * A run as the views (side panel, runner) see it: screenshots and prompts left out (fetched on
 * demand), the step in progress reduced to what can be shown, totals added. Pure.
 */
import { pointOf, type Point } from '../action/action';
import type { Viewport } from '../marks';
import { runTotals } from './budget';
import { hideRun } from './secrets';
import { shownVariables } from './variables';
import { PASSWORD_MASK, TOOK_OVER_FEEDBACK, type ActedElement, type ApprovalRequest, type RunState, type StepRecord } from './state';

export type StepView = Omit<StepRecord, 'screenshot' | 'promptText'>;

export interface PendingView {
  index: number; url: string; phase: RunState['phase']; thought: string | null; actionText: string | null;
  /** what the proposed action will act on, once known (its label's element, what is under its point) */
  target: ActedElement | null;
  /** phase 'approve': why the run waits, and what the action would touch (its element; its point for actions at a point) */
  approval: (ApprovalRequest & { target: ActedElement | null; point: Point | null; viewport: Viewport }) | null;
}

export type RunView = Omit<RunState, 'steps' | 'pending' | 'vault'> & {
  steps: StepView[];
  /** the step in progress: what the view can show before it completes */
  pending: PendingView | null;
  /** tokens so far (from the responses' usage, the step in progress's reply included) and their cost (null: no price for this model) */
  totals: { promptTokens: number; completionTokens: number; cost: number | null };
};

export function toRunView(s: RunState): RunView {
  const { steps, pending, vault: _v, ...rest } = s;
  // A reply waiting for approval (or for its action) has been paid for: count it now.
  const { tokens, cost } = runTotals(s, pending?.reply?.usage ?? null);
  return {
    ...rest,
    ...(rest.variables ? { variables: hideRun(s, shownVariables(rest.variables, PASSWORD_MASK)) } : {}),
    totals: { ...tokens, cost },
    steps: steps.map(({ screenshot: _s, promptText: _p, ...step }) => step),
    pending: pending
      ? {
        index: pending.index, url: pending.url, phase: s.phase, thought: pending.reply?.thought ?? null, actionText: pending.reply?.actionText ?? null,
        target: pending.reply ? pending.target ?? null : null,
        approval: s.phase === 'approve' && pending.approval && pending.reply
          ? { ...pending.approval, target: pending.target ?? null, point: pointOf(pending.reply.action), viewport: pending.viewport }
          : null,
      }
      : null,
  };
}

/** The person's take-over kept this step's action from running (recorded as a rejection with a set feedback). */
export function tookOver(step: Pick<StepView, 'approval'>): boolean {
  return step.approval?.decision === 'rejected' && step.approval.feedback === TOOK_OVER_FEEDBACK;
}
