/**
 * The overlay: one host element on <html>, a closed shadow root inside, a box and a number per mark.
 * Works from rects measured beforehand; it reads no layout, so drawing never thrashes.
 *
 * 1. Place labels (pure arithmetic, integer px): a label is sized from its digit count; try above
 *    the box's top-left corner, inside it, above / inside the top-right, below / inside the
 *    bottom-left (each clamped into the viewport); the first spot that overlaps no earlier label
 *    wins; otherwise search rings of growing size around the box, then the whole viewport.
 *    Placed labels live in a grid of cells so each check looks at a few neighbours only.
 * 2. Build every element in a detached shadow tree, then attach the host once.
 * 3. Put the host in the top layer (popover) when possible, so marks also show over modal dialogs;
 *    it stays position:fixed, inset:0, pointer-events:none, z-index max either way.
 * 4. Watch it (overlayIntact): page scripts cannot reach into the closed root, and its inline
 *    `all: initial !important` beats any page style rule, but a script can still remove the host,
 *    change its style attribute, close its popover, open a dialog or popover above it, or paint its
 *    ::backdrop. Any of these since drawing makes overlayIntact false, and the background takes the
 *    screenshot again (background/observe.ts).
 *
 * Legibility on light, dark and busy pages: boxes are 2 px solid colour with a 1 px white line
 * outside and a dark one inside; labels are a strong solid colour with white bold digits, a 1 px
 * black border and a dark text shadow.
 */
import type { LabelStyle, Rect } from '../../src/core/marks';
import { UI_ATTR } from './dom';

export const OVERLAY = 'overlay';

const PALETTE = ['#d0021b', '#0046c0', '#006b2d', '#a84300', '#7b1fa2', '#00656b', '#b0124f', '#5d4037', '#303f9f', '#1b5e20'];
const LABEL_H = 16;
const DIGIT_W = 8;
const LABEL_PAD = 6;
const CELL = 48;

export interface Box { x: number; y: number; w: number; h: number }

export function labelSize(label: number): { w: number; h: number } {
  return { w: String(label).length * DIGIT_W + LABEL_PAD, h: LABEL_H };
}

/** Placed boxes, bucketed by grid cell. */
class Placed {
  private cells = new Map<number, Box[]>();

  private keys(b: Box): number[] {
    const out: number[] = [];
    for (let cx = Math.floor(b.x / CELL); cx <= Math.floor((b.x + b.w - 1) / CELL); cx++) {
      for (let cy = Math.floor(b.y / CELL); cy <= Math.floor((b.y + b.h - 1) / CELL); cy++) out.push(cx * 100_003 + cy);
    }
    return out;
  }

  free(b: Box): boolean {
    for (const k of this.keys(b)) {
      for (const p of this.cells.get(k) ?? []) {
        if (b.x < p.x + p.w && p.x < b.x + b.w && b.y < p.y + p.h && p.y < b.y + b.h) return false;
      }
    }
    return true;
  }

  add(b: Box): void {
    for (const k of this.keys(b)) {
      const list = this.cells.get(k);
      if (list) list.push(b);
      else this.cells.set(k, [b]);
    }
  }
}

/** Step 1: label positions for each rect (same order). */
export function placeLabels(items: Array<{ label: number; rect: Rect }>, vw: number, vh: number): Box[] {
  const placed = new Placed();
  const out: Box[] = [];
  const maxX = Math.max(0, Math.floor(vw));
  const maxY = Math.max(0, Math.floor(vh));
  for (const { label, rect: r } of items) {
    const { w, h } = labelSize(label);
    const at = (x: number, y: number): Box => ({
      x: Math.max(0, Math.min(Math.round(x), maxX - w)), y: Math.max(0, Math.min(Math.round(y), maxY - h)), w, h,
    });
    const left = r.x, right = r.x + r.width - w, top = r.y, bottom = r.y + r.height;
    const tries = [
      at(left, top - h), at(left, top), at(right, top - h), at(right, top), at(left, bottom), at(left, bottom - h),
    ];
    let spot = tries.find((b) => placed.free(b)) ?? ring(placed, at, left, top - h, w, h) ?? scan(placed, at, left, top, maxX, maxY, w, h);
    spot ??= tries[0]; // the viewport is full of labels: overlap is unavoidable
    placed.add(spot);
    out.push(spot);
  }
  return out;
}

/**
 * AppAgent's tags (style 'centre-from-1'): the number N + 1 centred on the element, as AppAgent's
 * draw_bbox_multi puts it, clamped into the viewport; no search for a free spot (AppAgent places
 * every tag at its centre, overlapping or not: the model is told the tag is at the centre).
 */
