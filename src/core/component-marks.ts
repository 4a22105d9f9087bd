/**
 * One mark per web component (denest rule e, docs/labeling.md), the geometry part: given a kept
 * shadow host and the kept candidates inside its shadow tree, which of them to drop.
 * A part is the host again when it is the same target (IoU >= 0.5), when it shows the host's
 * own content (it holds the shadow root's default <slot>: a Material button's inner <button>,
 * smaller than the host's pill), or when it takes text and covers >= 40 % of the host (a text
 * field's box around its input). A part that is neither (a card's "Add to cart" button, a tab's
 * close button) is a control of its own and keeps its mark.
 * 1. exactly one part that is the host again and lies (>= 80 % of its area) inside it: one
 *    control, one mark — the part when it takes text (typing needs the field itself), else the host;
 * 2. several parts: each one that is the host again is dropped unless it takes text.
 * And wrappedControl: a generic / pointer wrapper whose only kept descendant in its shadow root
 * is a semantic control covering >= 40 % of it is the same control (a select's box around its
 * combobox input).
 */
import type { Rect } from './marks';

const INSIDE = 0.8;
const SAME_TARGET = 0.5;
const WRAPPED = 0.4;

export interface ComponentPart {
  rect: Rect;
  takesText: boolean;
  /** holds the shadow root's default <slot> (shows the host's light-DOM content) */
  showsHostContent: boolean;
}

export const area = (r: Rect) => Math.max(0, r.width) * Math.max(0, r.height);

export function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export function iou(a: Rect, b: Rect): number {
  const i = overlap(a, b);
  return i ? i / (area(a) + area(b) - i) : 0;
}

/** What to drop: 'host', or the indexes of the parts to drop (possibly none). */
const hostAgain = (p: ComponentPart, host: Rect) =>
  p.showsHostContent || iou(p.rect, host) >= SAME_TARGET || (p.takesText && wrappedControl(host, p.rect));

export function componentDrops(host: Rect, parts: ComponentPart[]): 'host' | number[] {
  if (parts.length === 1) {
    const [part] = parts;
    if (!hostAgain(part, host) || overlap(part.rect, host) < INSIDE * area(part.rect)) return [];
    return part.takesText ? 'host' : [0];
  }
  return parts.flatMap((p, i) => (!p.takesText && hostAgain(p, host) ? [i] : []));
}

export function wrappedControl(wrapper: Rect, control: Rect): boolean {
  return area(control) >= WRAPPED * area(wrapper);
}
