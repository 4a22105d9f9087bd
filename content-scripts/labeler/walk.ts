/**
 * The walk of candidate collection (collect.ts), steps 1–3: the document read in order, each
 * element as cheaply as it can be, what is surely off screen culled. The full pass walks the
 * viewport; the page index (page-index.ts) walks the whole document ("world") or a changed subtree.
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
 */
import { composedParent, shadowRootOf } from './dom';
import { isOurOverlay } from './draw';
import { ATTR_NAMES, classify, editableDocument, pointerKind, TAGS, type Kind } from './rules';
import type { LabelIndex } from './text';
import { bigEnough, clipTo } from './visibility';
import type { Rect } from '../../src/core/marks';

export interface Box { left: number; top: number; right: number; bottom: number }

/**
 * What the walk met on the way, for the rest of the pass to use instead of walking again
 * (step 1): iframes (frames.ts links them), shadow roots (the select rewrite watches the open
 * ones). Elements in skipped subtrees (display:none, [inert], …) are not in it.
 */
export interface Walked { frames: Element[]; roots: ShadowRoot[] }

export const SKIP_TAGS = new Set(['head', 'script', 'style', 'template', 'noscript', 'link', 'meta', 'title', 'base']);
export const SCROLLING = new Set(['auto', 'scroll', 'overlay']);
/** overflow values that clip to the padding box (step 3a) */
const CLIPPING = new Set(['hidden', 'auto', 'scroll', 'overlay']);
/** displays that overflow applies to (step 3a) */
const CLIP_DISPLAY = new Set(['block', 'inline-block', 'flow-root', 'flex', 'inline-flex', 'grid', 'inline-grid', 'list-item', '-webkit-box', '-webkit-inline-box']);

export interface Found {
  el: Element; owner: Element; kind: Kind; style: CSSStyleDeclaration; scrolly: boolean; order: number;
  /** clipped to the viewport, once measured */
  rect: Rect | null;
}

/** What an element's children need to know about it (step 1). */
export interface Ctx {
  /** its computed cursor is pointer (false when it was not read) */
  pointer: boolean;
  /** it is display:contents and a candidate (or one in an ancestor's name): its children stand in */
  contents: { owner: Element; kind: Kind } | null;
  /** the root of the culled region it is in (step 3), or null */
  region: Element | null;
  /** in that region, the root or an element below it is positioned: absolute descendants stay clipped */
  absContained: boolean;
}

export const PLAIN: Ctx = { pointer: false, contents: null, region: null, absContained: false };
export const POINTER: Ctx = { pointer: true, contents: null, region: null, absContained: false };

/** What steps 1–3 hand to step 4: a walk's findings, or the page index's (page-index.ts). */
export interface Walk {
  found: Found[];
  deferred: Found[];
  pointer: Set<Element>;
  labels: LabelIndex;
  modals: Element[];
  walked: Walked;
}

export class Walker implements Walk {
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

  /** Step 2 for one element whose place in document order is known (the quick pass, quick-walk.ts). */
  visitOne(el: Element, ctx: Ctx, order: number): Ctx | null {
    this.order = order;
    return this.visit(el, el.localName, el.firstElementChild, ctx);
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

/** The labels of the document and of `roots` (shadow roots), indexed by the control each names: the pass's label index when it read no label itself. */
export function labelsOf(roots: Iterable<ShadowRoot>): LabelIndex {
  const labels: LabelIndex = new Map();
  for (const label of document.getElementsByTagName('label')) indexLabel(label, labels);
  for (const root of roots) for (const label of root.querySelectorAll('label')) indexLabel(label, labels);
  return labels;
}

export function indexLabel(label: HTMLLabelElement, labels: LabelIndex): void {
  const control = label.control;
  if (!control) return;
  const list = labels.get(control);
  if (list) list.push(label);
  else labels.set(control, [label]);
}
