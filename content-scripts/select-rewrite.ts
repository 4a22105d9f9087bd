/**
 * Select rewrite v1: native <select> popups are drawn by the OS and never show in screenshots,
 * so single-choice dropdown selects get an in-page list whose options are real elements.
 *
 * 1. install (idempotent; state under a global symbol; the copy that owns the page is named in
 *    <html data-wa-select-rewrite>, a stale copy detaches itself): tag each <select> with data-wa-select
 *    ("list" = rewritten; "native" = multiple/size>1, which render inline and stay native); add
 *    window capture listeners (mousedown, click, keydown, scroll, resize); start a MutationObserver
 *    that tags selects added later and keeps an open list in sync with its select.
 * 2. mousedown on a dropdown select: preventDefault (the native popup never opens), focus it.
 * 3. click on it, or Enter / Space / Alt+ArrowDown / F4 while it has focus: toggle its list.
 * 4. open: build a host (position:absolute, appended to body, or inside the modal dialog / popover
 *    holding the select, then raised into the top layer) with a shadow listbox: one
 *    role=option item per option, optgroup labels as plain headers, disabled options greyed and
 *    aria-disabled; place it under the select (above when there is clearly more room there).
 * 5. click on an enabled option (or Enter on the highlighted one): set selectedIndex through the
 *    native setter, dispatch bubbling input + change (only when the choice changed, as natively),
 *    close, verify select.value equals the option's value (see lastSelectPick()).
 * 6. click elsewhere, Escape, Tab, or the select leaving the page: close.
 * 7. removeSelectRewrite: close, remove listeners, observer and attributes (page restored).
 */
import { OPTION_ATTR, SELECT_ATTR, UI_ATTR } from './labeler/dom';
import { buildList, placeList, SELECT_LIST, topLayerAncestor } from './labeler/select-list';

export { SELECT_LIST };

import type { SelectPick } from '../src/core/messages';

export type { SelectPick };

interface OpenList { select: HTMLSelectElement; host: HTMLElement; box: HTMLElement; active: number }
interface State {
  installed: boolean;
  id: string;
  open: OpenList | null;
  observer: MutationObserver | null;
  listeners: Array<[string, EventListener]>;
  lastPick: SelectPick | null;
}

const KEY = Symbol.for('webagent.selectRewrite.v1');

function state(): State {
  const g = globalThis as unknown as Record<symbol, State | undefined>;
  return (g[KEY] ??= { installed: false, id: '', open: null, observer: null, listeners: [], lastPick: null });
}

function isDropdown(el: EventTarget | null | undefined): el is HTMLSelectElement {
  return el instanceof HTMLSelectElement && !el.multiple && el.size <= 1;
}

function tag(sel: HTMLSelectElement): void {
  const want = isDropdown(sel) ? 'list' : 'native';
  if (sel.getAttribute(SELECT_ATTR) !== want) sel.setAttribute(SELECT_ATTR, want);
}

function tagAll(root: ParentNode): void {
  if (root instanceof HTMLSelectElement) tag(root);
  for (const s of Array.from(root.querySelectorAll('select'))) tag(s);
}

function items(o: OpenList): HTMLElement[] {
  return Array.from(o.box.querySelectorAll<HTMLElement>(`[${OPTION_ATTR}]`));
}

function setActive(o: OpenList, index: number): void {
  o.active = index;
  for (const it of items(o)) {
    const on = Number(it.getAttribute(OPTION_ATTR)) === index;
    it.classList.toggle('active', on);
    if (on) it.scrollIntoView({ block: 'nearest' });
  }
}

export function openList(sel: HTMLSelectElement): void {
  const st = state();
  closeList();
  const { host, box } = buildList(sel);
  // In a modal dialog (or popover) the rest of the page is inert or drawn below it, so the list
  // goes inside that element, and into the top layer when the browser allows it.
  const layer = topLayerAncestor(sel);
  (layer ?? document.body ?? document.documentElement).appendChild(host);
  if (layer && typeof host.showPopover === 'function') {
    try {
      host.setAttribute('popover', 'manual');
      host.showPopover();
    } catch {
      host.removeAttribute('popover');
    }
  }
  const o: OpenList = { select: sel, host, box, active: sel.selectedIndex };
  st.open = o;
  placeList(o);
  const chosen = box.querySelector<HTMLElement>('[aria-selected="true"]');
  if (chosen) box.scrollTop = Math.max(0, chosen.offsetTop - box.clientHeight / 2 + chosen.offsetHeight / 2);
}

