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
 * A tab whose downloads are caught (catchDownloads: the download rule is on) also pauses its page
 * loads' responses, at the tab and in every frame in another process (attached as above, at any
 * level): downloads.ts judges each from its headers, before any byte of its body is read.
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
/** Page loads' responses, paused before their body is read: downloads.ts judges them. */
const RESPONSES = { urlPattern: '*', resourceType: 'Document', requestStage: 'Response' };
/** each held tab's level now */
const levels = new Map<number, HoldLevel>();
/** tabs whose page loads' responses are paused for downloads.ts */
const catching = new Set<number>();
/** each tab's patterns as last set (Fetch.enable is sent again only when they change) */
const patternsSet = new Map<number, string>();
/** each tab's child sessions (frames in other processes, workers, service workers) held too */
const children = new Map<number, Set<string>>();

const judges = new Map<number, Judge>();
/** tab -> its held requests, still paused (`taken`: the run has them) */
const held = new Map<number, Array<{ held: Held; taken: boolean }>>();

/** A paused page load's response (Fetch's response stage), as downloads.ts judges it. */
export interface PausedResponse {
  tabId: number;
  sessionId?: string;
  requestId: string;
  /** present for a navigation; absent for the browser's own download request */
  networkId?: string;
  url: string;
  status: number;
  headers: Array<{ name: string; value: string }>;
}

/** What downloads.ts does with paused responses: judges each (it answers every one), and blocks those it holds when the tab is let go. */
export interface ResponseHandler {
  paused(r: PausedResponse): void;
  drop(tabIds: number[]): Promise<void>;
  /** how many it holds for these tabs that the run has not taken yet */
  waiting(tabIds: number[]): number;
}
let responses: ResponseHandler | null = null;

export function handleResponses(h: ResponseHandler): void {
  responses = h;
}

/** The document URL of a child session's frame (a frame in another process), when known. */
export function frameUrlOf(sessionId: string | undefined): string | undefined {
  return sessionId ? sessionUrls.get(sessionId) : undefined;
}

/** each child session's document URL (a frame in another process) */
const sessionUrls = new Map<string, string>();
/** each child session's target id (a frame in another process: its frame id) */
const sessionTargets = new Map<string, string>();

interface Paused {
  requestId: string;
  networkId?: string;
  responseStatusCode?: number;
  responseErrorReason?: string;
  responseHeaders?: Array<{ name: string; value: string }>;
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

/** The Fetch patterns for the tab now: its level's requests, and its page loads and their responses when downloads are caught. */
function patternsFor(tabId: number): unknown[] {
  const level = levels.get(tabId);
  // every level pauses page loads already; caught downloads need them to know what is on its way (loadsInFlight)
  const requests = level ? PATTERNS[level] : catching.has(tabId) ? PATTERNS.documents : [];
  return [...requests, ...(catching.has(tabId) ? [RESPONSES] : [])];
}

/** page loads of a tab whose downloads are caught, sent and not answered yet (by session and request id) */
const inFlight = new Map<string, { tabId: number; at: number }>();
/** How long a page load counts as on its way: one that takes longer is no action's download. */
const IN_FLIGHT_MS = 3_000;

/**
 * How many page loads of these tabs (their frames' included) were sent in the last IN_FLIGHT_MS
 * and have no answer yet: any may turn out to be a download (a `download` link's request has no
 * other sign), so an action's downloads are taken once they are answered (downloads.ts).
 */
export function loadsInFlight(tabIds: number[]): number {
  const old = Date.now() - IN_FLIGHT_MS;
  let n = 0;
  for (const [key, l] of inFlight) {
    if (l.at < old) inFlight.delete(key);
    else if (tabIds.includes(l.tabId)) n++;
  }
  return n;
}

/** Frames in other processes (and workers, service workers) are attached: at 'every', or when downloads are caught. */
const attachesChildren = (tabId: number) => levels.get(tabId) === 'every' || catching.has(tabId);

/**
 * A child waits for us at its start only at 'every' (a value in the page: none of its requests may
 * go before the hold is on in it). Catching downloads alone does not make it wait: a frame that
 * waits at its start for a client whose attach the browser never announced (seen when a frame
 * of another site was on its way as the run began) would never load.
 */
const waitsAtStart = (tabId: number) => levels.get(tabId) === 'every';

/** Sets the tab's patterns, in it and in every child session it has. */
async function apply(tabId: number): Promise<void> {
  const patterns = patternsFor(tabId);
  const key = JSON.stringify(patterns);
  if (patternsSet.get(tabId) === key) return;
  await cdp.send(tabId, 'Fetch.enable', { patterns });
  patternsSet.set(tabId, key);
  for (const sessionId of children.get(tabId) ?? []) await chrome.debugger.sendCommand({ tabId, sessionId }, 'Fetch.enable', { patterns }).catch(() => undefined);
  // Frames in other processes, workers and service workers: each a child session, held the same way.
  if (attachesChildren(tabId)) await cdp.send(tabId, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: waitsAtStart(tabId), flatten: true });
}

/**
 * Pauses the tab's outgoing requests for judging, at `level` or the level it has if higher (see
 * the module's comment): pausing more costs an API-heavy page a round trip a request (`npm run
 * bench`, part hold), so the run asks for more only once it has more to watch.
 */
