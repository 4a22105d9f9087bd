/**
 * A field's value, read and set for a Type action (background/act/field.ts): the element of a
 * label, or the focused element (label null). Reading tells the run whether typing changed
 * anything; setting is for the fields keystrokes cannot fill (core/field-value.ts: date, time,
 * month, week, colour, range), done as a person's input ends: the element's own value setter,
 * then `input` and `change`, bubbling (a page's listeners, jQuery's or a framework's, see them).
 */
import { state } from './labeler/state';
import { deepActiveElement } from './point';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | HTMLElement;

function fieldOf(label: number | null): Field | null {
  const el = label === null ? deepActiveElement() : state().entries[label]?.owner ?? null;
  if (!el || !el.isConnected) return null;
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el;
  return el instanceof HTMLElement && el.isContentEditable ? el : null;
}

function valueOf(f: Field): string {
  return 'value' in f && typeof f.value === 'string' ? f.value : f.innerText;
}

/** The field's value now (a contenteditable: its text), with its input type; null: no field there. */
export function readField(label: number | null): { value: string; type: string } | null {
  const f = fieldOf(label);
  return f ? { value: valueOf(f), type: f instanceof HTMLInputElement ? f.type : f.localName } : null;
}

/** Set an input's value as the page would get it from a person, and read it back (null: no input there). */
export function setField(label: number | null, value: string): { before: string; after: string } | null {
  const f = fieldOf(label);
  if (!(f instanceof HTMLInputElement)) return null;
  const before = f.value;
  f.focus();
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(f, value);
  f.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  f.dispatchEvent(new Event('change', { bubbles: true }));
  return { before, after: f.value };
}