export function closeList(): void {
  const st = state();
  if (st.open) st.open.host.remove();
  st.open = null;
  for (const h of Array.from(document.querySelectorAll(`[${UI_ATTR}="${SELECT_LIST}"]`))) h.remove();
}

/** Step 5. */
function pick(index: number): void {
  const st = state();
  const o = st.open;
  if (!o) return;
  const sel = o.select;
  const opt = sel.options[index];
  if (!opt || opt.disabled || opt.matches(':disabled')) return;
  closeList();
  st.lastPick = applyIndex(sel, index, opt);
  sel.focus({ preventScroll: true });
}

/** Set the select to option `index` as a person's choice would: value, then input and change; verified. */
function applyIndex(sel: HTMLSelectElement, index: number, opt: HTMLOptionElement): SelectPick {
  const changed = sel.selectedIndex !== index;
  if (changed) {
    const setter = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'selectedIndex')?.set;
    if (setter) setter.call(sel, index); else sel.selectedIndex = index;
  }
  const ok = sel.selectedIndex === index && sel.value === opt.value;
  if (changed) {
    sel.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    sel.dispatchEvent(new Event('change', { bubbles: true }));
  }
  return { ok, expected: opt.value, actual: sel.value, text: opt.text, changed };
}

/**
 * `Type [N]; [text]` on a <select> (WebVoyager-style models do this): choose the enabled option
 * whose text matches — exactly, then by value, then by prefix, then by substring; case-insensitive.
 */
export function chooseOptionByText(sel: HTMLSelectElement, text: string): { pick: SelectPick | null; options: string[] } {
  const norm = (t: string) => t.trim().replace(/\s+/g, ' ').toLowerCase();
  const want = norm(text);
  const enabled = Array.from(sel.options).filter((o) => !o.disabled && !o.matches(':disabled'));
  const hit = enabled.find((o) => norm(o.text) === want) ?? enabled.find((o) => norm(o.value) === want)
    ?? (want ? enabled.find((o) => norm(o.text).startsWith(want)) ?? enabled.find((o) => norm(o.text).includes(want)) : undefined);
  const options = enabled.map((o) => o.text.trim());
  if (!hit) return { pick: null, options };
  closeList();
  const pick = applyIndex(sel, hit.index, hit);
  state().lastPick = pick;
  return { pick, options };
}

function optionIndexFromPath(path: EventTarget[]): number | null {
  for (const n of path) if (n instanceof Element && n.hasAttribute(OPTION_ATTR)) return Number(n.getAttribute(OPTION_ATTR));
  return null;
}

function onMouseDown(e: Event): void {
  const me = e as MouseEvent;
  const o = state().open;
  const path = me.composedPath();
  if (o && path.includes(o.host)) { me.preventDefault(); me.stopPropagation(); return; }
  const t = path[0];
  if (isDropdown(t) && !t.disabled && me.button === 0) { me.preventDefault(); t.focus({ preventScroll: true }); }
}

function onClick(e: Event): void {
  const st = state();
  const path = e.composedPath();
  if (st.open && path.includes(st.open.host)) {
    e.preventDefault();
    e.stopPropagation();
    const i = optionIndexFromPath(path);
    if (i !== null) pick(i);
    return;
  }
  const t = path[0];
  if (isDropdown(t) && !t.disabled) {
    if (st.open?.select === t) closeList(); else openList(t);
    return;
  }
  if (st.open) closeList();
}

