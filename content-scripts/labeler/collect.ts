/**
 * Candidate collection: one pass that reads the DOM, styles and layout, and writes nothing.
 *
 * Costs that shape it (measured in the extension's isolated world, Chromium, 2 cores; heavy
 * corpus page: 20k elements): getComputedStyle ~0.3 µs plus ~0.3 µs per property read (~0.8 µs
 * for one read on an element first touched in the pass); getBoundingClientRect 1.5–2.5 µs; one
 * selector query with 14 attribute selectors ~3.3 ms per 20k elements where getAttributeNames on
 * the 11k that have attributes takes ~1.4 ms; the walk itself (firstElementChild /
 * nextElementSibling) ~1.5 ms; elementFromPoint 4–10 µs on a small page, ~40 µs on the heavy one,
 * elementsFromPoint 2–3 times that.
 *
 *
 * 1–3. The walk (walk.ts): in document order, cheapest reads first, culling what CSS guarantees is off
 *    screen; or, between passes, the page index (page-index.ts) instead of a walk.
 * 4. Per candidate on screen: drop it when too small, disabled, pointer-events:none, invisible,
 *    transparent (form controls excepted), outside every open modal dialog (the rest of the
 *    document is inert: HTML, "blocked by a modal dialog"; popovers are left to the hit-test), or
 *    when the deep hit-test does not reach it (visibility.ts: the centre, then corners and edge
 *    midpoints). When the centre misses, the points known to miss as well are not probed: those
 *    under the cover that hid the centre (cover.ts), or all of them when the ancestors' overflow
 *    clips the box away (visibility.visibleRect); a cover over the whole viewport, once found,
 *    hides what lies under it without a hit-test (cover.ts step 5). Scroll containers are
 *    confirmed here: overflow auto/scroll/overlay and content larger than the box by SCROLL_SLACK
 *    px; the document scroller (html, body, or a box filling the viewport) is not one. A frame
 *    with no viewport (a display:none iframe) has no candidates at all.
 * 5. De-nest (denest.ts).
 */
import type { PassKind, Rect } from '../../src/core/marks';
import { composedParent } from './dom';
import { denest, type Seen } from './denest';
import { splitRows } from './rows';
import { isDisabled } from './rules';
import type { LabelIndex } from './text';
import { Covers, presentAt } from './cover';
import { bigEnough, clipToViewport, hitTest, renderedOpacity, visibleRect, type ClipMemo, type OnMiss, type Point } from './visibility';
import { fromIndex, scheduleIndex } from './page-index';
import { quickWalk } from './quick-walk';
import { SCROLLING, Walker, type Found, type Walk, type Walked } from './walk';
export interface Candidate {
  /** the element with the box: what is hit-tested, resolved and clicked */
  el: Element;
  /** the element the rules chose: `el`, or a display:contents ancestor of it */
  owner: Element;
  /** clipped to the viewport */
  rect: Rect;
  scrollable: boolean;
  /** a scroll container and nothing else */
  scrollOnly: boolean;
  /** el's computed style (live: read it during the pass) */
  style: CSSStyleDeclaration;
}

export interface Collected { candidates: Candidate[]; labels: LabelIndex; walked: Walked }
const FORM_CONTROLS = new Set(['input', 'select', 'textarea']);
const SCROLL_SLACK = 8;
const PAGE_SIZED = 0.9;

/** What step 4 needs besides the candidate. */
interface Measuring {
  vw: number;
  vh: number;
  /** the document scroller (never a scroll mark) */
  scroller: Element | null;
  /** open modal dialogs: the rest of the document is inert */
  modals: Element[];
  covers: Covers;
  clips: ClipMemo;
}

/** Step 4 for one candidate: its visible state, or null. */
function measureOne(f: Found, m: Measuring): Seen | null {
  const rect = f.rect ?? clipToViewport(f.el.getBoundingClientRect(), m.vw, m.vh);
  if (!rect || !bigEnough(rect)) return null;
  // a scroller filling the viewport is the page's own (an app shell): "Scroll WINDOW" reaches it
  const pageSized = rect.width >= PAGE_SIZED * m.vw && rect.height >= PAGE_SIZED * m.vh;
  const scrollable = f.scrolly && !pageSized && f.el !== m.scroller && scrollsNow(f.el, f.style);
  if (f.kind === 'scroll' && !scrollable) return null;
  // a disabled control is not used, but one that scrolls is still scrolled (an agreement box read to its end)
  if (f.kind !== 'scroll' && !scrollable && isDisabled(f.owner, f.kind)) return null;
  if (f.style.pointerEvents === 'none') return null;
  const shown = renderedOpacity(f.el, f.style);
  if (!shown) return null;
  const transparent = shown.transparent;
  if (transparent && !FORM_CONTROLS.has(f.el.localName)) return null;
  if (m.modals.length && blockedByModal(f.el, m.modals)) return null;
  if (m.covers.hides(f.el)) return null;
  // a transparent control must be hit itself: a hit on its label means the label is the target
  if (!hitTest(f.el, rect, !transparent, afterMiss(f, rect, m)).point) return null;
  return { el: f.el, owner: f.owner, kind: f.kind, rect, transparent, scrollable, order: f.order, style: f.style };
}

