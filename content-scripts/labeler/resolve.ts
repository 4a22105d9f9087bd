/**
 * Acting on this frame's local labels (the last pass in this frame): re-resolve, focus, scroll,
 * choose in a select.
 */
import type { ResolvedMark } from '../../src/core/messages';
import { chooseOptionByText } from '../select-rewrite';
import { composedParent, deepElementFromPoint, describeElement } from './dom';
import { checkFingerprint } from './fingerprint';
import { inputTypeOf, isEditable, tagOf, textsOf } from './describe';
import { state } from './state';
import { bigEnough, clipToViewport, hitTest, isRendered, isTransparent } from './visibility';

/**
 * Re-check label N now (docs/labeling.md):
 * 1. known label, else "unknown-label";
 * 2. still connected ("detached") and the same tag and stable text ("changed"); moved is fine;
 * 3. rendered, inside the viewport and big enough, else "not-visible";
 * 4. the deep hit-test still reaches it, else "covered" naming what is on top.
 * `rect` is fresh; `center` is the first probe point that reaches the element.
 */
export function resolveMark(label: number): ResolvedMark {
  const entries = state().entries;
  const entry = entries[label];
  if (!entry) return { ok: false, reason: 'unknown-label', detail: `no element has label ${label} (labels 0..${entries.length - 1})` };
  const { el } = entry;
  const fp = el.isConnected ? { tag: tagOf(entry.owner), stable: textsOf(el, entry.owner, undefined, entry.scrollOnly).stable } : { tag: '', stable: '' };
  const check = checkFingerprint(el, entry.fingerprint, entry.stable, fp);
  if (!check.ok) return { ok: false, reason: check.reason, detail: `${describeElement(el)} ${check.detail}` };
  const style = getComputedStyle(el);
  const raw = el.getBoundingClientRect();
  const rect = clipToViewport(raw, window.innerWidth, window.innerHeight);
  if (!rect) return { ok: false, reason: 'not-visible', detail: `${describeElement(el)} is outside the viewport (top ${Math.round(raw.top)}, left ${Math.round(raw.left)})` };
  if (!bigEnough(rect) || !isRendered(el, style)) return { ok: false, reason: 'not-visible', detail: `${describeElement(el)} is hidden or too small` };
  const hit = hitTest(el, rect, !isTransparent(el));
  if (!hit.point) return { ok: false, reason: 'covered', detail: `${describeElement(el)} is covered by ${describeElement(outermostCover(hit.centreHit))}` };
  const out: ResolvedMark = { ok: true, rect, center: hit.point, tag: entry.tag, editable: isEditable(entry.owner) };
  const type = inputTypeOf(entry.owner);
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
  const el = state().entries[label]?.owner;
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

/**
 * `Scroll [N]` on a scrollable mark: scroll that element by 2/3 of its own height, instantly.
 * Null when N is unknown or gone; moved = pixels actually scrolled.
 */
export function scrollMark(label: number, direction: 'up' | 'down'): { moved: number } | null {
  const el = state().entries[label]?.el;
  if (!el || !el.isConnected) return null;
  const dy = Math.max(40, Math.round((el.clientHeight * 2) / 3)) * (direction === 'down' ? 1 : -1);
  const before = el.scrollTop;
  el.scrollBy({ top: dy, left: 0, behavior: 'instant' });
  return { moved: Math.abs(el.scrollTop - before) };
}

/** Type into label N when it is a <select>: choose the option the text names. Null when N is not a select. */
export function chooseInSelect(label: number, text: string): ReturnType<typeof chooseOptionByText> | null {
  const el = state().entries[label]?.owner;
  return el instanceof HTMLSelectElement && el.isConnected ? chooseOptionByText(el, text) : null;
}
