/**
 * What the labelled controls hold, as one short hash (FrameMarks.values): the loop guard
 * (core/run/budget.ts) counts a page as unchanged only when its controls' values are unchanged
 * too. A spinner's arrow clicked five times changes a number no element text shows; that is
 * progress, not a loop. Read: a field's value (never a password's), a checkbox's or radio's
 * checked state, a select's chosen option, and the ARIA states a custom widget keeps
 * (aria-valuenow, aria-checked, aria-pressed, aria-selected, aria-expanded). Only the hash
 * leaves the page.
 */
import type { Entry } from './state';

const STATES = ['aria-valuenow', 'aria-checked', 'aria-pressed', 'aria-selected', 'aria-expanded'];

function valueOf(el: Element): string {
  let v = '';
  if (el instanceof HTMLInputElement) v = el.type === 'checkbox' || el.type === 'radio' ? String(el.checked) : el.type === 'password' || el.type === 'file' ? '' : el.value;
  else if (el instanceof HTMLTextAreaElement) v = el.value;
  else if (el instanceof HTMLSelectElement) v = String(el.selectedIndex);
  for (const a of STATES) {
    const s = el.getAttribute(a);
    if (s !== null) v += `|${s}`;
  }
  return v;
}

/** The hash of the entries' values, in label order. */
export function controlValues(entries: readonly Entry[]): string {
  let h = 5381;
  for (const e of entries) {
    const v = `${valueOf(e.owner)}\u0000`;
    for (let i = 0; i < v.length; i++) h = ((h * 33) ^ v.charCodeAt(i)) >>> 0;
  }
  return h.toString(36);
}
