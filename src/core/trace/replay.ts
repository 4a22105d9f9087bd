/**
 * Replay without the model: a recorded run's actions done again on the live site, each target
 * found by its stored fingerprint (tag, text, structural path), not by its old label number or
 * point. Works for every dialect: the recorded steps become Actions directly (no grammar).
 *
 * A replay is an ordinary run (same loop, approvals, guards, trace) whose "model" is the plan.
 * When a target cannot be found the replay stops and says which step and why.
 *
 * Finding a target among the marks of the page now, best first:
 * 1. same tag, same text and same path;
 * 2. same tag and same text, and only one such mark (else the one nearest the recorded rect);
 * 3. same tag and same path, and the text differs only in its numbers (a counter: "Cart (1)" ->
 *    "Cart (2)"). Another text in the same place is another element, so it is not taken.
 * An action at a point whose element is found acts at that element's centre now; one whose
 * element was not recorded (nothing there, or no fingerprint) acts at the recorded point.
 */
import { labelOf, pointOf, withTarget, at, type Action, type Memory } from '../action/action';
import type { Mark, Rect } from '../marks';
import { typedPlaceholdersIn } from '../secrets';
import { PASSWORD_MASK, type ReplayPlan, type ReplayStep, type StepRecord } from '../run/state';

export type { ReplayPlan, ReplayStep };
export type ReplayNext = { ok: true; action: Action; memory: Memory; from: number } | { ok: false; reason: string };
type ReplayTarget = NonNullable<ReplayStep['target']>;

/**
 * The plan of a recorded run: every step that proposed an action that ran (or was approved),
 * in order. Unreadable replies, rejected actions and the person's take-overs are left out.
 */
export function replayPlan(runId: string, steps: StepRecord[], dialect?: string): ReplayPlan {
  const out: ReplayStep[] = [];
  for (const s of steps) {
    if (!s.action || s.kind === 'person' || s.approval?.decision === 'rejected') continue;
    const label = labelOf(s.action);
    const m = label === null ? null : s.elements.find((e) => e.label === label) ?? null;
    if (label !== null && !m) continue; // the model named a label that did not exist: nothing ran
    const t = m ?? (pointOf(s.action) ? s.target ?? null : null);
    out.push({
      from: s.index, action: s.action, memory: s.memory,
      target: t ? { tag: t.tag, text: t.text, fingerprint: t.fingerprint ?? null, rect: t.rect } : null,
    });
  }
  return { of: runId, ...(dialect ? { dialect } : {}), steps: out };
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

/** Replay step `i` as an action on the page now (its marks), or why the replay cannot go on. */
export function nextReplayed(plan: ReplayPlan, i: number, marks: Mark[], url: string): ReplayNext {
  const step = plan.steps[i];
  if (!step) return { ok: false, reason: `Replay complete: all ${plan.steps.length} recorded actions were done.` };
  let action = step.action;
  // a password typed (the mask), or typed again (its placeholder, {{password:1}}): never kept, so never replayed
  if (action.type === 'type' && (action.text === PASSWORD_MASK || typedPlaceholdersIn(action).length)) {
    return { ok: false, reason: `Replay stopped at recorded step ${step.from + 1}: it typed into a password field, and traces never keep what was typed there. Log in yourself, then replay from there.` };
  }
  if (step.target) {
    const m = findTarget(marks, step.target);
    if (m) {
      const centre = { x: m.rect.x + m.rect.width / 2, y: m.rect.y + m.rect.height / 2 };
      action = labelOf(action) !== null ? withTarget(action, at.label(m.label)) : withTarget(action, at.point(centre.x, centre.y));
    } else if (labelOf(action) !== null) {
      return {
        ok: false,
        reason: `Replay stopped at recorded step ${step.from + 1}: its target ${quoted(step.target)} was not found on ${url} (no element with the same tag and text, or in the same place).`,
      };
    }
    // a point whose element is gone: the recorded point is the best guess left
  }
  return { ok: true, action, memory: step.memory, from: step.from };
}
