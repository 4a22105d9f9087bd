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
 * 1. Walk the document in order (pre-order, a host's shadow root, open or closed, before its light
 *    children), carrying the parent's context down (cursor:pointer, display:contents owner,
 *    culled region) instead of looking parents up. Skip our overlay, [inert] subtrees,
 *    display:none subtrees and non-rendered tags (head, script, style, template, …). The walk is
 *    the pass's only one: it also notes the iframes (frames.ts links them) and the shadow roots
 *    (the select rewrite watches the open ones), as `walked`.
 * 2. Per element, cheapest first:
 *    a. attributes: names only (one getAttributeNames, only when hasAttributes); the tag
 *       (rules.TAGS) or a name in rules.ATTR_NAMES sends it to rules.classify;
 *    b. an attribute candidate is measured first: a box off screen (most of a long page) or too
 *       small needs no style at all; no box (0×0) may be display:none or display:contents, which
 *       the style below tells apart;
 *    c. every other element gets one computed style: display (none skips the subtree), cursor,
 *       and overflow-y (overflow-x only when y is not visible) for non-inline boxes;
 *    d. children of a display:contents candidate (no box of its own) become candidates in its name;
 *    e. a candidate only because of a cursor:pointer inherited from its parent is deferred: it is
 *       measured only when no ancestor of that chain is visible (denest rule c would drop it
 *       anyway), which spares the many spans inside clickable cards; or when its parent is a
 *       visible pointer-only candidate whose children form a row of buttons (rows.ts: a toolbar
 *       whose Reply and Forward inherit its cursor is two marks, not one).
 * 3. Culling, and why it is safe. A subtree is never skipped because its root's rect is off
 *    screen: fixed, absolute and overflowing descendants can be drawn anywhere (and relative
 *    offsets, transforms, negative margins, flex/grid alignment overflow: the labeling corpus's
 *    offscreen-escapes page draws controls from boxes 5000 px below the fold). No cheap test
 *    rules those out for a box that does not clip without reading every descendant's style, which
 *    is what the walk costs anyway; an IntersectionObserver's answers are only as fresh as the
 *    last rendering (a pass runs right after a scroll or a change). It is culled only
 *    where CSS guarantees that what is inside cannot be seen:
 *    a. a region starts at a box that clips both axes (computed overflow-x and overflow-y each
 *       hidden / auto / scroll / overlay: content is clipped to its padding box, inside its
 *       border box; `clip` is left out, it may paint outside by overflow-clip-margin), of a
 *       display that overflow applies to (block, inline-block, flex, grid, list-item, flow-root;
 *       not inline, contents, table parts), not html / body (their overflow is the viewport's),
 *       with element children, whose border box (getBoundingClientRect: transforms included)
 *       does not intersect the viewport. Nothing the box clips can then be on screen;
 *    b. the box clips every descendant whose containing-block chain passes through it: in-flow
 *       boxes, floats, relative and sticky ones, transformed ones, and absolute ones whose
 *       positioned ancestor is the region's root or inside it. Shadow content belongs to the
 *       host's flat-tree subtree, so the same holds for it (slotted children are inside too);
 *    c. the only ways out are position:fixed (unless a transform etc. lies between: not read,
 *       taken as a way out), position:absolute with no positioned element from the region's root
 *       down to it, and the top layer, which no ancestor clips: a modal <dialog> or an open
 *       [popover] (a box in the top layer computes to position absolute or fixed, CSS Position 4,
 *       so only those are asked) and a fullscreen element (culling is off while there is one).
 *       So inside a region each element costs one style and one read (position; plus display
 *       for elements with children, to skip display:none subtrees): an element that may get out
 *       is read like any other (step 2) with its subtree, after checking that no element between
 *       it and the region's root is [inert], and with the cursor of those elements read (steps 2e
 *       and denest rule c need the pointer chain);
 *    d. everything else in the region is off screen: it is not a candidate, needs no cursor,
 *       overflow, rect or attribute, and no text or hit-test later.
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
import type { Rect } from '../../src/core/marks';
import { composedParent, describeElement, shadowRootOf, UI_ATTR } from './dom';
import { isOurOverlay, OVERLAY } from './draw';
import { denest, type Seen } from './denest';
import { splitRows } from './rows';
import { ATTR_NAMES, classify, editableDocument, isDisabled, pointerKind, TAGS, type Kind } from './rules';
import type { LabelIndex } from './text';
import { Covers, presentAt } from './cover';
import { bigEnough, clipTo, clipToViewport, hitTest, renderedOpacity, visibleRect, type ClipMemo, type OnMiss, type Point } from './visibility';
import { BUILD_DELAY, Changes, composedContains, Entries, movesWithViewport, sameBox, tooBig, type Box, type Entry } from './page-index';

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

