/**
 * Frames, content-script side (docs/labeling.md; the merge is src/core/frames.ts).
 *
 * A parent cannot see inside a cross-origin iframe and a child cannot see where it sits, so each
 * frame has an id of its own and the parent learns which iframe element holds which id. The id
 * must come from our content script in that child only: a page (or another frame) that could
 * hand a child an id, or answer for it, could have one frame's labels drawn over another frame.
 *
 * 1. prepareFrames (every frame, before a pass): a fresh random id for this frame (`self`),
 *    made and kept in the content scripts' isolated world, which page scripts cannot read.
 * 2. beginLinking (the parent, in collectFrame): for each iframe / frame element of this document
 *    (its own tree at once, those in shadow roots as the pass's walk finds them: no walk of its
 *    own), ask our content script in it for its id:
 *    - a same-origin child: read its id straight from its isolated-world state
 *      (`contentWindow[KEY]`): content scripts of one extension share one isolated world across
 *      same-origin frames, and page scripts have no way into it;
 *    - a cross-origin child: post it one end of a fresh MessageChannel; the child's content script
 *      (listenForLinks) answers on that port with its id, only when the message comes from its
 *      parent window. The answer goes through the port, so no page script sees it; the parent
 *      keeps an iframe's answer only when it is the one answer that came (a page script in the
 *      child that grabbed the port and answered too makes the iframe unplaceable, not misplaced).
 *    Children are never told an id by anyone: a forged message to a child changes nothing.
 * 3. childFrames (collectFrame): for each iframe: the id it answered, its content box in this
 *    viewport, the part visible (clipped to the viewport, null when it is hidden or fully covered).
 *    The background (src/core/frames.ts) places a frame only under the one iframe whose claim to
 *    its id counts (the one read directly, else the only one) and whose box has the frame's own
 *    viewport size.
 * 4. framesMoved (after the screenshot): whether the window scrolled or any iframe's box changed
 *    since the pass (watched at every rendering in between).
 */
import type { ChildFrame, Rect } from '../../src/core/marks';
import { contentBox, walkDeep } from './dom';
import { clipToViewport, hitTest, isRendered, isTransparent } from './visibility';

const KEY = Symbol.for('webagent.labeler.frames');
const LINK = '__webagentFrameLink';
/** how long a parent waits for its cross-origin children's answers when some child may have no content script of ours (it never answers) */
const LINK_WAIT_MS = 200;
/**
 * … and when every child has one (the background saw each frame answer step 1, see label.ts): every
 * answer comes, so this only bounds a child that dies mid-pass; a loaded machine's slow answer is
 * waited for instead of missed
 */
export const LINK_WAIT_ALL_MS = 3000;

type FrameEl = HTMLIFrameElement | HTMLFrameElement;

interface Child {
  frame: FrameEl;
  /** the child's id, once known; '' when two different answers came (never placed) */
  id: string | null;
  /** read straight from the child's isolated world */
  sure: boolean;
  /** the content box measured by the last pass */
  box: Rect | null;
  /** our end of the channel a cross-origin child answers on (open until the pass reads it) */
  port: MessagePort | null;
}

interface FrameState {
  listening: boolean;
  /** this frame's id for the current pass (isolated world only) */
  self: string | null;
  children: Child[];
  /** the window's scroll position at the end of the last pass */
  scroll: { x: number; y: number } | null;
  /** what moved since the last pass (seen by the watch of step 4): the window scrolled, or an iframe */
  moved: Moved;
  /** the watch's animation frame (0: not watching) */
  raf: number;
}

function state(): FrameState {
  const g = globalThis as unknown as Record<symbol, FrameState | undefined>;
  return (g[KEY] ??= { listening: false, self: null, children: [], scroll: null, moved: null, raf: 0 });
}

function randomId(): string {
  // crypto.randomUUID exists only in secure contexts; getRandomValues everywhere
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The child side of step 2, installed at load (and by prepareFrames). Safe to call more than once
 * (and from several copies of this module). Answers a link request from the parent window with
 * this frame's id, on the port that came with it and nowhere else.
 */
export function listenForLinks(): void {
  const st = state();
  if (st.listening || window.parent === window) return;
  st.listening = true;
  window.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== window.parent || event.ports.length !== 1) return;
    if ((event.data as Record<string, unknown> | null)?.[LINK] !== true) return;
    const port = event.ports[0];
    port.postMessage({ id: st.self });
    port.close();
  });
}