export function centreLabels(items: Array<{ label: number; rect: Rect }>, vw: number, vh: number): Box[] {
  const maxX = Math.max(0, Math.floor(vw));
  const maxY = Math.max(0, Math.floor(vh));
  return items.map(({ label, rect: r }) => {
    const { w, h } = labelSize(label + 1);
    const x = Math.round(r.x + r.width / 2 - w / 2);
    const y = Math.round(r.y + r.height / 2 - h / 2);
    return { x: Math.max(0, Math.min(x, maxX - w)), y: Math.max(0, Math.min(y, maxY - h)), w, h };
  });
}

/** Rings of growing size around (x0, y0), nearest first. */
function ring(placed: Placed, at: (x: number, y: number) => Box, x0: number, y0: number, w: number, h: number): Box | null {
  for (let k = 1; k <= 12; k++) {
    for (let dy = -k; dy <= k; dy++) {
      for (let dx = -k; dx <= k; dx++) {
        if (Math.abs(dx) !== k && Math.abs(dy) !== k) continue;
        const b = at(x0 + dx * Math.ceil(w / 2), y0 + dy * h);
        if (placed.free(b)) return b;
      }
    }
  }
  return null;
}

/** Last resort: the free grid spot nearest to the box, anywhere in the viewport. */
function scan(placed: Placed, at: (x: number, y: number) => Box, x0: number, y0: number, maxX: number, maxY: number, w: number, h: number): Box | null {
  let best: Box | null = null;
  let bestD = Infinity;
  for (let y = 0; y + h <= maxY; y += h) {
    for (let x = 0; x + w <= maxX; x += Math.ceil(w / 2)) {
      const d = Math.abs(x - x0) + Math.abs(y - y0);
      if (d >= bestD) continue;
      const b = at(x, y);
      if (placed.free(b)) { best = b; bestD = d; }
    }
  }
  return best;
}

const CSS = `
:host { all: initial; }
.m { position: absolute; box-sizing: border-box; border: 2px solid var(--c); pointer-events: none;
  outline: 1px solid rgba(255,255,255,.95); box-shadow: inset 0 0 0 1px rgba(0,0,0,.55); }
.l { position: absolute; box-sizing: border-box; height: ${LABEL_H}px; padding: 0; overflow: hidden; background: var(--c);
  color: #fff; font: bold 12px/14px Arial, 'Liberation Sans', Helvetica, sans-serif; text-align: center; border: 1px solid #000;
  border-radius: 2px; text-shadow: 0 0 2px #000, 0 0 1px #000; white-space: nowrap; pointer-events: none; }
`;

const HOST_STYLE = [
  'all:initial', 'position:fixed', 'inset:0', 'width:auto', 'height:auto', 'margin:0', 'padding:0', 'border:0',
  'background:transparent', 'overflow:hidden', 'display:block', 'pointer-events:none',
  'z-index:2147483647', 'opacity:1', 'visibility:visible', 'transform:none', 'filter:none', 'color-scheme:normal',
].map((d) => d + ' !important').join(';');

/** Steps 2–3: draw the overlay for the given marks (replacing any earlier overlay), labels in `labelStyle`. */
export function renderOverlay(items: Array<{ label: number; rect: Rect }>, vw: number, vh: number, labelStyle: LabelStyle = 'corner'): void {
  removeOverlay();
  const fromOne = labelStyle === 'centre-from-1';
  const spots = fromOne ? centreLabels(items, vw, vh) : placeLabels(items, vw, vh);
  const host = document.createElement('webagent-marks');
  host.setAttribute(UI_ATTR, OVERLAY);
  host.setAttribute('aria-hidden', 'true');
  host.setAttribute('style', HOST_STYLE);
  const root = host.attachShadow({ mode: 'closed' });
  const style = document.createElement('style');
  style.textContent = CSS;
  root.appendChild(style);
  const frag = document.createDocumentFragment();
  items.forEach(({ label, rect }, i) => {
    const colour = PALETTE[label % PALETTE.length];
    const box = document.createElement('div');
    box.className = 'm';
    box.style.cssText = `--c:${colour};left:${rect.x}px;top:${rect.y}px;width:${rect.width}px;height:${rect.height}px`;
    const tag = document.createElement('div');
    tag.className = 'l';
    const s = spots[i];
    tag.style.cssText = `--c:${colour};left:${s.x}px;top:${s.y}px;width:${s.w}px;height:${s.h}px`;
    tag.textContent = String(fromOne ? label + 1 : label);
    frag.append(box, tag);
  });
  // boxes first, then labels, so no box is drawn over a label
  for (const el of Array.from(frag.querySelectorAll('.l'))) frag.appendChild(el);
  root.appendChild(frag);
  showOnTop(host);
  watch(host, root);
}