/**
 * What the walk met on the way, for the rest of the pass to use instead of walking again
 * (step 1): iframes (frames.ts links them), shadow roots (the select rewrite watches the open
 * ones). Elements in skipped subtrees (display:none, [inert], …) are not in it.
 */
export interface Walked { frames: Element[]; roots: ShadowRoot[] }

export interface Collected { candidates: Candidate[]; labels: LabelIndex; walked: Walked }

const SKIP_TAGS = new Set(['head', 'script', 'style', 'template', 'noscript', 'link', 'meta', 'title', 'base']);
const FORM_CONTROLS = new Set(['input', 'select', 'textarea']);
const SCROLLING = new Set(['auto', 'scroll', 'overlay']);
/** overflow values that clip to the padding box (step 3a) */
const CLIPPING = new Set(['hidden', 'auto', 'scroll', 'overlay']);
/** displays that overflow applies to (step 3a) */
const CLIP_DISPLAY = new Set(['block', 'inline-block', 'flow-root', 'flex', 'inline-flex', 'grid', 'inline-grid', 'list-item', '-webkit-box', '-webkit-inline-box']);
const SCROLL_SLACK = 8;
const PAGE_SIZED = 0.9;

interface Found {
  el: Element; owner: Element; kind: Kind; style: CSSStyleDeclaration; scrolly: boolean; order: number;
  /** clipped to the viewport, once measured */
  rect: Rect | null;
}

/** What an element's children need to know about it (step 1). */
interface Ctx {
  /** its computed cursor is pointer (false when it was not read) */
  pointer: boolean;
  /** it is display:contents and a candidate (or one in an ancestor's name): its children stand in */
  contents: { owner: Element; kind: Kind } | null;
  /** the root of the culled region it is in (step 3), or null */
  region: Element | null;
  /** in that region, the root or an element below it is positioned: absolute descendants stay clipped */
  absContained: boolean;
}

const PLAIN: Ctx = { pointer: false, contents: null, region: null, absContained: false };
const POINTER: Ctx = { pointer: true, contents: null, region: null, absContained: false };

/** What steps 1–3 hand to step 4: a walk's findings, or the page index's (page-index.ts). */
interface Walk {
  found: Found[];
  deferred: Found[];
  pointer: Set<Element>;
  labels: LabelIndex;
  modals: Element[];
  walked: Walked;
}

class Walker implements Walk {
  found: Found[] = [];
  deferred: Found[] = [];
  pointer = new Set<Element>();
  labels: LabelIndex = new Map();
  /** open modal dialogs (step 4: the rest of the document is inert) */
  modals: Element[] = [];
  walked: Walked = { frames: [], roots: [] };
  private order = 0;
  private readonly culling = !document.fullscreenElement;

  /**
   * `view`: what counts as on screen, in viewport coordinates: the viewport, or for the page
   * index the whole document ("world": every candidate, page-index.ts step 1).
   */
  constructor(private readonly view: Box) {}

  private clip(r: Box): Rect | null {
    return clipTo(r, this.view);
  }

