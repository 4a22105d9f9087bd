/**
 * The request hold (core/guards/request-hold.ts) in the browser: the debugger's Fetch domain pauses the
 * requests a run's tab sends, each is judged by the function the run set for its tab (it knows
 * the watched values, their destinations and the guards): no hit, and it goes on at once; a hit,
 * and it stays paused until the run asks the person, then goes on (releaseHeld) or fails as
 * blocked by the client (blockHeld; a page load is answered 204 No Content, so the tab stays on its
 * page). A tab without a judge lets everything go. What is paused grows with what there is to
 * watch (startHolding):
 *
 * - 'documents': page loads only (a form post that carries a card number under its key);
 * - 'carriers': the kinds that can carry data in a body (documents, XHR, fetch, beacons and pings,
 *   event streams, "Other"): a Settings secret not typed yet is looked for in them;
 * - 'every': every request of every type (images, scripts, styles, fonts, media, prefetches the
 *   renderer makes…) of the tab's page, and of its frames in other processes, its workers and the
 *   service workers that control it, each attached as a child session (Target.setAutoAttach,
 *   flat, paused at start until Fetch is on in it): once a value is in the page, a request to
 *   another destination is held whatever it carries. What Fetch cannot pause (WebSocket
 *   handshakes, the browser's own prefetches) is refused (refuse.ts).
 *
 * Fetch.disable and detaching the debugger let paused requests go on, so stopHolding blocks the
 * tab's held requests first, and a run that ends calls dropHeld (or blockHeld with the list it
 * kept) before it detaches. A request the page no longer waits for (the tab navigated or closed)
 * makes continue / fail answer with an error, which is ignored.
 */
import * as cdp from './cdp';
import { heldOf, type Held, type HeldHit, type OutRequest } from '../core/guards/request-hold';

export type Judge = (req: OutRequest) => HeldHit | null;

export type HoldLevel = 'documents' | 'carriers' | 'every';
const RANK: Record<HoldLevel, number> = { documents: 0, carriers: 1, every: 2 };

/** The resource types that can carry data in a body (CDP Network.ResourceType). */
const CARRIERS = ['Document', 'XHR', 'Fetch', 'Ping', 'EventSource', 'Other'];
const patternsOf = (types: string[]) => types.map((resourceType) => ({ urlPattern: '*', resourceType, requestStage: 'Request' }));
const PATTERNS: Record<HoldLevel, unknown[]> = {
  documents: patternsOf(['Document']),
  carriers: patternsOf(CARRIERS),
  every: [{ urlPattern: '*', requestStage: 'Request' }],
};
/** each held tab's level now */
const levels = new Map<number, HoldLevel>();
/** each tab's child sessions (frames in other processes, workers, service workers) held too */
const children = new Map<number, Set<string>>();

const judges = new Map<number, Judge>();
/** tab -> its held requests, still paused (`taken`: the run has them) */
const held = new Map<number, Array<{ held: Held; taken: boolean }>>();

interface Paused {
  requestId: string;
  /** the child session it came from (absent: the tab's page) */
  sessionId?: string;
  resourceType?: string;
  request: {
    url: string;
    method: string;
    postData?: string;
    hasPostData?: boolean;
    postDataEntries?: Array<{ bytes?: string }>;
  };
}

/**
 * Pauses the tab's outgoing requests for judging, at `level` or the level it has if higher (see
 * the module's comment): pausing more costs an API-heavy page a round trip a request (`npm run
 * bench`, part hold), so the run asks for more only once it has more to watch.
 */
