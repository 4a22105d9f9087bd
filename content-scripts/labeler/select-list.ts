/**
 * The select rewrite's in-page list: the view only (behaviour is in ../select-rewrite.ts).
 *
 * buildList:
 * 1. a host div marked data-wa-ui="select-list", position:absolute, its box properties pinned
 *    with !important so page CSS cannot move or restyle it;
 * 2. an open shadow root (page CSS cannot reach the items) holding a role=listbox box,
 *    aria-multiselectable for `multiple` (items then show a check box glyph);
 * 3. per option a role=option item (data-wa-option = its index in select.options): optgroup
 *    labels become non-clickable headers; disabled options and options of a disabled optgroup
 *    are greyed and aria-disabled (so the labeler skips them); `hidden` options / optgroups are
 *    left out, as the native popup leaves them out.
 * syncList: aria-selected of every item from the options' current selectedness.
 * placeList:
 * 1. reset the host to 0,0 and unconstrain the box; read the select's rect, the host's origin
 *    (its containing block may be anywhere) and the list's natural size;
 * 2. height: at most 60% of the viewport; open below when that fits below, otherwise on the
 *    side with more room; the box scrolls inside;
 * 3. width: the widest item (plus a scrollbar when it scrolls), at least the select's width,
 *    at most the viewport; left edge moved so the list stays inside the viewport;
 * 4. write (all reads happen before any write: one layout).
 * revealItem: scroll the box (never the page) so an item is in view.
 */
import { OPTION_ATTR, UI_ATTR } from './dom';

export const SELECT_LIST = 'select-list';

export interface ListParts { select: HTMLSelectElement; host: HTMLElement; box: HTMLElement }

const CSS = `
:host { all: initial; }
.box { box-sizing: border-box; overflow-x: hidden; overflow-y: auto; background: #fff; color: #111;
  border: 1px solid #767676; border-radius: 4px; box-shadow: 0 4px 14px rgba(0,0,0,.28);
  font: 14px/20px Arial, Helvetica, sans-serif; padding: 2px 0; }
/* the left padding leaves room for a mark's number, so it never hides the option text */
.opt { padding: 4px 12px 4px 30px; cursor: pointer; white-space: nowrap; min-height: 20px;
  overflow: hidden; text-overflow: ellipsis; }
.opt:hover, .opt.active { background: #e3ecfa; }
.opt[aria-selected="true"] { background: #cfe0fc; font-weight: bold; }
.opt[aria-disabled="true"] { color: #9a9a9a; cursor: default; background: transparent; }
.opt.grouped { padding-left: 42px; }
/* generated content: shown to the model, but not part of the item's text */
.multi .opt::before { content: "\\2610"; display: inline-block; width: 18px; font-weight: normal; }
.multi .opt[aria-selected="true"]::before { content: "\\2611"; }
.grp { padding: 4px 12px 2px 30px; font-weight: bold; color: #555; cursor: default; white-space: nowrap; }
.grp.off { color: #9a9a9a; }
`;

function groupOf(opt: HTMLOptionElement): HTMLOptGroupElement | null {
  const p = opt.parentElement;
  return p instanceof HTMLOptGroupElement ? p : null;
}

/** Left out of the list, as the native popup leaves it out. */
export function isOptionHidden(opt: HTMLOptionElement): boolean {
  return !!opt.hidden || !!groupOf(opt)?.hidden;
}

/** Disabled itself or through its optgroup. */
export function isOptionDisabled(opt: HTMLOptionElement): boolean {
  return opt.disabled || opt.matches(':disabled');
}

/** buildList steps 1–3: the list for a select (not yet in the page, not yet placed). */
export function buildList(sel: HTMLSelectElement): { host: HTMLElement; box: HTMLElement } {
  const host = document.createElement('div');
  host.setAttribute(UI_ATTR, SELECT_LIST);
  host.setAttribute('style', [
    'position:absolute !important', 'z-index:2147483646 !important', 'left:0', 'top:0', 'right:auto !important',
    'bottom:auto !important', 'width:auto !important', 'height:auto !important', 'margin:0 !important',
    'padding:0 !important', 'border:0 !important', 'display:block !important', 'overflow:visible !important',
    'background:transparent !important', 'opacity:1 !important', 'visibility:visible !important',
  ].join(';'));
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = CSS;
  const box = document.createElement('div');
  box.className = sel.multiple ? 'box multi' : 'box';
  box.setAttribute('role', 'listbox');
  if (sel.multiple) box.setAttribute('aria-multiselectable', 'true');
  const name = sel.getAttribute('aria-label') || sel.labels?.[0]?.textContent || sel.name;
  if (name) box.setAttribute('aria-label', name.replace(/\s+/g, ' ').trim());
  let group: HTMLOptGroupElement | null = null;
  for (const opt of Array.from(sel.options)) {
    if (isOptionHidden(opt)) continue;
    const g = groupOf(opt);
    if (g && g !== group) {
      const h = document.createElement('div');
      h.className = g.disabled ? 'grp off' : 'grp';
      h.setAttribute('role', 'presentation');
      h.textContent = g.label;
      box.appendChild(h);
    }
    group = g;
    const item = document.createElement('div');
    item.className = g ? 'opt grouped' : 'opt';
    item.setAttribute('role', 'option');
    item.setAttribute(OPTION_ATTR, String(opt.index));
    if (isOptionDisabled(opt)) item.setAttribute('aria-disabled', 'true');
    item.textContent = opt.label.replace(/\s+/g, ' ').trim() || '\u00a0';
    box.appendChild(item);
  }
  syncList(box, sel);
  root.append(style, box);
  return { host, box };
}