  /**
   * Steps 1–3 (with the rect check of step 4 for candidates that are not deferred), over the
   * document, or over one subtree (`root`, its parent's context `ctx`: page-index.ts step 3).
   */
  run(root: Element = document.documentElement, ctx0: Ctx = PLAIN): void {
    // labels are indexed from a query, hidden ones included, exactly as `el.labels` would list them
    const whole = root === document.documentElement;
    if (whole) for (const label of document.getElementsByTagName('label')) indexLabel(label, this.labels);
    const nodes: Array<Element | null> = [root];
    const ctxs: Ctx[] = [ctx0];
    while (nodes.length) {
      const el = nodes.pop();
      const ctx = ctxs.pop()!;
      if (!el) continue;
      if (el !== root) {
        nodes.push(el.nextElementSibling);
        ctxs.push(ctx);
      }
      const tag = el.localName;
      if (tag === 'iframe' || tag === 'frame') this.walked.frames.push(el);
      const first = el.firstElementChild;
      const inner = ctx.region ? this.visitCulled(el, tag, first, ctx) : this.visit(el, tag, first, ctx);
      if (!inner) continue;
      if (first) {
        nodes.push(first);
        ctxs.push(inner);
      }
      const shadow = shadowRootOf(el, tag);
      if (shadow) {
        this.walked.roots.push(shadow);
        if (whole) for (const label of shadow.querySelectorAll('label')) indexLabel(label, this.labels);
        nodes.push(shadow.firstElementChild);
        ctxs.push(inner);
      }
    }
  }

  /** Step 2 for one element: the context for its children, or null to skip them. */
  private visit(el: Element, tag: string, first: Element | null, ctx: Ctx): Ctx | null {
    if (SKIP_TAGS.has(tag)) return null;
    if (tag === 'dialog' && el.matches(':modal')) this.modals.push(el);
    let attrKind: Kind | null = null;
    let box: DOMRect | null = null;
    const names = el.hasAttributes() ? el.getAttributeNames() : null;
    if (TAGS.has(tag) || (names !== null && hasAttrOfInterest(names)) || (tag === 'body' && editableDocument(el))) {
      const a = classify(el, tag, names);
      if (a.inert || (a.ui && isOurOverlay(el))) return null;
      attrKind = a.kind;
      // an attribute candidate with a box off screen needs no style at all (most of a long page)
      if (attrKind) {
        box = el.getBoundingClientRect();
        if (box.width || box.height) {
          const r = this.clip(box);
          if (!r || !bigEnough(r)) return PLAIN;
        }
      }
    }
    const style = getComputedStyle(el);
    const display = style.display;
    if (display === 'none') return null;
    const isPointer = style.cursor === 'pointer';
    if (isPointer) this.pointer.add(el);
    let kind = attrKind ?? pointerKind(tag, isPointer);
    let owner = el;
    const inherited = ctx.contents;
    if (inherited && (!kind || kind === 'pointer')) ({ kind, owner } = inherited);
    if (display === 'contents') {
      if (kind) return { pointer: isPointer, contents: { owner, kind }, region: null, absContained: false };
      return isPointer ? POINTER : PLAIN;
    }
    // the document scroller (html, body) is "Scroll WINDOW", never a mark; overflow does not
    // apply to inline boxes. One longhand read for most elements: when one axis is not visible,
    // a `visible` other axis computes to `auto` (CSS Overflow 3 §3.1), so overflow-y `visible`
    // means neither axis scrolls or clips.
    let scrolly = false;
    if (display !== 'inline' && tag !== 'html' && tag !== 'body') {
      const y = style.overflowY;
      if (y !== 'visible') {
        const x = style.overflowX;
        scrolly = SCROLLING.has(y) || SCROLLING.has(x);
        // step 3a: a clipping box entirely off screen starts a culled region
        if (this.culling && first && CLIPPING.has(y) && CLIPPING.has(x) && CLIP_DISPLAY.has(display)) {
          box ??= el.getBoundingClientRect();
          if (!this.clip(box)) {
            return { pointer: false, contents: null, region: el, absContained: style.position !== 'static' };
          }
        }
      }
    }
    const next = isPointer ? POINTER : PLAIN;
    if (!kind && !scrolly) return next;
    const f: Found = { el, owner, kind: kind ?? 'scroll', style, scrolly, order: this.order++, rect: null };
    if (kind === 'pointer' && !scrolly && owner === el && ctx.pointer) {
      this.deferred.push(f);
      return next;
    }
    // most candidates of a long page are off screen: measure now and keep only those on screen
    f.rect = this.clip(box ?? el.getBoundingClientRect());
    if (f.rect && bigEnough(f.rect)) this.found.push(f);
    return next;
  }

