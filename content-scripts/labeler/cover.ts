/**
 * Covers: what a missed centre probe says about the other eight probe points (visibility.ts
 * step 3), so an element under a modal backdrop, a consent wall, a sticky header, an open menu or
 * a loading overlay costs one hit-test instead of nine (plus one elementsFromPoint when step 3a
 * cannot tell). Reads only.
 *
 * Why it is safe. Painting (and hit-testing, which follows it) is done in atomic units: a
 * stacking context paints its whole subtree in one go (the top layer aside), and two units are
 * in the same order to each other at every point where both are present (CSS 2.1 Appendix E).
 * 1. The centre P of a candidate E missed: the deepest element hit there, H, is neither E, inside
 *    E nor a label of E (visibility.hitReaches).
 * 2. K: H itself when positioned (a positioned box with z-index auto paints its own box with its
 *    in-flow content as one unit), else the nearest ancestor that is a stacking context we can
 *    tell from two reads (position fixed or sticky, or positioned with a z-index), or an open
 *    modal dialog / popover (top layer). None before body: nothing is concluded. K must not
 *    contain E.
 * 3. K's unit, which holds H, is painted over E's box, everywhere. Known one of two ways:
 *    a. K is a stacking context of the root one (none of its ancestors below html makes one: no
 *       position with z-index, fixed or sticky, opacity, transform, filter, clip-path, mask,
 *       blend mode, isolation, will-change, contain, container-type, view-transition-name) with
 *       a z-index >= 1, and no element from E up to html has a z-index as high or is in the top
 *       layer: whatever stacking context holds E is then painted at a lower level of the root one;
 *    b. otherwise, E is present at P (elementsFromPoint at P, in E's own tree scope, lists E)
 *       while H is on top there.
 * 4. So wherever the own box of any element X from H up to K is hit-testable, the hit is X or
 *    something painted over X: never E's box. X's box is hit-testable over its border box when X
 *    is visible, its pointer-events is not none, it is not inline (line boxes leave gaps) or an
 *    SVG graphic (hit by its shape), has no clip-path, no element above it can clip it (no
 *    overflow other than visible, contain, content-visibility or clip-path from X's parent up to
 *    body; html and a body whose overflow goes to the viewport do not clip), and nothing on the
 *    way rotates or skews it (its rect is then exact); rounded corners are kept out (a point must
 *    lie in the rect minus the corner squares). Probe points inside such a box are skipped; the
 *    others are probed as before.
 * 5. A cover found this way whose boxes span the whole viewport, known by 3a to be over every
 *    element lower than it, hides such an element anywhere: later candidates under it are
 *    dropped without a hit-test (a modal backdrop, a consent wall).
 * Left out on purpose: a descendant of E raised above K by its own z-index, or a label of E drawn
 * above K, is not looked for at the skipped points (a candidate of its own still gets its own mark).
 */
import { composedParent } from './dom';
import type { Point } from './visibility';

interface Box { l: number; t: number; r: number; b: number; radius: number }
interface Cover {
  k: Element;
  boxes: Box[];
  /** K's z-index when K is a stacking context of the root one (step 3a), else null */
  rootZ: number | null;
}

/** What a missed probe says: which points are covered, and whether K is known to be over E (step 3a). */
export interface Under { covered: (p: Point) => boolean; over: boolean }

/** What step 4 reads about one element (once per pass, whoever asks). */
interface Facts {
  style: CSSStyleDeclaration;
  /** a stacking context (step 2) */
  unit: boolean;
  /** may clip its descendants */
  clips: boolean;
  /** rotates or skews what is inside it (and itself) */
  tilted: boolean;
  /** its z-index ('auto' or an integer) */
  z: string;
  /** an open modal dialog or popover */
  topLayer: boolean;
}

export class Covers {
  /** covers found so far whose boxes span the whole viewport, with a root-level z-index (step 5) */
  private whole: Cover[] = [];
  private byHit = new Map<Element, Cover | null>();
  private facts = new Map<Element, Facts>();
  /** step 3a: z-index as a number (auto: -Infinity; top layer: Infinity) */
  private levels = new Map<Element, number>();

