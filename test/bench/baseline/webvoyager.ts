/**
 * Baseline labeler: WebVoyager's set-of-marks marker, written from the description in
 * WebVoyager's published description of its marker (docs/labeling.md compares), not from its code.
 * Runs as a page script (bundled by esbuild as an IIFE exposing `window.__webvoyager`).
 *
 * 1. Candidates: input, textarea, select, button, a, iframe, video, li, td, option, and any
 *    element with an onclick handler or computed cursor:pointer. Top document only: no shadow
 *    roots, no iframe contents.
 * 2. For each client rect of a candidate keep it only when elementFromPoint at its centre is the
 *    element or a descendant; clip kept rects to the viewport; drop the candidate when the kept
 *    area is < 20 px².
 * 3. Drop candidates nested inside a kept <button> or <a>; then keep only the innermost (drop any
 *    candidate that contains another).
 * 4. Number 0..n-1 in document order. Text = collapsed textContent; an entry whose text has 200 or
 *    more characters is left out of the element list (its number is still drawn: a numbering gap).
 *    The tag is shown only for button, input and textarea.
 * 5. Draw per kept rect a 2 px dashed box and a 12 px label just above its top-left corner, in a
 *    random colour (seeded here so runs are reproducible).
 */

export interface Rect { x: number; y: number; width: number; height: number }
export interface BaselineMark { label: number; tag: string; text: string; rect: Rect }
export interface BaselineResult {
  marks: BaselineMark[];
  /** label tags as drawn, viewport CSS px */
  labelBoxes: Rect[];
  /** numbers drawn (marks plus entries dropped for length) */
  drawn: number;
  /** one labeling pass (collect + draw), performance.now, ms */
  ms: number;
}

const TAGS = new Set(['input', 'textarea', 'select', 'button', 'a', 'iframe', 'video', 'li', 'td', 'option']);
const TAG_SHOWN = new Set(['button', 'input', 'textarea']);
const CONTAINERS = new Set(['button', 'a']);
const MAX_TEXT = 200;
const MIN_AREA = 20;
const OVERLAY_ATTR = 'data-webvoyager-mark';

interface Item { el: Element; rects: Rect[]; text: string }

let elementsOfLastPass: Element[] = [];

function isCandidate(el: Element): boolean {
  if (TAGS.has(el.localName)) return true;
  if (el.hasAttribute('onclick') || (el as HTMLElement).onclick != null) return true;
  return getComputedStyle(el).cursor === 'pointer';
}

function keptRects(el: Element, vw: number, vh: number): Rect[] {
  const out: Rect[] = [];
  for (const r of Array.from(el.getClientRects())) {
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit))) continue;
    const x = Math.max(0, r.left), y = Math.max(0, r.top);
    const right = Math.min(vw, r.right), bottom = Math.min(vh, r.bottom);
    if (right > x && bottom > y) out.push({ x, y, width: right - x, height: bottom - y });
  }
  return out;
}

/** Steps 1–3. */
function collect(): Item[] {
  const vw = Math.max(document.documentElement.clientWidth || 0, window.innerWidth || 0);
  const vh = Math.max(document.documentElement.clientHeight || 0, window.innerHeight || 0);
  let items: Item[] = [];
  for (const el of Array.from(document.querySelectorAll('*'))) {
    if (el.hasAttribute(OVERLAY_ATTR) || !isCandidate(el)) continue;
    const rects = keptRects(el, vw, vh);
    const total = rects.reduce((s, r) => s + r.width * r.height, 0);
    if (total < MIN_AREA) continue;
    items.push({ el, rects, text: (el.textContent ?? '').replace(/\s+/g, ' ').trim() });
  }
  const kept = new Set(items.map((i) => i.el));
  items = items.filter((i) => {
    for (let p = i.el.parentElement; p; p = p.parentElement) if (kept.has(p) && CONTAINERS.has(p.localName)) return false;
    return true;
  });
  const left = items.map((i) => i.el);
  return items.filter((i) => !left.some((o) => o !== i.el && i.el.contains(o)));
}

/** A small seeded generator (mulberry32) standing in for Math.random. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Step 5: returns the label elements (for measuring). */
function draw(items: Item[]): HTMLElement[] {
  const random = rng(12345);
  const colour = () => `#${Math.floor(random() * 0xffffff).toString(16).padStart(6, '0')}`;
  const labels: HTMLElement[] = [];
  const frag = document.createDocumentFragment();
  items.forEach((item, index) => {
    for (const r of item.rects) {
      const c = colour();
      const box = document.createElement('div');
      box.setAttribute(OVERLAY_ATTR, '');
      box.style.cssText = `position:fixed;left:${r.x}px;top:${r.y}px;width:${r.width}px;height:${r.height}px;` +
        `outline:2px dashed ${c};box-sizing:border-box;pointer-events:none;z-index:2147483647`;
      const tag = document.createElement('span');
      tag.textContent = String(index);
      // just above the top-left corner; kept inside the viewport when the box touches its top
      tag.style.cssText = `position:absolute;left:0;top:${r.y >= 19 ? -19 : -r.y}px;background:${c};color:#fff;` +
        'padding:2px 4px;font:12px/15px Arial,sans-serif;border-radius:2px;white-space:nowrap';
      box.appendChild(tag);
      frag.appendChild(box);
      labels.push(tag);
    }
  });
  (document.body ?? document.documentElement).appendChild(frag);
  return labels;
}

export function clear(): void {
  for (const el of Array.from(document.querySelectorAll(`[${OVERLAY_ATTR}]`))) el.remove();
}

/** One pass: collect, number, draw. The timed part is collect + list + draw. */
export function label(): BaselineResult {
  clear();
  const t0 = performance.now();
  const items = collect();
  const marks: BaselineMark[] = [];
  items.forEach((item, index) => {
    if (item.text.length >= MAX_TEXT) return;
    const tag = TAG_SHOWN.has(item.el.localName) ? item.el.localName : '';
    const xs = item.rects.map((r) => r.x), ys = item.rects.map((r) => r.y);
    const x = Math.min(...xs), y = Math.min(...ys);
    const right = Math.max(...item.rects.map((r) => r.x + r.width)), bottom = Math.max(...item.rects.map((r) => r.y + r.height));
    marks.push({ label: index, tag, text: item.text, rect: { x, y, width: right - x, height: bottom - y } });
  });
  const tags = draw(items);
  const ms = performance.now() - t0;
  elementsOfLastPass = items.map((i) => i.el);
  const labelBoxes = tags.map((t) => {
    const r = t.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  return { marks, labelBoxes, drawn: items.length, ms };
}

/** The elements behind labels 0..n-1 of the last pass (for identity checks by handle). */
export function elements(): Element[] {
  return elementsOfLastPass.slice();
}
