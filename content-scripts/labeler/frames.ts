/**
 * Frames, content-script side (docs/labeling.md; the merge is src/core/frames.ts).
 *
 * A parent cannot see inside a cross-origin iframe and a child cannot see where it sits, so:
 * 1. prepareFrames (every frame): post a fresh random token to each iframe / frame element of
 *    this document (shadow roots included) and remember iframe → token. Tokens are renewed once
 *    this frame has reported them (collectFrame); a second prepare before that re-posts the same
 *    tokens, so children injected late still get the one their parent will report.
 * 2. listenForFrameToken (every frame, once, at load): keep the latest token whose message comes
 *    from our parent window (`event.source === window.parent`).
 * 3. childFrames (collectFrame): for each remembered, rendered iframe: its content box in this
 *    viewport, the part visible (clipped to the viewport, null when it is hidden or fully covered),
 *    and its token.
 * 4. frameToken (collectFrame): this frame's token; a child waits up to TOKEN_WAIT_MS for one it
 *    has not reported yet (the parent's message and the collect request race).
 */
import type { ChildFrame, Rect } from '../../src/core/marks';
import { walkDeep } from './dom';
import { clipToViewport, hitTest, isRendered, isTransparent } from './visibility';

const KEY = Symbol.for('webagent.labeler.frames');
const TOKEN_WAIT_MS = 200;

interface FrameState {
  listening: boolean;
  token: string | null;
  /** the token last returned by frameToken (a new one is awaited next time) */
  reported: string | null;
  waiters: Array<() => void>;
  children: Array<{ frame: HTMLIFrameElement | HTMLFrameElement; token: string }>;
  /** children's tokens were reported by a collect: the next prepare makes new ones */
  stale: boolean;
}

function state(): FrameState {
  const g = globalThis as unknown as Record<symbol, FrameState | undefined>;
  return (g[KEY] ??= { listening: false, token: null, reported: null, waiters: [], children: [], stale: true });
}

function randomToken(): string {
  // crypto.randomUUID exists only in secure contexts; getRandomValues everywhere
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Step 2. Safe to call more than once (and from several copies of this module). */
export function listenForFrameToken(): void {
  const st = state();
  if (st.listening || window.parent === window) return;
  st.listening = true;
  window.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== window.parent) return;
    const token = (event.data as { __webagentFrameToken?: unknown } | null)?.__webagentFrameToken;
    if (typeof token !== 'string' || !token) return;
    st.token = token;
    for (const wake of st.waiters.splice(0)) wake();
  });
}

/** Step 1: returns how many frames were sent a token. */
export function prepareFrames(): number {
  const st = state();
  const frames: Array<HTMLIFrameElement | HTMLFrameElement> = [];
  walkDeep((el, tag) => {
    if (tag === 'iframe' || tag === 'frame') frames.push(el as HTMLIFrameElement | HTMLFrameElement);
    return true;
  });
  const old = new Map(st.children.map((c) => [c.frame, c.token] as const));
  st.children = frames.map((frame) => ({ frame, token: (!st.stale && old.get(frame)) || randomToken() }));
  st.stale = false;
  let sent = 0;
  for (const { frame, token } of st.children) {
    const win = frame.contentWindow;
    if (!win) continue;
    win.postMessage({ __webagentFrameToken: token }, '*');
    sent++;
  }
  return sent;
}

/** Step 4. */
export async function frameToken(): Promise<string | null> {
  const st = state();
  if (window.parent === window) return null;
  if (!st.token || st.token === st.reported) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, TOKEN_WAIT_MS);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      st.waiters.push(done);
    });
  }
  if (!st.token || st.token === st.reported) st.token = tokenFromParent() ?? st.token;
  st.reported = st.token;
  return st.token;
}

/**
 * A same-origin parent's token for us, read from its state directly. Needed when our message
 * listener was erased: document.open() (a parent filling an about:blank frame with
 * document.write) removes every listener of the window
 * (https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#document-open-steps).
 * Content scripts of the same extension share one isolated world across frames, so the parent's
 * state object and our frame element are reachable when the origins match.
 */
function tokenFromParent(): string | null {
  try {
    const me = window.frameElement;
    const parent = (window.parent as unknown as Record<symbol, FrameState | undefined>)[KEY];
    if (!me || !parent) return null;
    return parent.children.find((c) => c.frame === me || c.frame.contentWindow === window)?.token ?? null;
  } catch {
    return null; // cross-origin parent: only the message can reach us
  }
}

/** Step 3 (reads layout only). Marks the children's tokens as reported. */
export function childFrames(vw: number, vh: number): ChildFrame[] {
  const st = state();
  st.stale = true;
  const out: ChildFrame[] = [];
  for (const { frame, token } of st.children) {
    if (!frame.isConnected) continue;
    const r = frame.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const s = getComputedStyle(frame);
    const px = (v: string) => parseFloat(v) || 0;
    const left = px(s.borderLeftWidth) + px(s.paddingLeft);
    const top = px(s.borderTopWidth) + px(s.paddingTop);
    const box: Rect = {
      x: r.left + left,
      y: r.top + top,
      width: Math.max(0, r.width - left - px(s.borderRightWidth) - px(s.paddingRight)),
      height: Math.max(0, r.height - top - px(s.borderBottomWidth) - px(s.paddingBottom)),
    };
    let visible = clipToViewport({ left: box.x, top: box.y, right: box.x + box.width, bottom: box.y + box.height }, vw, vh);
    if (visible && (!isRendered(frame, s) || isTransparent(frame))) visible = null;
    // pointer-events:none frames let hits through, so only unhittable frames can be tested
    else if (visible && s.pointerEvents !== 'none' && !hitTest(frame, visible, false).point) visible = null;
    out.push({ token, box, visible });
  }
  return out;
}
