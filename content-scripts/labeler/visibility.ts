/**
 * Visibility and hit-testing for one element (reads layout only).
 *
 * An element is markable when:
 * 1. its bounding rect clipped to the viewport has area >= 20 px² and both sides >= 4 px;
 * 2. it is rendered: computed visibility is "visible" and checkVisibility() passes (no
 *    display:none or content-visibility:hidden ancestor); opacity is reported separately
 *    (`transparent`), because pages often lay a transparent form control over a styled one;
 * 3. a deep hit-test (document, then shadow roots, open and closed) at the clipped rect's centre,
 *    else at its corners inset a few px, else at its edge midpoints, lands on the element, a
 *    descendant (composed tree), or, when allowed, one of its <label>s.
 */
import type { Rect } from '../../src/core/marks';
import { composedParent, deepElementFromPoint } from './dom';

export const MIN_AREA = 20;
export const MIN_SIDE = 4;

/** The rect intersected with the viewport, or null when nothing is left. */
export function clipToViewport(r: { left: number; top: number; right: number; bottom: number }, vw: number, vh: number): Rect | null {
  const x = Math.max(0, r.left);
  const y = Math.max(0, r.top);
  const right = Math.min(vw, r.right);
  const bottom = Math.min(vh, r.bottom);
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
  return false;
}

export interface HitResult {
  /** first probe point that reaches the element, or null */
  point: { x: number; y: number } | null;
  /** what is at the centre (for "covered" reports) */
  centreHit: Element | null;
}

/** Step 3: deep hit-test at the probe points, stopping at the first that reaches the element. */
export function hitTest(el: Element, r: Rect, viaLabel = true): HitResult {
  const points = probePoints(r);
  let centreHit: Element | null = null;
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const hit = deepElementFromPoint(p.x, p.y);
    if (i === 0) centreHit = hit;
    if (hitReaches(hit, el, viaLabel)) return { point: p, centreHit };
  }
  return { point: null, centreHit };
}
