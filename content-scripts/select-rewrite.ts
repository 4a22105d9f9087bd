/**
 * Select rewrite v1: native <select> popups are drawn by the OS and never show in screenshots,
 * so single-choice dropdown selects get an in-page list whose options are real elements.
 *
 * 1. install (idempotent, state under a global symbol): tag each <select> with data-wa-select
 *    ("list" = rewritten; "native" = multiple/size>1, which render inline and stay native); add
 *    window capture listeners (mousedown, click, keydown, scroll, resize); start a MutationObserver
 *    that tags selects added later and keeps an open list in sync with its select.
 * 2. mousedown on a dropdown select: preventDefault (the native popup never opens), focus it.
 * 3. click on it, or Enter / Space / Alt+ArrowDown / F4 while it has focus: toggle its list.
 * 4. open: build a host (position:absolute, appended to body) with a shadow listbox: one
 *    role=option item per option, optgroup labels as plain headers, disabled options greyed and
 *    aria-disabled; place it under the select (above when there is clearly more room there).
 * 5. click on an enabled option (or Enter on the highlighted one): set selectedIndex through the
 *    native setter, dispatch bubbling input + change (only when the choice changed, as natively),
 *    close, verify select.value equals the option's value (see lastSelectPick()).
 * 6. click elsewhere, Escape, Tab, or the select leaving the page: close.
 * 7. removeSelectRewrite: close, remove listeners, observer and attributes (page restored).
 */
import { OPTION_ATTR, SELECT_ATTR, UI_ATTR } from './labeler/dom';

export const SELECT_LIST = 'select-list';

export interface SelectPick { ok: boolean; expected: string; actual: string; text: string; changed: boolean }

interface OpenList { select: HTMLSelectElement; host: HTMLElement; box: HTMLElement; active: number }
interface State {
  installed: boolean;
  open: OpenList | null;
  observer: MutationObserver | null;
  listeners: Array<[string, EventListener]>;
  lastPick: SelectPick | null;
}

const KEY = Symbol.for('webagent.selectRewrite.v1');

function state(): State {
  const g = globalThis as unknown as Record<symbol, State | undefined>;
  return (g[KEY] ??= { installed: false, open: null, observer: null, listeners: [], lastPick: null });
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

const CSS = `
:host { all: initial; }
.box { box-sizing: border-box; overflow-y: auto; background: #fff; color: #111; border: 1px solid #767676;
  border-radius: 4px; box-shadow: 0 4px 14px rgba(0,0,0,.28); font: 14px/20px Arial, Helvetica, sans-serif; padding: 2px 0; }
.opt { padding: 4px 10px; cursor: pointer; white-space: nowrap; min-height: 20px; }
.opt:hover, .opt.active { background: #e3ecfa; }
.opt[aria-selected="true"] { background: #cfe0fc; font-weight: bold; }
.opt[aria-disabled="true"] { color: #9a9a9a; cursor: default; background: transparent; }
.opt.grouped { padding-left: 22px; }
.grp { padding: 4px 10px 2px; font-weight: bold; color: #555; cursor: default; }
`;

/** Step 4: the list for a select (not yet placed). */
function build(sel: HTMLSelectElement): { host: HTMLElement; box: HTMLElement } {
  const host = document.createElement('div');
  host.setAttribute(UI_ATTR, SELECT_LIST);
  host.setAttribute('style', 'position:absolute !important;z-index:2147483646 !important;left:0;top:0;margin:0 !important;padding:0 !important;border:0 !important;display:block !important');
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = CSS;
  const box = document.createElement('div');
  box.className = 'box';
  box.setAttribute('role', 'listbox');
  const name = sel.getAttribute('aria-label') || sel.labels?.[0]?.textContent || sel.name;
  if (name) box.setAttribute('aria-label', name.replace(/\s+/g, ' ').trim());
  let group: Element | null = null;
  for (const opt of Array.from(sel.options)) {
    if (opt.hidden) continue;
    const parent = opt.parentElement;
    const inGroup = parent instanceof HTMLOptGroupElement;
    if (inGroup && parent !== group) {
      const h = document.createElement('div');
      h.className = 'grp';
      h.setAttribute('role', 'presentation');
      h.textContent = parent.label;
      box.appendChild(h);
    }
    group = inGroup ? parent : null;
    const item = document.createElement('div');
    item.className = inGroup ? 'opt grouped' : 'opt';
    item.setAttribute('role', 'option');
    item.setAttribute(OPTION_ATTR, String(opt.index));
    item.setAttribute('aria-selected', String(opt.selected));
    if (opt.disabled || opt.matches(':disabled')) item.setAttribute('aria-disabled', 'true');
    item.textContent = opt.label || opt.text || '\u00a0';
    box.appendChild(item);
  }
  root.append(style, box);
  return { host, box };
}

/** Step 4 (placement): all reads first, then writes. */
function place(o: OpenList): void {
  o.host.style.left = '0px';
  o.host.style.top = '0px';
  const r = o.select.getBoundingClientRect();
  const origin = o.host.getBoundingClientRect();
  const natural = o.box.scrollHeight;
  const width = Math.max(o.box.scrollWidth, r.width);
  const vw = document.documentElement.clientWidth || window.innerWidth;
  const vh = window.innerHeight;
  const below = vh - r.bottom;
  const above = r.top;
  const down = below >= Math.min(natural, 200) || below >= above;
  const maxH = Math.max(80, Math.min(360, (down ? below : above) - 6));
  const h = Math.min(natural, maxH);
  const top = down ? r.bottom + 1 : r.top - 1 - h;
  const left = Math.max(4, Math.min(r.left, vw - width - 4));
  o.box.style.maxHeight = `${maxH}px`;
  o.box.style.minWidth = `${r.width}px`;
  o.box.style.maxWidth = `${Math.max(r.width, vw - 8)}px`;
  o.host.style.left = `${left - origin.left}px`;
  o.host.style.top = `${top - origin.top}px`;
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
  const { host, box } = build(sel);
  (document.body ?? document.documentElement).appendChild(host);
  const o: OpenList = { select: sel, host, box, active: sel.selectedIndex };
  st.open = o;
  place(o);
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
  st.lastPick = { ok, expected: opt.value, actual: sel.value, text: opt.text, changed };
  sel.focus({ preventScroll: true });
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
  if (o) place(o);
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

export function installSelectRewrite(): void {
  const st = state();
  if (st.installed) return;
  st.installed = true;
  tagAll(document);
  const add = (type: string, fn: EventListener) => {
    window.addEventListener(type, fn, true);
    st.listeners.push([type, fn]);
  };
  add('mousedown', onMouseDown);
  add('click', onClick);
  add('keydown', onKeyDown);
  add('scroll', onReflow);
  add('resize', onReflow);
  st.observer = new MutationObserver(onMutations);
  st.observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['multiple', 'size', 'disabled', 'label'], characterData: true });
}

export function removeSelectRewrite(): void {
  const st = state();
  closeList();
  for (const [type, fn] of st.listeners) window.removeEventListener(type, fn, true);
  st.listeners = [];
  st.observer?.disconnect();
  st.observer = null;
  st.installed = false;
  for (const s of Array.from(document.querySelectorAll(`select[${SELECT_ATTR}]`))) s.removeAttribute(SELECT_ATTR);
}

/** The last choice made through a list (value verification), or null. */
export function lastSelectPick(): SelectPick | null {
  return state().lastPick;
}

export function selectListOpen(): boolean {
  return !!state().open;
}
