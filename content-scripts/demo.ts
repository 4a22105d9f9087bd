/**
 * Recording a demonstration (AppAgent's learning from the person): while the background records
 * (background/demo.ts), what the person does to a labelled element of this frame is reported:
 * - a click (trusted, left button) → tap; a press held LONG_PRESS_MS or more → long press;
 * - typing: the first `input` into a field after it got the focus → text (never the text itself);
 * - a wheel over a scroll container → swipe, in the finger's direction (content moving down is a
 *   swipe up), at most one a second per element.
 * The element is the labelled one holding the event's target (the innermost: labels of the last
 * pass, labeler/state.ts), reported with its label and fingerprint. A password field's value is
 * reported apart, once, only so the background can mask it out of what the model writes (it is
 * kept in memory for the recording and never stored).
 */
import type { Fingerprint } from '../src/core/marks';
import { composedParent } from './labeler/dom';
import { state } from './labeler/state';

const LONG_PRESS_MS = 600;
const SWIPE_GAP_MS = 1000;

export type DemoUse = 'tap' | 'long_press' | 'text' | 'swipe';
export interface DemoReport { event: 'demo/action'; use: DemoUse; label: number; fingerprint: Fingerprint; swipeDir?: string }

let on = false;
let installed = false;
let pressedAt = 0;
const typedIn = new WeakSet<Element>();
const swiped = new Map<Element, number>();

/** The innermost labelled element holding the target, with its label. */
function labelled(target: EventTarget | null): { label: number; fingerprint: Fingerprint; el: Element } | null {
  const entries = state().entries;
  for (let n = target instanceof Element ? target : null; n; n = composedParent(n)) {
    const i = entries.findIndex((e) => e.el === n || e.owner === n);
    if (i >= 0) return { label: i, fingerprint: entries[i].fingerprint, el: entries[i].el };
  }
  return null;
}

function report(use: DemoUse, target: EventTarget | null, extra: Partial<DemoReport> = {}): void {
  if (!on) return;
  const hit = labelled(target);
  if (!hit) return;
  chrome.runtime.sendMessage({ event: 'demo/action', use, label: hit.label, fingerprint: hit.fingerprint, ...extra }).catch(() => undefined);
}

function install(): void {
  if (installed) return;
  installed = true;
  const opts = { capture: true, passive: true };
  window.addEventListener('pointerdown', (e) => { if (e.isTrusted) pressedAt = e.timeStamp; }, opts);
  window.addEventListener('click', (e) => {
    if (!e.isTrusted || e.button !== 0) return;
    report(e.timeStamp - pressedAt >= LONG_PRESS_MS ? 'long_press' : 'tap', e.composedPath()[0] ?? e.target);
  }, opts);
  window.addEventListener('focusin', (e) => { if (e.target instanceof Element) typedIn.delete(e.target); }, opts);
  window.addEventListener('input', (e) => {
    const t = e.composedPath()[0];
    if (!e.isTrusted || !(t instanceof Element) || typedIn.has(t)) return;
    typedIn.add(t);
    report('text', t);
  }, opts);
  window.addEventListener('change', (e) => {
    const t = e.composedPath()[0];
    if (on && e.isTrusted && t instanceof HTMLInputElement && t.type === 'password' && t.value) {
      chrome.runtime.sendMessage({ event: 'demo/secret', value: t.value }).catch(() => undefined);
    }
  }, opts);
  window.addEventListener('wheel', (e) => {
    if (!e.isTrusted) return;
    const hit = labelled(e.composedPath()[0] ?? e.target);
    // only what scrolls is swiped (a wheel over a link scrolls the page, not the link)
    if (!hit || (hit.el.scrollHeight <= hit.el.clientHeight + 8 && hit.el.scrollWidth <= hit.el.clientWidth + 8)) return;
    const last = swiped.get(hit.el) ?? -Infinity;
    if (e.timeStamp - last < SWIPE_GAP_MS) return;
    swiped.set(hit.el, e.timeStamp);
    const finger = Math.abs(e.deltaY) >= Math.abs(e.deltaX) ? (e.deltaY > 0 ? 'up' : 'down') : (e.deltaX > 0 ? 'left' : 'right');
    report('swipe', e.composedPath()[0] ?? e.target, { swipeDir: finger });
  }, opts);
}

/** Start or stop reporting the person's actions in this frame. */
export function recordDemo(record: boolean): null {
  if (record) install();
  on = record;
  return null;
}
