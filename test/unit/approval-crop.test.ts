/**
 * The approval card's "Around the target" view (sidepanel/crop.ts): the whole target with its
 * label and some context is in the frame, at the page's size when it fits and smaller when it
 * does not; a target at the picture's edge is not cut off by an empty band; a point alone is framed.
 */
import { describe, expect, it } from 'vitest';
import { CONTEXT, cropAround, frameOf, LABEL_ROOM, MIN_SCALE, type Rect } from '../../sidepanel/crop';

const PAGE = { width: 1280, height: 800 };
const BOX = { width: 330, height: 220 };

/** Where a page rect lands in the crop box (panel px). */
function shown(r: Rect, c: ReturnType<typeof cropAround>) {
  return { x: c.left + r.x * c.scale, y: c.top + r.y * c.scale, right: c.left + (r.x + r.width) * c.scale, bottom: c.top + (r.y + r.height) * c.scale };
}
function inBox(r: Rect, c: ReturnType<typeof cropAround>, box = BOX) {
  const s = shown(r, c);
  return s.x >= -0.01 && s.y >= -0.01 && s.right <= box.width + 0.01 && s.bottom <= c.height + 0.01;
}

describe('the crop around the target', () => {
  it('a small button: at the page\'s own size, with its label and some context in view', () => {
    const like = { x: 600, y: 300, width: 60, height: 30 };
    const c = cropAround(frameOf(like, null)!, PAGE, BOX);
    expect(c.scale).toBe(1);
    expect(inBox({ x: like.x - LABEL_ROOM, y: like.y - LABEL_ROOM, width: like.width + LABEL_ROOM + CONTEXT, height: like.height + LABEL_ROOM + CONTEXT }, c)).toBe(true);
  });

  it('a wide input: the whole of it, scaled down, not its empty middle', () => {
    const input = { x: 200, y: 120, width: 880, height: 40 };
    const c = cropAround(frameOf(input, null)!, PAGE, BOX);
    expect(c.scale).toBeLessThan(1);
    expect(c.scale).toBeGreaterThanOrEqual(MIN_SCALE);
    expect(inBox(input, c)).toBe(true);
    // its label's corner too
    expect(inBox({ x: input.x - LABEL_ROOM, y: input.y - LABEL_ROOM, width: 1, height: 1 }, c)).toBe(true);
  });

  it('a target at the picture\'s edge: the frame stops at the edge (no empty band) and the target is whole', () => {
    const corner = { x: 1230, y: 770, width: 50, height: 30 };
    const c = cropAround(frameOf(corner, null)!, PAGE, BOX);
    expect(inBox(corner, c)).toBe(true);
    expect(c.left).toBeCloseTo(BOX.width - PAGE.width * c.scale);
    expect(c.top).toBeCloseTo(c.height - PAGE.height * c.scale);
    const top = cropAround(frameOf({ x: 0, y: 0, width: 40, height: 20 }, null)!, PAGE, BOX);
    expect([top.left, top.top]).toEqual([0, 0]);
  });

  it('a target too big even at the smallest readable scale keeps its start (label and first words) in view', () => {
    const list = { x: 100, y: 50, width: 1100, height: 700 };
    const c = cropAround(frameOf(list, null)!, PAGE, BOX);
    expect(c.scale).toBe(MIN_SCALE);
    expect(inBox({ x: list.x - LABEL_ROOM, y: list.y - LABEL_ROOM, width: 10, height: 10 }, c)).toBe(true);
  });

  it('a phone\'s tall picture: the target is framed, the crop no taller than the card allows', () => {
    const phone = { width: 412, height: 915 };
    const tap = { x: 20, y: 600, width: 372, height: 48 };
    const c = cropAround(frameOf(tap, null)!, phone, BOX);
    expect(c.height).toBeLessThanOrEqual(BOX.height);
    expect(inBox(tap, c)).toBe(true);
  });

  it('a point with nothing recorded under it is framed around the point; nothing at all: no crop', () => {
    const f = frameOf(null, { x: 640, y: 400 })!;
    expect(f.x + f.width / 2).toBe(640);
    expect(f.y + f.height / 2).toBe(400);
    expect(inBox({ x: 639, y: 399, width: 2, height: 2 }, cropAround(f, PAGE, BOX))).toBe(true);
    expect(frameOf(null, null)).toBeNull();
    expect(frameOf({ x: 1, y: 1, width: 0, height: 0 }, null)).toBeNull();
  });
});
