import { describe, expect, it } from 'vitest';
import { FONTS_CAP_MS, NETWORK_CAP_MS, NETWORK_QUIET_MS, partCaps, pendingTags, quietAt, READY_CAP_MS } from '../../src/core/settle';

describe('settling before an observation (core/settle.ts)', () => {
  it('caps every part within the whole cap', () => {
    expect(partCaps(READY_CAP_MS)).toEqual({ defined: READY_CAP_MS, fonts: FONTS_CAP_MS, network: NETWORK_CAP_MS });
    expect(partCaps(800)).toEqual({ defined: 800, fonts: 800, network: 800 });
    expect(partCaps(-5)).toEqual({ defined: 0, fonts: 0, network: 0 });
  });

  it('lists each undefined tag once, sorted, without the given-up ones', () => {
    expect(pendingTags(['sl-tab', 'sl-input', 'sl-tab', 'md-list'], new Set())).toEqual(['md-list', 'sl-input', 'sl-tab']);
    expect(pendingTags(['fluent-buton', 'fluent-button'], new Set(['fluent-buton']))).toEqual(['fluent-button']);
    expect(pendingTags([], new Set(['x-y']))).toEqual([]);
  });

  it('the network is quiet a short window after the last finished request', () => {
    expect(quietAt(1000)).toBe(1000 + NETWORK_QUIET_MS);
  });
});
