/**
 * Where the approval card's "Around the target" view looks (components/approval-card.tsx Shot):
 * the whole target with its label (drawn at its top-left corner) and some of the page around it,
 * scaled down when it does not fit the card (a wide input, a tall list), never enlarged past the
 * page's own size, and never past the picture's edges. Pure: numbers in, numbers out.
 */
export interface Rect { x: number; y: number; width: number; height: number }

/** Room kept for the target's label above and left of it, and for the page around it (CSS px). */
export const LABEL_ROOM = 26;
export const CONTEXT = 24;
/** A point alone (a coordinate dialect with nothing recorded under it) is framed this size. */
const POINT_FRAME = { width: 160, height: 100 };
/** Below this the picture is unreadable: the frame is centred on the target's start instead. */
export const MIN_SCALE = 0.3;

export interface Crop {
  /** panel px per CSS px of the page */
  scale: number;
  /** the picture's offset inside the crop box (panel px, ≤ 0 when the picture is larger) */
  left: number;
  top: number;
  /** the crop box's height (panel px) */
  height: number;
}

/** What the crop frames: the target with its label and context, or the area around a point. */
export function frameOf(target: Rect | null, point: { x: number; y: number } | null): Rect | null {
  if (target && target.width > 0 && target.height > 0) {
    return {
      x: target.x - LABEL_ROOM - CONTEXT, y: target.y - LABEL_ROOM - CONTEXT,
      width: target.width + LABEL_ROOM + 2 * CONTEXT, height: target.height + LABEL_ROOM + 2 * CONTEXT,
    };
  }
  if (point) return { x: point.x - POINT_FRAME.width / 2, y: point.y - POINT_FRAME.height / 2, ...POINT_FRAME };
  return null;
}

const clamp = (v: number, lo: number, hi: number) => (lo > hi ? (lo + hi) / 2 : Math.min(hi, Math.max(lo, v)));

/**
 * The crop of a page picture `page` (CSS px) in a box `box` (panel px) around `frame` (CSS px).
 * A frame too big for MIN_SCALE keeps its start (top-left, where the label and the text begin) in view.
 */
export function cropAround(frame: Rect, page: { width: number; height: number }, box: { width: number; height: number }): Crop {
  const fit = Math.min(1, box.width / frame.width, box.height / frame.height);
  const scale = Math.max(MIN_SCALE, fit);
  const height = Math.min(box.height, page.height * scale);
  const shown = fit >= MIN_SCALE
    ? { x: frame.x + frame.width / 2, y: frame.y + frame.height / 2 }
    : { x: frame.x + Math.min(frame.width, box.width / scale) / 2, y: frame.y + Math.min(frame.height, height / scale) / 2 };
  return {
    scale,
    left: clamp(box.width / 2 - shown.x * scale, box.width - page.width * scale, 0),
    top: clamp(height / 2 - shown.y * scale, height - page.height * scale, 0),
    height,
  };
}
