/**
 * The overlay a person sees (Show labels, a demonstration's labels, the approval highlight): one
 * host element on <html>, a closed shadow root inside, a box and a number per mark. During a run
 * the model's labels are not drawn here but onto its screenshot in the service worker
 * (src/background/draw-labels.ts), so a page never sees them; both place and colour them with
 * src/core/label-layout.ts. Works from rects measured beforehand; it reads no layout.
 *
 * 1. Lay out the labels (label-layout.ts).
 * 2. Build every element in a detached shadow tree, then attach the host once.
 * 3. Put the host in the top layer (popover) when possible, so marks also show over modal dialogs;
 *    it stays position:fixed, inset:0, pointer-events:none, z-index max either way, and its inline
 *    `all: initial !important` beats any page style rule.
 *
 * Legibility on light, dark and busy pages: boxes are 2 px solid colour with a 1 px white line
 * outside and a dark one inside; labels are a strong solid colour with white bold digits, a 1 px
 * black border and a dark text shadow.
 */
import { LABEL_H, layoutLabels } from '../../src/core/label-layout';
import type { LabelStyle, Rect } from '../../src/core/marks';
import { UI_ATTR } from './dom';

export const OVERLAY = 'overlay';

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

/** Steps 1–3: draw the overlay for the given marks (replacing any earlier overlay; none: nothing is added), labels in `labelStyle`. */
export function renderOverlay(items: Array<{ label: number; rect: Rect }>, vw: number, vh: number, labelStyle: LabelStyle = 'corner'): void {
  removeOverlay();
  if (!items.length) return;
  const host = document.createElement('webagent-marks');
  host.setAttribute(UI_ATTR, OVERLAY);
  host.setAttribute('aria-hidden', 'true');
  host.setAttribute('style', HOST_STYLE);
  const root = host.attachShadow({ mode: 'closed' });
  const style = document.createElement('style');
  style.textContent = CSS;
  root.appendChild(style);
  const drawn = layoutLabels(items, vw, vh, labelStyle);
  const tags: HTMLElement[] = [];
  for (const { box: r, colour, tag: s, text } of drawn) {
    const box = document.createElement('div');
    box.className = 'm';
    box.style.cssText = `--c:${colour};left:${r.x}px;top:${r.y}px;width:${r.width}px;height:${r.height}px`;
    root.appendChild(box);
    const tag = document.createElement('div');
    tag.className = 'l';
    tag.style.cssText = `--c:${colour};left:${s.x}px;top:${s.y}px;width:${s.w}px;height:${s.h}px`;
    tag.textContent = text;
    tags.push(tag);
  }
  // boxes first, then labels, so no box is drawn over a label
  root.append(...tags);
  overlays().drawn = root;
  showOnTop(host);
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
  const root = overlays().drawn;
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
  /** the shadow root of the labels drawn last (labelBoxes) */
  drawn: ShadowRoot | null;
}
const KEY = Symbol.for('webagent.labeler.overlay');

function overlays(): Overlays {
  const g = globalThis as unknown as Record<symbol, Overlays | undefined>;
  return (g[KEY] ??= { hosts: new WeakSet(), drawn: null });
}

export function isOurOverlay(el: Element): boolean {
  return overlays().hosts.has(el);
}
