import { describe, expect, it } from 'vitest';
import { ACT_INPUT_MS, framesToAsk, inputDeadline, Late, TYPE_CHAR_MS, within } from '../../src/core/deadline';

describe('deadlines for pages that do not answer', () => {
  it('within: the answer when it comes in time, a Late error when it does not', async () => {
    await expect(within(Promise.resolve(3), 50)).resolves.toBe(3);
    const never = new Promise<number>(() => undefined);
    const t = Date.now();
    await expect(within(never, 30)).rejects.toBeInstanceOf(Late);
    expect(Date.now() - t).toBeLessThan(1000);
  });

  it('framesToAsk: the top frame and the shallowest frames first, at most max; the rest are left', () => {
    // 0 ← 1 ← 3 ← 5, 0 ← 2 ← 4
    const frames = [5, 4, 3, 2, 1, 0].map((frameId) => ({ frameId, parentFrameId: { 0: -1, 1: 0, 2: 0, 3: 1, 4: 2, 5: 3 }[frameId]! }));
    const { ask, left } = framesToAsk(frames, 4);
    expect(ask.map((f) => f.frameId)).toEqual([0, 1, 2, 3]);
    expect(left.map((f) => f.frameId)).toEqual([4, 5]);
    expect(framesToAsk(frames).left).toEqual([]);
  });

  it('inputDeadline: the input of an action has ACT_INPUT_MS, a text typed TYPE_CHAR_MS more a character', () => {
    expect(inputDeadline({ type: 'click' })).toBe(ACT_INPUT_MS);
    expect(inputDeadline({ type: 'type', text: 'x'.repeat(1000) })).toBe(ACT_INPUT_MS + 1000 * TYPE_CHAR_MS);
    expect(inputDeadline({ type: 'scroll', text: undefined })).toBe(ACT_INPUT_MS);
  });
});
