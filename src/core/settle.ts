/**
 * Settling before an observation (docs/labeling.md, "Settling"): what the page is waited for
 * before it is labelled and shown to the model, the caps, and the report of the wait.
 *
 * 1. custom elements defined: no `:not(:defined)` element left in the document and its open
 *    shadow roots (a web-component library that loads late leaves raw, un-upgraded elements);
 *    tag names still undefined at the cap are given up for this document (a typo'd tag, a library
 *    that failed) and never waited for again;
 *    then, once they are, components rendered: no custom element left hidden while its context
 *    is visible (a lazily loaded library defines every tag at once and keeps each component
 *    `visibility: hidden` until its code has arrived and it rendered: Stencil's hydrated flag),
 *    in or near the viewport; the wait stops when that set has not shrunk for RENDER_STALL_MS
 *    (a component hidden for good: a closed popup), and the tag names hidden that long are given
 *    up for this document; when something rendered meanwhile, a short DOM and layout quiet window follows;
 * 2. the document's fonts ready (document.fonts.ready), capped;
 * 3. a short network-quiet window: no resource finished in the last NETWORK_QUIET_MS (Resource
 *    Timing sees finished requests only), capped.
 * The three run side by side, and the whole wait is capped (READY_CAP_MS).
 */

export const READY_CAP_MS = 4000;
export const FONTS_CAP_MS = 1500;
export const NETWORK_QUIET_MS = 250;
export const NETWORK_CAP_MS = 1500;
/** how often the document is checked for undefined (or not yet rendered) elements while waiting */
export const DEFINED_POLL_MS = 50;
/** the wait for components to render stops when none has rendered (nor a resource finished) for this long */
export const RENDER_STALL_MS = 400;
/** after something rendered: the DOM (document and components' open shadow roots) and the rendered boxes quiet this long */
export const RENDER_QUIET_MS = 150;
/** …at most this long (a page that never stops changing, a clock, costs no more) */
export const RENDER_QUIET_CAP_MS = 600;
/** how far outside the viewport a component still counts as "near" it (CSS px, each side) */
export const RENDER_NEAR_PX = 200;

export interface SettleReport {
  /** the whole wait (ms), load included */
  ms: number;
  /** waiting for the tab's load to complete (ms) */
  load: number;
  /** waiting for custom elements (ms); `pending`: tag names still undefined at the cap */
  defined: { ms: number; pending: string[] };
  /**
   * waiting for components to render (ms, after `defined`, the quiet window included): `waited`,
   * the tag names of the components hidden before they rendered when the wait began; `pending`,
   * those still hidden at its end (given up for the document when hidden for RENDER_STALL_MS); `quietMs`,
   * the DOM and layout quiet window after something rendered (0: nothing did)
   */
  rendered: { ms: number; waited: string[]; pending: string[]; quietMs: number };
  fonts: { ms: number; ok: boolean };
  network: { ms: number; quiet: boolean };
}

/** Each part's cap within a total cap (no part waits past the whole). */
export function partCaps(capMs: number): { defined: number; fonts: number; network: number } {
  const cap = Math.max(0, capMs);
  return { defined: cap, fonts: Math.min(FONTS_CAP_MS, cap), network: Math.min(NETWORK_CAP_MS, cap) };
}

/** The undefined tag names worth waiting for: distinct, sorted, without those given up. */
export function pendingTags(localNames: Iterable<string>, givenUp: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const n of localNames) if (!givenUp.has(n)) out.add(n);
  return Array.from(out).sort();
}

/** When the network counts as quiet: NETWORK_QUIET_MS after the last finished request (performance.now ms). */
export function quietAt(lastFinished: number): number {
  return lastFinished + NETWORK_QUIET_MS;
}

/** The report of a rendered part that had nothing to wait for. */
export function nothingRendered(): SettleReport['rendered'] {
  return { ms: 0, waited: [], pending: [], quietMs: 0 };
}

/** What the page tells of one custom element (read lazily, only as far as needed). */
export interface ComponentLook {
  /** its computed visibility */
  visibility: string;
  /** its composed parent's (the slot it is assigned to, its parent element, or its shadow root's host); null: none */
  parentVisibility: string | null;
  /** :defined (an undefined one is the defined part's) */
  defined: boolean;
  /** it has a box (checkVisibility: no display:none or content-visibility:hidden on the way up) */
  boxed: boolean;
  /** its border box (client coordinates) */
  rect: { left: number; top: number; right: number; bottom: number };
}

/**
 * A component not rendered yet: a defined custom element whose own visibility is hidden while its
 * composed parent's is visible (so it is the component that hides itself, not a hidden context),
 * with a box in or near the viewport (a box of no size counts: a host is often empty until it
 * renders). Tag names given up are not waited for.
 */
export function awaitsRender(localName: string, look: () => ComponentLook, vw: number, vh: number, givenUp: ReadonlySet<string>): boolean {
  if (!localName.includes('-') || givenUp.has(localName)) return false;
  const l = look();
  if (l.visibility === 'visible' || l.parentVisibility !== 'visible' || !l.defined || !l.boxed) return false;
  return nearViewport(l.rect, vw, vh);
}

/** A box in the viewport grown by RENDER_NEAR_PX each side (edges touching count; a box of no size too). */
export function nearViewport(r: ComponentLook['rect'], vw: number, vh: number, near = RENDER_NEAR_PX): boolean {
  return r.right >= -near && r.bottom >= -near && r.left <= vw + near && r.top <= vh + near;
}

