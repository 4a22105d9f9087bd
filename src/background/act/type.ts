/**
 * Typing without a label: into the focused field (target none), or into the field at a point
 * (clicked first). Keys and text go where the page's focus is, in whatever frame; so first check
 * that an editable element has it, else tell the model to click the field first.
 */
import type { Point } from '../../core/action/action';
import * as cdp from '../cdp';
import { sendContent } from '../content';
import { everyFrame } from '../label';
import { inspectAt } from './point';
import type { ActResult, FrameOffsets } from './types';
import { typeInto } from './field';

interface Focused { tag: string; text: string; inputType?: string; editable: boolean }
interface FocusState { field: Focused | null; inChild: boolean; hasFocus: boolean }

/**
 * The focused editable field, or null. The top frame sees through shadow roots and same-origin
 * frames; when focus is inside a cross-origin frame it says "iframe", and every frame is asked
 * (the frame whose own focused element is editable and that holds the page's focus wins).
 */
export async function focusedField(tabId: number): Promise<Focused | null> {
  const top = await sendContent(tabId, 'point/focused', {}).catch(() => null);
  if (!top || top.editable) return top;
  if (top.tag !== 'iframe' && top.tag !== 'frame') return null;
  const all = await everyFrame<FocusState>(tabId, 'focusState').catch(() => []);
  const fields = all
    .map((f) => (f.result && f.result !== '__missing__' ? f.result : null))
    .filter((s): s is FocusState => !!s?.field?.editable && !s.inChild);
  return (fields.find((s) => s.hasFocus) ?? fields[0])?.field ?? null;
}

function describe(f: { tag: string; text: string }): string {
  return `<${f.tag}>${f.text ? ` "${f.text.slice(0, 60)}"` : ''}`;
}

/** Type into the focused field (field.ts: it must take the text; a date or colour field gets its value set). */
async function typeHere(tabId: number, field: Focused, a: { text: string; clear: boolean; enter: boolean }): Promise<ActResult> {
  return typeInto(tabId, { label: null, frameId: 0, name: `the focused field ${describe(field)}` }, field.inputType, a, async () => undefined);
}

/** Type into the focused field. */
export async function typeFocused(tabId: number, a: { text: string; clear: boolean; enter: boolean }): Promise<ActResult> {
  const field = await focusedField(tabId);
  if (!field) return { ok: false, error: 'No text field has the focus, so nothing was typed: click the field first, then type.' };
  return typeHere(tabId, field, a);
}

/**
 * Click at the point, then type into the field that took the focus. What is at the point is
 * looked at first: anything but a field (or a label, which focuses its field) is not clicked at
 * all, since clicking a button to type into it would press the button (the gate judges it as a
 * press too: core/guards/gate.ts).
 */
export async function typeAt(tabId: number, p: Point, a: { text: string; clear: boolean; enter: boolean }, tap: boolean, offsets: FrameOffsets | undefined): Promise<ActResult> {
  const where = `(${Math.round(p.x)}, ${Math.round(p.y)})`;
  const before = await inspectAt(tabId, p, offsets).catch(() => null);
  if (before && !before.editable && before.tag !== 'label') {
    return { ok: false, error: `There is no text field at ${where} (it is a ${describe(before)}), so nothing was clicked or typed: click a text field first, or type at a field's position.` };
  }
  if (tap) await cdp.touch(tabId, p.x, p.y);
  else await cdp.click(tabId, p.x, p.y);
  const field = await focusedField(tabId);
  if (!field) {
    const hit = await inspectAt(tabId, p, offsets).catch(() => null);
    const what = hit ? ` (it is a ${describe(hit)})` : '';
    return { ok: false, error: `Clicking at ${where} did not put the focus in a text field${what}; nothing was typed.` };
  }
  return typeHere(tabId, field, a);
}
