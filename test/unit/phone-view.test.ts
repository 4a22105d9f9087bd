/** An emulated phone drawn in the person's window (src/core/phone-view.ts): whole, never enlarged. */
import { describe, expect, it } from 'vitest';
import { phoneScale } from '../../src/core/phone-view';

const PHONE = { width: 412, height: 915 };

describe('the phone in the window', () => {
  it('a window shorter than the phone: the phone shrinks to its height, so none of it is cut off', () => {
    expect(phoneScale({ width: 1280, height: 713 }, PHONE)).toBeCloseTo(713 / 915);
    expect(915 * phoneScale({ width: 1280, height: 713 }, PHONE)).toBeLessThanOrEqual(713);
  });
  it('a window taller than the phone: its own size, not enlarged', () => {
    expect(phoneScale({ width: 1920, height: 1080 }, PHONE)).toBe(1);
  });
  it('a narrow window: it fits the width too; an unknown size leaves it as it is', () => {
    expect(phoneScale({ width: 300, height: 2000 }, PHONE)).toBeCloseTo(300 / 412);
    expect(phoneScale({ width: 0, height: 0 }, PHONE)).toBe(1);
  });
});