export function listItems(box: HTMLElement): HTMLElement[] {
  return Array.from(box.querySelectorAll<HTMLElement>(`[${OPTION_ATTR}]`));
}

/** Mirror the options' selectedness (after a pick, a page handler may have changed more than one). */
export function syncList(box: HTMLElement, sel: HTMLSelectElement): void {
  for (const item of listItems(box)) {
    const on = !!sel.options[Number(item.getAttribute(OPTION_ATTR))]?.selected;
    if (item.getAttribute('aria-selected') !== String(on)) item.setAttribute('aria-selected', String(on));
  }
}

/** Shown / hidden without closing (a "raw" screenshot must not show it). visibility keeps the layout, so placement and scroll survive. */
export function setListHidden(host: HTMLElement, hidden: boolean): void {
  host.style.setProperty('visibility', hidden ? 'hidden' : 'visible', 'important');
}

const MARGIN = 4;
const MIN_WIDTH = 140;
const MIN_HEIGHT = 60;
const SCROLLBAR = 16;

function viewport(): { vw: number; vh: number } {
  const root = document.compatMode === 'BackCompat' ? document.body : document.documentElement;
  return { vw: root?.clientWidth || window.innerWidth, vh: root?.clientHeight || window.innerHeight };
}

/** placeList steps 1–4. */
export function placeList(o: ListParts): void {
  const { host, box, select } = o;
  host.style.left = '0px';
  host.style.top = '0px';
  box.style.maxHeight = 'none';
  box.style.width = 'auto';
  const r = select.getBoundingClientRect();
  const origin = host.getBoundingClientRect();
  const natural = box.offsetHeight;
  const naturalWidth = box.scrollWidth + (box.offsetWidth - box.clientWidth);
  const { vw, vh } = viewport();

  const want = Math.min(natural, Math.max(MIN_HEIGHT, Math.floor(vh * 0.6)));
  const below = vh - r.bottom - MARGIN;
  const above = r.top - MARGIN;
  const down = below >= want || below >= above;
  const h = Math.min(want, Math.max(MIN_HEIGHT, down ? below : above));
  const scrolls = natural > h;
  const width = Math.min(vw - 2 * MARGIN, Math.max(naturalWidth + (scrolls ? SCROLLBAR : 0), r.width, MIN_WIDTH));
  const top = down ? r.bottom + 1 : r.top - 1 - h;
  const left = Math.max(MARGIN, Math.min(r.left, vw - width - MARGIN));

  box.style.maxHeight = `${h}px`;
  box.style.width = `${width}px`;
  host.style.left = `${left - origin.left}px`;
  host.style.top = `${top - origin.top}px`;
}

/** Scroll the box so `item` is in view: centred (on open) or just enough (arrow keys). Never scrolls the page, unlike scrollIntoView. */
export function revealItem(box: HTMLElement, item: Element | null, centre: boolean): void {
  if (!item) return;
  const b = box.getBoundingClientRect();
  const i = item.getBoundingClientRect();
  const top = i.top - b.top - box.clientTop;
  if (centre) box.scrollTop += top - (box.clientHeight - i.height) / 2;
  else if (top < 0) box.scrollTop += top;
  else if (top + i.height > box.clientHeight) box.scrollTop += top + i.height - box.clientHeight;
}

/** Parent in the flat tree (own copy: the labeler's dom.ts is not part of this file's contract). */
function composedParent(n: Element): Element | null {
  if (n.assignedSlot) return n.assignedSlot;
  if (n.parentElement) return n.parentElement;
  const root = n.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** The modal dialog / open popover / fullscreen element holding the select, if any. */
export function topLayerAncestor(sel: Element): Element | null {
  for (let n = composedParent(sel); n; n = composedParent(n)) {
    try {
      if (n.matches(':modal, :popover-open, :fullscreen')) return n;
    } catch {
      return null;
    }
  }
  return null;
}
