/**
 * Replay without the model: a recorded run's actions done again on the live site, each target
 * found by its stored fingerprint (tag, text, structural path), not by its old label number.
 *
 * A replay is an ordinary run (same loop, approvals, guards, trace) whose "model" is the plan:
 * at each step the next recorded action is written as a reply in the GLM web grammar with the
 * label the target has on the page now. When a target cannot be found the replay stops and says
 * which step and why.
 *
 * Finding a target among the marks of the page now, best first:
 * 1. same tag, same text and same path;
 * 2. same tag and same text, and only one such mark (else the one nearest the recorded rect);
 * 3. same tag and same path, and the text differs only in its numbers (a counter: "Cart (1)" ->
 *    "Cart (2)"). Another text in the same place is another element (the second result of a
 *    list is not the same product when the list changed), so it is not taken.
 */
import { describeAction, labelOf, type Action } from './actions';
import type { Fingerprint, Mark, Rect } from './marks';
import { PASSWORD_MASK, type StepRecord } from './run';

export interface ReplayTarget { tag: string; text: string; fingerprint: Fingerprint | null; rect: Rect }

export interface ReplayStep {
  /** the recorded step's index (for messages) */
  from: number;
  action: Action;
  /** what the action touched, or null (Scroll WINDOW, Wait, GoBack, Bing, Key, ANSWER) */
  target: ReplayTarget | null;
  memory: Record<string, unknown>;
}

export interface ReplayPlan {
  /** the recorded run */
  of: string;
  steps: ReplayStep[];
}

function withLabel(a: Action, label: number): Action {
  if (a.type === 'click' || a.type === 'type') return { ...a, label };
  if (a.type === 'scroll' && a.target.kind === 'element') return { ...a, target: { kind: 'element', label } };
  return a;
}

/**
 * The plan of a recorded run: every step that proposed an action that ran (or was approved),
 * in order. Unreadable replies, rejected actions and the person's take-overs are left out.
 */
export function replayPlan(runId: string, steps: StepRecord[]): ReplayPlan {
  const out: ReplayStep[] = [];
  for (const s of steps) {
    if (!s.action || s.kind === 'person' || s.approval?.decision === 'rejected') continue;
    const label = labelOf(s.action);
    const m = label === null ? null : s.elements.find((e) => e.label === label) ?? null;
    if (label !== null && !m) continue; // the model named a label that did not exist: nothing ran
    out.push({
      from: s.index, action: s.action, memory: s.memory,
      target: m ? { tag: m.tag, text: m.text, fingerprint: m.fingerprint ?? null, rect: m.rect } : null,
    });
  }
  return { of: runId, steps: out };
}

function distance(a: Rect, b: Rect): number {
  return Math.hypot(a.x + a.width / 2 - (b.x + b.width / 2), a.y + a.height / 2 - (b.y + b.height / 2));
}

function nearest(marks: Mark[], r: Rect): Mark {
  return marks.reduce((best, m) => (distance(m.rect, r) < distance(best.rect, r) ? m : best));
}

/** The mark on the page now that is the recorded target, or null. */
export function findTarget(marks: Mark[], t: ReplayTarget): Mark | null {
  const path = t.fingerprint?.path;
  const sameTagText = marks.filter((m) => m.tag === t.tag && m.text === t.text);
  const exact = path ? sameTagText.find((m) => m.fingerprint?.path === path) : undefined;
  if (exact) return exact;
  if (sameTagText.length) return sameTagText.length === 1 ? sameTagText[0] : nearest(sameTagText, t.rect);
  const digitless = (x: string) => x.replace(/\d+/g, '#');
  const samePlace = path ? marks.filter((m) => m.tag === t.tag && m.fingerprint?.path === path && digitless(m.text) === digitless(t.text)) : [];
  return samePlace.length === 1 ? samePlace[0] : null;
}

function quoted(t: ReplayTarget): string {
  const text = t.text.length > 60 ? `${t.text.slice(0, 59)}…` : t.text;
  return `<${t.tag}> "${text}"`;
}

/**
 * The reply for replay step `i` on the page now (its marks), or why the replay cannot go on.
 * The reply is in the GLM web grammar, so the run reads it like a model's.
 */
export function replayReply(plan: ReplayPlan, i: number, marks: Mark[], url: string): { ok: true; raw: string } | { ok: false; reason: string } {
  const step = plan.steps[i];
  if (!step) return { ok: false, reason: `Replay complete: all ${plan.steps.length} recorded actions were done.` };
  let action = step.action;
  if (action.type === 'type' && action.text === PASSWORD_MASK) {
    return { ok: false, reason: `Replay stopped at recorded step ${step.from + 1}: it typed into a password field, and traces never keep what was typed there. Log in yourself, then replay from there.` };
  }
  if (step.target) {
    const m = findTarget(marks, step.target);
    if (!m) {
      return {
        ok: false,
        reason: `Replay stopped at recorded step ${step.from + 1}: its target ${quoted(step.target)} was not found on ${url} (no element with the same tag and text, or in the same place).`,
      };
    }
    action = withLabel(action, m.label);
  }
  const raw = `Thought: Replaying step ${step.from + 1} of the recorded run.\nAction: ${describeAction(action)}\nMemory_Updated: ${JSON.stringify(step.memory)}`;
  return { ok: true, raw };
}
