/**
 * Labeler v1: the API the content script calls. Safe to call twice and to inject twice:
 * all state lives on globalThis under one symbol, shared by every copy of this module.
 */
import type { Mark, MarksSnapshot } from '../../src/core/marks';
import type { ResolvedMark } from '../../src/core/messages';
import { chooseOptionByText, installSelectRewrite, lastSelectPick, removeSelectRewrite } from '../select-rewrite';
import { collectCandidates } from './collect';
import { composedParent, deepElementFromPoint, describeElement, OPTION_ATTR } from './dom';
import { drawOverlay, removeOverlay } from './draw';
import { elementText } from './text';
import { bigEnough, clipToViewport, hitTest, isRendered } from './visibility';

export type { ResolvedMark };

interface LabelerState { elements: Element[] }
const KEY = Symbol.for('webagent.labeler.v1');

function state(): LabelerState {
  const g = globalThis as unknown as Record<symbol, LabelerState | undefined>;
  return (g[KEY] ??= { elements: [] });
}

function tagOf(el: Element): string {
  return el.hasAttribute(OPTION_ATTR) ? 'option' : el.localName.toLowerCase();
}

function inputTypeOf(el: Element): string | undefined {
  return el instanceof HTMLInputElement ? el.type : undefined;
}

const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color', 'hidden']);

function isEditable(el: Element): boolean {
  if (el instanceof HTMLTextAreaElement) return !el.readOnly && !el.disabled;
  if (el instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(el.type) && !el.readOnly && !el.disabled;
  return el instanceof HTMLElement && el.isContentEditable;
}

/**
 * 1. install the select rewrite (idempotent); 2. remove any old overlay;
 * 3. collect candidates (all layout reads); 4. read texts (still reads only);
 * 5. number them 0..n-1 in document order; 6. draw the overlay (writes only); 7. remember elements.
 */
export function drawMarks(): MarksSnapshot {
  installSelectRewrite();
  removeOverlay();
  const found = collectCandidates();
  const marks: Mark[] = found.map((c, label) => {
    const mark: Mark = { label, tag: tagOf(c.el), text: elementText(c.el), rect: c.rect };
    const type = inputTypeOf(c.el);
    if (type !== undefined) mark.inputType = type;
    return mark;
  });
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  drawOverlay(marks, vw, vh);
  state().elements = found.map((c) => c.el);
  return {
    url: location.href,
    title: document.title,
    viewport: { width: vw, height: vh, devicePixelRatio: window.devicePixelRatio || 1 },
    marks,
  };
}

/** Remove the overlay (before an action runs); the label → element map is kept. */
export function hideMarks(): void {
  removeOverlay();
}

/**
 * Re-check label N now. 1. known label; 2. still connected; 3. rendered, inside the viewport and
 * big enough; 4. deep hit-test (centre, then inset corners) still reaches it, else "covered" naming
 * what is on top. `center` is the first probe point that reaches the element (the centre if it does).
 */
export function resolveMark(label: number): ResolvedMark {
  const el = state().elements[label];
  if (!el) return { ok: false, reason: 'unknown-label', detail: `no element has label ${label} (labels 0..${state().elements.length - 1})` };
  if (!el.isConnected) return { ok: false, reason: 'detached', detail: `${describeElement(el)} was removed from the page` };
  const style = getComputedStyle(el);
  const raw = el.getBoundingClientRect();
  const rect = clipToViewport(raw, window.innerWidth, window.innerHeight);
  if (!rect) return { ok: false, reason: 'not-visible', detail: `${describeElement(el)} is outside the viewport (top ${Math.round(raw.top)}, left ${Math.round(raw.left)})` };
  if (!bigEnough(rect) || !isRendered(el, style)) return { ok: false, reason: 'not-visible', detail: `${describeElement(el)} is hidden or too small` };
  const hit = hitTest(el, rect);
  if (!hit.point) return { ok: false, reason: 'covered', detail: `${describeElement(el)} is covered by ${describeElement(outermostCover(hit.centreHit))}` };
  const out: ResolvedMark = { ok: true, rect, center: hit.point, tag: tagOf(el), editable: isEditable(el) };
  const type = inputTypeOf(el);
  if (type !== undefined) out.inputType = type;
  return out;
}

/** For a report: the covering element, or its nearest ancestor with an id/class that says more. */
function outermostCover(hit: Element | null): Element | null {
  for (let n = hit; n; n = composedParent(n)) {
    if (n.id || (typeof n.className === 'string' && n.className.trim())) return n;
    if (n.localName === 'body') break;
  }
  return hit;
}

/** Focus the element for label N (for typing). True when it holds focus afterwards. */
export function focusMark(label: number): boolean {
  const el = state().elements[label];
  if (!(el instanceof HTMLElement || el instanceof SVGElement) || !el.isConnected) return false;
  el.focus();
  return el.matches(':focus');
}

/**
 * Scroll by 2/3 of the viewport height, instantly. 1. scroll the window; 2. if it did not move,
 * scroll the nearest scrollable ancestor of the element at the viewport centre (apps whose
 * document does not scroll). Returns the pixels actually moved (>= 0).
 */
export function scrollWindow(direction: 'up' | 'down'): { moved: number } {
  const dy = Math.round((window.innerHeight * 2) / 3) * (direction === 'down' ? 1 : -1);
  const before = window.scrollY;
  window.scrollBy({ top: dy, left: 0, behavior: 'instant' });
  const moved = Math.abs(window.scrollY - before);
  if (moved > 0) return { moved };
  const scroller = findScroller(dy);
  if (!scroller) return { moved: 0 };
  const top = scroller.scrollTop;
  scroller.scrollBy({ top: dy, left: 0, behavior: 'instant' });
  return { moved: Math.abs(scroller.scrollTop - top) };
}

function findScroller(dy: number): Element | null {
  let n = deepElementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
  for (; n; n = composedParent(n)) {
    const oy = getComputedStyle(n).overflowY;
    if (!/(auto|scroll|overlay)/.test(oy) || n.scrollHeight <= n.clientHeight + 1) continue;
    const room = dy > 0 ? n.scrollHeight - n.clientHeight - n.scrollTop : n.scrollTop;
    if (room > 0) return n;
  }
  return null;
}

/** Type into label N when it is a <select>: choose the option the text names. Null when N is not a select. */
export function chooseInSelect(label: number, text: string): ReturnType<typeof chooseOptionByText> | null {
  const el = state().elements[label];
  return el instanceof HTMLSelectElement && el.isConnected ? chooseOptionByText(el, text) : null;
}

/** Remove the overlay, forget the labels and undo the select rewrite (page restored). */
export function resetMarks(): void {
  removeOverlay();
  state().elements = [];
  removeSelectRewrite();
}

/** Last option chosen through the select rewrite: { ok, expected, actual, text, changed } or null. */
export { lastSelectPick };

/** Test-only: the elements behind labels 0..n-1 of the last drawMarks. */
export function debugElements(): Element[] {
  return state().elements.slice();
}
