/**
 * How a model family writes a bounding box (the endpoint setting "Bounding boxes", read by the
 * dialects that answer boxes in their model's own convention: midscene). Each convention is a
 * coordinate space of the one mapper (coords.ts):
 * - 'norm-xy': [xmin, ymin, xmax, ymax] in thousandths of the image (GLM, Qwen3-VL, UI-TARS 1.0, Doubao);
 * - 'norm-yx': [ymin, xmin, ymax, xmax] in thousandths (Gemini);
 * - 'pixels': [xmin, ymin, xmax, ymax] in pixels of the image the model was sent (Qwen2.5-VL). Such
 *   a model sees images whose sides are multiples of 28, so the screenshot is padded on the right
 *   and bottom (as Midscene does): a pixel of the padded image is the same pixel of the screenshot.
 */
import type { CoordinateSpace } from './coords';

export const BBOX_CONVENTIONS = ['norm-xy', 'norm-yx', 'pixels'] as const;
export type BboxConvention = (typeof BBOX_CONVENTIONS)[number];
export const DEFAULT_BBOX: BboxConvention = 'norm-xy';

export function isBboxConvention(x: unknown): x is BboxConvention {
  return typeof x === 'string' && (BBOX_CONVENTIONS as readonly string[]).includes(x);
}

/** The convention as a coordinate space of the shared mapper. */
export function spaceOfBbox(c: BboxConvention | undefined): CoordinateSpace {
  if (c === 'pixels') return { normalizedBy: null, order: 'xy' };
  return { normalizedBy: 1000, order: c === 'norm-yx' ? 'yx' : 'xy' };
}

/** Qwen2.5-VL's patch grid: image sides are multiples of this. */
export const PIXEL_BLOCK = 28;

/** An image's size padded up to multiples of `block` (unchanged when already so). */
export function paddedSize(width: number, height: number, block = PIXEL_BLOCK): { width: number; height: number } {
  const up = (v: number) => Math.max(block, Math.ceil(v / block) * block);
  return { width: up(width), height: up(height) };
}
