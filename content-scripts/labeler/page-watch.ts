/**
 * The page index's watch (page-index.ts step 2): a MutationObserver on the document and the walked
 * shadow roots, and events that change styles or layout without a mutation. Each marks a dirty
 * root, the subtree the next pass walks again; what changes layout everywhere drops the index.
 */
import { composedParent } from './dom';

/** more dirty roots than this: drop the index */
const MAX_ROOTS = 40;

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
