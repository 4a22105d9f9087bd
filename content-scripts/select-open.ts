/**
 * The select rewrite's open list: state, open, close, pick (behaviour around it is in
 * select-rewrite.ts; the view is labeler/select-list.ts; setting values is select-pick.ts).
 *
 * 1. All state lives on globalThis under one symbol, shared by every copy of this module (the
 *    labeler bundle may be injected twice).
 * 2. showList: build the list, keep it hidden when hideSelectLists is in force, append it to body
 *    (or to the modal dialog / popover holding the select, then raise it into the top layer),
 *    place it, scroll the selected option into view. At most one list is open.
 * 3. pick: a single select closes, then applyChoice; a `multiple` select toggles the option and
 *    stays open, its items updated in place. Every choice is recorded (lastSelectPick, seq).
 */
import { OPTION_ATTR, UI_ATTR } from './labeler/dom';
import { buildList, listItems, placeList, revealItem, SELECT_LIST, setListHidden, syncList, topLayerAncestor } from './labeler/select-list';
import { applyChoice, findOption, isOptionUsable, type SelectChoice } from './select-pick';
import type { SelectPick } from '../src/core/messages';

export interface OpenList { select: HTMLSelectElement; host: HTMLElement; box: HTMLElement; active: number }
export interface State {
  installed: boolean;
  id: string;
  open: OpenList | null;
  observer: MutationObserver | null;
  /** shadow roots already observed (weak: the page may drop them) */
  roots: WeakSet<ShadowRoot>;
  listeners: Array<[string, EventListener]>;
  lastPick: SelectChoice | null;
  seq: number;
  hidden: boolean;
}

const KEY = Symbol.for('webagent.selectRewrite.v2');

export function state(): State {
  const g = globalThis as unknown as Record<symbol, State | undefined>;
  return (g[KEY] ??= { installed: false, id: '', open: null, observer: null, roots: new WeakSet(), listeners: [], lastPick: null, seq: 0, hidden: false });
}

export function setActive(o: OpenList, index: number): void {
  o.active = index;
  for (const it of listItems(o.box)) {
    const on = Number(it.getAttribute(OPTION_ATTR)) === index;
    it.classList.toggle('active', on);
    if (on) revealItem(o.box, it, false);
  }
}

/** Step 2. */
export function showList(sel: HTMLSelectElement): void {
  const st = state();
  closeList();
  const { host, box } = buildList(sel);
  setListHidden(host, st.hidden);
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
  const first = Array.from(sel.options).find((op) => op.selected && isOptionUsable(op)) ?? Array.from(sel.options).find(isOptionUsable);
  const o: OpenList = { select: sel, host, box, active: first ? first.index : -1 };
  st.open = o;
  placeList(o);
  revealItem(box, box.querySelector('[aria-selected="true"]'), true);
}

export function closeList(): void {
  const st = state();
  if (st.open) st.open.host.remove();
  st.open = null;
  for (const h of Array.from(document.querySelectorAll(`[${UI_ATTR}="${SELECT_LIST}"]`))) h.remove();
}

function record(choice: Omit<SelectChoice, 'seq'>): SelectChoice {
  const st = state();
  st.lastPick = { ...choice, seq: ++st.seq };
  return st.lastPick;
}

/** Step 3. */
export function pick(index: number): void {
  const st = state();
  const o = st.open;
  if (!o) return;
  const sel = o.select;
  const opt = sel.options[index];
  if (!opt || !isOptionUsable(opt)) return;
  if (!sel.multiple) {
    closeList();
    record(applyChoice(sel, opt, 'add'));
    sel.focus({ preventScroll: true });
    return;
  }
  record(applyChoice(sel, opt, 'toggle'));
  // Still ours and the options untouched: update in place (labels drawn on the items stay valid);
  // otherwise the observer rebuilds the list.
  if (st.open === o && sel.isConnected) {
    syncList(o.box, sel);
    setActive(o, index);
  }
}

/**
 * `Type [N]; [text]` on a <select> (WebVoyager-style models do this): choose the usable option
 * the text names (see findOption). A `multiple` select adds it to the selection.
 */
export function chooseOptionByText(sel: HTMLSelectElement, text: string): { pick: SelectPick | null; options: string[] } {
  const { hit, options } = findOption(sel, text);
  if (!hit) return { pick: null, options };
  closeList();
  return { pick: record(applyChoice(sel, hit, 'add')), options };
}

/** Hide the open list (if any) without closing it, e.g. for a clean "raw" screenshot; lists built while hidden stay hidden. */
export function hideSelectLists(): void {
  const st = state();
  st.hidden = true;
  if (st.open) setListHidden(st.open.host, true);
}

/** Undo hideSelectLists. */
export function showSelectLists(): void {
  const st = state();
  st.hidden = false;
  if (st.open) setListHidden(st.open.host, false);
}

/** The last choice made through a list or chooseOptionByText (verified), or null. */
export function lastSelectPick(): SelectChoice | null {
  return state().lastPick;
}

export function selectListOpen(): boolean {
  return !!state().open;
}

