import { describe, expect, it } from 'vitest';
import {
  awaitsRender, FONTS_CAP_MS, NETWORK_CAP_MS, NETWORK_QUIET_MS, nearViewport, nothingRendered, partCaps, pendingTags, quietAt, READY_CAP_MS,
  RENDER_NEAR_PX, RENDER_QUIET_CAP_MS, RENDER_STALL_MS, RENDER_STALL_POLLS, renderGiveUp, renderQuietCap, renderVerdict, shrank,
  type ComponentLook,
} from '../../src/core/settle';

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

describe('components rendered (core/settle.ts)', () => {
  const VW = 1280;
  const VH = 800;
  const look = (over: Partial<ComponentLook> = {}): ComponentLook => ({
    visibility: 'hidden', parentVisibility: 'visible', defined: true, boxed: true, rect: { left: 100, top: 100, right: 100, bottom: 100 }, ...over,
  });
  const awaits = (over: Partial<ComponentLook> = {}, name = 'ion-button', givenUp = new Set<string>()) => awaitsRender(name, () => look(over), VW, VH, givenUp);

  it('a defined custom element hidden while its context is visible has not rendered yet (an empty host of no size too)', () => {
    expect(awaits()).toBe(true);
    expect(awaits({ visibility: 'collapse' })).toBe(true);
  });

  it('a rendered one, one in a hidden context, an undefined one, one without a box, or a given-up tag is not waited for', () => {
    expect(awaits({ visibility: 'visible' })).toBe(false);
    expect(awaits({ parentVisibility: 'hidden' })).toBe(false); // the hidden context hides it: not the component's own doing
    expect(awaits({ parentVisibility: null })).toBe(false);
    expect(awaits({ defined: false })).toBe(false); // the defined part's
    expect(awaits({ boxed: false })).toBe(false); // display:none on the way up: nothing a person would see
    expect(awaits({}, 'ion-popover', new Set(['ion-popover']))).toBe(false);
  });

  it('only elements with a hyphen in their tag name are components; the look is not read for others', () => {
    let read = 0;
    expect(awaitsRender('div', () => { read++; return look(); }, VW, VH, new Set())).toBe(false);
    expect(read).toBe(0);
  });

  it('only components in or near the viewport matter', () => {
    expect(awaits({ rect: { left: 0, top: VH + RENDER_NEAR_PX, right: 50, bottom: VH + RENDER_NEAR_PX + 20 } })).toBe(true);
    expect(awaits({ rect: { left: 0, top: VH + RENDER_NEAR_PX + 1, right: 50, bottom: VH + RENDER_NEAR_PX + 20 } })).toBe(false);
    expect(nearViewport({ left: -300, top: 0, right: -RENDER_NEAR_PX - 1, bottom: 10 }, VW, VH)).toBe(false);
    expect(nearViewport({ left: 10, top: -5000, right: 20, bottom: -RENDER_NEAR_PX }, VW, VH)).toBe(true);
    expect(nearViewport({ left: VW, top: VH, right: VW, bottom: VH }, VW, VH, 0)).toBe(true);
  });

  it('the set shrank when one of its elements left it, not when it only grew', () => {
    const a = {};
    const b = {};
    const c = {};
    expect(shrank(new Set([a, b]), new Set([a]))).toBe(true);
    expect(shrank(new Set([a, b]), new Set([a, c]))).toBe(true);
    expect(shrank(new Set([a]), new Set([a, c]))).toBe(false);
    expect(shrank(new Set([a]), new Set([a]))).toBe(false);
  });

  it('waits until none is pending, gives up when none rendered for the stall window and checks, and stops at the cap', () => {
    const base = { pending: 3, elapsed: 100, sinceProgress: 100, pollsSinceProgress: 2, capMs: READY_CAP_MS };
    expect(renderVerdict({ ...base, pending: 0 })).toBe('done');
    expect(renderVerdict(base)).toBe('wait');
    expect(renderVerdict({ ...base, sinceProgress: RENDER_STALL_MS, pollsSinceProgress: RENDER_STALL_POLLS })).toBe('stalled');
    // one late check (the page's timers were late as well) is not a stall
    expect(renderVerdict({ ...base, sinceProgress: RENDER_STALL_MS + 300, pollsSinceProgress: 1 })).toBe('wait');
    expect(renderVerdict({ ...base, elapsed: READY_CAP_MS })).toBe('cap');
    expect(renderVerdict({ ...base, elapsed: 0, capMs: 0, sinceProgress: 0, pollsSinceProgress: 0 })).toBe('cap');
  });

  it('gives up the tags hidden through the stall window, stalled or at the cap, not one found just before the end', () => {
    expect(renderGiveUp([{ tag: 'ion-popover', hiddenMs: RENDER_STALL_MS }, { tag: 'ion-card', hiddenMs: 3500 }, { tag: 'ion-popover', hiddenMs: 900 }]))
      .toEqual(['ion-card', 'ion-popover']);
    // the cap cut the wait short right after a slow library was defined: waited for again next time
    expect(renderGiveUp([{ tag: 'ion-card', hiddenMs: 60 }])).toEqual([]);
    expect(renderGiveUp([])).toEqual([]);
  });

  it('a quiet window follows only when something rendered, within what is left of the cap', () => {
    expect(renderQuietCap(false, 3000)).toBe(0);
    expect(renderQuietCap(true, 3000)).toBe(RENDER_QUIET_CAP_MS);
    expect(renderQuietCap(true, 120)).toBe(120);
    expect(renderQuietCap(true, -5)).toBe(0);
  });

  it('an empty report when nothing was waited for', () => {
    expect(nothingRendered()).toEqual({ ms: 0, waited: [], pending: [], quietMs: 0 });
  });
});