  /** Step 3 for one element inside a culled region. */
  private visitCulled(el: Element, tag: string, first: Element | null, ctx: Ctx): Ctx | null {
    if (SKIP_TAGS.has(tag)) return null;
    const style = getComputedStyle(el);
    const position = style.position;
    // a box in the top layer (a modal dialog, an open popover) computes to absolute or fixed
    if (position === 'fixed' || (position === 'absolute' && (!ctx.absContained || tag === 'dialog' || el.hasAttribute('popover')))) {
      return this.escape(el, tag, first, ctx);
    }
    // a leaf: only a shadow root (the walk looks for one) can hold more; custom elements (the
    // usual hosts) are read in full below, a plain host is taken as a block (contents: no owner)
    if (!first && !tag.includes('-')) return ctx.contents ? { ...ctx, contents: null } : ctx;
    const display = style.display;
    if (display === 'none') return null;
    if (display === 'contents') {
      // rare: its children would be candidates in its name if they get out (no box: it holds
      // no absolute descendant whatever its position)
      const a = classify(el, tag);
      if (a.inert) return null;
      const isPointer = style.cursor === 'pointer';
      if (isPointer) this.pointer.add(el);
      let kind = a.kind ?? pointerKind(tag, isPointer);
      let owner = el;
      if (ctx.contents && (!kind || kind === 'pointer')) ({ kind, owner } = ctx.contents);
      return { pointer: isPointer, contents: kind ? { owner, kind } : null, region: ctx.region, absContained: ctx.absContained };
    }
    const contained = ctx.absContained || position !== 'static';
    if (!ctx.contents && contained === ctx.absContained) return ctx;
    return { pointer: false, contents: null, region: ctx.region, absContained: contained };
  }

  /**
   * Step 3c: an element that may be drawn outside its region is read like any other. The
   * elements between it and the region's root were not: check them for [inert], and read their
   * cursor (the pointer chain of step 2e and denest rule c).
   */
  private escape(el: Element, tag: string, first: Element | null, ctx: Ctx): Ctx | null {
    const region = ctx.region!;
    let parentPointer: boolean | null = null;
    for (let p = composedParent(el); p && p !== region; p = composedParent(p)) {
      if (p.hasAttribute('inert')) return null;
      const pointer = getComputedStyle(p).cursor === 'pointer';
      if (pointer) this.pointer.add(p);
      parentPointer ??= pointer;
    }
    if (parentPointer === null) parentPointer = this.pointer.has(region);
    return this.visit(el, tag, first, { pointer: parentPointer, contents: ctx.contents, region: null, absContained: false });
  }
}

function hasAttrOfInterest(names: string[]): boolean {
  for (let i = 0; i < names.length; i++) if (ATTR_NAMES.has(names[i])) return true;
  return false;
}

function indexLabel(label: HTMLLabelElement, labels: LabelIndex): void {
  const control = label.control;
  if (!control) return;
  const list = labels.get(control);
  if (list) list.push(label);
  else labels.set(control, [label]);
}

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

/** How the last pass read the page (bench and tests): walked in full, or from the page index. */
export type PassKind = 'walk' | 'index';

