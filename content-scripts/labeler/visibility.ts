/**
 * Visibility and hit-testing for one element (reads layout only).
 *
 * An element is markable when:
 * 1. its bounding rect clipped to the viewport has area >= 20 px² and both sides >= 4 px;
 * 2. it is rendered: computed visibility is "visible", checkVisibility() passes, and
 *    (unless it is a form control, which pages often overlay transparently) its opacity chain is not 0;
 * 3. a deep hit-test (document, then open shadow roots) at the clipped rect's centre, else at its
 *    four corners inset a few px, lands on the element, a descendant, or one of its <label>s.
 */
import type { Rect } from '../../src/core/marks';
import { deepElementFromPoint, isSelfOrDescendant } from './dom';

export const MIN_AREA = 20;
export const MIN_SIDE = 4;

export function viewportSize(): { width: number; height: number } {
  return { width: window.innerWidth, height: window.innerHeight };
}

/** The rect intersected with the viewport, or null when nothing is left. */
export function clipToViewport(r: DOMRectReadOnly, vw: number, vh: number): Rect | null {
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

const FORM_CONTROLS = new Set(['input', 'select', 'textarea']);

/** Step 2: rendered and not made invisible by CSS. */
export function isRendered(el: Element, style: CSSStyleDeclaration): boolean {
  if (style.visibility !== 'visible') return false;
  if (typeof el.checkVisibility === 'function') {
    if (!el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) return false;
    if (!FORM_CONTROLS.has(el.localName) && !el.checkVisibility({ opacityProperty: true })) return false;
  }
  return true;
}

/** Probe points for a clipped rect: centre first, then the corners inset by up to 5 px. */
export function probePoints(r: Rect): Array<{ x: number; y: number }> {
  const ix = Math.min(5, r.width / 4);
  const iy = Math.min(5, r.height / 4);
  const l = r.x + ix, t = r.y + iy, rt = r.x + r.width - ix, b = r.y + r.height - iy;
  return [
    { x: r.x + r.width / 2, y: r.y + r.height / 2 },
    { x: l, y: t }, { x: rt, y: t }, { x: l, y: b }, { x: rt, y: b },
  ];
}

/** Does a hit count as reaching `el`? The element, a descendant, or (for labelled controls) a label. */
export function hitReaches(hit: Element | null, el: Element): boolean {
  if (!hit) return false;
  if (isSelfOrDescendant(hit, el)) return true;
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const label of Array.from(labels)) if (isSelfOrDescendant(hit, label)) return true;
  return false;
}

export interface HitResult {
  /** first probe point that reaches the element, or null */
  point: { x: number; y: number } | null;
  /** what is at the centre (for "covered" reports) */
  centreHit: Element | null;
}

/** Step 3: deep hit-test at the probe points. */
export function hitTest(el: Element, r: Rect): HitResult {
  const points = probePoints(r);
  let centreHit: Element | null = null;
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const hit = deepElementFromPoint(p.x, p.y);
    if (i === 0) centreHit = hit;
    if (hitReaches(hit, el)) return { point: p, centreHit };
  }
  return { point: null, centreHit };
}
