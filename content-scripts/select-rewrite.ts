/**
 * Select rewrite: native <select> popups are drawn by the OS and never show in screenshots, and a
 * listbox's options get no labels, so every <select> (dropdown, size > 1, `multiple`) opens an
 * in-page list whose options are real elements the labeler can number. The content script runs
 * in every frame; each frame's copy handles its own selects (nothing here looks at window.top).
 *
 * 1. install (idempotent; state under a global symbol; the copy that owns the page is named in
 *    <html data-wa-select-rewrite>, a stale copy detaches itself): tag each <select> with
 *    data-wa-select="list", in the document and in every open shadow root (found by a scan, or
 *    handed over by the labeling pass's walk: adoptWalkedRoots); add window capture
 *    listeners; one MutationObserver watches the document and each open shadow root found, to
 *    tag selects added later and keep an open list in sync with its select.
 * 2. mousedown on a select (or one of its options): preventDefault (no native popup, no native
 *    listbox selection), focus it. Selects are found through composedPath(), so selects inside
 *    open shadow roots work too.
 * 3. click on it, or Enter / Space / ArrowDown / ArrowUp / F4 while it has focus: toggle its list.
 * 4. open (select-open.ts): observe the select's shadow root; build the list (view:
 *    labeler/select-list.ts), append it to body (or to the modal dialog / popover holding the
 *    select, raised into the top layer), place it, scroll the selected option into view.
 *    Lists stay hidden while hideSelectLists is in force, even when rebuilt.
 * 5. click on an enabled option (or Enter / Space on the highlighted one): select-pick.ts sets the
 *    value, fires input + change and verifies after the page's handlers ran (lastSelectPick).
 *    A single select closes; a `multiple` one toggles the option and stays open.
 * 6. click elsewhere, Escape, Tab, the select leaving the page, being disabled or hidden: close.
 *    Options changed while open (page script): rebuild, keeping the scroll position.
 * 7. removeSelectRewrite: close, remove listeners, observer and every attribute we added.
 */
import { OPTION_ATTR, SELECT_ATTR, UI_ATTR } from './labeler/dom';
import { listItems, placeList, SELECT_LIST } from './labeler/select-list';
import { closeList, pick, setActive, showList, state, type OpenList, type State } from './select-open';
import { isOptionUsable, type SelectChoice } from './select-pick';
import type { SelectPick } from '../src/core/messages';

export { chooseOptionByText, closeList, hideSelectLists, lastSelectPick, selectListOpen, showSelectLists } from './select-open';
export { SELECT_LIST };
export type { SelectPick, SelectChoice };

/** Which copy of the rewrite owns the page (a reloaded extension runs in a new world). */
const OWNER_ATTR = 'data-wa-select-rewrite';
const OBSERVE: MutationObserverInit = {
  childList: true, subtree: true, characterData: true,
  attributes: true, attributeFilter: ['multiple', 'size', 'disabled', 'label', 'hidden', 'selected', 'value'],
};

function tag(sel: HTMLSelectElement): void {
  if (sel.getAttribute(SELECT_ATTR) !== 'list') sel.setAttribute(SELECT_ATTR, 'list');
}

/**
 * Observe a shadow root (mutations inside it never reach the document's observer) and tag its
 * selects; `deep`: also the open roots below it (a labeling walk that found every root says no).
 */
function watchRoot(root: ShadowRoot, deep = true): void {
  const st = state();
  if (st.roots.has(root)) return;
  st.roots.add(root);
  st.observer?.observe(root, OBSERVE);
  if (deep) scan(root);
  else for (const s of Array.from(root.querySelectorAll('select'))) tag(s);
}

/**
 * Step 1 from a labeling pass's walk (labeler/collect.ts), instead of a scan of every element:
 * the document's own selects (one tag query) and the open shadow roots the walk entered.
 * Roots in subtrees the walk skipped (display:none, [inert]) are watched once a pass reaches them.
 */
