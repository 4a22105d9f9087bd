/**
 * The overlay: one host element on <html>, a shadow root inside, a box and a number per mark.
 * Works from rects measured beforehand; it reads no layout, so drawing never thrashes.
 *
 * 1. Place labels (pure arithmetic): estimate each label's size from its digit count; try
 *    above-left, inside-left, above-right, inside-right; the first spot inside the viewport that
 *    does not overlap an earlier label wins; otherwise slide down from inside-left until free.
 * 2. Build every element in a detached shadow tree, then attach the host once.
 * 3. Put the host in the top layer (popover) when possible, so marks also show over modal dialogs;
 *    it stays position:fixed, inset:0, pointer-events:none, z-index max either way.
 */
import type { Rect } from '../../src/core/marks';
import { UI_ATTR } from './dom';

export const OVERLAY = 'overlay';

const PALETTE = ['#d0021b', '#0050d0', '#007a33', '#b84c00', '#7b1fa2', '#00737a', '#c2185b', '#5d4037', '#3949ab', '#2e7d32'];
const LABEL_H = 16;
const DIGIT_W = 7.5;
const LABEL_PAD = 8;

interface Box { x: number; y: number; w: number; h: number }

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** Step 1: label positions for each rect (same order). */
export function placeLabels(items: Array<{ label: number; rect: Rect }>, vw: number, vh: number): Box[] {
  const placed: Box[] = [];
  for (const { label, rect: r } of items) {
    const w = Math.ceil(String(label).length * DIGIT_W + LABEL_PAD);
    const h = LABEL_H;
    const fits = (b: Box) => b.x >= 0 && b.y >= 0 && b.x + b.w <= vw && b.y + b.h <= vh;
    const free = (b: Box) => !placed.some((p) => overlaps(p, b));
    const tries: Box[] = [
      { x: r.x, y: r.y - h, w, h },
      { x: r.x, y: r.y, w, h },
      { x: r.x + r.width - w, y: r.y - h, w, h },
      { x: r.x + r.width - w, y: r.y, w, h },
    ];
    let spot = tries.find((b) => fits(b) && free(b));
    if (!spot) {
      const start = { x: Math.max(0, Math.min(r.x, vw - w)), y: Math.max(0, Math.min(r.y, vh - h)), w, h };
      spot = start;
      for (let y = start.y + h; y + h <= vh && y <= r.y + r.height + 4 * h; y += h) {
        const b = { ...start, y };
        if (free(b)) { spot = b; break; }
      }
    }
    placed.push(spot);
  }
  return placed;
}

const CSS = `
:host { all: initial; }
.m { position: absolute; box-sizing: border-box; border: 2px dashed var(--c); pointer-events: none; }
.l { position: absolute; box-sizing: border-box; height: ${LABEL_H}px; padding: 0 3px; background: var(--c);
  color: #fff; font: bold 12px/14px Arial, Helvetica, sans-serif; text-align: center; border: 1px solid #000;
  border-radius: 2px; text-shadow: 0 0 2px #000, 0 0 1px #000; white-space: nowrap; pointer-events: none; }
`;

const HOST_STYLE = [
  'position:fixed', 'inset:0', 'width:auto', 'height:auto', 'margin:0', 'padding:0', 'border:0',
  'background:transparent', 'overflow:hidden', 'display:block', 'pointer-events:none',
  'z-index:2147483647', 'opacity:1', 'visibility:visible', 'transform:none', 'filter:none', 'color-scheme:normal',
].map((d) => d + ' !important').join(';');

/** Steps 2–3: draw the overlay for the given marks (replacing any earlier overlay). */
export function drawOverlay(items: Array<{ label: number; rect: Rect }>, vw: number, vh: number): void {
  removeOverlay();
  const spots = placeLabels(items, vw, vh);
  const host = document.createElement('webagent-marks');
  host.setAttribute(UI_ATTR, OVERLAY);
  host.setAttribute('aria-hidden', 'true');
  host.setAttribute('style', HOST_STYLE);
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = CSS;
  root.appendChild(style);
  const frag = document.createDocumentFragment();
  items.forEach(({ label, rect }, i) => {
    const colour = PALETTE[i % PALETTE.length];
    const box = document.createElement('div');
    box.className = 'm';
    box.style.cssText = `--c:${colour};left:${rect.x}px;top:${rect.y}px;width:${rect.width}px;height:${rect.height}px`;
    const tag = document.createElement('div');
    tag.className = 'l';
    const s = spots[i];
    tag.style.cssText = `--c:${colour};left:${s.x}px;top:${s.y}px;min-width:${s.w}px`;
    tag.textContent = String(label);
    frag.append(box, tag);
  });
  root.appendChild(frag);
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

/** Remove every overlay (also ones left by an earlier injection). */
export function removeOverlay(): void {
  for (const el of Array.from(document.querySelectorAll(`[${UI_ATTR}="${OVERLAY}"]`))) el.remove();
}

export function overlayPresent(): boolean {
  return !!document.querySelector(`[${UI_ATTR}="${OVERLAY}"]`);
}
