/** src/core/colour.ts: computed colours read, painted over each other, and judged readable or not on their background. */
import { describe, expect, it } from 'vitest';
import { contrastRatio, over, parseColour, unreadable, WHITE } from '../../src/core/colour';

const c = (s: string) => {
  const r = parseColour(s);
  if (!r) throw new Error(`not a colour: ${s}`);
  return r;
};

describe('parseColour', () => {
  it('reads the forms computed styles give', () => {
    expect(parseColour('rgb(1, 2, 3)')).toEqual({ r: 1, g: 2, b: 3, a: 1 });
    expect(parseColour('rgba(10, 20, 30, 0.5)')).toEqual({ r: 10, g: 20, b: 30, a: 0.5 });
    expect(parseColour('rgb(10 20 30 / 50%)')).toEqual({ r: 10, g: 20, b: 30, a: 0.5 });
    expect(parseColour('transparent')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
  });
  it('gives null for forms it does not read (the caller converts them)', () => {
    expect(parseColour('oklch(0.5 0.1 200)')).toBeNull();
    expect(parseColour('color(srgb 1 1 1)')).toBeNull();
    expect(parseColour('#fff')).toBeNull();
  });
});

describe('over', () => {
  it('paints a translucent colour over an opaque one', () => {
    expect(over(c('rgba(0, 0, 0, 0.5)'), WHITE)).toEqual({ r: 127.5, g: 127.5, b: 127.5, a: 1 });
    expect(over(c('rgb(255, 0, 0)'), WHITE)).toEqual({ r: 255, g: 0, b: 0, a: 1 });
    expect(over(c('transparent'), c('rgb(9, 9, 9)'))).toEqual({ r: 9, g: 9, b: 9, a: 1 });
  });
});

describe('contrastRatio', () => {
  it('is 21 for black on white and 1 for a colour on itself', () => {
    expect(contrastRatio(c('rgb(0, 0, 0)'), WHITE)).toBeCloseTo(21, 5);
    expect(contrastRatio(c('rgb(90, 120, 30)'), c('rgb(90, 120, 30)'))).toBe(1);
  });
});

describe('unreadable', () => {
  it('holds for text in (nearly) its background colour', () => {
    expect(unreadable(WHITE, WHITE)).toBe(true);
    expect(unreadable(c('rgb(254, 254, 254)'), WHITE)).toBe(true);
    expect(unreadable(c('rgb(8, 8, 8)'), c('rgb(0, 0, 0)'))).toBe(true);
    expect(unreadable(c('rgba(0, 0, 0, 0.02)'), WHITE)).toBe(true);
    expect(unreadable(c('rgb(0, 0, 0)'), WHITE, 0.02)).toBe(true);
    expect(unreadable(c('rgb(53, 53, 106)'), c('rgb(51, 51, 102)'))).toBe(true);
    // white on Chromium's default button face (ButtonFace, 1.15:1), #eee on white (1.16:1)
    expect(unreadable(WHITE, c('rgb(239, 239, 239)'))).toBe(true);
    expect(unreadable(c('rgb(238, 238, 238)'), WHITE)).toBe(true);
    expect(unreadable(c('rgb(40, 40, 40)'), c('rgb(20, 20, 20)'))).toBe(true);
  });
  it('does not hold for faint or coloured text a person reads', () => {
    expect(unreadable(c('rgb(204, 204, 204)'), WHITE)).toBe(false);
    expect(unreadable(c('rgb(118, 118, 118)'), c('rgb(239, 239, 239)'))).toBe(false);
    expect(unreadable(WHITE, c('rgb(0, 120, 212)'))).toBe(false);
    expect(unreadable(c('rgb(70, 70, 70)'), c('rgb(20, 20, 20)'))).toBe(false);
    expect(unreadable(c('rgb(0, 0, 0)'), WHITE)).toBe(false);
    expect(unreadable(c('rgba(0, 0, 0, 0.2)'), WHITE)).toBe(false);
    expect(unreadable(WHITE, c('rgb(0, 170, 0)'))).toBe(false);
    // the same luminance, different hues: red on a green as bright
    const red = c('rgb(255, 0, 0)');
    const green = c('rgb(0, 149, 0)');
    expect(contrastRatio(red, green)).toBeLessThan(1.1);
    expect(unreadable(red, green)).toBe(false);
  });
});