export function adoptWalkedRoots(roots: ShadowRoot[]): void {
  if (!owns(state())) return;
  for (const s of Array.from(document.getElementsByTagName('select'))) tag(s);
  for (const root of roots) if (root.mode === 'open' && !root.host.hasAttribute(UI_ATTR)) watchRoot(root, false);
}

/** Step 4: open the list for a select (its shadow root observed, so changes to its options are seen). */
export function openList(sel: HTMLSelectElement): void {
  const root = sel.getRootNode();
  if (root instanceof ShadowRoot) watchRoot(root);
  showList(sel);
}

/** Step 1: tag the selects under `root` and watch every open shadow root below it. */
function scan(root: Element | Document | ShadowRoot): void {
  if (root instanceof Element && root.hasAttribute(UI_ATTR)) return;
  if (root instanceof HTMLSelectElement) tag(root);
  for (const s of Array.from(root.querySelectorAll('select'))) tag(s);
  if (root instanceof Element && root.shadowRoot) watchRoot(root.shadowRoot);
  for (const el of Array.from(root.querySelectorAll('*'))) if (el.shadowRoot && !el.hasAttribute(UI_ATTR)) watchRoot(el.shadowRoot);
}

/** Disabled itself or by a disabled fieldset. */
function isDisabled(sel: HTMLSelectElement): boolean {
  return sel.matches(':disabled');
}

/** The select an event is aimed at: the first select on its composed path (the target may be an <option> of a listbox). */
function selectOf(path: EventTarget[]): HTMLSelectElement | null {
  for (const n of path) if (n instanceof HTMLSelectElement) return n;
  return null;
}

function onMouseDown(e: Event): void {
  const me = e as MouseEvent;
  const o = state().open;
  const path = me.composedPath();
  // Inside our list: keep the focus on the select, and keep the page from seeing a press
  // "outside" whatever popup holds the select (it would close it).
  if (o && path.includes(o.host)) { me.preventDefault(); me.stopPropagation(); return; }
  const sel = selectOf(path);
  if (sel && !isDisabled(sel) && me.button === 0) { me.preventDefault(); sel.focus({ preventScroll: true }); }
}

/** Pointer events on our list are ours alone (see onMouseDown). */
function onListPointer(e: Event): void {
  const o = state().open;
  if (o && e.composedPath().includes(o.host)) e.stopPropagation();
}

function onClick(e: Event): void {
  const st = state();
  const path = e.composedPath();
  if (st.open && path.includes(st.open.host)) {
    e.preventDefault();
    e.stopPropagation();
    for (const n of path) if (n instanceof Element && n.hasAttribute(OPTION_ATTR)) { pick(Number(n.getAttribute(OPTION_ATTR))); break; }
    return;
  }
  const sel = selectOf(path);
  if (sel && !isDisabled(sel)) {
    if (st.open?.select === sel) closeList(); else openList(sel);
    return;
  }
  if (st.open) closeList();
}

const OPEN_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp', 'F4']);

function onKeyDown(e: Event): void {
  const ke = e as KeyboardEvent;
  const o = state().open;
  const t = ke.composedPath()[0];
  if (o && t === o.select) {
    const enabled = listItems(o.box).filter((it) => it.getAttribute('aria-disabled') !== 'true').map((it) => Number(it.getAttribute(OPTION_ATTR)));
    const at = enabled.indexOf(o.active);
    let handled = true;
    if (ke.key === 'Escape' || ke.key === 'Tab') { closeList(); handled = ke.key === 'Escape'; }
    else if (ke.key === 'ArrowDown') setActive(o, enabled[Math.min(enabled.length - 1, at + 1)] ?? o.active);
    else if (ke.key === 'ArrowUp') setActive(o, enabled[Math.max(0, at - 1)] ?? o.active);
    else if (ke.key === 'Home') setActive(o, enabled[0] ?? o.active);
    else if (ke.key === 'End') setActive(o, enabled[enabled.length - 1] ?? o.active);
    else if (ke.key === 'Enter' || ke.key === ' ') pick(o.active);
    else handled = false;
    if (handled) { ke.preventDefault(); ke.stopPropagation(); }
    return;
  }
  // Only the select itself (not a listbox's option) has keyboard focus.
  if (t instanceof HTMLSelectElement && !isDisabled(t) && OPEN_KEYS.has(ke.key) && !ke.ctrlKey && !ke.metaKey) {
    ke.preventDefault();
    openList(t);
  }
}

