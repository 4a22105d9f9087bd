/**
 * Candidate collection: one pass that reads the DOM, styles and layout, and writes nothing.
 *
 * 1. Walk the document in order, into shadow roots (open and closed); skip our overlay, [inert]
 *    subtrees, display:none subtrees and non-rendered tags (head, script, style, template, …).
 *    Per root, one querySelectorAll finds the elements whose tag or attributes matter
 *    (rules.ATTR_SELECTOR); only those are classified attribute by attribute.
 * 2. Per element: one computed style (display, cursor, and overflow for non-inline boxes).
 *    Measured on this project's heavy page (20k elements, Chromium 156, 2 cores): a style read
 *    costs ~0.5 µs and getBoundingClientRect ~1.5–3 µs, so rects are read only for candidates.
 *    A subtree is never culled by its rect: fixed, absolute and overflowing descendants can be
 *    visible outside it. Children of a display:contents candidate (no box of its own) become
 *    candidates in its name. A candidate only because of a cursor:pointer inherited from its
 *    parent is deferred: it is measured only when no ancestor of that chain is visible (step 4c
 *    of denest.ts would drop it anyway), which spares the many spans inside clickable cards.
 * 3. Per candidate: its rect; drop it when outside the viewport or too small (cheap), then when
 *    disabled, pointer-events:none, invisible, transparent (form controls excepted), or when the
 *    deep hit-test does not reach it (visibility.ts). Scroll containers are confirmed here:
 *    overflow auto/scroll/overlay and content larger than the box by SCROLL_SLACK px; the
 *    document scroller is not one.
 * 4. De-nest (denest.ts).
 */
import type { Rect } from '../../src/core/marks';
import { composedParent, walkDeep } from './dom';
import { denest, type Seen } from './denest';
import { ATTR_SELECTOR, classify, isDisabled, type Kind } from './rules';
import type { LabelIndex } from './text';
import { bigEnough, clipToViewport, hitTest, isRendered, isTransparent } from './visibility';

export interface Candidate {
  /** the element with the box: what is hit-tested, resolved and clicked */
  el: Element;
  /** the element the rules chose: `el`, or a display:contents ancestor of it */
  owner: Element;
  /** clipped to the viewport */
  rect: Rect;
  scrollable: boolean;
}

export interface Collected { candidates: Candidate[]; labels: LabelIndex }

const SKIP_TAGS = new Set(['head', 'script', 'style', 'template', 'noscript', 'link', 'meta', 'title', 'base']);
const FORM_CONTROLS = new Set(['input', 'select', 'textarea']);
const SCROLLING = /auto|scroll|overlay/;
const SCROLL_SLACK = 8;

interface Found { el: Element; owner: Element; kind: Kind; style: CSSStyleDeclaration; scrolly: boolean; order: number }

interface Walked { found: Found[]; deferred: Found[]; pointer: Set<Element>; labels: LabelIndex }