export function collectCandidates(): Collected & { kind: PassKind } {
  const vw = window.innerWidth, vh = window.innerHeight;
  // a frame with no viewport (a display:none iframe) shows nothing: every rect would clip to null
  if (!vw || !vh) return { candidates: [], labels: new Map(), walked: { frames: [], roots: [] }, kind: 'walk' };
  let w: Walk | null = fromIndex(vw, vh);
  const kind: PassKind = w ? 'index' : 'walk';
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

// ---- the page index (page-index.ts) ----

interface Indexed {
  entries: Entries<Found & { deferred: boolean }>;
  changes: Changes;
  pointer: Set<Element>;
  walked: Walked;
  /** viewport and document size when built */
  size: string;
}

interface IndexState { index: Indexed | null; timer: number | null; dropped: string | null }
const INDEX_KEY = Symbol.for('webagent.labeler.index');

function indexState(): IndexState {
  const g = globalThis as unknown as Record<symbol, IndexState | undefined>;
  return (g[INDEX_KEY] ??= { index: null, timer: null, dropped: null });
}

/** Why the last index was dropped (bench and tests). */
export function indexDropped(): string | null {
  return indexState().dropped;
}

/** Forget the index and stop watching the page (run end, or anything that makes it wrong). */
export function dropIndex(): void {
  const st = indexState();
  if (st.timer !== null) clearTimeout(st.timer);
  st.timer = null;
  st.index?.changes.stop();
  st.index = null;
}

function sizeKey(): string {
  const s = document.scrollingElement;
  return `${innerWidth}x${innerHeight}@${devicePixelRatio} ${s?.scrollWidth}x${s?.scrollHeight}`;
}

/** The whole document, in viewport coordinates (the world walk's `view`). */
function worldBox(): Box {
  const s = document.scrollingElement;
  const w = Math.max(s?.scrollWidth ?? 0, innerWidth), h = Math.max(s?.scrollHeight ?? 0, innerHeight);
  return { left: -scrollX, top: -scrollY, right: w - scrollX, bottom: h - scrollY };
}

/** Our label overlay (never labelled); our select lists are labelled, so their changes count. */
function isOurs(n: Node): boolean {
  const el = n instanceof Element ? n : n.parentElement;
  return !!el?.closest(`[${UI_ATTR}="${OVERLAY}"]`);
}

/** Page index step 1, BUILD_DELAY ms after a full pass. */
function scheduleIndex(): void {
  dropIndex();
  const st = indexState();
  st.timer = window.setTimeout(() => {
    st.timer = null;
    if (document.fullscreenElement || !innerWidth || !innerHeight || tooBig()) return;
    const w = new Walker(worldBox());
    w.run();
    st.index = {
      entries: new Entries(entriesOf(w, null)),
      changes: new Changes(w.walked.roots, isOurs),
      pointer: w.pointer,
      walked: w.walked,
      size: sizeKey(),
    };
  }, BUILD_DELAY);
}

/** A walk's candidates as index entries (document coordinates); `range` renumbers a sub-walk's orders. */
function entriesOf(w: Walker, range: { from: number; to: number } | null): Array<Entry<Found & { deferred: boolean }>> {
  const sx = scrollX, sy = scrollY;
  const memo = new Map<Element, boolean>();
  const all = [...w.found.map((f) => ({ ...f, rect: null, deferred: false })), ...w.deferred.map((f) => ({ ...f, rect: null, deferred: true }))];
  all.sort((a, b) => a.order - b.order);
  const out: Array<Entry<Found & { deferred: boolean }>> = [];
  const step = range ? (range.to - range.from) / (all.length + 1) : 0;
  all.forEach((f, i) => {
    const r = f.el.getBoundingClientRect();
    if (!r.width && !r.height) return;
    if (range) f.order = range.from + (i + 1) * step;
    out.push({ f, doc: { left: r.left + sx, top: r.top + sy, right: r.right + sx, bottom: r.bottom + sy }, moving: movesWithViewport(f.el, memo) });
  });
  return out;
}

/** The context a sub-walk of `el` starts with (its parent's), or null when it cannot be rebuilt. */
function contextAt(el: Element): Ctx | null {
  const parent = composedParent(el);
  if (!parent) return null;
  const style = getComputedStyle(parent);
  // a display:contents parent may hand its kind down (step 2d): walk the page instead
  if (style.display === 'contents') return null;
  return style.cursor === 'pointer' ? POINTER : PLAIN;
}

/** The outermost of the dirty roots (one sub-walk covers those inside it). */
function outermost(roots: Element[]): Element[] {
  return roots.filter((r) => r.isConnected && !roots.some((o) => o !== r && composedContains(o, r)));
}

/** Page index step 3: this pass's candidates from the index, or null to walk the page. */
function fromIndex(vw: number, vh: number): Walk | null {
  const st = indexState();
  const idx = st.index;
  if (!idx) return null;
  const give = (why: string) => { dropIndex(); st.dropped = why; return null; };
  if (document.fullscreenElement) return give('fullscreen');
  const { all, roots, removed } = idx.changes.take();
  if (all) return give(idx.changes.why);
  if (removed) {
    idx.entries.prune();
    for (const p of [...idx.pointer]) if (!p.isConnected) idx.pointer.delete(p);
    idx.walked.frames = idx.walked.frames.filter((f) => f.isConnected);
    idx.walked.roots = idx.walked.roots.filter((r) => r.host.isConnected);
  }
  for (const root of outermost(roots)) {
    if (root.closest('[inert]')) { idx.entries.splice(root, []); continue; }
    const ctx = contextAt(root);
    if (!ctx) return give('a changed element in a display:contents parent');
    const range = idx.entries.orderAt(root);
    const w = new Walker(worldBox());
    w.run(root, ctx);
    idx.entries.splice(root, entriesOf(w, range));
    for (const p of [...idx.pointer]) if (!p.isConnected || composedContains(root, p)) idx.pointer.delete(p);
    for (const p of w.pointer) idx.pointer.add(p);
    idx.walked.frames = idx.walked.frames.filter((f) => f.isConnected && !composedContains(root, f)).concat(w.walked.frames);
    idx.walked.roots = idx.walked.roots.filter((r) => r.host.isConnected && !composedContains(root, r.host)).concat(w.walked.roots);
  }
  if (sizeKey() !== idx.size) return give(`the viewport or the document changed size: ${idx.size} → ${sizeKey()}`);
  const sx = scrollX, sy = scrollY;
  const found: Found[] = [];
  const deferred: Found[] = [];
  for (const e of idx.entries.query({ left: sx, top: sy, right: sx + vw, bottom: sy + vh })) {
    const r = e.f.el.getBoundingClientRect();
    // a box that is not where the index put it: the layout moved without telling us
    if (!e.moving && !sameBox(e.doc, r, sx, sy)) return give(`a box moved: ${describeElement(e.f.el)}`);
    const f: Found = { ...e.f, rect: clipToViewport(r, vw, vh) };
    if (e.f.deferred) deferred.push(f);
    else if (f.rect) found.push(f);
  }
  const labels: LabelIndex = new Map();
  for (const label of document.getElementsByTagName('label')) indexLabel(label, labels);
  const modals: Element[] = [];
  for (const d of document.getElementsByTagName('dialog')) if (d.matches(':modal')) modals.push(d);
  for (const root of idx.walked.roots) {
    for (const label of root.querySelectorAll('label')) indexLabel(label, labels);
    for (const d of root.querySelectorAll('dialog')) if (d.matches(':modal')) modals.push(d);
  }
  return { found, deferred, pointer: idx.pointer, labels, modals, walked: { frames: [...idx.walked.frames], roots: [...idx.walked.roots] } };
}