function onKeyDown(e: Event): void {
  const ke = e as KeyboardEvent;
  const o = state().open;
  const t = ke.composedPath()[0];
  if (o && t === o.select) {
    const enabled = items(o).filter((it) => it.getAttribute('aria-disabled') !== 'true').map((it) => Number(it.getAttribute(OPTION_ATTR)));
    const at = enabled.indexOf(o.active);
    let handled = true;
    if (ke.key === 'Escape' || ke.key === 'Tab') { closeList(); handled = ke.key === 'Escape'; }
    else if (ke.key === 'ArrowDown') setActive(o, enabled[Math.min(enabled.length - 1, at + 1)] ?? o.active);
    else if (ke.key === 'ArrowUp') setActive(o, enabled[Math.max(0, at - 1)] ?? o.active);
    else if (ke.key === 'Enter' || ke.key === ' ') pick(o.active);
    else handled = false;
    if (handled) { ke.preventDefault(); ke.stopPropagation(); }
    return;
  }
  const opens = ke.key === 'Enter' || ke.key === ' ' || ke.key === 'F4' || (ke.altKey && (ke.key === 'ArrowDown' || ke.key === 'ArrowUp'));
  if (isDropdown(t) && !t.disabled && opens) { ke.preventDefault(); openList(t); }
}

function onReflow(): void {
  const o = state().open;
  if (o) placeList(o);
}

/** Step 1 (observer): tag new selects; close or rebuild an open list whose select changed. */
function onMutations(records: MutationRecord[]): void {
  const st = state();
  let touched = false;
  for (const r of records) {
    for (const n of Array.from(r.addedNodes)) if (n instanceof Element && !n.hasAttribute(UI_ATTR)) tagAll(n);
    if (r.type === 'attributes' && r.target instanceof HTMLSelectElement) tag(r.target);
    if (st.open && r.target instanceof Node && st.open.select.contains(r.target)) touched = true;
  }
  const o = st.open;
  if (!o) return;
  if (!o.select.isConnected) closeList();
  else if (touched) { const top = o.box.scrollTop; openList(o.select); if (st.open) st.open.box.scrollTop = top; }
}

/** Which copy of the rewrite owns the page (a reloaded extension runs in a new world). */
const OWNER_ATTR = 'data-wa-select-rewrite';

function owns(st: State): boolean {
  return st.installed && document.documentElement.getAttribute(OWNER_ATTR) === st.id;
}

/** Stop this copy's listeners and observer (attributes are left to the current owner). */
function detach(st: State): void {
  for (const [type, fn] of st.listeners) window.removeEventListener(type, fn, true);
  st.listeners = [];
  st.observer?.disconnect();
  st.observer = null;
  st.open?.host.remove();
  st.open = null;
  st.installed = false;
}

/**
 * Idempotent. Every listener first checks that this copy still owns the page; a stale copy
 * (an orphaned content script after an extension reload) detaches itself instead of acting.
 */
export function installSelectRewrite(): void {
  const st = state();
  if (owns(st)) return;
  if (st.installed) detach(st);
  st.installed = true;
  st.id = Math.random().toString(36).slice(2);
  document.documentElement.setAttribute(OWNER_ATTR, st.id);
  tagAll(document);
  const add = (type: string, fn: (e: Event) => void) => {
    const guarded = (e: Event) => (owns(st) ? fn(e) : detach(st));
    window.addEventListener(type, guarded, true);
    st.listeners.push([type, guarded]);
  };
  add('mousedown', onMouseDown);
  add('click', onClick);
  add('keydown', onKeyDown);
  add('scroll', onReflow);
  add('resize', onReflow);
  st.observer = new MutationObserver((records) => (owns(st) ? onMutations(records) : detach(st)));
  st.observer.observe(document.documentElement, {
    childList: true, subtree: true, characterData: true,
    attributes: true, attributeFilter: ['multiple', 'size', 'disabled', 'label'],
  });
}

/** Close the list, remove listeners, observer and our attributes: the page is as before. */
export function removeSelectRewrite(): void {
  const st = state();
  const owner = owns(st);
  detach(st);
  if (!owner) return;
  closeList();
  document.documentElement.removeAttribute(OWNER_ATTR);
  for (const s of Array.from(document.querySelectorAll(`select[${SELECT_ATTR}]`))) s.removeAttribute(SELECT_ATTR);
}

/** The last choice made through a list (value verification), or null. */
export function lastSelectPick(): SelectPick | null {
  return state().lastPick;
}

export function selectListOpen(): boolean {
  return !!state().open;
}
