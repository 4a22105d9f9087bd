/**
 * Where the set-of-marks labels go and how they look (docs/labeling.md, "Drawing the labels"), for
 * both painters: the in-page overlay a person sees (content-scripts/labeler/draw.ts) and the labels
 * drawn onto the model's screenshot in the service worker (src/background/draw-labels.ts).
 * Pure arithmetic in CSS px of the viewport: no layout is read, nothing is drawn.
 *
 * 'corner': a label is sized from its digit count; try above the box's top-left corner, inside it,
 * above / inside the top-right, below / inside the bottom-left (each clamped into the viewport);
 * the first spot that overlaps no earlier label wins; otherwise search rings of growing size
 * around the box, then the whole viewport. Placed labels live in a grid of cells so each check
 * looks at a few neighbours only.
 * 'centre-from-1' (AppAgent's tags): N + 1 centred on the element, overlapping or not.
 */
import type { LabelStyle, Rect } from './marks';

/** One strong colour per label number (label % 10): boxes and tags. */
export const PALETTE = ['#d0021b', '#0046c0', '#006b2d', '#a84300', '#7b1fa2', '#00656b', '#b0124f', '#5d4037', '#303f9f', '#1b5e20'];
/** A tag's height, its width per digit and its extra width (CSS px). */
export const LABEL_H = 16;
export const DIGIT_W = 8;
export const LABEL_PAD = 6;
/** The box's border width (CSS px): a solid line in the label's colour inside the element's rect. */
export const BORDER_W = 2;
const CELL = 48;

export interface Box { x: number; y: number; w: number; h: number }

export function labelSize(label: number): { w: number; h: number } {
  return { w: String(label).length * DIGIT_W + LABEL_PAD, h: LABEL_H };
}

export function labelColour(label: number): string {
  return PALETTE[label % PALETTE.length];
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

/** 'corner' label positions for each rect (same order). */
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

/** One mark as drawn: its box (the element's rect), its colour, its tag and the tag's text. */
export interface DrawnMark { box: Rect; colour: string; tag: Box; text: string }

/**
 * Everything both painters draw, in mark order (paint every box first, then every tag, so no box
 * crosses a tag): 'corner' tags read the label, 'centre-from-1' tags read label + 1.
 */
export function layoutLabels(items: Array<{ label: number; rect: Rect }>, vw: number, vh: number, style: LabelStyle = 'corner'): DrawnMark[] {
  const fromOne = style === 'centre-from-1';
  const spots = fromOne ? centreLabels(items, vw, vh) : placeLabels(items, vw, vh);
  return items.map(({ label, rect }, i) => ({ box: rect, colour: labelColour(label), tag: spots[i], text: String(fromOne ? label + 1 : label) }));
}
