/**
 * Visibility and hit-testing for one element (reads layout only).
 *
 * An element is markable when:
 * 1. its bounding rect clipped to the viewport has area >= 20 px² and both sides >= 4 px;
 * 2. it is rendered: computed visibility is "visible" and checkVisibility() passes (no
 *    display:none or content-visibility:hidden ancestor); opacity is reported separately
 *    (`transparent`), because pages often lay a transparent form control over a styled one;
 * 3. a hit-test at the clipped rect's centre, else at its corners inset a few px, else at its
 *    edge midpoints, lands on the element, a descendant (composed tree), or, when allowed, one of
 *    its <label>s. One hit-test per point, asked of the element's own tree (document or shadow
 *    root, open or closed: dom.elementFromPointFor); the deep hit (dom.deepenHit) is looked up
 *    only for a missed centre, for the caller. When the centre misses,
 *    the caller may say which other points are known to miss too (hitTest's `onMiss`: under a
 *    cover, cover.ts; or all of them, the box being clipped away by its ancestors, visibleRect).
 */
import type { Rect } from '../../src/core/marks';
import { composedParent, deepenHit, elementFromPointFor } from './dom';

export const MIN_AREA = 20;
export const MIN_SIDE = 4;

/** The rect intersected with the viewport, or null when nothing is left. */
export function clipToViewport(r: Edges, vw: number, vh: number): Rect | null {
  return clipTo(r, { left: 0, top: 0, right: vw, bottom: vh });
}

export interface Edges { left: number; top: number; right: number; bottom: number }

/** The part of `r` inside `view` (both in viewport coordinates), or null. */
export function clipTo(r: Edges, view: Edges): Rect | null {
  const x = Math.max(view.left, r.left);
  const y = Math.max(view.top, r.top);
  const right = Math.min(view.right, r.right);
  const bottom = Math.min(view.bottom, r.bottom);
  if (right <= x || bottom <= y) return null;
  return { x, y, width: right - x, height: bottom - y };
}

export function bigEnough(r: Rect): boolean {
  return r.width >= MIN_SIDE && r.height >= MIN_SIDE && r.width * r.height >= MIN_AREA;
}

/** Step 2: rendered and not hidden by `visibility` (opacity is checked by `isTransparent`). */
export function isRendered(el: Element, style: CSSStyleDeclaration): boolean {
  if (style.visibility !== 'visible') return false;
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ contentVisibilityAuto: true })) return false;
  return true;
}

/** Opacity 0 on the element or an ancestor (checkVisibility walks the chain for us). */
export function isTransparent(el: Element): boolean {
  return typeof el.checkVisibility === 'function' && !el.checkVisibility({ opacityProperty: true });
}

/**
 * isRendered and isTransparent together: null when not rendered, else whether it is transparent.
 * One checkVisibility call answers the common case (rendered, visible and opaque).
 */
export function renderedOpacity(el: Element, style: CSSStyleDeclaration): { transparent: boolean } | null {
  if (style.visibility !== 'visible') return null;
  if (typeof el.checkVisibility !== 'function') return OPAQUE;
  if (el.checkVisibility({ contentVisibilityAuto: true, opacityProperty: true })) return OPAQUE;
  if (!el.checkVisibility({ contentVisibilityAuto: true })) return null;
  return TRANSPARENT;
}

const OPAQUE = { transparent: false };
const TRANSPARENT = { transparent: true };

/** Probe points: centre, the four corners inset by up to 5 px, then the four edge midpoints. */
export function probePoints(r: Rect): Array<{ x: number; y: number }> {
  const ix = Math.min(5, r.width / 4);
  const iy = Math.min(5, r.height / 4);
  const l = r.x + ix, t = r.y + iy, rt = r.x + r.width - ix, b = r.y + r.height - iy;
  const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
  return [
    { x: cx, y: cy },
    { x: l, y: t }, { x: rt, y: t }, { x: l, y: b }, { x: rt, y: b },
    { x: cx, y: t }, { x: cx, y: b }, { x: l, y: cy }, { x: rt, y: cy },
  ];
}

