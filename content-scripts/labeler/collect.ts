/**
 * Candidate collection: one pass that reads the DOM, styles and layout, and writes nothing.
 *
 * 1. Walk the document in order, into shadow roots (open and closed); skip our overlay, [inert]
 *    subtrees, display:none subtrees and non-rendered tags (head, script, style, template, …).
 *    Elements whose tag (rules.TAGS) or attributes (rules.ATTR_SELECTOR, one querySelectorAll
 *    per root) matter are classified attribute by attribute; the rest only by their cursor.
 * 2. Per element, cheapest first. Measured on the heavy fixture page (20k elements, Chromium 156,
 *    2 cores): a computed style costs ~0.5 µs in the page and ~1 µs in the extension's isolated
 *    world, getBoundingClientRect ~1.5–3 µs. So:
 *    a. an attribute candidate is measured first: when it has a box off screen (most of a long
 *       page) it needs no style at all;
 *    b. every other element gets one computed style: display (none skips the subtree), cursor,
 *       and overflow-y (overflow-x only when y is not visible) for non-inline boxes;
 *    c. a subtree is never culled by its rect: fixed, absolute and overflowing descendants can be
 *       visible outside it;
 *    d. children of a display:contents candidate (no box of its own) become candidates in its name;
 *    e. a candidate only because of a cursor:pointer inherited from its parent is deferred: it is
 *       measured only when no ancestor of that chain is visible (denest rule c would drop it
 *       anyway), which spares the many spans inside clickable cards.
 * 3. Per candidate on screen: drop it when too small, disabled, pointer-events:none, invisible,
 *    transparent (form controls excepted), or when the deep hit-test does not reach it
 *    (visibility.ts). Scroll containers are confirmed here: overflow auto/scroll/overlay and
 *    content larger than the box by SCROLL_SLACK px; the document scroller (html, body, or a box
 *    filling the viewport) is not one.
 * 4. De-nest (denest.ts).
 */
import type { Rect } from '../../src/core/marks';
import { composedParent, UI_ATTR, walkDeep } from './dom';
import { OVERLAY } from './draw';
import { denest, type Seen } from './denest';
import { ATTR_SELECTOR, classify, editableDocument, isDisabled, pointerKind, TAGS, type Kind } from './rules';
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
  /** a scroll container and nothing else */
  scrollOnly: boolean;
}

export interface Collected { candidates: Candidate[]; labels: LabelIndex }

const SKIP_TAGS = new Set(['head', 'script', 'style', 'template', 'noscript', 'link', 'meta', 'title', 'base']);
const FORM_CONTROLS = new Set(['input', 'select', 'textarea']);
const SCROLLING = /auto|scroll|overlay/;
const SCROLL_SLACK = 8;
const PAGE_SIZED = 0.9;

interface Found {
  el: Element; owner: Element; kind: Kind; style: CSSStyleDeclaration; scrolly: boolean; order: number;
  /** clipped to the viewport, once measured */
  rect: Rect | null;
}

interface Walked { found: Found[]; deferred: Found[]; pointer: Set<Element>; labels: LabelIndex }

