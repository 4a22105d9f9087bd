/**
 * Actions on a label of the element list (the set-of-marks dialects). The label's element is
 * re-resolved in its own frame first (it may have moved, changed or gone); clicks go to the fresh
 * probe point that reaches it, in top-page coordinates.
 */
import type { Direction, MouseButton } from '../../core/action/action';
import type { Mark } from '../../core/marks';
import type { ResolvedMark } from '../../core/messages';
import * as cdp from '../cdp';
import { sendContent } from '../content';
import { toTop } from '../label';
import type { ActResult, FrameOffsets } from './types';
import { typeInto } from './field';
import { SET_BY_VALUE } from '../../core/field-value';

export function whyNot(label: number, r: Extract<ResolvedMark, { ok: false }>): string {
  switch (r.reason) {
    case 'unknown-label': return `There is no element [${label}] on the page.`;
    case 'detached':
    case 'changed': return `The element [${label}] changed; labels were refreshed.`;
    case 'not-visible': return `The element [${label}] is no longer visible; labels were refreshed.`;
    case 'covered': return `The element [${label}] is covered by another element (${r.detail}); close it or pick another label.`;
  }
}

export interface LabelTarget { label: number; frameId: number; local: number; r: Extract<ResolvedMark, { ok: true }>; x: number; y: number }

export async function resolveLabel(tabId: number, mark: Mark | null, offsets: FrameOffsets | undefined, label: number): Promise<{ ok: true; t: LabelTarget } | { ok: false; error: string }> {
  if (!mark) return { ok: false, error: `There is no element [${label}] on the page.` };
  const frameId = mark.frameId ?? 0;
  const local = mark.localLabel ?? mark.label;
  const r = await sendContent(tabId, 'marks/resolve', { label: local }, frameId);
  if (!r.ok) return { ok: false, error: whyNot(label, r) };
  const { x, y } = toTop(mark, offsets, r.center);
  return { ok: true, t: { label, frameId, local, r, x, y } };
}

/** Typing into a native <select> chooses the option whose text matches. */
async function chooseByText(tabId: number, t: LabelTarget, text: string): Promise<ActResult> {
  const r = await sendContent(tabId, 'select/choose', { label: t.local, text }, t.frameId);
  if (!r) return { ok: false, error: `The element [${t.label}] is not a select.` };
  if (!r.pick) return { ok: false, error: `No option of the select [${t.label}] matches "${text}"; its options are: ${r.options.slice(0, 30).join(', ')}.` };
  if (!r.pick.ok) return { ok: false, error: `Choosing "${r.pick.text}" did not take: the select's value is "${r.pick.actual}".` };
  return { ok: true };
}

/** An option of a rewritten <select>: click it, then verify that the choice took. */
async function clickOption(tabId: number, t: LabelTarget): Promise<ActResult> {
  const before = (await sendContent(tabId, 'select/last-pick', {}, t.frameId))?.seq ?? -1;
  await cdp.click(tabId, t.x, t.y);
  const pick = await sendContent(tabId, 'select/last-pick', {}, t.frameId);
  if (!pick || (pick.seq ?? -1) === before) return { ok: false, error: `Clicking the option [${t.label}] did not choose it; open the list again and retry.` };
  if (!pick.ok) {
    return { ok: false, error: pick.multiple
      ? `Toggling "${pick.text}" did not take: the selected values are now "${pick.actual}".`
      : `Choosing "${pick.text}" did not take: the select's value is "${pick.actual}", not "${pick.expected}".` };
  }
  return { ok: true };
}

export async function clickLabel(tabId: number, t: LabelTarget, button: MouseButton, count: number, beforePress?: cdp.BeforePress): Promise<ActResult> {
  if (t.r.tag === 'option' && button === 'left' && count === 1) return clickOption(tabId, t);
  const no = await cdp.click(tabId, t.x, t.y, { button, count, beforePress });
  return no ? { ok: false, error: no } : { ok: true };
}

/**
 * Click the field, focus it, then (as flagged) empty it, insert the text and press Enter; a field
 * keys cannot fill (a date, a colour, a range) gets its value set instead (field.ts). Either way
 * the field must take it to be Success.
 */
export async function typeLabel(tabId: number, t: LabelTarget, a: { text: string; clear: boolean; enter: boolean }): Promise<ActResult> {
  if (t.r.tag === 'select') return chooseByText(tabId, t, a.text);
  if (!t.r.editable && !SET_BY_VALUE.has(t.r.inputType ?? '')) return { ok: false, error: `The element [${t.label}] is a <${t.r.tag}>, not a text field; nothing was typed.` };
  return typeInto(tabId, { label: t.local, frameId: t.frameId, name: `[${t.label}]` }, t.r.inputType, a, async () => {
    await cdp.click(tabId, t.x, t.y);
    await sendContent(tabId, 'marks/focus', { label: t.local }, t.frameId);
  });
}

function end(direction: Direction): string {
  return { down: 'bottom', up: 'top', left: 'left end', right: 'right end' }[direction];
}

/** Scroll [N]: a scroll container directly (up/down), anything else with the wheel over it. */
export async function scrollLabel(tabId: number, mark: Mark | null, t: LabelTarget, direction: Direction): Promise<ActResult> {
  const vertical = direction === 'up' || direction === 'down';
  if (mark?.scrollable && vertical) {
    // A scroll container: scroll it directly, and say so when it cannot move further.
    const r = await sendContent(tabId, 'marks/scroll', { label: t.local, direction }, t.frameId);
    if (!r) return { ok: false, error: `The element [${t.label}] changed; labels were refreshed.` };
    return r.moved !== 0 ? { ok: true } : { ok: false, error: `The element [${t.label}] did not scroll: it is already at the ${end(direction)}.` };
  }
  // Anything else: the wheel over it scrolls whatever scrolls there (WebVoyager: hover, then scroll).
  const sign = direction === 'down' || direction === 'right' ? 1 : -1;
  const size = vertical ? t.r.rect.height : t.r.rect.width;
  const delta = Math.max(40, Math.round((size * 2) / 3)) * sign;
  await cdp.wheel(tabId, t.x, t.y, vertical ? delta : 0, vertical ? 0 : delta);
  return { ok: true };
}
