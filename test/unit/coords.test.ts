/**
 * The one coordinate mapper (src/core/action/coords.ts): thousandths and pixel spaces, x-y and
 * y-x orders, screenshots at CSS size (any DPR), resized screenshots and zoomed pages, clamping,
 * and the inverse used to write actions back in a model's grammar.
 */
import { describe, expect, it } from 'vitest';
import { boxCentre, THOUSANDTHS, toCss, toModel, type CoordinateSpace, type ShotGeometry } from '../../src/core/action/coords';

const shot = (iw: number, ih: number, vw: number, vh: number): ShotGeometry => ({ imageWidth: iw, imageHeight: ih, viewport: { width: vw, height: vh } });

describe('model coordinates to CSS pixels', () => {
  it('thousandths of a CSS-size screenshot (DPR 1 or 2: we capture at CSS size)', () => {
    expect(toCss([500, 500], THOUSANDTHS, shot(1280, 800, 1280, 800))).toEqual({ x: 640, y: 400, clamped: false });
    expect(toCss([0, 0], THOUSANDTHS, shot(1280, 800, 1280, 800))).toEqual({ x: 0, y: 0, clamped: false });
    expect(toCss([999, 999], THOUSANDTHS, shot(1280, 800, 1280, 800))).toEqual({ x: 1278.72, y: 799.2, clamped: false });
  });

  it('a page zoomed to 125 % has a 1024 × 640 CSS viewport: the same fraction of it', () => {
    const p = toCss([250, 750], THOUSANDTHS, shot(1024, 640, 1024, 640));
    expect(p).toEqual({ x: 256, y: 480, clamped: false });
  });

  it('a screenshot resized before sending maps back to the viewport', () => {
    // 1280 × 800 page sent as 640 × 400 image; absolute image pixels (Qwen-style) and thousandths agree
    const px: CoordinateSpace = { normalizedBy: null, order: 'xy' };
    expect(toCss([320, 100], px, shot(640, 400, 1280, 800))).toEqual({ x: 640, y: 200, clamped: false });
    expect(toCss([500, 250], THOUSANDTHS, shot(640, 400, 1280, 800))).toEqual({ x: 640, y: 200, clamped: false });
  });

  it('y-x models are swapped first', () => {
    expect(toCss([250, 500], { normalizedBy: 1000, order: 'yx' }, shot(1000, 1000, 1000, 1000))).toEqual({ x: 500, y: 250, clamped: false });
  });

  it('clamps values outside the screenshot and says so', () => {
    expect(toCss([1200, -5], THOUSANDTHS, shot(1280, 800, 1280, 800))).toEqual({ x: 1278.72, y: 0, clamped: true });
    expect(toCss([Number.NaN, 10], THOUSANDTHS, shot(1280, 800, 1280, 800)).clamped).toBe(true);
  });

  it('writes a CSS point back as the model\'s integers, inverting toCss exactly for integer inputs', () => {
    const g = shot(412, 915, 412, 915);
    for (const [x, y] of [[0, 0], [1, 998], [333, 667], [999, 999], [500, 123]] as const) {
      const p = toCss([x, y], THOUSANDTHS, g);
      expect(toModel(p, THOUSANDTHS, g)).toEqual([x, y]);
    }
    expect(toModel({ x: 5000, y: -3 }, THOUSANDTHS, g)).toEqual([999, 0]);
    expect(toModel({ x: 640, y: 200 }, { normalizedBy: 1000, order: 'yx' }, shot(1280, 800, 1280, 800))).toEqual([250, 500]);
  });

  it('a box stands for its centre', () => {
    expect(boxCentre([100, 200, 300, 400])).toEqual([200, 300]);
    expect(boxCentre([7, 9])).toEqual([7, 9]);
  });
});