/** Adds our overlay host to the page in the top layer, so it shows over modal dialogs too. */
export function showOnTop(host: HTMLElement): void {
  overlays().hosts.add(host);
  document.documentElement.appendChild(host);
  if (typeof host.showPopover === 'function') {
    try {
      host.setAttribute('popover', 'manual');
      host.showPopover();
    } catch {
      host.removeAttribute('popover');
    }
  }
}

/** The label tags as drawn (viewport px), in label order. */
export function drawnLabelBoxes(): Rect[] {
  const root = overlays().drawn?.root;
  if (!root) return [];
  return Array.from(root.querySelectorAll('.l')).map((l) => {
    const r = l.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
}

/**
 * Remove every overlay (also ones left by an earlier injection: our own elements' names start with
 * `webagent-`). A page element that only copies the attribute stays.
 */
export function removeOverlay(): void {
  const st = overlays();
  st.drawn?.stop();
  st.drawn = null;
  for (const el of Array.from(document.querySelectorAll(`[${UI_ATTR}="${OVERLAY}"]`))) {
    if (isOurOverlay(el) || el.localName.startsWith('webagent-')) el.remove();
  }
}

export function overlayPresent(): boolean {
  return !!document.querySelector(`[${UI_ATTR}="${OVERLAY}"]`);
}

/**
 * Our overlay hosts (the labels' and the point mark's): a page element that copies the attribute
 * is not one, so it cannot hide its subtree from the labeler. Kept on globalThis (isolated world),
 * shared by every copy of this module.
 */
interface Overlays {
  hosts: WeakSet<Element>;
  drawn: { host: HTMLElement; root: ShadowRoot; touched: () => string | null; stop: () => void } | null;
}
const KEY = Symbol.for('webagent.labeler.overlay');

function overlays(): Overlays {
  const g = globalThis as unknown as Record<symbol, Overlays | undefined>;
  return (g[KEY] ??= { hosts: new WeakSet(), drawn: null });
}

export function isOurOverlay(el: Element): boolean {
  return overlays().hosts.has(el);
}

/** Step 4: record whatever a page script does to the host from now on. */
function watch(host: HTMLElement, root: ShadowRoot): void {
  let why: string | null = null;
  const note = (records: MutationRecord[]) => {
    for (const r of records) {
      if (r.target === host) why ??= `its ${r.attributeName} attribute changed`;
      else if (Array.from(r.removedNodes).includes(host)) why ??= 'it was removed';
    }
  };
  const observer = new MutationObserver(note);
  observer.observe(host, { attributes: true });
  observer.observe(document.documentElement, { childList: true });
  // a popover or modal dialog opened after ours is drawn above it; ours closed is gone
  const onToggle = (e: Event) => {
    const t = e as ToggleEvent;
    if (t.target === host && t.newState === 'closed') why ??= 'its popover was closed';
    else if (t.target !== host && t.newState === 'open') why ??= `a ${(t.target as Element).localName} opened above it`;
  };
  document.addEventListener('beforetoggle', onToggle, true);
  const touched = () => {
    note(observer.takeRecords());
    return why;
  };
  const stop = () => {
    observer.disconnect();
    document.removeEventListener('beforetoggle', onToggle, true);
  };
  overlays().drawn = { host, root, touched, stop };
}

/**
 * Step 4: null when the labels drawn last are on screen as drawn (or none were drawn); else what
 * a page script did to them.
 */
export function overlayTampered(): string | null {
  const d = overlays().drawn;
  if (!d) return null;
  const { host } = d;
  const why = d.touched();
  if (why) return why;
  if (!host.isConnected) return 'it was removed';
  if (host.getAttribute('style') !== HOST_STYLE) return 'its style changed';
  if (host.hasAttribute('popover') && !host.matches(':popover-open')) return 'its popover was closed';
  if (document.fullscreenElement) return 'an element is full screen above it';
  const b = getComputedStyle(host, '::backdrop');
  if (b.backgroundImage !== 'none' || !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(b.backgroundColor) || (b.backdropFilter && b.backdropFilter !== 'none')) {
    return 'its backdrop is painted';
  }
  return null;
}
