/**
 * Scrolling with the mouse wheel at a point (a point target, and the window sideways), and
 * telling the model when nothing moved:
 * 1. find the frame that owns the point (act/point.ts) and read, in that frame, the scroll
 *    positions of everything that scrolls around the element there (scrollState), plus the top
 *    page's own (Page.getLayoutMetrics);
 * 2. wheel: `pixels`, or `ticks` notches of 100 px, or 2/3 of the nearest scroller's (else the
 *    frame's viewport's) size along the direction;
 * 3. read the positions again until one changed (wheel scrolling may be animated), at most
 *    ~0.4 s; none changed: ok, with a note (a page may move content on wheel events without
 *    scrolling, e.g. a map, so it is not an error).
 * To the end (`until`): steps 1–3 with TO_END_TICKS notches at a time until nothing moves, at
 * most TO_END_TIMES times (a list that keeps loading more is said to).
 */
import type { Direction, Point } from '../../core/action/action';
import * as cdp from '../cdp';
import { locate } from './point';
import type { ActResult, FrameOffsets } from './types';

const NOTCH_PX = 100;
const TO_END_TICKS = 10;
const TO_END_TIMES = 30;

/** How far: wheel notches or pixels (neither: about 2/3 of the view). */
export interface ScrollAmount { ticks?: number; pixels?: number }
const POLL_MS = [50, 100, 250];

/** `own`: where in `positions` the nearest scroller along the axis keeps its position (-1: none, the frame's viewport) */
interface ScrollState { positions: number[]; size: { w: number; h: number }; own: number; remaining: number }

/**
 * Runs in the point's frame (isolated world, self-contained). The deep hit through shadow roots
 * (closed ones through chrome.dom, as content-scripts/labeler/dom.ts does), then its flat-tree
 * ancestors' scroll positions.
 */
function scrollState(x: number, y: number, vertical: boolean, forward = true): ScrollState {
  const dom = (globalThis as unknown as { chrome?: { dom?: { openOrClosedShadowRoot?: (el: Element) => ShadowRoot | null } } }).chrome?.dom;
  const rootOf = (el: Element): ShadowRoot | null => {
    if (el.shadowRoot) return el.shadowRoot;
    try {
      return dom?.openOrClosedShadowRoot && el instanceof HTMLElement ? dom.openOrClosedShadowRoot(el) ?? null : null;
    } catch {
      return null;
    }
  };
  let hit: Element | null = document.elementFromPoint(x, y);
  for (let i = 0; hit && i < 32; i++) {
    const inner: Element | null = rootOf(hit)?.elementFromPoint(x, y) ?? null;
    if (!inner || inner === hit) break;
    hit = inner;
  }
  const positions: number[] = [window.scrollX, window.scrollY];
  let size: ScrollState['size'] | null = null;
  let own = -1;
  // how far the nearest scroller along the axis can still go in the direction
  const left = (pos: number, max: number) => Math.max(0, forward ? max - pos : pos);
  const page = document.scrollingElement ?? document.documentElement;
  let remaining = vertical ? left(window.scrollY, page.scrollHeight - window.innerHeight) : left(window.scrollX, page.scrollWidth - window.innerWidth);
  for (let n: Element | null = hit; n; n = n.assignedSlot ?? n.parentElement ?? ((n.parentNode as ShadowRoot | null)?.host ?? null)) {
    const canY = n.scrollHeight > n.clientHeight, canX = n.scrollWidth > n.clientWidth;
    if (!canX && !canY) continue;
    positions.push(n.scrollLeft, n.scrollTop);
    const overflow = getComputedStyle(n)[vertical ? 'overflowY' : 'overflowX'];
    if (!size && (vertical ? canY : canX) && /(auto|scroll|overlay)/.test(overflow)) {
      size = { w: n.clientWidth, h: n.clientHeight };
      own = positions.length - (vertical ? 1 : 2);
      remaining = vertical ? left(n.scrollTop, n.scrollHeight - n.clientHeight) : left(n.scrollLeft, n.scrollWidth - n.clientWidth);
    }
  }
  return { positions, size: size ?? { w: window.innerWidth, h: window.innerHeight }, own, remaining };
}

