/**
 * Typing that says what it did (docs/trace-format.md, "What an action reports"): a Type action
 * is Success only when the field took it.
 * - A field keystrokes cannot fill (core/field-value.ts: date, time, datetime-local, month, week,
 *   colour, range) gets its value set (content-scripts/field.ts) from the text read in the
 *   field's format; text it cannot read, or a value the field does not keep (outside its min or
 *   max, off its step), is an error that says so; otherwise the model is told what it reads now.
 * - Any other field is typed into with keys, and its value read before the text goes in (after
 *   clearing) and after (before Enter, which may submit and clear it): a non-empty text that left
 *   the value as it was, and not holding what was typed, is an error (a read-only field, one
 *   filled only by its own widget, letters in a number field).
 *   A password field's value is compared, never quoted.
 */
import { fieldValue } from '../../core/field-value';
import * as cdp from '../cdp';
import { sendContent } from '../content';
import type { ActResult } from './types';

/** Where the field is: a label in its frame, or the focused element of the top frame. */
export interface FieldAt { label: number | null; frameId: number; name: string }

async function read(tabId: number, at: FieldAt): Promise<string | null> {
  return (await sendContent(tabId, 'field/read', { label: at.label }, at.frameId).catch(() => null))?.value ?? null;
}

/**
 * Type `a` into the field at `at`, of input type `type`; `focus` puts the focus in it (a click
 * first, for a label) when keys are to be typed.
 */
export async function typeInto(tabId: number, at: FieldAt, type: string | undefined, a: { text: string; clear: boolean; enter: boolean }, focus: () => Promise<void>): Promise<ActResult> {
  const wanted = fieldValue(type ?? '', a.text);
  if (wanted) {
    if ('problem' in wanted) return { ok: false, error: `Nothing was typed into ${at.name} (a ${type} field): ${wanted.problem}` };
    const r = await sendContent(tabId, 'field/set', { label: at.label, value: wanted.value }, at.frameId).catch(() => null);
    if (!r) return { ok: false, error: `${at.name} is no longer a ${type} field on the page; nothing was typed.` };
    if (r.after !== wanted.value) return { ok: false, error: `${at.name} did not take ${wanted.value}: it reads "${r.after}" (the page limits it: its minimum, maximum or step).` };
    if (a.enter) await cdp.press(tabId, 'Enter');
    return { ok: true, note: r.before === r.after ? `${at.name} already read ${r.after}.` : `${at.name} now reads ${r.after}.` };
  }
  await focus();
  if (a.clear) {
    await cdp.selectAll(tabId);
    await cdp.press(tabId, 'Delete');
  }
  // the value the keys start from (after clearing): what they must change
  const before = a.text.trim() ? await read(tabId, at) : null;
  if (a.text) await cdp.insertText(tabId, a.text);
  const after = before === null ? null : await read(tabId, at);
  if (before !== null && after === before && !after.includes(a.text)) {
    return { ok: false, error: `Typed into ${at.name}, but its value did not change: the field did not take the keys (it may be read-only, or filled only through its own buttons or list).` };
  }
  if (a.enter) await cdp.press(tabId, 'Enter');
  return { ok: true };
}