/** Steps 1–2 (with the rect check of step 3 for candidates that are not deferred). */
function walk(vw: number, vh: number): Walked {
  const out: Walked = { found: [], deferred: [], pointer: new Set(), labels: new Map() };
  const contents = new Map<Element, { owner: Element; kind: Kind }>();
  // tags by name (no query), attributes by one querySelectorAll per root; labels are indexed
  // from a query too, hidden ones included, exactly as `el.labels` would list them
  const withAttrs = new Set<Element>(document.querySelectorAll(ATTR_SELECTOR));
  for (const label of document.getElementsByTagName('label')) indexLabel(label, out.labels);
  const addRoot = (root: ShadowRoot) => {
    for (const el of root.querySelectorAll(ATTR_SELECTOR)) withAttrs.add(el);
    for (const label of root.querySelectorAll('label')) indexLabel(label, out.labels);
  };
  let order = 0;
  walkDeep((el, tag) => {
    if (SKIP_TAGS.has(tag)) return false;
    let attrKind: Kind | null = null;
    let rect: Rect | null = null;
    if (TAGS.has(tag) || withAttrs.has(el) || (tag === 'body' && editableDocument(el))) {
      const a = classify(el, tag);
      if (a.inert || (a.ui && el.getAttribute(UI_ATTR) === OVERLAY)) return false;
      attrKind = a.kind;
      // an attribute candidate with a box off screen needs no style at all (most of a long page);
      // no box (0×0) may be display:none or display:contents, which the style below tells apart
      if (attrKind && !contents.size) {
        const r = el.getBoundingClientRect();
        if (r.width || r.height) {
          rect = clipToViewport(r, vw, vh);
          if (!rect || !bigEnough(rect)) return true;
        }
      }
    }
    const style = getComputedStyle(el);
    const display = style.display;
    if (display === 'none') return false;
    const isPointer = style.cursor === 'pointer';
    if (isPointer) out.pointer.add(el);
    let kind = attrKind ?? pointerKind(tag, isPointer);
    let owner = el;
    if (contents.size) {
      const parent = el.parentElement ?? composedParent(el);
      const inherited = parent ? contents.get(parent) : undefined;
      if (inherited && (!kind || kind === 'pointer')) ({ kind, owner } = inherited);
    }
    if (display === 'contents') {
      if (kind) contents.set(el, { owner, kind });
      return true;
    }
    // the document scroller (html, body) is "Scroll WINDOW", never a mark
    const scrolly = display !== 'inline' && tag !== 'html' && tag !== 'body' && mayScroll(style);
    if (!kind && !scrolly) return true;
    const f: Found = { el, owner, kind: kind ?? 'scroll', style, scrolly, order: order++, rect };
    if (kind === 'pointer' && !scrolly && owner === el && out.pointer.has(el.parentElement ?? composedParent(el)!)) {
      out.deferred.push(f);
      return true;
    }
    // most candidates of a long page are off screen: measure now and keep only those on screen
    f.rect ??= clipToViewport(el.getBoundingClientRect(), vw, vh);
    if (f.rect && bigEnough(f.rect)) out.found.push(f);
    return true;
  }, document.documentElement, addRoot);
  return out;
}

/**
 * overflow auto/scroll/overlay on either axis. One longhand read for most elements: when one axis
 * scrolls, a `visible` other axis computes to `auto` (CSS Overflow 3 §3.1), so overflow-y
 * `visible` means neither axis scrolls. (The `overflow` shorthand costs more to serialize.)
 */
function mayScroll(style: CSSStyleDeclaration): boolean {
  const y = style.overflowY;
  if (y === 'visible') return false;
  return SCROLLING.test(y) || SCROLLING.test(style.overflowX);
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
  const rect = f.rect ?? clipToViewport(f.el.getBoundingClientRect(), vw, vh);
  if (!rect || !bigEnough(rect)) return null;
  // a scroller filling the viewport is the page's own (an app shell): "Scroll WINDOW" reaches it
  const pageSized = rect.width >= PAGE_SIZED * vw && rect.height >= PAGE_SIZED * vh;
  const scrollable = f.scrolly && !pageSized && f.el !== scroller && scrollsNow(f.el, f.style);
  if (f.kind === 'scroll' && !scrollable) return null;
  if (f.kind !== 'scroll' && isDisabled(f.owner, f.kind)) return null;
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
function measure(w: Walked, vw: number, vh: number): Seen[] {
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
  const vw = window.innerWidth, vh = window.innerHeight;
  const w = walk(vw, vh);
  const seen = measure(w, vw, vh);
  const candidates = denest(seen, w.pointer).map((s) => ({ el: s.el, owner: s.owner, rect: s.rect, scrollable: s.scrollable, scrollOnly: s.kind === 'scroll' }));
  return { candidates, labels: w.labels };
}