async function stateAt(tabId: number, frameId: number, local: Point, vertical: boolean, forward: boolean): Promise<ScrollState | null> {
  const [inFrame, top] = await Promise.all([
    chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, func: scrollState, args: [local.x, local.y, vertical, forward] })
      .then((r) => (r[0]?.result as ScrollState | undefined) ?? null, () => null),
    cdp.send<{ cssVisualViewport: { pageX: number; pageY: number } }>(tabId, 'Page.getLayoutMetrics').catch(() => null),
  ]);
  if (!inFrame) return null;
  if (top) inFrame.positions.push(top.cssVisualViewport.pageX, top.cssVisualViewport.pageY);
  return inFrame;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function where(p: Point): string {
  return `(${Math.round(p.x)}, ${Math.round(p.y)})`;
}

/** Steps 1–3 at a top-page point. `what`: how the note names the place ("at (x, y)", "the page"). */
export async function wheelAt(tabId: number, p: Point, direction: Direction, amount: ScrollAmount, offsets: FrameOffsets | undefined, what = `at ${where(p)}`, ownOnly = false): Promise<ActResult> {
  const vertical = direction === 'up' || direction === 'down';
  const sign = direction === 'down' || direction === 'right' ? 1 : -1;
  const at = await locate(tabId, p, offsets).catch(() => null);
  const before = at ? await stateAt(tabId, at.frameId, at.local, vertical, sign > 0) : null;
  const size = before ? (vertical ? before.size.h : before.size.w) : 600;
  const { ticks, pixels } = amount;
  let px = pixels !== undefined && pixels > 0 ? Math.round(pixels) : ticks !== undefined && ticks > 0 ? ticks * NOTCH_PX : Math.max(40, Math.round((size * 2) / 3));
  // to the end of one scroller: no further than it goes, so nothing is left over for the page (scroll chaining)
  if (ownOnly && before) {
    if (before.remaining < 1) return atEnd(direction, what);
    px = Math.min(px, Math.ceil(before.remaining));
  }
  await cdp.wheel(tabId, p.x, p.y, vertical ? px * sign : 0, vertical ? 0 : px * sign);
  if (!at || !before) return { ok: true };
  for (const ms of POLL_MS) {
    await sleep(ms);
    const after = await stateAt(tabId, at.frameId, at.local, vertical, sign > 0);
    // to the end of an inner scroller: once it is at its end the wheel goes on to the page (scroll
    // chaining), which does not count
    const moved = ownOnly && before.own >= 0 ? after?.positions[before.own] !== before.positions[before.own] : after?.positions.join() !== before.positions.join();
    if (!after || moved) return { ok: true };
  }
  return atEnd(direction, what);
}

function atEnd(direction: Direction, what: string): ActResult {
  return { ok: true, note: `Nothing scrolled ${what}: the content there is already at the ${{ down: 'bottom', up: 'top', left: 'left end', right: 'right end' }[direction]}, or it does not scroll.` };
}

/** Scroll at a point to the end in `direction` (the file comment's "To the end"). */
export async function wheelToEnd(tabId: number, p: Point, direction: Direction, offsets: FrameOffsets | undefined, what = `at ${where(p)}`): Promise<ActResult> {
  for (let i = 0; i < TO_END_TIMES; i++) {
    const r = await wheelAt(tabId, p, direction, { ticks: TO_END_TICKS }, offsets, what, true);
    // nothing moved: at the end (already there, the first time: the note says so)
    if (!r.ok || r.note) return i === 0 ? r : { ok: true };
  }
  return { ok: true, note: `Scrolled ${TO_END_TIMES} times ${what} without reaching the end: the content may keep loading more.` };
}

/**
 * The window with the wheel at the viewport's centre: sideways ("page/scroll" moves it up and
 * down only), by an amount, or to the end.
 */
export async function scrollWindowByWheel(tabId: number, direction: Direction, amount: ScrollAmount & { until?: boolean }, offsets: FrameOffsets | undefined): Promise<ActResult> {
  const m = await cdp.send<{ cssLayoutViewport: { clientWidth: number; clientHeight: number } }>(tabId, 'Page.getLayoutMetrics');
  const centre = { x: m.cssLayoutViewport.clientWidth / 2, y: m.cssLayoutViewport.clientHeight / 2 };
  if (amount.until) return wheelToEnd(tabId, centre, direction, offsets, 'in the page');
  return wheelAt(tabId, centre, direction, amount, offsets, 'in the page');
}
