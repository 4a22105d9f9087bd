/**
 * Scrolling with the mouse wheel at a point (a point target, and the window sideways), and
 * telling the model when nothing moved:
 * 1. find the frame that owns the point (act/point.ts) and read, in that frame, the scroll
 *    positions of everything that scrolls around the element there (scrollState), plus the top
 *    page's own (Page.getLayoutMetrics);
 * 2. wheel: `ticks` notches of 100 px, or 2/3 of the nearest scroller's (else the frame's
 *    viewport's) size along the direction;
 * 3. read the positions again until one changed (wheel scrolling may be animated), at most
 *    ~0.4 s; none changed: ok, with a note (a page may move content on wheel events without
 *    scrolling, e.g. a map, so it is not an error).
 */
import type { Direction, Point } from '../../core/action/action';
import * as cdp from '../cdp';
import { locate } from './point';
import type { ActResult, FrameOffsets } from './types';

const NOTCH_PX = 100;
const POLL_MS = [50, 100, 250];

interface ScrollState { positions: number[]; size: { w: number; h: number } }

/**
 * Runs in the point's frame (isolated world, self-contained). The deep hit through shadow roots
 * (closed ones through chrome.dom, as content-scripts/labeler/dom.ts does), then its flat-tree
 * ancestors' scroll positions.
 */
function scrollState(x: number, y: number, vertical: boolean): ScrollState {
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
  for (let n: Element | null = hit; n; n = n.assignedSlot ?? n.parentElement ?? ((n.parentNode as ShadowRoot | null)?.host ?? null)) {
    const canY = n.scrollHeight > n.clientHeight, canX = n.scrollWidth > n.clientWidth;
    if (!canX && !canY) continue;
    positions.push(n.scrollLeft, n.scrollTop);
    const overflow = getComputedStyle(n)[vertical ? 'overflowY' : 'overflowX'];
    if (!size && (vertical ? canY : canX) && /(auto|scroll|overlay)/.test(overflow)) size = { w: n.clientWidth, h: n.clientHeight };
  }
  return { positions, size: size ?? { w: window.innerWidth, h: window.innerHeight } };
}

async function stateAt(tabId: number, frameId: number, local: Point, vertical: boolean): Promise<ScrollState | null> {
  const [inFrame, top] = await Promise.all([
    chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, func: scrollState, args: [local.x, local.y, vertical] })
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
export async function wheelAt(tabId: number, p: Point, direction: Direction, ticks: number | undefined, offsets: FrameOffsets | undefined, what = `at ${where(p)}`): Promise<ActResult> {
  const vertical = direction === 'up' || direction === 'down';
  const sign = direction === 'down' || direction === 'right' ? 1 : -1;
  const at = await locate(tabId, p, offsets).catch(() => null);
  const before = at ? await stateAt(tabId, at.frameId, at.local, vertical) : null;
  const size = before ? (vertical ? before.size.h : before.size.w) : 600;
  const px = ticks !== undefined && ticks > 0 ? ticks * NOTCH_PX : Math.max(40, Math.round((size * 2) / 3));
  await cdp.wheel(tabId, p.x, p.y, vertical ? px * sign : 0, vertical ? 0 : px * sign);
  if (!at || !before) return { ok: true };
  for (const ms of POLL_MS) {
    await sleep(ms);
    const after = await stateAt(tabId, at.frameId, at.local, vertical);
    if (!after || after.positions.join() !== before.positions.join()) return { ok: true };
  }
  return { ok: true, note: `Nothing scrolled ${what}: the content there is already at the ${{ down: 'bottom', up: 'top', left: 'left end', right: 'right end' }[direction]}, or it does not scroll.` };
}

/**
 * The window with the wheel at the viewport's centre: sideways ("page/scroll" moves it up and
 * down only), or by a number of notches.
 */
export async function scrollWindowByWheel(tabId: number, direction: Direction, ticks: number | undefined, offsets: FrameOffsets | undefined): Promise<ActResult> {
  const m = await cdp.send<{ cssLayoutViewport: { clientWidth: number; clientHeight: number } }>(tabId, 'Page.getLayoutMetrics');
  const centre = { x: m.cssLayoutViewport.clientWidth / 2, y: m.cssLayoutViewport.clientHeight / 2 };
  return wheelAt(tabId, centre, direction, ticks, offsets, 'in the page');
}
