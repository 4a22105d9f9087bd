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
import { composedParent, upTheTree } from './dom';

export interface Box { left: number; top: number; right: number; bottom: number }

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
/** more dirty roots than this: drop the index */
const MAX_ROOTS = 40;
/** index bands, px of document height */
const BAND = 512;
/** a stored box this far from the measured one means the layout moved */
const SLACK = 1;

const EVENTS_ROOT = ['mouseover', 'mouseout', 'focusin', 'focusout'] as const;
const EVENTS_SELF = ['input', 'change', 'toggle', 'load', 'error', 'transitionrun', 'animationstart', 'scroll'] as const;
const EVENTS_ALL = ['resize', 'fullscreenchange'] as const;

/** The subtree to walk again for an element whose style may have changed without a mutation. */
function hoverRoot(el: Element): Element {
  let r = el;
  for (let i = 0; i < 2; i++) {
    const p = composedParent(r);
    if (!p || p.localName === 'body' || p.localName === 'html') break;
    r = p;
  }
  return r;
}

/** Watches the page for what would make the index wrong (step 2). */
export class Changes {
  all = false;
  /** what made `all` true */
  why = '';
  roots = new Set<Element>();
  /** nodes were removed: entries and references to them are let go at the next pass */
  removed = false;
  private observer: MutationObserver;
  private listeners: Array<[EventTarget, string, (e: Event) => void]> = [];

  constructor(shadowRoots: ShadowRoot[], private readonly ours: (n: Node) => boolean) {
    this.observer = new MutationObserver((records) => this.note(records));
    const opts = { subtree: true, childList: true, attributes: true, characterData: true };
    this.observer.observe(document, opts);
    for (const r of shadowRoots) this.observer.observe(r, opts);
    const on = (t: EventTarget, type: string, fn: (e: Event) => void) => {
      t.addEventListener(type, fn, { capture: true, passive: true });
      this.listeners.push([t, type, fn]);
    };
    for (const type of EVENTS_ROOT) on(window, type, (e) => this.mark(e.composedPath()[0], true));
    for (const type of EVENTS_SELF) on(window, type, (e) => {
      const t = e.composedPath()[0];
      // the window's own scroll moves nothing in document coordinates
      if (type === 'scroll' && (t === document || t === window || t === document.scrollingElement)) return;
      this.mark(t, false);
    });
    for (const type of EVENTS_ALL) on(window, type, () => this.drop(`a ${type} event`));
    if (document.fonts) on(document.fonts, 'loadingdone', () => this.drop('fonts loaded'));
  }

  private drop(why: string): void {
    if (!this.all) this.why = why;
    this.all = true;
  }

  private mark(t: EventTarget | undefined, hover: boolean): void {
    if (!(t instanceof Element) || this.ours(t)) return;
    this.add(hover ? hoverRoot(t) : t);
  }

  private add(el: Element | null): void {
    if (!el || this.all) return;
    const tag = el.localName;
    if (tag === 'html' || tag === 'body' || tag === 'head' || tag === 'style' || tag === 'link' || el.closest('head')) {
      this.drop(`<${tag}> changed`);
      return;
    }
    this.roots.add(el);
    if (this.roots.size > MAX_ROOTS) this.drop('too many changes');
  }

  private note(records: MutationRecord[]): void {
    for (const r of records) {
      if (this.all) return;
      if (this.ours(r.target)) continue;
      if (r.type === 'attributes') {
        if (r.attributeName?.startsWith('data-wa-')) continue;
        this.add(r.target as Element);
      } else if (r.type === 'characterData') {
        this.add(r.target.parentElement);
      } else {
        for (const n of r.addedNodes) {
          if (this.ours(n)) continue;
          this.add(n instanceof Element ? n : n.parentElement);
        }
        // a removed node leaves entries that are no longer connected (dropped when queried);
        // a removed style sheet changes everything
        for (const n of r.removedNodes) {
          if (!this.ours(n)) this.removed = true;
          if (n instanceof Element && (n.localName === 'style' || n.localName === 'link')) this.drop('a style sheet was removed');
        }
      }
    }
  }

  /** What changed since the last call (records not yet delivered included). */
  take(): { all: boolean; roots: Element[]; removed: boolean } {
    this.note(this.observer.takeRecords());
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running') continue;
      const t = (a.effect as KeyframeEffect | null)?.target;
      if (t) this.add(t);
    }
    const out = { all: this.all, roots: [...this.roots], removed: this.removed };
    this.roots.clear();
    this.removed = false;
    return out;
  }

  stop(): void {
    this.observer.disconnect();
    for (const [t, type, fn] of this.listeners) t.removeEventListener(type, fn, { capture: true });
    this.listeners = [];
  }
}

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
