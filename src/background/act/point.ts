/**
 * What is under a point of the top page (CSS px of its viewport): a hit test in the frame that
 * owns the point, deep through shadow roots (content-scripts/point.ts). Descriptors travel, the
 * element stays in its frame.
 *
 * 1. Ask the top frame ("point/inspect").
 * 2. When it answers "frame" (an iframe's content box is there), find that frame's id: the frames
 *    whose recorded viewport origin (frameOffsets from the labeling pass) is within 2 px of the
 *    iframe's content-box origin, closest first (frames at the same origin: the first that has
 *    something at the point); when none matches (the page moved since, or there was no pass),
 *    measure every frame's origin now (act/frames.ts) and match again.
 * 3. Ask that frame at the point minus its origin; repeat from 2 for nested frames.
 * The answer's rect and frameId are in top-page terms.
 */
import type { Point } from '../../core/action/action';
import type { HitElement, PointHit, Rect } from '../../core/marks';
import { sendContent } from '../content';
import { measureOffsets } from './frames';
import type { FrameOffsets } from './types';

const MATCH_PX = 2;
const MAX_DEPTH = 8;

/** Where a point landed: its frame, that frame's origin in the top page, and that frame's answer. */
export interface Located {
  frameId: number;
  origin: Point;
  /** the point in that frame's viewport */
  local: Point;
  hit: PointHit;
}

/** Frame ids whose origin is within MATCH_PX of `at`, closest first, `skip` left out. */
function candidates(offsets: FrameOffsets | undefined, at: Point, skip: Set<number>): number[] {
  return Object.entries(offsets ?? {})
    .map(([id, o]) => ({ id: Number(id), d: Math.hypot(o.x - at.x, o.y - at.y) }))
    .filter((c) => c.d <= MATCH_PX && !skip.has(c.id))
    .sort((a, b) => a.d - b.d)
    .map((c) => c.id);
}

async function ask(tabId: number, frameId: number, p: Point): Promise<PointHit | null> {
  // A frame without our content script (not labelled yet, or navigating) cannot answer.
  return sendContent(tabId, 'point/inspect', { x: p.x, y: p.y }, frameId).catch(() => null);
}

interface Search { tabId: number; p: Point; recorded: FrameOffsets | undefined; measured: FrameOffsets | null }

async function descend(s: Search, frameId: number, origin: Point, path: Set<number>): Promise<Located | null> {
  const local = { x: s.p.x - origin.x, y: s.p.y - origin.y };
  const hit = await ask(s.tabId, frameId, local);
  if (!hit) return null;
  const here: Located = { frameId, origin, local, hit };
  if (hit.kind !== 'frame' || path.size >= MAX_DEPTH) return here;
  const child = { x: origin.x + hit.box.x, y: origin.y + hit.box.y };
  const inner = new Set(path).add(frameId);
  for (const pass of ['recorded', 'measured'] as const) {
    if (pass === 'measured') s.measured ??= await measureOffsets(s.tabId).catch(() => ({}));
    for (const id of candidates(pass === 'recorded' ? s.recorded : s.measured!, child, inner)) {
      const found = await descend(s, id, child, inner);
      if (found && found.hit.kind !== 'none') return found;
    }
  }
  return here; // the frame could not be reached: the iframe is what is there
}

/** Steps 1–3: where the point lands (null: the top frame did not answer). */
export async function locate(tabId: number, p: Point, frameOffsets: FrameOffsets | undefined): Promise<Located | null> {
  return descend({ tabId, p, recorded: frameOffsets, measured: null }, 0, { x: 0, y: 0 }, new Set());
}

function toTop(r: Rect, origin: Point): Rect {
  return { x: r.x + origin.x, y: r.y + origin.y, width: r.width, height: r.height };
}

/** The element under a top-page point, in top-page coordinates; null when there is none. */
export async function inspectAt(tabId: number, p: Point, frameOffsets: FrameOffsets | undefined): Promise<HitElement | null> {
  const at = await locate(tabId, p, frameOffsets);
  if (!at || at.hit.kind === 'none') return null;
  if (at.hit.kind === 'frame') {
    // A frame we could not enter: describe the iframe itself.
    return { tag: 'iframe', text: '', rect: toTop(at.hit.box, at.origin), frameId: at.frameId, href: null, download: false, editable: false };
  }
  const el = at.hit.element;
  return { ...el, rect: toTop(el.rect, at.origin), frameId: at.frameId };
}