/**
 * Does a hit count as reaching `el`? The element or a descendant in the composed tree; with
 * `viaLabel`, also a <label> whose control is `el` (a floating label drawn over its input).
 * Walks up from the hit instead of reading `el.labels`, which scans the whole document.
 */
export function hitReaches(hit: Element | null, el: Element, viaLabel = true): boolean {
  for (let cur = hit; cur; cur = composedParent(cur)) {
    if (cur === el) return true;
    if (viaLabel && cur.localName === 'label' && (cur as HTMLLabelElement).control === el) return true;
  }
  // text slotted straight into a host (`<ds-link>Account</ds-link>` around `<a><slot></slot></a>`)
  // is hit as the host itself, the text's parent: it is painted in el when a slot in el shows it
  return hit !== null && hit === hostOf(el) && showsHostText(el, hit);
}

function hostOf(el: Element): Element | null {
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

function showsHostText(el: Element, host: Element): boolean {
  const slots = el.localName === 'slot' ? [el as HTMLSlotElement] : Array.from(el.querySelectorAll('slot'));
  for (const slot of slots) {
    for (const n of slot.assignedNodes()) if (n.nodeType === Node.TEXT_NODE && n.parentNode === host && n.nodeValue!.trim()) return true;
  }
  return false;
}

export interface HitResult {
  /** first probe point that reaches the element, or null */
  point: { x: number; y: number } | null;
  /** what is at the centre (for "covered" reports) */
  centreHit: Element | null;
}

export interface Point { x: number; y: number }

/**
 * When the centre probe misses: null to stop (the element is known to be hidden), or which of
 * the remaining points are known to miss too (they are not probed).
 */
export type OnMiss = (centreHit: Element | null, centre: Point, rest: Point[]) => ((p: Point) => boolean) | null;

/** Step 3: hit-test the probe points, stopping at the first that reaches the element. */
export function hitTest(el: Element, r: Rect, viaLabel = true, onMiss?: OnMiss): HitResult {
  const centre = { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  // one hit-test per point, in el's own tree (dom.elementFromPointFor); the deep hit is made only
  // for a missed centre, whose hit the caller may look at (covers, "covered by" reports)
  const first = elementFromPointFor(el, centre.x, centre.y);
  if (hitReaches(first, el, viaLabel)) return { point: centre, centreHit: first };
  const centreHit = deepenHit(first, centre.x, centre.y);
  const rest = probePoints(r).slice(1);
  const skip = onMiss ? onMiss(centreHit, centre, rest) : null;
  if (onMiss && !skip) return { point: null, centreHit };
  for (const p of rest) {
    if (skip && skip(p)) continue;
    if (hitReaches(elementFromPointFor(el, p.x, p.y), el, viaLabel)) return { point: p, centreHit };
  }
  return { point: null, centreHit };
}

const CLIP_AXIS = new Set(['hidden', 'auto', 'scroll', 'overlay']);
const BLOCKISH = new Set(['block', 'inline-block', 'flow-root', 'flex', 'inline-flex', 'grid', 'inline-grid', 'list-item', '-webkit-box', '-webkit-inline-box']);

/**
 * The part of the element's box (`r`: its rect clipped to the viewport) its ancestors' overflow
 * does not clip away, or null when nothing is left (a list item scrolled out of its list, a slide
 * outside its carousel). Conservative, a superset: a clip is applied only when CSS guarantees it.
 * Walks the containing-block chain: every ancestor for an in-flow box; for position:absolute only
 * from the nearest positioned one (a transform that would also hold it is not read: the clips in
 * between are then not applied); position:fixed and the top layer (dialog, [popover]) stop the
 * walk (nothing above clips them, short of a transform). A clip counts on an axis whose computed
 * overflow is hidden / auto / scroll / overlay (`clip` may paint outside by overflow-clip-margin:
 * not applied), on boxes overflow applies to, as the ancestor's border box (a superset of its
 * padding box); html and body clip the viewport only. Reads one computed style per ancestor and
 * a rect per clipping one: for a box whose centre probe missed, in place of eight more hit-tests.
 */
export function visibleRect(el: Element, style: CSSStyleDeclaration, r: Rect, memo?: ClipMemo): Rect | null {
  const box = clipBox(el, style, memo);
  if (box === null) return r;
  const x0 = Math.max(r.x, box.x0), y0 = Math.max(r.y, box.y0);
  const x1 = Math.min(r.x + r.width, box.x1), y1 = Math.min(r.y + r.height, box.y1);
  if (x1 <= x0 || y1 <= y0) return null;
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** A box in viewport px, edges (may be empty: x1 <= x0 or y1 <= y0). */
export interface Box { x0: number; y0: number; x1: number; y1: number }

/**
 * The window through which the ancestors' overflow lets `el`'s box be seen (visibleRect's walk,
 * without the box): null when no ancestor clips it. Reads no box of `el` itself, so a caller can
 * skip measuring anything when nothing clips.
 */
export function clipBox(el: Element, style: CSSStyleDeclaration, memo?: ClipMemo): Box | null {
  let x0 = -Infinity, y0 = -Infinity, x1 = Infinity, y1 = Infinity;
  let clipped = false;
  const out = () => (clipped ? { x0, y0, x1, y1 } : null);
  if (document.fullscreenElement || isTopLayer(el)) return null;
  let position = style.position;
  for (let p = composedParent(el); p; p = composedParent(p)) {
    if (position === 'fixed') break;
    const tag = p.localName;
    if (tag === 'body' || tag === 'html') break;
    const c = clipOf(p, memo);
    // no box of its own (a slot, a display:contents wrapper): neither clips nor holds anything
    if (c.contents) continue;
    // an absolute box is held by the nearest positioned ancestor: the ones below do not clip it
    if (position === 'absolute' && c.position === 'static') continue;
    if (c.clipX) { x0 = Math.max(x0, c.clipX[0]); x1 = Math.min(x1, c.clipX[1]); clipped = true; }
    if (c.clipY) { y0 = Math.max(y0, c.clipY[0]); y1 = Math.min(y1, c.clipY[1]); clipped = true; }
    if (x1 <= x0 || y1 <= y0) return out();
    // nothing above the top layer clips it
    if (c.topLayer) break;
    position = c.position;
  }
  return out();
}

/** What visibleRect reads about one ancestor; remembered per pass (many boxes share ancestors). */
interface ClipFacts { contents: boolean; position: string; clipX: [number, number] | null; clipY: [number, number] | null; topLayer: boolean }
export type ClipMemo = Map<Element, ClipFacts>;

function clipOf(p: Element, memo?: ClipMemo): ClipFacts {
  const known = memo?.get(p);
  if (known) return known;
  const s = getComputedStyle(p);
  const display = s.display;
  let clipX: [number, number] | null = null, clipY: [number, number] | null = null;
  const oy = s.overflowY;
  if (oy !== 'visible' && BLOCKISH.has(display)) {
    const ox = s.overflowX;
    if (CLIP_AXIS.has(ox) || CLIP_AXIS.has(oy)) {
      const b = p.getBoundingClientRect();
      if (CLIP_AXIS.has(ox)) clipX = [b.left, b.right];
      if (CLIP_AXIS.has(oy)) clipY = [b.top, b.bottom];
    }
  }
  const facts = { contents: display === 'contents', position: s.position, clipX, clipY, topLayer: isTopLayer(p) };
  memo?.set(p, facts);
  return facts;
}

function isTopLayer(el: Element): boolean {
  return el.localName === 'dialog' || el.hasAttribute('popover');
}