/**
 * Step 1: a new id for this frame. Returns how many iframes this document has in its own tree (a
 * tag query, no walk: the pass's walk finds those in shadow roots, see beginLinking).
 */
export function prepareFrames(): number {
  const st = state();
  listenForLinks();
  st.self = window.parent === window ? null : randomId();
  return lightFrames().length;
}

/** The iframes of this document's own tree (shadow roots not entered), from two tag queries. */
function lightFrames(): FrameEl[] {
  return [...document.getElementsByTagName('iframe'), ...document.getElementsByTagName('frame')];
}

/** Every iframe, shadow roots included, in document order (one walk: frameLinks only). */
function findFrames(): FrameEl[] {
  const frames: FrameEl[] = [];
  walkDeep((el, tag) => {
    if (tag === 'iframe' || tag === 'frame') frames.push(el as FrameEl);
    return true;
  });
  return frames;
}

/** A same-origin child's id from its isolated-world state; undefined when it is cross-origin. */
function sameOriginId(win: Window): string | null | undefined {
  try {
    const st = (win as unknown as Record<symbol, FrameState | undefined>)[KEY];
    return st ? st.self : null;
  } catch {
    return undefined;
  }
}

interface Link { child: Child; answered: Promise<void> }

/** Step 2 for one iframe: its id read or asked for; `answered` settles within `waitMs`. */
function link(frame: FrameEl, waitMs = LINK_WAIT_MS): Link {
  const child: Child = { frame, id: null, sure: false, box: null, port: null };
  const win = frame.contentWindow;
  if (!win) return { child, answered: Promise.resolve() };
  const direct = sameOriginId(win);
  if (direct !== undefined) {
    child.id = direct;
    child.sure = direct !== null;
    return { child, answered: Promise.resolve() };
  }
  const { port1, port2 } = new MessageChannel();
  child.port = port1;
  const answered = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    let answers = 0;
    port1.onmessage = (e: MessageEvent) => {
      const id = (e.data as { id?: unknown } | null)?.id;
      // one answer, a string: kept; a second one (a page script that took the port) spoils it
      child.id = ++answers === 1 && typeof id === 'string' && id ? id : '';
      clearTimeout(timer);
      resolve();
    };
  });
  win.postMessage({ [LINK]: true }, '*', [port2]);
  return { child, answered };
}

function closePorts(st: FrameState): void {
  for (const c of st.children) c.port?.close();
}

/** Step 2 outside a pass (frameLinks): learns each iframe's id (waits up to `waitMs` for cross-origin answers). */
async function linkChildren(frames: FrameEl[], waitMs = LINK_WAIT_MS): Promise<void> {
  const st = state();
  closePorts(st);
  const links = frames.map((f) => link(f, waitMs));
  st.children = links.map((l) => l.child);
  await Promise.all(links.map((l) => l.answered));
}

/**
 * Step 2 within a labeling pass (collectFrame), without a walk of its own: the document's own
 * iframes are asked at once (tag queries), so cross-origin answers arrive while the pass runs;
 * the returned `finish` takes the iframes the pass's walk found, asks those not asked yet (inside
 * shadow roots) and lists the children in the walk's order (document order, shadow trees
 * included; iframes the walk skipped, in display:none or [inert] subtrees, last: they have no
 * visible part). Resolves when every answer is in or `waitMs` passed.
 */
export function beginLinking(waitMs = LINK_WAIT_MS): (walked: Element[]) => Promise<void> {
  const st = state();
  closePorts(st);
  st.children = [];
  const early = new Map<Element, Link>(lightFrames().map((f) => [f, link(f, waitMs)]));
  return async (walked) => {
    const links: Link[] = [];
    for (const f of walked) {
      links.push(early.get(f) ?? link(f as FrameEl, waitMs));
      early.delete(f);
    }
    links.push(...early.values());
    st.children = links.map((l) => l.child);
    await Promise.all(links.map((l) => l.answered));
  };
}

/** Forgets the iframes of the last pass (run end): no element is held after it. */
export function forgetFrames(): void {
  const st = state();
  closePorts(st);
  cancelAnimationFrame(st.raf);
  st.raf = 0;
  st.children = [];
  st.scroll = null;
  st.moved = null;
}

