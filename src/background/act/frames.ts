/**
 * Where every frame's viewport sits in the top page now, measured without a labeling pass (for a
 * point over an iframe that the last pass's frameOffsets do not place). No webNavigation
 * permission, so frames are matched the way the labeler matches them (docs/labeling.md, frames):
 * 1. every frame makes a fresh id of its own (the labeler's prepareFrames);
 * 2. every frame reports its id, and each of its iframes' ids (asked of our content script in
 *    each iframe, never taken from the page) and content-box origins (the labeler's frameLinks);
 * 3. from the top frame down: a child's offset = its parent's offset + its iframe's origin; the
 *    claims to an id count as in core/frames.ts.
 */
import { claimsThatCount, everyChildAnswers } from '../../core/frames';
import { everyFrame } from '../label';
import type { FrameOffsets } from './types';

interface Links { self: string | null; children: Array<{ token: string; sure: boolean; x: number; y: number }> }

function offsetsFrom(frames: Array<{ frameId: number; links: Links }>): FrameOffsets {
  const byId = new Map(frames.filter((f) => f.frameId !== 0 && f.links.self).map((f) => [f.links.self!, f] as const));
  const counts = claimsThatCount(frames.flatMap((f) => f.links.children));
  const offsets: FrameOffsets = { 0: { x: 0, y: 0 } };
  const queue = frames.filter((f) => f.frameId === 0);
  for (let f = queue.shift(); f; f = queue.shift()) {
    const o = offsets[f.frameId];
    for (const c of f.links.children) {
      const child = counts(c) ? byId.get(c.token) : undefined;
      if (!child || offsets[child.frameId]) continue;
      offsets[child.frameId] = { x: o.x + c.x, y: o.y + c.y };
      queue.push(child);
    }
  }
  return offsets;
}

export async function measureOffsets(tabId: number): Promise<FrameOffsets> {
  const prepared = await everyFrame(tabId, 'prepareFrames');
  const res = await everyFrame<Links>(tabId, 'frameLinks', { everyChildAnswers: everyChildAnswers(prepared.map((p) => p.result)) });
  return offsetsFrom(res.flatMap((r) => (r.result && r.result !== '__missing__' ? [{ frameId: r.frameId, links: r.result }] : [])));
}