export async function startHolding(tabId: number, level: HoldLevel): Promise<void> {
  const had = levels.get(tabId);
  if (had && RANK[had] >= RANK[level]) return;
  await cdp.send(tabId, 'Fetch.enable', { patterns: PATTERNS[level] });
  levels.set(tabId, level);
  // Frames in other processes, workers and service workers: each a child session, held the same way.
  if (level === 'every') await cdp.send(tabId, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
}

/** Ends the pausing; requests still held are blocked first (disabling would let them go). */
export async function stopHolding(tabId: number): Promise<void> {
  const level = levels.get(tabId);
  levels.delete(tabId);
  await dropHeld([tabId]);
  if (!cdp.attachedTabs().includes(tabId)) return;
  if (level === 'every') await cdp.send(tabId, 'Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }).catch(() => undefined);
  for (const sessionId of children.get(tabId) ?? []) await chrome.debugger.sendCommand({ tabId, sessionId }, 'Fetch.disable').catch(() => undefined);
  children.delete(tabId);
  await cdp.send(tabId, 'Fetch.disable').catch(() => undefined);
}

/** The level the tab is held at (null: not held). */
export function holdLevel(tabId: number): HoldLevel | null {
  return levels.get(tabId) ?? null;
}

/**
 * A child target attached (a frame in another process, a worker, a service worker): Fetch on in
 * it, its own children attached the same way, then it runs (it waits for us at its start, so no
 * request of it goes before the hold is on). A child of a tab no longer held just runs.
 */
async function childAttached(tabId: number, sessionId: string): Promise<void> {
  const child = { tabId, sessionId };
  if (levels.get(tabId) === 'every') {
    const set = children.get(tabId) ?? new Set<string>();
    set.add(sessionId);
    children.set(tabId, set);
    await chrome.debugger.sendCommand(child, 'Fetch.enable', { patterns: PATTERNS.every }).catch(() => undefined);
    await chrome.debugger.sendCommand(child, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }).catch(() => undefined);
  }
  await chrome.debugger.sendCommand(child, 'Runtime.runIfWaitingForDebugger').catch(() => undefined);
}

/** The function that judges the tab's requests; null: every request goes on. */
export function setJudge(tabId: number, judge: Judge | null): void {
  if (judge) judges.set(tabId, judge);
  else judges.delete(tabId);
}

chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId === undefined) return;
  judges.delete(source.tabId);
  levels.delete(source.tabId);
  children.delete(source.tabId);
  held.delete(source.tabId);
});

/** The body's text: postData, else its entries' bytes (base64) read as UTF-8. */
function bodyOf(r: Paused['request']): string | null {
  if (typeof r.postData === 'string') return r.postData;
  const entries = r.postDataEntries ?? [];
  if (!entries.length) return null;
  const parts = entries.map((e) => {
    if (!e.bytes) return new Uint8Array(0);
    const bin = atob(e.bytes);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  });
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { all.set(p, at); at += p.length; }
  return new TextDecoder('utf-8').decode(all);
}

async function answer(tabId: number, sessionId: string | undefined, method: 'Fetch.continueRequest' | 'Fetch.failRequest' | 'Fetch.fulfillRequest', params: Record<string, unknown>): Promise<void> {
  // Straight to the debugger, not cdp.send: a tab no longer attached is not to be attached again.
  await chrome.debugger.sendCommand(sessionId ? { tabId, sessionId } : { tabId }, method, params).catch(() => undefined);
}

function paused(tabId: number, p: Paused): void {
  const go = () => answer(tabId, p.sessionId, 'Fetch.continueRequest', { requestId: p.requestId });
  const judge = judges.get(tabId);
  if (!judge || !p.request) { void go(); return; }
  let req: OutRequest | null = null;
  let hit: HeldHit | null = null;
  try {
    req = { url: p.request.url, method: p.request.method, body: bodyOf(p.request), resourceType: p.resourceType };
    hit = judge(req);
  } catch (err) {
    // A judge that fails must not hang the page: the request goes on, and the error is logged.
    console.warn('request hold: judging failed', err);
  }
  if (!hit || !req) { void go(); return; }
  const list = held.get(tabId) ?? [];
  list.push({ held: heldOf(hit, req, p.requestId, tabId, Date.now(), p.sessionId), taken: false });
  held.set(tabId, list);
  for (const w of waiters) w(tabId);
}