  constructor(private readonly vw: number, private readonly vh: number) {}

  /** Step 5: a cover already found is over all of `el` (no probe point can reach it). */
  hides(el: Element): boolean {
    for (const c of this.whole) if (!contains(c.k, el) && this.lower(el, c.rootZ!)) return true;
    return false;
  }

  /** Steps 2–4 for a missed probe that hit `hit`, or null (no K, or K contains `el`). */
  under(hit: Element, el: Element): Under | null {
    let c = this.byHit.get(hit);
    if (c === undefined) {
      c = this.coverOf(hit);
      this.byHit.set(hit, c);
    }
    if (!c || contains(c.k, el)) return null;
    const boxes = c.boxes;
    return { covered: (p) => boxes.some((b) => inside(b, p)), over: c.rootZ !== null && this.lower(el, c.rootZ) };
  }

  /** Step 3a for E: nothing from E up to html is in the top layer or has a z-index >= z. */
  private lower(el: Element, z: number): boolean {
    for (let p: Element | null = el; p && p.localName !== 'html'; p = composedParent(p)) {
      let level = this.levels.get(p);
      if (level === undefined) {
        const known = this.facts.get(p);
        level = known ? (known.topLayer ? Infinity : zOf(known.z)) : isTopLayer(p) ? Infinity : zOf(getComputedStyle(p).zIndex);
        this.levels.set(p, level);
      }
      if (level >= z) return false;
    }
    return true;
  }

  private factsOf(el: Element): Facts {
    let f = this.facts.get(el);
    if (f) return f;
    const style = getComputedStyle(el);
    const tag = el.localName;
    const pos = style.position;
    const z = style.zIndex;
    const topLayer = isTopLayer(el);
    const unit = pos === 'fixed' || pos === 'sticky' || (pos !== 'static' && z !== 'auto') || topLayer;
    // html's overflow is the viewport's, and so is body's while html's is visible
    let overflows = style.overflowX !== 'visible' || style.overflowY !== 'visible';
    if (tag === 'html') overflows = false;
    else if (tag === 'body' && overflows && el.parentElement) {
      const root = getComputedStyle(el.parentElement);
      overflows = root.overflowX !== 'visible' || root.overflowY !== 'visible';
    }
    const clips = overflows || style.contain !== 'none' || style.contentVisibility !== 'visible' || style.clipPath !== 'none';
    const tilted = !axisAligned(style.transform) || style.rotate !== 'none';
    f = { style, unit, clips, tilted, z, topLayer };
    this.facts.set(el, f);
    return f;
  }

  private coverOf(h: Element): Cover | null {
    // the chain from H up to html, with K's index and the highest element that may clip
    const chain: Element[] = [];
    let k = -1, clipper = -1;
    for (let p: Element | null = h; p; p = composedParent(p)) {
      const i = chain.push(p) - 1;
      const f = this.factsOf(p);
      if (f.tilted) return null;
      // H itself when positioned: its own box paints in its own unit even with z-index auto
      if (k < 0 && (f.unit || (i === 0 && f.style.position !== 'static'))) k = i;
      if (i > 0 && f.clips) clipper = i;
      if (k < 0 && (p.localName === 'body' || p.localName === 'html')) return null;
    }
    if (k < 0 || clipper > k) return null;
    // step 3a: K a stacking context of the root one, with a positive z-index
    const kz = this.factsOf(chain[k]).z;
    let rootZ: number | null = kz !== 'auto' && Number(kz) >= 1 ? Number(kz) : null;
    for (let i = k + 1; rootZ !== null && i < chain.length; i++) {
      if (chain[i].localName !== 'html' && makesStackingContext(this.factsOf(chain[i]).style)) rootZ = null;
    }
    const boxes: Box[] = [];
    // X at the clipper itself is not clipped by it (its descendants are)
    for (let i = Math.max(0, clipper); i <= k; i++) {
      const x = chain[i];
      const s = this.factsOf(x).style;
      if (s.visibility !== 'visible' || s.pointerEvents === 'none' || s.clipPath !== 'none' || isGraphic(x)) continue;
      const display = s.display;
      if (display === 'inline' || display === 'contents') continue;
      const radius = maxRadius(s);
      if (radius === null) continue;
      const r = x.getBoundingClientRect();
      boxes.push({ l: r.left, t: r.top, r: r.right, b: r.bottom, radius });
    }
    if (!boxes.length) return null;
    const cover = { k: chain[k], boxes, rootZ };
    if (rootZ !== null && boxes.some((b) => !b.radius && b.l <= 0 && b.t <= 0 && b.r >= this.vw && b.b >= this.vh)) this.whole.push(cover);
    return cover;
  }
}