export async function startHolding(tabId: number, level: HoldLevel, downloads = false): Promise<void> {
  const had = levels.get(tabId);
  const caught = catching.has(tabId);
  if (had && RANK[had] >= RANK[level] && (caught || !downloads)) return;
  if (!had || RANK[had] < RANK[level]) levels.set(tabId, level);
  if (downloads) catching.add(tabId);
  // one Fetch.enable for both (a frame's load on its way as the patterns change twice was seen lost)
  await apply(tabId).catch((err) => {
    if (had) levels.set(tabId, had);
    else levels.delete(tabId);
    if (!caught) catching.delete(tabId);
    throw err;
  });
}

/** Pauses the responses of the tab's page loads, in every frame, for downloads.ts to judge before any byte lands. */
export async function catchDownloads(tabId: number): Promise<void> {
  if (catching.has(tabId)) return;
  catching.add(tabId);
  await apply(tabId).catch((err) => {
    catching.delete(tabId);
    throw err;
  });
}

/** Ends the pausing; requests and responses still held are blocked first (disabling would let them go). */
export async function stopHolding(tabId: number): Promise<void> {
  const attached = attachesChildren(tabId);
  levels.delete(tabId);
  catching.delete(tabId);
  patternsSet.delete(tabId);
  await dropHeld([tabId]);
  await responses?.drop([tabId]).catch(() => undefined);
  if (!cdp.attachedTabs().includes(tabId)) return;
  if (attached) await cdp.send(tabId, 'Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }).catch(() => undefined);
  for (const sessionId of children.get(tabId) ?? []) {
    await chrome.debugger.sendCommand({ tabId, sessionId }, 'Fetch.disable').catch(() => undefined);
    sessionUrls.delete(sessionId);
    sessionTargets.delete(sessionId);
  }
  children.delete(tabId);
  await cdp.send(tabId, 'Fetch.disable').catch(() => undefined);
}

/** The level the tab is held at (null: not held). */
export function holdLevel(tabId: number): HoldLevel | null {
  return levels.get(tabId) ?? null;
}

/**
 * A child target attached (a frame in another process, a worker, a service worker): Fetch on in
 * it with the tab's patterns, Page on in a frame (its downloads are announced there: downloads.ts),
 * its own children attached the same way, then it runs (it waits for us at its start, so no
 * request of it goes before the hold is on). A child of a tab no longer held just runs.
 */
async function childAttached(tabId: number, sessionId: string, info: { type?: string; url?: string; targetId?: string }): Promise<void> {
  const child = { tabId, sessionId };
  if (attachesChildren(tabId)) {
    const set = children.get(tabId) ?? new Set<string>();
    set.add(sessionId);
    children.set(tabId, set);
    if (info.url) sessionUrls.set(sessionId, info.url);
    if (info.targetId) sessionTargets.set(sessionId, info.targetId);
    await chrome.debugger.sendCommand(child, 'Fetch.enable', { patterns: patternsFor(tabId) }).catch(() => undefined);
    await chrome.debugger.sendCommand(child, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: waitsAtStart(tabId), flatten: true }).catch(() => undefined);
  }
  await chrome.debugger.sendCommand(child, 'Runtime.runIfWaitingForDebugger').catch(() => undefined);
  // Page answers only once the frame runs: on after it (a download the frame begins later is announced there)
  if (attachesChildren(tabId) && info.type === 'iframe') await chrome.debugger.sendCommand(child, 'Page.enable').catch(() => undefined);
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
  catching.delete(source.tabId);
  patternsSet.delete(source.tabId);
  for (const s of children.get(source.tabId) ?? []) { sessionUrls.delete(s); sessionTargets.delete(s); }
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
  const key = `${p.sessionId ?? ''}|${p.requestId}`;
  if (p.resourceType === 'Document' && catching.has(tabId)) {
    if (p.responseStatusCode === undefined && p.responseErrorReason === undefined) inFlight.set(key, { tabId, at: Date.now() });
    else inFlight.delete(key);
  }
  if (p.responseStatusCode !== undefined || p.responseErrorReason !== undefined) {
    // a page load's response (catchDownloads): downloads.ts answers it
    if (!responses || p.responseErrorReason !== undefined) { void answer(tabId, p.sessionId, 'Fetch.continueRequest', { requestId: p.requestId }); return; }
    responses.paused({
      tabId, requestId: p.requestId, url: p.request.url, status: p.responseStatusCode!, headers: p.responseHeaders ?? [],
      ...(p.sessionId ? { sessionId: p.sessionId } : {}), ...(p.networkId ? { networkId: p.networkId } : {}),
    });
    return;
  }
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

const waitingCount = (tabIds: number[]) => tabIds.reduce((n, t) => n + (held.get(t) ?? []).filter((h) => !h.taken).length, 0) + (responses?.waiting(tabIds) ?? 0);

/** downloads.ts holds a response of the tab: an action's settle wait ends for the question (settledOrHeld). */
export function heldResponse(tabId: number): void {
  for (const w of waiters) w(tabId);
}

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
  else if (method === 'Target.attachedToTarget') {
    const p = params as { sessionId: string; targetInfo?: { type?: string; url?: string; targetId?: string } };
    void childAttached(source.tabId, p.sessionId, p.targetInfo ?? {});
  } else if (method === 'Target.detachedFromTarget') {
    const gone = (params as { sessionId: string }).sessionId;
    children.get(source.tabId)?.delete(gone);
    sessionUrls.delete(gone);
    sessionTargets.delete(gone);
  } else if (method === 'Page.frameNavigated' && sessionId) {
    // a frame in another process loaded another document: its site is the next download's
    const frame = (params as { frame?: { id?: string; url?: string } }).frame;
    if (frame?.url && frame.id === sessionTargets.get(sessionId)) sessionUrls.set(sessionId, frame.url);
  }
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