const PROBE_ALL = () => false;

/**
 * When the centre probe missed (visibility.hitTest): the other points are not probed when a
 * cover is over them all (cover.ts), or when the ancestors' overflow clips the box away
 * (visibility.visibleRect); points under a cover are skipped.
 */
function afterMiss(f: Found, rect: Rect, m: Measuring): OnMiss {
  return (hit: Element | null, centre: Point, rest: Point[]) => {
    const under = hit ? m.covers.under(hit, f.el) : null;
    // K over E: known from the stacking levels, else from E being present under the centre's hit
    let over: boolean | undefined = under?.over || undefined;
    const isOver = () => (over ??= presentAt(f.el, centre));
    if (under && rest.every(under.covered) && isOver()) return null;
    if (!visibleRect(f.el, f.style, rect, m.clips)) return null;
    if (under && rest.some(under.covered) && isOver()) return under.covered;
    return PROBE_ALL;
  };
}

/**
 * An open modal dialog makes the rest of the document inert (HTML, "blocked by a modal dialog"):
 * outside every modal dialog and every popover (kept to the hit-test), nothing can be used.
 */
function blockedByModal(el: Element, modals: Element[]): boolean {
  for (let p: Element | null = el; p; p = composedParent(p)) {
    if (p.localName === 'dialog' ? modals.includes(p) : p.hasAttribute('popover')) return false;
  }
  return true;
}

function scrollsNow(el: Element, style: CSSStyleDeclaration): boolean {
  const y = SCROLLING.has(style.overflowY) && el.scrollHeight > el.clientHeight + SCROLL_SLACK;
  return y || (SCROLLING.has(style.overflowX) && el.scrollWidth > el.clientWidth + SCROLL_SLACK);
}

/** Step 4, then the deferred pointer children whose chain has nothing visible. */
function measure(w: Walk, vw: number, vh: number): Seen[] {
  const m: Measuring = { vw, vh, scroller: document.scrollingElement, modals: w.modals, covers: new Covers(vw, vh), clips: new Map() };
  let seen: Seen[] = [];
  const visible = new Set<Element>();
  for (const f of w.found) {
    const s = measureOne(f, m);
    if (s) { seen.push(s); visible.add(s.el); }
  }
  let late = false;
  const under: Found[] = [];
  for (const f of w.deferred) {
    if (chainHasVisible(f.el, visible, w.pointer)) { under.push(f); continue; }
    const s = measureOne(f, m);
    if (s) { seen.push(s); visible.add(s.el); late = true; }
  }
  // a row of buttons that only inherit their parent's cursor is a row of marks, not one (rows.ts)
  if (under.length) {
    const parents = new Map<Element, Seen>();
    for (const s of seen) if (s.kind === 'pointer' && s.owner === s.el && !s.scrollable) parents.set(s.el, s);
    const split = parents.size ? splitRows(parents, under, (f) => measureOne(f, m)) : null;
    if (split?.add.length) {
      seen = seen.filter((s) => !split.drop.has(s.el));
      seen.push(...split.add);
      late = true;
    }
  }
  return late ? seen.sort((a, b) => a.order - b.order) : seen;
}

/** A visible ancestor in the unbroken cursor:pointer chain, or a chain reaching body (page-wide). */
function chainHasVisible(el: Element, visible: Set<Element>, pointer: Set<Element>): boolean {
  for (let p = composedParent(el); p && pointer.has(p); p = composedParent(p)) {
    if (visible.has(p) || p.localName === 'body' || p.localName === 'html') return true;
  }
  return false;
}

/**
 * The quick pass on a page without an index (quick-walk.ts). Tests and the bench turn it off to
 * compare it with the walk: `globalThis[Symbol.for('webagent.labeler.walkOnly')] = true` in the
 * content scripts' world.
 */
const WALK_ONLY = Symbol.for('webagent.labeler.walkOnly');
const quickOn = () => (globalThis as unknown as Record<symbol, unknown>)[WALK_ONLY] !== true;


export function collectCandidates(): Collected & { kind: PassKind } {
  const vw = window.innerWidth, vh = window.innerHeight;
  // a frame with no viewport (a display:none iframe) shows nothing: every rect would clip to null
  if (!vw || !vh) return { candidates: [], labels: new Map(), walked: { frames: [], roots: [] }, kind: 'walk' };
  let w: Walk | null = fromIndex(vw, vh);
  let kind: PassKind = w ? 'index' : 'walk';
  if (!w && quickOn()) {
    w = quickWalk(vw, vh);
    if (w) {
      kind = 'quick';
      scheduleIndex();
    }
  }
  if (!w) {
    const walker = new Walker({ left: 0, top: 0, right: vw, bottom: vh });
    walker.run();
    w = walker;
    scheduleIndex();
  }
  const seen = measure(w, vw, vh);
  const candidates = denest(seen, w.pointer).map((s) => ({ el: s.el, owner: s.owner, rect: s.rect, scrollable: s.scrollable, scrollOnly: s.kind === 'scroll', style: s.style }));
  return { candidates, labels: w.labels, walked: w.walked, kind };
}