/** Step 3: E is hit-testable at `p`, under whatever is on top there. */
export function presentAt(el: Element, p: Point): boolean {
  const root = el.getRootNode() as Document | ShadowRoot;
  const list = typeof root.elementsFromPoint === 'function' ? root.elementsFromPoint(p.x, p.y) : document.elementsFromPoint(p.x, p.y);
  return list.includes(el);
}

/** An open modal dialog or popover. */
function isTopLayer(el: Element): boolean {
  return (el.localName === 'dialog' || el.hasAttribute('popover')) && el.matches(':modal, :popover-open');
}

function zOf(z: string): number {
  return z === 'auto' ? -Infinity : Number(z);
}

/** Could this element make a stacking context (CSS 2.1 Appendix E, and the properties added since)? */
function makesStackingContext(s: CSSStyleDeclaration): boolean {
  const pos = s.position;
  if (pos === 'fixed' || pos === 'sticky' || s.zIndex !== 'auto') return true;
  if (s.opacity !== '1' || s.transform !== 'none' || s.translate !== 'none' || s.rotate !== 'none' || s.scale !== 'none') return true;
  if (s.perspective !== 'none' || s.filter !== 'none' || s.backdropFilter !== 'none' || s.clipPath !== 'none') return true;
  if (s.maskImage !== 'none' || s.mixBlendMode !== 'normal' || s.isolation !== 'auto' || s.willChange !== 'auto') return true;
  if (s.contain !== 'none' || s.containerType !== 'normal') return true;
  const vt = s.getPropertyValue('view-transition-name');
  return vt !== '' && vt !== 'none';
}

/** An SVG graphic is hit by its shape, not its box (the outer <svg> is a box). */
function isGraphic(el: Element): boolean {
  return el instanceof SVGElement && el.localName !== 'svg';
}

/** none, or a 2D matrix without rotation or skew (the bounding rect is then the box). */
function axisAligned(transform: string): boolean {
  if (transform === 'none') return true;
  const m = /^matrix\(([^)]*)\)$/.exec(transform);
  if (!m) return false;
  const v = m[1].split(',').map(Number);
  return v.length === 6 && v[1] === 0 && v[2] === 0;
}

/** The largest corner radius in px, or null when one is not a plain length (percentages, …). */
function maxRadius(s: CSSStyleDeclaration): number | null {
  let max = 0;
  for (const v of [s.borderTopLeftRadius, s.borderTopRightRadius, s.borderBottomLeftRadius, s.borderBottomRightRadius]) {
    for (const part of v.split(' ')) {
      if (!part.endsWith('px')) return null;
      const n = Number(part.slice(0, -2));
      if (!Number.isFinite(n)) return null;
      if (n > max) max = n;
    }
  }
  return max;
}

/** In the border box minus the four corner squares of side `radius` (a superset of the rounding). */
function inside(c: Box, p: Point): boolean {
  if (p.x < c.l || p.x > c.r || p.y < c.t || p.y > c.b) return false;
  if (!c.radius) return true;
  const inX = p.x >= c.l + c.radius && p.x <= c.r - c.radius;
  const inY = p.y >= c.t + c.radius && p.y <= c.b - c.radius;
  return inX || inY;
}

/** `a` is `b` or a flat-tree ancestor of it. */
function contains(a: Element, b: Element): boolean {
  for (let p: Element | null = b; p; p = composedParent(p)) if (p === a) return true;
  return false;
}