/** Told of every request held (settledOrHeld). */
const waiters = new Set<(tabId: number) => void>();

/** After the first held request, the others the same burst sends are gathered into one question: until none came for QUIET_MS, at most GATHER_MS. */
const QUIET_MS = 200;
const GATHER_MS = 1_000;

const waitingCount = (tabIds: number[]) => tabIds.reduce((n, t) => n + (held.get(t) ?? []).filter((h) => !h.taken).length, 0);

/**
 * Waits for `settling` (an action's settle wait), or less: until one of these tabs holds a
 * request, since a page waiting on a held request does not settle and the question comes first;
 * then a moment more while the page's other channels (its frames, workers, images…) are held too,
 * so one question covers them.
 */
export async function settledOrHeld(tabIds: number[], settling: Promise<void>): Promise<void> {
  let w: (tabId: number) => void = () => undefined;
  const heldNow = waitingCount(tabIds) > 0 ? Promise.resolve() : new Promise<void>((resolve) => {
    w = (tabId) => { if (tabIds.includes(tabId)) resolve(); };
    waiters.add(w);
  });
  let first = false;
  try {
    await Promise.race([settling, heldNow.then(() => { first = true; })]);
  } finally {
    waiters.delete(w);
  }
  if (!first) return;
  const until = Date.now() + GATHER_MS;
  for (let n = waitingCount(tabIds); Date.now() < until;) {
    await new Promise((r) => setTimeout(r, QUIET_MS));
    const now = waitingCount(tabIds);
    if (now === n) return;
    n = now;
  }
}

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (source.tabId === undefined) return;
  const sessionId = (source as { sessionId?: string }).sessionId;
  if (method === 'Fetch.requestPaused') paused(source.tabId, { ...(params as Paused), ...(sessionId ? { sessionId } : {}) });
  else if (method === 'Target.attachedToTarget') void childAttached(source.tabId, (params as { sessionId: string }).sessionId);
  else if (method === 'Target.detachedFromTarget') children.get(source.tabId)?.delete((params as { sessionId: string }).sessionId);
});

/** The requests these tabs hold that the run has not taken yet (they stay paused). */
export function takeHeld(tabIds: number[]): Held[] {
  const out: Held[] = [];
  for (const t of tabIds) {
    for (const h of held.get(t) ?? []) {
      if (h.taken) continue;
      h.taken = true;
      out.push(h.held);
    }
  }
  return out;
}

function forget(list: Held[]): void {
  for (const h of list) {
    const left = (held.get(h.tabId) ?? []).filter((x) => x.held.requestId !== h.requestId);
    if (left.length) held.set(h.tabId, left);
    else held.delete(h.tabId);
  }
}

/** The person let them go: they are sent as the page made them. */
export async function releaseHeld(list: Held[]): Promise<void> {
  forget(list);
  for (const h of list) await answer(h.tabId, h.sessionId, 'Fetch.continueRequest', { requestId: h.requestId });
}

/** The person said no: they fail (the page sees a network error, net::ERR_BLOCKED_BY_CLIENT). */
export async function blockHeld(list: Held[]): Promise<void> {
  forget(list);
  // A page load answered "204 No Content" does not happen: the tab stays on its page instead of an error page.
  for (const h of list) {
    if (h.document) await answer(h.tabId, h.sessionId, 'Fetch.fulfillRequest', { requestId: h.requestId, responseCode: 204, responseHeaders: [] });
    else await answer(h.tabId, h.sessionId, 'Fetch.failRequest', { requestId: h.requestId, errorReason: 'BlockedByClient' });
  }
}

/** A run ended: every request its tabs still hold, taken or not, is blocked. */
export async function dropHeld(tabIds: number[]): Promise<void> {
  await blockHeld(tabIds.flatMap((t) => (held.get(t) ?? []).map((h) => h.held)));
}