function onReflow(): void {
  const o = state().open;
  if (o) placeList(o);
}

/** Steps 1 and 6 (observer): tag new selects; close or rebuild an open list whose select changed. */
function onMutations(records: MutationRecord[]): void {
  const st = state();
  let touched = false;
  for (const r of records) {
    for (const n of Array.from(r.addedNodes)) if (n instanceof Element && n.isConnected) scan(n);
    if (r.type === 'attributes' && r.target instanceof HTMLSelectElement) tag(r.target);
    if (st.open && st.open.select.contains(r.target)) touched = true;
  }
  const o = st.open;
  if (!o) return;
  if (!o.select.isConnected || isDisabled(o.select) || o.select.getClientRects().length === 0) closeList();
  else if (touched) {
    const { scrollTop } = o.box;
    const active = o.active;
    openList(o.select);
    const now = st.open as OpenList | null;
    if (now) {
      now.box.scrollTop = scrollTop;
      if (o.select.options[active] && isOptionUsable(o.select.options[active])) now.active = active;
    }
  }
}

function owns(st: State): boolean {
  return st.installed && document.documentElement.getAttribute(OWNER_ATTR) === st.id;
}

/** Stop this copy's listeners and observer (attributes are left to the current owner). */
function detach(st: State): void {
  for (const [type, fn] of st.listeners) window.removeEventListener(type, fn, true);
  st.listeners = [];
  st.observer?.disconnect();
  st.observer = null;
  st.roots = new WeakSet();
  st.open?.host.remove();
  st.open = null;
  st.installed = false;
  st.hidden = false;
}

/**
 * Step 1. Idempotent: when already installed it only rescans (a shadow root attached after
 * install produces no mutation record). Every listener first checks that this copy still owns
 * the page; a stale copy (orphaned content script after an extension reload) detaches itself.
 * `scanPage` false: no scan of the page here; a labeling pass follows and hands its walk's
 * roots to adoptWalkedRoots (one walk of the page per pass).
 */
export function installSelectRewrite(scanPage = true): void {
  const st = state();
  if (owns(st)) { if (scanPage) scan(document); return; }
  if (st.installed) detach(st);
  st.installed = true;
  st.id = Math.random().toString(36).slice(2);
  document.documentElement.setAttribute(OWNER_ATTR, st.id);
  const add = (type: string, fn: (e: Event) => void) => {
    const guarded = (e: Event) => (owns(st) ? fn(e) : detach(st));
    window.addEventListener(type, guarded, true);
    st.listeners.push([type, guarded]);
  };
  add('mousedown', onMouseDown);
  for (const type of ['pointerdown', 'pointerup', 'mouseup']) add(type, onListPointer);
  add('click', onClick);
  add('keydown', onKeyDown);
  add('scroll', onReflow);
  add('resize', onReflow);
  st.observer = new MutationObserver((records) => (owns(st) ? onMutations(records) : detach(st)));
  st.observer.observe(document.documentElement, OBSERVE);
  if (scanPage) scan(document);
}

/** Step 7. Close the list, remove listeners, observer and our attributes: the page is as before. */
export function removeSelectRewrite(): void {
  const st = state();
  const owner = owns(st);
  detach(st);
  if (!owner) return;
  closeList();
  document.documentElement.removeAttribute(OWNER_ATTR);
  const strip = (root: Document | ShadowRoot) => {
    for (const s of Array.from(root.querySelectorAll(`select[${SELECT_ATTR}]`))) s.removeAttribute(SELECT_ATTR);
    for (const el of Array.from(root.querySelectorAll('*'))) if (el.shadowRoot) strip(el.shadowRoot);
  };
  strip(document);
}