/** An iframe's content box in this viewport; null when it is detached or has no size. */
function measure(frame: FrameEl, s?: CSSStyleDeclaration): Rect | null {
  if (!frame.isConnected) return null;
  const r = frame.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return null;
  return contentBox(frame, r, s);
}

/** Step 3 (reads layout only). Answers that come after this are not read. */
export function childFrames(vw: number, vh: number): ChildFrame[] {
  const out: ChildFrame[] = [];
  for (const child of state().children) {
    child.port?.close();
    child.port = null;
    const { frame } = child;
    const s = getComputedStyle(frame);
    const box = (child.box = measure(frame, s));
    if (!box) continue;
    let visible = clipToViewport({ left: box.x, top: box.y, right: box.x + box.width, bottom: box.y + box.height }, vw, vh);
    if (visible && (!isRendered(frame, s) || isTransparent(frame))) visible = null;
    // pointer-events:none frames let hits through, so only unhittable frames can be tested
    else if (visible && s.pointerEvents !== 'none' && !hitTest(frame, visible, false).point) visible = null;
    const link: ChildFrame = { token: child.id || null, box, visible };
    if (child.sure) link.sure = true;
    out.push(link);
  }
  watchMoves();
  return out;
}

/** This frame's id (null in the top frame). */
export function selfId(): string | null {
  return state().self;
}

const WATCH_MS = 5000;

/** 'scroll': this frame's window scrolled (all its labels are off); 'frame': one of its iframes moved (their labels are). */
export type Moved = 'scroll' | 'frame' | null;

function movedSincePass(st: FrameState): Moved {
  const far = (a: number, b: number) => Math.abs(a - b) > 1;
  if (st.scroll && (far(window.scrollX, st.scroll.x) || far(window.scrollY, st.scroll.y))) return 'scroll';
  return st.children.some((c) => {
    if (!c.box) return false;
    const b = measure(c.frame);
    return !b || far(b.x, c.box.x) || far(b.y, c.box.y) || far(b.width, c.box.width) || far(b.height, c.box.height);
  }) ? 'frame' : null;
}

/**
 * Step 4, from the end of a pass until framesMoved is asked (at most WATCH_MS): before every
 * rendering, check that the window did not scroll and no iframe moved, so a page that moves a
 * frame away for the moment of the screenshot and back is caught too.
 */
function watchMoves(): void {
  const st = state();
  cancelAnimationFrame(st.raf);
  st.scroll = { x: window.scrollX, y: window.scrollY };
  st.moved = null;
  const until = performance.now() + WATCH_MS;
  const tick = () => {
    st.raf = 0;
    const m = movedSincePass(st);
    // a scroll outranks a moved iframe (it moves every label); the watch ends at the first change
    if (m) st.moved = m;
    else if (performance.now() < until) st.raf = requestAnimationFrame(tick);
  };
  st.raf = requestAnimationFrame(tick);
}

/**
 * Step 4 (after the screenshot): the window scrolled, or an iframe of the last pass was moved,
 * resized or removed, at any rendering since the pass. Ends the watch.
 */
export function framesMoved(): Moved {
  const st = state();
  cancelAnimationFrame(st.raf);
  st.raf = 0;
  // an iframe added since has no labels: nothing drawn is wrong, so only the known ones count
  const now = movedSincePass(st);
  return st.moved === 'scroll' || now === 'scroll' ? 'scroll' : st.moved ?? now;
}

/** Where each linked iframe's content box sits in this viewport now (act/frames.ts); `everyChildAnswers` as collectFrame's. */
export async function frameLinks(opts: { everyChildAnswers?: boolean } | null = null): Promise<{ self: string | null; children: Array<{ token: string; sure: boolean; x: number; y: number }> }> {
  await linkChildren(findFrames(), opts?.everyChildAnswers ? LINK_WAIT_ALL_MS : LINK_WAIT_MS);
  const children: Array<{ token: string; sure: boolean; x: number; y: number }> = [];
  for (const c of state().children) {
    c.port?.close();
    const b = c.id ? measure(c.frame) : null;
    if (b && c.id) children.push({ token: c.id, sure: c.sure, x: b.x, y: b.y });
  }
  return { self: selfId(), children };
}
