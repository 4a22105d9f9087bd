/**
 * The one mapper from a model's coordinates to CSS pixels of the page, and back.
 *
 * A screenshot of W × H image pixels is taken of a viewport of w × h CSS pixels (we capture at
 * CSS size, so W = w at any device pixel ratio and page zoom; a resize before sending changes W).
 * A dialect's coordinate space is data:
 * - `normalizedBy: 1000`: thousandths of the image's width and height (GLM-4.5V, CogAgent):
 *   image x = v / 1000 · W;
 * - `normalizedBy: null`: image pixels (absolute-pixel models);
 * - `order: 'yx'`: the model writes y before x (Gemini-style) and the pair is swapped first;
 * - `resized` (with `normalizedBy: null`): pixels of the image as the model's own processor
 *   resized it before the model saw it (Qwen2.5-VL's `smart_resize`, used by UI-TARS-1.5): image
 *   x = v · W / W', where W' × H' is smartResize(W, H).
 * Then CSS x = image x · w / W. Values outside the model's range (0–999 for thousandths, the
 * image for pixels) are clamped in the model's units, so the point stays inside the viewport and
 * can be written back exactly; the caller is told (`clamped`), so the model can be told too.
 */
import type { Point } from './action';

export interface CoordinateSpace {
  /** 1000: thousandths of the image size; null: image pixels */
  normalizedBy: number | null;
  order: 'xy' | 'yx';
  /** pixels of the image as the model's processor resized it (smartResize), not of the image sent */
  resized?: SmartResize;
}

/** Qwen2.5-VL's resize of an image before the model sees it: sides multiples of `factor`, area within the limits. */
export interface SmartResize { factor: number; minPixels: number; maxPixels: number }

/**
 * The size `smart_resize` gives an image (Qwen2.5-VL's processor; UI-TARS-1.5 points in pixels of
 * it): each side rounded to a multiple of `factor`, then scaled down (or up) as a whole, keeping
 * multiples of `factor`, when the area is over `maxPixels` (under `minPixels`).
 */
export function smartResize(width: number, height: number, r: SmartResize): { width: number; height: number } {
  const round = (v: number) => Math.max(r.factor, Math.round(v / r.factor) * r.factor);
  let w = round(width);
  let h = round(height);
  if (w * h > r.maxPixels) {
    const beta = Math.sqrt((width * height) / r.maxPixels);
    w = Math.max(r.factor, Math.floor(width / beta / r.factor) * r.factor);
    h = Math.max(r.factor, Math.floor(height / beta / r.factor) * r.factor);
  } else if (w * h < r.minPixels) {
    const beta = Math.sqrt(r.minPixels / (width * height));
    w = Math.ceil((width * beta) / r.factor) * r.factor;
    h = Math.ceil((height * beta) / r.factor) * r.factor;
  }
  return { width: w, height: h };
}

/** The size of the image the model's pixels are of (the image sent, or as its processor resized it). */
function modelImage(space: CoordinateSpace, shot: ShotGeometry): { width: number; height: number } {
  if (!space.resized || shot.imageWidth <= 0 || shot.imageHeight <= 0) return { width: shot.imageWidth, height: shot.imageHeight };
  return smartResize(shot.imageWidth, shot.imageHeight, space.resized);
}

export const THOUSANDTHS: CoordinateSpace = { normalizedBy: 1000, order: 'xy' };

/** What the model was shown: the image size, and the viewport (CSS px) it is a picture of. */
export interface ShotGeometry {
  imageWidth: number;
  imageHeight: number;
  viewport: { width: number; height: number };
}

export interface Mapped extends Point { clamped: boolean }

/** A model value inside [0, max]; NaN and negatives go to 0. */
function clamp(v: number, max: number): number {
  if (!Number.isFinite(v) || v < 0) return 0;
  return Math.min(v, Math.max(0, max));
}

/** Image pixels per model unit on each axis. */
function unit(space: CoordinateSpace, shot: ShotGeometry): { ux: number; uy: number } {
  if (space.normalizedBy === null) {
    const m = modelImage(space, shot);
    return { ux: m.width > 0 ? shot.imageWidth / m.width : 1, uy: m.height > 0 ? shot.imageHeight / m.height : 1 };
  }
  return { ux: shot.imageWidth / space.normalizedBy, uy: shot.imageHeight / space.normalizedBy };
}

/** The largest value the model may write on each axis (999 for thousandths; the last image pixel). */
function limits(space: CoordinateSpace, shot: ShotGeometry): { mx: number; my: number } {
  if (space.normalizedBy !== null) return { mx: space.normalizedBy - 1, my: space.normalizedBy - 1 };
  const m = modelImage(space, shot);
  return { mx: Math.max(0, m.width - 1), my: Math.max(0, m.height - 1) };
}

/**
 * A model's pair (as written) to CSS px of the viewport. Values outside the model's range are
 * clamped in the model's own units first (so a clamped point is one the model could have written,
 * and writing it back gives the same point).
 */
export function toCss(pair: [number, number], space: CoordinateSpace, shot: ShotGeometry): Mapped {
  const [rx, ry] = space.order === 'yx' ? [pair[1], pair[0]] : pair;
  const { mx, my } = limits(space, shot);
  const vx = clamp(rx, mx);
  const vy = clamp(ry, my);
  const { ux, uy } = unit(space, shot);
  const sx = shot.imageWidth > 0 ? shot.viewport.width / shot.imageWidth : 1;
  const sy = shot.imageHeight > 0 ? shot.viewport.height / shot.imageHeight : 1;
  return { x: vx * ux * sx, y: vy * uy * sy, clamped: vx !== rx || vy !== ry };
}

/** CSS px back to the model's pair (integers, in the model's order): for formatting an action. */
export function toModel(p: Point, space: CoordinateSpace, shot: ShotGeometry): [number, number] {
  const { ux, uy } = unit(space, shot);
  const sx = shot.viewport.width > 0 ? shot.imageWidth / shot.viewport.width : 1;
  const sy = shot.viewport.height > 0 ? shot.imageHeight / shot.viewport.height : 1;
  const { mx: limitX, my: limitY } = limits(space, shot);
  const fit = (v: number, limit: number) => Math.min(Math.max(Math.round(v), 0), limit);
  const mx = fit((p.x * sx) / ux, limitX);
  const my = fit((p.y * sy) / uy, limitY);
  return space.order === 'yx' ? [my, mx] : [mx, my];
}

/** The centre of a box [x1, y1, x2, y2] as a pair (models often answer a box where a point was asked). */
export function boxCentre(box: number[]): [number, number] {
  if (box.length >= 4) return [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
  return [box[0], box[1]];
}

/** The observation note when a point had to be moved inside the screen. */
export const CLAMPED_NOTE = 'A coordinate was outside the screenshot; it was moved to the nearest edge.';
