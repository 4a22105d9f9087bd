import { describe, expect, it } from 'vitest';
import { componentDrops, iou, wrappedControl } from '../../src/core/component-marks';

const r = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
const tab = r(260, 100, 90, 53);

describe('one mark per web component (core/component-marks.ts)', () => {
  const part = (rect: ReturnType<typeof r>, takesText = false, showsHostContent = false) => ({ rect, takesText, showsHostContent });

  it('a host and the one part filling it: the host keeps the mark (a tab and its inner div)', () => {
    expect(componentDrops(tab, [part(r(260, 100, 90, 53))])).toEqual([0]);
  });

  it('a host and a smaller inner button showing the host\'s content: one control, the host (a Material button)', () => {
    expect(componentDrops(r(12, 76, 101, 40), [part(r(36, 86, 53, 20), false, true)])).toEqual([0]);
  });

  it('a small inner button with content of its own is a control of its own (a card\'s "Add to cart")', () => {
    expect(componentDrops(r(0, 0, 300, 200), [part(r(20, 150, 120, 32))])).toEqual([]);
  });

  it('an inner text field keeps the mark (typing goes into it); the host is dropped', () => {
    expect(componentDrops(r(0, 0, 300, 60), [part(r(10, 20, 280, 30), true)])).toBe('host');
  });

  it('a part mostly outside the host is another control', () => {
    expect(componentDrops(r(0, 0, 100, 40), [part(r(90, 0, 100, 40), false, true)])).toEqual([]);
  });

  it('several parts: the one that is the host again goes, a small close button stays', () => {
    expect(componentDrops(tab, [part(r(260, 100, 90, 53)), part(r(330, 118, 16, 16))])).toEqual([0]);
    expect(componentDrops(tab, [part(r(262, 104, 60, 40), false, true), part(r(330, 118, 16, 16))])).toEqual([0]);
  });

  it('a wrapper around a control covering enough of it is the same control', () => {
    expect(wrappedControl(r(260, 291, 372, 40), r(277, 299, 310, 24))).toBe(true);
    expect(wrappedControl(r(0, 0, 400, 300), r(10, 10, 40, 20))).toBe(false);
  });

  it('iou', () => {
    expect(iou(r(0, 0, 10, 10), r(0, 0, 10, 10))).toBe(1);
    expect(iou(r(0, 0, 10, 10), r(20, 20, 10, 10))).toBe(0);
    expect(iou(r(0, 0, 10, 10), r(5, 0, 10, 10))).toBeCloseTo(50 / 150);
  });
});
