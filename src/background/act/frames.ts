/**
 * Where every frame's viewport sits in the top page now, measured without a labeling pass (for a
 * point over an iframe that the last pass's frameOffsets do not place). No webNavigation
 * permission, so frames are matched the way the labeler matches them (SET-OF-MARKS §4):
 * 1. every frame posts a token to each of its iframes (the labeler's prepareFrames);
 * 2. every frame reports the token it got from its parent, and each iframe's token and content
 *    box origin in its own viewport (frameGeometry, reading the labeler's frame state);
 * 3. from the top frame down: a child's offset = its parent's offset + its iframe's origin.
 * The tokens travel by postMessage, so step 2 is asked again (a few times) until every token a
 * parent posted has arrived.
 */
import { everyFrame } from '../label';
import type { FrameOffsets } from './types';

interface Geometry { token: string | null; children: Array<{ token: string; x: number; y: number }> }

/**
 * Runs in each frame (isolated world, self-contained): the frame state content-scripts/labeler/
 * frames.ts keeps under its global symbol (shared by every copy of the content script).
 */
function frameGeometry(): Geometry | null {
  const st = (globalThis as unknown as Record<symbol, { token: string | null; children: Array<{ frame: Element; token: string }> } | undefined>)[Symbol.for('webagent.labeler.frames')];
  if (!st) return null;
  const px = (v: string) => parseFloat(v) || 0;
  return {
    token: window.parent === window ? null : st.token,
    children: st.children.filter((c) => c.frame.isConnected).map((c) => {
      const r = c.frame.getBoundingClientRect();
      const s = getComputedStyle(c.frame);
      return { token: c.token, x: r.left + px(s.borderLeftWidth) + px(s.paddingLeft), y: r.top + px(s.borderTopWidth) + px(s.paddingTop) };
    }),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function offsetsFrom(frames: Array<{ frameId: number; geo: Geometry }>): { offsets: FrameOffsets; missing: number } {
  const byToken = new Map(frames.filter((f) => f.geo.token).map((f) => [f.geo.token!, f] as const));
  const offsets: FrameOffsets = { 0: { x: 0, y: 0 } };
  let missing = 0;
  const queue = frames.filter((f) => f.frameId === 0);
  for (let f = queue.shift(); f; f = queue.shift()) {
    const o = offsets[f.frameId];
    for (const c of f.geo.children) {
      const child = byToken.get(c.token);
      if (!child) { missing++; continue; }
      if (offsets[child.frameId]) continue;
      offsets[child.frameId] = { x: o.x + c.x, y: o.y + c.y };
      queue.push(child);
    }
  }
  return { offsets, missing };
}

export async function measureOffsets(tabId: number): Promise<FrameOffsets> {
  await everyFrame(tabId, 'prepareFrames');
  let best: FrameOffsets = { 0: { x: 0, y: 0 } };
  for (let attempt = 0; attempt < 4; attempt++) {
    const res = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: frameGeometry });
    const frames = res.filter((r) => r.result).map((r) => ({ frameId: r.frameId, geo: r.result as Geometry }));
    const { offsets, missing } = offsetsFrom(frames);
    best = offsets;
    if (missing === 0) break;
    await sleep(50);
  }
  return best;
}
