import { describe, expect, it } from 'vitest';
import { LABEL_H, PALETTE, labelColour, labelSize, layoutLabels, placeLabels, type Box } from '../../src/core/label-layout';

const overlap = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (b: Box, vw: number, vh: number) => b.x >= 0 && b.y >= 0 && b.x + b.w <= vw && b.y + b.h <= vh;

describe('label placement (corner)', () => {
  it('sizes a tag by its digits', () => {
    expect(labelSize(7)).toEqual({ w: 14, h: LABEL_H });
    expect(labelSize(42)).toEqual({ w: 22, h: LABEL_H });
    expect(labelSize(123)).toEqual({ w: 30, h: LABEL_H });
  });

  it('puts a lone label just above the box\'s top-left corner', () => {
    const [b] = placeLabels([{ label: 3, rect: { x: 100, y: 200, width: 80, height: 30 } }], 1280, 800);
    expect(b).toEqual({ x: 100, y: 200 - LABEL_H, w: 14, h: LABEL_H });
  });

  it('clamps into the viewport: a box at the top edge gets its label at y 0', () => {
    const [b] = placeLabels([{ label: 0, rect: { x: -20, y: 0, width: 80, height: 30 } }], 1280, 800);
    expect(b).toEqual({ x: 0, y: 0, w: 14, h: LABEL_H });
  });

  it('moves on to the next corner when the first is taken, in the documented order', () => {
    const rect = { x: 100, y: 100, width: 100, height: 40 };
    const spots = placeLabels([0, 1, 2, 3, 4, 5].map((label) => ({ label, rect })), 1280, 800);
    const w = 14, h = LABEL_H;
    expect(spots).toEqual([
      { x: 100, y: 100 - h, w, h }, // above top-left
      { x: 100, y: 100, w, h }, // inside top-left
      { x: 200 - w, y: 100 - h, w, h }, // above top-right
      { x: 200 - w, y: 100, w, h }, // inside top-right
      { x: 100, y: 140, w, h }, // below bottom-left
      { x: 100, y: 140 - h, w, h }, // inside bottom-left
    ]);
  });

  it('dense marks: no two labels overlap while there is room, all inside the viewport', () => {
    const items = Array.from({ length: 120 }, (_, i) => ({ label: i, rect: { x: 10 + (i % 12) * 30, y: 10 + Math.floor(i / 12) * 20, width: 28, height: 18 } }));
    const spots = placeLabels(items, 800, 600);
    expect(spots.filter((s) => !inside(s, 800, 600))).toEqual([]);
    const pairs: string[] = [];
    for (let i = 0; i < spots.length; i++) for (let j = i + 1; j < spots.length; j++) if (overlap(spots[i], spots[j])) pairs.push(`${i} and ${j}`);
    expect(pairs).toEqual([]);
  });

  it('a viewport full of labels: the first spot is used even though it overlaps', () => {
    const items = Array.from({ length: 30 }, (_, label) => ({ label, rect: { x: 0, y: 20, width: 40, height: 10 } }));
    const spots = placeLabels(items, 40, 40);
    expect(spots.at(-1)).toEqual({ x: 0, y: 4, w: 22, h: LABEL_H });
  });
});

describe('layoutLabels (what both painters draw)', () => {
  const items = [{ label: 0, rect: { x: 10, y: 40, width: 60, height: 20 } }, { label: 11, rect: { x: 200, y: 40, width: 60, height: 20 } }];

  it('corner: the label\'s number, its colour by number, its box the element\'s rect', () => {
    const d = layoutLabels(items, 1280, 800);
    expect(d.map((m) => m.text)).toEqual(['0', '11']);
    expect(d.map((m) => m.colour)).toEqual([PALETTE[0], PALETTE[1]]);
    expect(d[1].box).toEqual(items[1].rect);
    expect(d[0].tag).toEqual(placeLabels(items, 1280, 800)[0]);
  });

  it('centre-from-1: N + 1, centred on the element', () => {
    const d = layoutLabels(items, 1280, 800, 'centre-from-1');
    expect(d.map((m) => m.text)).toEqual(['1', '12']);
    expect(d[0].tag.x + d[0].tag.w / 2).toBe(40);
    expect(d[0].tag.y + d[0].tag.h / 2).toBe(50);
  });

  it('ten colours, by label number', () => {
    expect(labelColour(0)).toBe('#d0021b');
    expect(labelColour(10)).toBe(labelColour(0));
    expect(new Set(Array.from({ length: 10 }, (_, i) => labelColour(i))).size).toBe(10);
  });
});