/** Some element of the earlier set is not in the later one: it rendered (or went away, or out of view). */
export function shrank<T>(before: ReadonlySet<T>, after: ReadonlySet<T>): boolean {
  for (const x of before) if (!after.has(x)) return true;
  return false;
}

/** checks without progress before the wait counts as stalled (as many as RENDER_STALL_MS holds) */
export const RENDER_STALL_POLLS = Math.ceil(RENDER_STALL_MS / DEFINED_POLL_MS);

/**
 * Whether to go on waiting for components to render: `done` when none is pending; `stalled` when
 * none rendered (and no resource finished: a component's code arriving) for RENDER_STALL_MS and
 * over RENDER_STALL_POLLS checks (a busy page's timers run late, ours too: one late check is not
 * a stall); `cap` at the part's cap; else `wait`.
 */
export function renderVerdict(o: { pending: number; elapsed: number; sinceProgress: number; pollsSinceProgress: number; capMs: number }): 'done' | 'stalled' | 'cap' | 'wait' {
  if (o.pending === 0) return 'done';
  if (o.sinceProgress >= RENDER_STALL_MS && o.pollsSinceProgress >= RENDER_STALL_POLLS) return 'stalled';
  if (o.elapsed >= o.capMs) return 'cap';
  return 'wait';
}

/**
 * The tag names to give up for the document when the wait ends (stalled or at the cap): those of
 * the components that stayed hidden through at least RENDER_STALL_MS of it (`hiddenMs`: how long
 * each was seen hidden), so a component hidden for good (a closed popup, a steady trickle of
 * requests keeping the stall away) costs one wait, not one on every observation; one found only
 * just before the end (the cap cut a short wait, after a slow library was defined) is waited for
 * again next time.
 */
export function renderGiveUp(pending: Iterable<{ tag: string; hiddenMs: number }>): string[] {
  const out = new Set<string>();
  for (const p of pending) if (p.hiddenMs >= RENDER_STALL_MS) out.add(p.tag);
  return Array.from(out).sort();
}

/** The quiet window after something rendered, within what is left of the cap: 0 when nothing rendered. */
export function renderQuietCap(renderedAny: boolean, leftMs: number): number {
  return renderedAny ? Math.max(0, Math.min(RENDER_QUIET_CAP_MS, leftMs)) : 0;
}

/*
 * After an action (src/background/settle.ts settleAction, content-scripts/settle.ts waitForQuiet):
 * wait for what the action set going, not for a fixed pause. What it may set going is seen as it
 * happens: the tab's top document navigating (a new document to wait for), a new tab or window
 * announced, requests the page sent since the input still in flight, and in the page, a DOM that
 * changes, a scroll that moves, a transition or animation that is about to end. When none of these
 * shows within a frame or two, nothing is waited for. The observation's own settle (above) then
 * adds the page a person would see (components, fonts, network quiet).
 */

/** the DOM (and scrolling) quiet this long after the last change, once something changed */
export const ACTION_QUIET_MS = 100;
/** …at most this long in the page (a page that never stops changing, a ticker) */
export const ACTION_QUIET_CAP_MS = 2000;
/** requests sent since the input are waited for until they end, each at most this long after it began (a long poll) */
export const ACTION_REQUESTS_CAP_MS = 3000;
/** a new tab or window announced by the page (window.open, a target=_blank link): at most this long for the browser to open it */
export const ACTION_NEW_TAB_MS = 2000;
/** a transition or animation running in the page is waited for when it ends within this long */
export const ACTION_ANIMATION_CAP_MS = 1000;
/** how many times the checks are gone through while each round sets something new going */
export const ACTION_ROUNDS = 4;
/**
 * Before deciding that the page did not react, at most this long for a first sign (a request, a
 * navigation): typing (search fields fetch their suggestions after a pause in the keys, 150–300 ms
 * on common sites) and hovering (menus open after a hover-intent delay) react late; other actions
 * react at once. A caller that does not know when the input happened (settle) uses it too.
 */
export const ACTION_LOOK_MS = 300;
/** `Wait` (glm-web's "Wait" and glm-pc's WAIT() are 5 seconds in their prompts): this long, then the observation */
export const WAIT_MS = 5000;

/** How long to look for the page's first reaction to this kind of action before the checks (0: none). */
export function lookMs(actionType: string): number {
  return actionType === 'type' || actionType === 'hover' ? ACTION_LOOK_MS : 0;
}

/**
 * Request types (CDP Network.ResourceType) an action's settle never waits for: streams that stay
 * open (event streams, web sockets, media), fire-and-forget beacons and reports, prefetches.
 */
const UNAWAITED = new Set(['EventSource', 'WebSocket', 'Media', 'Ping', 'CSPViolationReport', 'Prefetch', 'SignedExchange']);

/** Whether a request of this type, still in flight, is waited for after an action. */
export function awaitedRequest(type: string | undefined): boolean {
  return !UNAWAITED.has(type ?? 'Other');
}

/** Requests still waited for: in flight, begun less than ACTION_REQUESTS_CAP_MS before `now` (their start times). */
export function requestsPending(started: Iterable<number>, now: number): number {
  let n = 0;
  for (const t of started) if (now - t < ACTION_REQUESTS_CAP_MS) n++;
  return n;
}

/** An animation or transition worth waiting for: running, finite, ending within ACTION_ANIMATION_CAP_MS. */
export function animationToWait(a: { playState: string; remainingMs: number }): boolean {
  return a.playState === 'running' && Number.isFinite(a.remainingMs) && a.remainingMs > 0 && a.remainingMs <= ACTION_ANIMATION_CAP_MS;
}
