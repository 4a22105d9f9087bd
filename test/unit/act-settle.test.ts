/**
 * After an action (src/core/settle.ts, the part the background's settleAction and the page's
 * waitForQuiet decide with): which requests are waited for and how long, which animations, how
 * long to look for a late reaction, and what a Wait is.
 */
import { describe, expect, it } from 'vitest';
import {
  ACTION_ANIMATION_CAP_MS, ACTION_LOOK_MS, ACTION_REQUESTS_CAP_MS, animationToWait, awaitedRequest, lookMs, requestsPending, WAIT_MS,
} from '../../src/core/settle';

describe('requests an action sent', () => {
  it('page loads, API calls, scripts, styles, images and fonts are waited for; streams, beacons and prefetches are not', () => {
    for (const t of ['Document', 'XHR', 'Fetch', 'Script', 'Stylesheet', 'Image', 'Font', 'Other', undefined]) expect(awaitedRequest(t), String(t)).toBe(true);
    for (const t of ['EventSource', 'WebSocket', 'Media', 'Ping', 'CSPViolationReport', 'Prefetch']) expect(awaitedRequest(t), t).toBe(false);
  });

  it('a request is waited for until it ends, or until it has been in flight for the cap (a long poll)', () => {
    const now = 10_000;
    expect(requestsPending([], now)).toBe(0);
    expect(requestsPending([now - 10, now - 200], now)).toBe(2);
    expect(requestsPending([now - ACTION_REQUESTS_CAP_MS, now - 10], now)).toBe(1);
    expect(requestsPending(new Map([['a', now - ACTION_REQUESTS_CAP_MS - 1]]).values(), now)).toBe(0);
  });
});

describe('transitions and animations in the page', () => {
  it('one running that ends soon is waited for; one paused, finished, endless or long is not', () => {
    expect(animationToWait({ playState: 'running', remainingMs: 250 })).toBe(true);
    expect(animationToWait({ playState: 'running', remainingMs: ACTION_ANIMATION_CAP_MS })).toBe(true);
    expect(animationToWait({ playState: 'running', remainingMs: ACTION_ANIMATION_CAP_MS + 1 })).toBe(false);
    expect(animationToWait({ playState: 'running', remainingMs: Infinity })).toBe(false); // a spinner
    expect(animationToWait({ playState: 'running', remainingMs: NaN })).toBe(false);
    expect(animationToWait({ playState: 'paused', remainingMs: 250 })).toBe(false);
    expect(animationToWait({ playState: 'finished', remainingMs: 0 })).toBe(false);
  });
});

describe('how long an action is looked at for a late first reaction', () => {
  it('typing and hovering (debounced suggestions, hover-intent menus); other actions not at all', () => {
    expect(lookMs('type')).toBe(ACTION_LOOK_MS);
    expect(lookMs('hover')).toBe(ACTION_LOOK_MS);
    for (const t of ['click', 'scroll', 'key', 'drag', 'press', 'goBack', 'navigate']) expect(lookMs(t), t).toBe(0);
  });

  it('a Wait is the 5 seconds glm-web\'s and glm-pc\'s prompts give it', () => {
    expect(WAIT_MS).toBe(5000);
  });
});
