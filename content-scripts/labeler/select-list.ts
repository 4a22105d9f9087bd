/**
 * The select rewrite's in-page list (the view only; behaviour is in ../select-rewrite.ts).
 *
 * buildList: 1. a host div marked data-wa-ui="select-list", position:absolute; 2. an open shadow
 * root with a role=listbox; 3. per option a role=option item (data-wa-option = its index in
 * select.options), optgroup labels as non-clickable headers, disabled options greyed and
 * aria-disabled, hidden options left out.
 * placeList: 1. reset the host to 0,0 and read the select's rect, the host's origin and the
 * list's natural size; 2. open downwards unless there is clearly more room above; 3. cap the
 * height to the room (scrolls inside), keep it inside the viewport horizontally; 4. write.
 */
import { composedParent, OPTION_ATTR, UI_ATTR } from './dom';

export const SELECT_LIST = 'select-list';

export interface ListParts { select: HTMLSelectElement; host: HTMLElement; box: HTMLElement }

const CSS = `
:host { all: initial; }
.box { box-sizing: border-box; overflow-y: auto; background: #fff; color: #111; border: 1px solid #767676;
  border-radius: 4px; box-shadow: 0 4px 14px rgba(0,0,0,.28); font: 14px/20px Arial, Helvetica, sans-serif; padding: 2px 0; }
/* the left padding leaves room for a mark's number, so it never hides the option text */
.opt { padding: 4px 12px 4px 30px; cursor: pointer; white-space: nowrap; min-height: 20px; }
.opt:hover, .opt.active { background: #e3ecfa; }
.opt[aria-selected="true"] { background: #cfe0fc; font-weight: bold; }
.opt[aria-disabled="true"] { color: #9a9a9a; cursor: default; background: transparent; }
.opt.grouped { padding-left: 42px; }
.grp { padding: 4px 12px 2px 30px; font-weight: bold; color: #555; cursor: default; }
`;

/** Step 4: the list for a select (not yet placed). */
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

const MIN_WIDTH = 140;

/** Step 4 (placement): all reads first, then writes. */
export function placeList(o: ListParts): void {
  o.host.style.left = '0px';
  o.host.style.top = '0px';
  const r = o.select.getBoundingClientRect();
  const origin = o.host.getBoundingClientRect();
  const natural = o.box.scrollHeight;
  const width = Math.max(o.box.scrollWidth, r.width, MIN_WIDTH);
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
  o.box.style.minWidth = `${Math.max(r.width, MIN_WIDTH)}px`;
  o.box.style.maxWidth = `${Math.max(r.width, vw - 8)}px`;
  o.host.style.left = `${left - origin.left}px`;
  o.host.style.top = `${top - origin.top}px`;
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