/** Steps 1–2. */
function walk(): Walked {
  const out: Walked = { found: [], deferred: [], pointer: new Set(), labels: new Map() };
  const contents = new Map<Element, { owner: Element; kind: Kind }>();
  const interesting = new Set<Element>(document.querySelectorAll(ATTR_SELECTOR));
  const addRoot = (root: ShadowRoot) => { for (const el of Array.from(root.querySelectorAll(ATTR_SELECTOR))) interesting.add(el); };
  let viewportScroller = false;
  let order = 0;
  walkDeep((el) => {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) return false;
    const style = getComputedStyle(el);
    const display = style.display;
    if (display === 'none') return false;
    const isPointer = style.cursor === 'pointer';
    let kind: Kind | null = null;
    if (interesting.has(el)) {
      const a = classify(el, tag, isPointer && tag !== 'html' && tag !== 'body');
      if (a.inert || (a.ui && el.getAttribute('data-wa-ui') === 'overlay')) return false;
      if (tag === 'label') indexLabel(el as HTMLLabelElement, out.labels);
      kind = a.kind;
    } else if (isPointer && tag !== 'html' && tag !== 'body') {
      kind = 'pointer';
    }
    if (isPointer) out.pointer.add(el);
    let owner = el;
    const parent = el.parentElement ?? composedParent(el);
    const inherited = parent ? contents.get(parent) : undefined;
    if (inherited && (!kind || kind === 'pointer')) ({ kind, owner } = inherited);
    if (display === 'contents') {
      if (kind) contents.set(el, { owner, kind });
      return true;
    }
    let scrolly = false;
    if (tag === 'html') {
      viewportScroller = style.overflow !== 'visible';
    } else if (display !== 'inline') {
      scrolly = SCROLLING.test(style.overflow);
      // body's overflow moves to the viewport unless html has its own (CSS Overflow 3 §3.3)
      if (tag === 'body' && !viewportScroller) scrolly = false;
    }
    if (!kind && !scrolly) return true;
    const f: Found = { el, owner, kind: kind ?? 'scroll', style, scrolly, order: order++ };
    const deferred = kind === 'pointer' && !scrolly && owner === el && parent && out.pointer.has(parent);
    (deferred ? out.deferred : out.found).push(f);
    return true;
  }, document.documentElement, addRoot);
  return out;
}

function indexLabel(label: HTMLLabelElement, labels: LabelIndex): void {
  const control = label.control;
  if (!control) return;
  const list = labels.get(control);
  if (list) list.push(label);
  else labels.set(control, [label]);
}

/** Step 3 for one candidate: its visible state, or null. */
function measureOne(f: Found, vw: number, vh: number, scroller: Element | null): Seen | null {
  const rect = clipToViewport(f.el.getBoundingClientRect(), vw, vh);
  if (!rect || !bigEnough(rect)) return null;
  const scrollable = f.scrolly && f.el !== scroller && scrollsNow(f.el, f.style);
  if (f.kind === 'scroll' && !scrollable) return null;
  if (f.kind !== 'scroll' && isDisabled(f.owner)) return null;
  if (f.style.pointerEvents === 'none' || !isRendered(f.el, f.style)) return null;
  const transparent = isTransparent(f.el);
  if (transparent && !FORM_CONTROLS.has(f.el.localName)) return null;
  // a transparent control must be hit itself: a hit on its label means the label is the target
  if (!hitTest(f.el, rect, !transparent).point) return null;
  return { el: f.el, owner: f.owner, kind: f.kind, rect, transparent, scrollable, order: f.order };
}

function scrollsNow(el: Element, style: CSSStyleDeclaration): boolean {
  const y = SCROLLING.test(style.overflowY) && el.scrollHeight > el.clientHeight + SCROLL_SLACK;
  return y || (SCROLLING.test(style.overflowX) && el.scrollWidth > el.clientWidth + SCROLL_SLACK);
}

/** Step 3, then the deferred pointer children whose chain has nothing visible. */
function measure(w: Walked): Seen[] {
  const vw = window.innerWidth, vh = window.innerHeight;
  const scroller = document.scrollingElement;
  const seen: Seen[] = [];
  const visible = new Set<Element>();
  for (const f of w.found) {
    const s = measureOne(f, vw, vh, scroller);
    if (s) { seen.push(s); visible.add(s.el); }
  }
  let late = false;
  for (const f of w.deferred) {
    if (chainHasVisible(f.el, visible, w.pointer)) continue;
    const s = measureOne(f, vw, vh, scroller);
    if (s) { seen.push(s); visible.add(s.el); late = true; }
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

export function collectCandidates(): Collected {
  const w = walk();
  const seen = measure(w);
  const candidates = denest(seen, w.pointer).map((s) => ({ el: s.el, owner: s.owner, rect: s.rect, scrollable: s.scrollable }));
  return { candidates, labels: w.labels };
}
