/**
 * Between passes (docs/labeling.md, "Between passes"): what a walk of the whole document found,
 * kept while the page stays the same, so that a pass after a scroll or a small change reads only
 * what is on screen instead of walking the page again.
 *
 * 1. Built off the critical path: BUILD_DELAY ms after a full pass (while the model thinks), one
 *    walk of the whole document (collect.ts, "world" mode: every candidate, on screen or not,
 *    with its box in document coordinates). Entries whose box moves when the window scrolls
 *    (in a fixed or sticky box) are kept apart and measured every pass.
 * 2. Watched from then on: a MutationObserver on the document and the walked shadow roots, and
 *    events that change styles or layout without a mutation (hover, focus, form values, loads,
 *    popovers, inner scrolling, animations). Each marks a *dirty root*: the subtree a pass walks
 *    again (an attribute change: its element; added nodes: themselves; a text change: its
 *    parent; hover and focus: the target's grandparent, for `li:hover > ul` menus). What
 *    changes layout everywhere (a window resize, zoom, fonts, fullscreen, anything in <head>,
 *    the document itself) drops the index.
 * 3. A pass with an index: walks each dirty root again (sub-walk, spliced into the index in
 *    document order), then takes the entries whose stored box meets the viewport, and measures
 *    them. If any of them is not where the index says (a layout shift nobody reported), or the
 *    document's size changed, the index is dropped and the pass walks the page as usual.
 * Not seen: style sheets edited through the CSSOM (insertRule, adoptedStyleSheets) without a
 * mutation, and a style change that moves a far box into view without any event above; the
 * next full pass (after any of the drops above, or a navigation) sees them.
 */
import { composedParent, describeElement, upTheTree, UI_ATTR } from './dom';
import { OVERLAY } from './draw';
import { clipToViewport } from './visibility';
import { Changes } from './page-watch';
import { labelsOf, PLAIN, POINTER, Walker, type Box, type Ctx, type Found, type Walk, type Walked } from './walk';

/** What the index keeps of a candidate. */
export interface Entry<F> {
  f: F;
  /** its box in document coordinates when indexed */
  doc: Box;
  /** in a fixed or sticky box: its place changes with the window's scroll */
  moving: boolean;
}

export const BUILD_DELAY = 250;
/** documents larger than this are not indexed (the walk would block the page too long) */
const MAX_ELEMENTS = 120_000;
/** index bands, px of document height */
const BAND = 512;
/** a stored box this far from the measured one means the layout moved */
const SLACK = 1;

/** Too big to index (step 1)? */
export function tooBig(): boolean {
  return document.getElementsByTagName('*').length > MAX_ELEMENTS;
}

/** The inclusive, shadow-including ancestor test. */
export function composedContains(root: Element, el: Element): boolean {
  for (let p: Element | null = el; p; p = composedParent(p)) if (p === root) return true;
  return false;
}

/** Entries in document order, with bands for the viewport query (step 3). */
export class Entries<F extends { el: Element; order: number }> {
  private bands: Map<number, Array<Entry<F>>> | null = null;
  private moving: Array<Entry<F>> = [];

  constructor(public list: Array<Entry<F>>) {}

  /** Replace what lies in `root`'s subtree by `fresh` (orders already between root's and the next). */
  splice(root: Element, fresh: Array<Entry<F>>): void {
    this.list = this.list.filter((e) => e.f.el.isConnected && !composedContains(root, e.f.el));
    if (fresh.length) {
      this.list.push(...fresh);
      this.list.sort((a, b) => a.f.order - b.f.order);
    }
    this.bands = null;
  }

  /** Let go of entries whose element left the document. */
  prune(): void {
    this.list = this.list.filter((e) => e.f.el.isConnected);
    this.bands = null;
  }

  /** The order an element's sub-walk starts from: its own entry's, or the last one before it. */
  orderAt(root: Element): { from: number; to: number } {
    // entries are in document order: the first one in root's subtree, or the first after it
    let i = 0;
    const pos = (e: Element) => root.compareDocumentPosition(e);
    for (; i < this.list.length; i++) {
      const el = this.list[i].f.el;
      if (composedContains(root, el)) break;
      if (el.getRootNode() === root.getRootNode() && pos(el) & Node.DOCUMENT_POSITION_FOLLOWING) break;
    }
    const from = i > 0 ? this.list[i - 1].f.order : -1;
    let j = i;
    while (j < this.list.length && composedContains(root, this.list[j].f.el)) j++;
    const to = j < this.list.length ? this.list[j].f.order : from + 2;
    return { from, to };
  }

  /** Entries whose stored box meets the document-space rectangle, plus the moving ones; in order. */
  query(view: Box): Array<Entry<F>> {
    if (!this.bands) this.index();
    const out = new Set<Entry<F>>();
    for (let b = Math.floor(view.top / BAND); b <= Math.floor(view.bottom / BAND); b++) {
      for (const e of this.bands!.get(b) ?? []) {
        const d = e.doc;
        if (d.bottom > view.top && d.top < view.bottom && d.right > view.left && d.left < view.right && e.f.el.isConnected) out.add(e);
      }
    }
    for (const e of this.moving) if (e.f.el.isConnected) out.add(e);
    return [...out].sort((a, b) => a.f.order - b.f.order);
  }

  private index(): void {
    const bands = new Map<number, Array<Entry<F>>>();
    this.moving = [];
    for (const e of this.list) {
      if (e.moving) { this.moving.push(e); continue; }
      const last = Math.floor(e.doc.bottom / BAND);
      for (let b = Math.floor(e.doc.top / BAND); b <= last; b++) {
        const band = bands.get(b);
        if (band) band.push(e);
        else bands.set(b, [e]);
      }
    }
    this.bands = bands;
  }
}

/** Is the element drawn in a fixed or sticky box (its viewport place independent of the window's scroll)? */
export function movesWithViewport(el: Element, memo: Map<Element, boolean>): boolean {
  return upTheTree(el, memo, (p) => {
    const pos = getComputedStyle(p).position;
    return pos === 'fixed' || pos === 'sticky';
  });
}

/** Does a stored box (document coordinates) still match the measured one (viewport coordinates)? */
export function sameBox(doc: Box, r: DOMRect, sx: number, sy: number): boolean {
  return Math.abs(doc.left - (r.left + sx)) <= SLACK && Math.abs(doc.top - (r.top + sy)) <= SLACK
    && Math.abs(doc.right - (r.right + sx)) <= SLACK && Math.abs(doc.bottom - (r.bottom + sy)) <= SLACK;
}

// ---- the index of this document: built, kept up to date and asked (steps 1 and 3) ----

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

/** Whether an index is built and none is waiting to be (tests wait for it instead of sleeping past BUILD_DELAY). */
export function indexBuilt(): boolean {
  const st = indexState();
  return st.index !== null && st.timer === null;
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
export function scheduleIndex(): void {
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
export function fromIndex(vw: number, vh: number): Walk | null {
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
  const modals: Element[] = [];
  for (const d of document.getElementsByTagName('dialog')) if (d.matches(':modal')) modals.push(d);
  for (const root of idx.walked.roots) for (const d of root.querySelectorAll('dialog')) if (d.matches(':modal')) modals.push(d);
  return { found, deferred, pointer: idx.pointer, labels: labelsOf(idx.walked.roots), modals, walked: { frames: [...idx.walked.frames], roots: [...idx.walked.roots] } };
}
