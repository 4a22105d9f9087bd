/**
 * The request hold (core/request-hold.ts) in the browser: while a run's tab is attached, the
 * debugger's Fetch domain pauses the requests its page sends that may carry something (documents,
 * which form posts are, XHR, fetch, beacons and pings, event streams, and "Other"), never images,
 * scripts, styles, fonts or media, so ordinary page loads are not slowed by more than one quick
 * judgement per document or API request. Each paused request is judged by the function the run
 * set for its tab (it knows the watched values and the guards): no hit, and it goes on at once;
 * a hit, and it stays paused until the run asks the person, then goes on (releaseHeld) or fails
 * as blocked by the client (blockHeld; a page load is answered 204 No Content, so the tab stays on its page). A tab without a judge lets everything go.
 *
 * Fetch.disable and detaching the debugger let paused requests go on, so stopHolding blocks the
 * tab's held requests first, and a run that ends calls dropHeld (or blockHeld with the list it
 * kept) before it detaches. A request the page no longer waits for (the tab navigated or closed)
 * makes continue / fail answer with an error, which is ignored.
 */
import * as cdp from './cdp';
import { heldOf, type Held, type HeldHit, type OutRequest } from '../core/request-hold';

export type Judge = (req: OutRequest) => HeldHit | null;

/** The resource types paused (CDP Network.ResourceType); the rest never are. */
const HELD_TYPES = ['Document', 'XHR', 'Fetch', 'Ping', 'EventSource', 'Other'];
const patternsOf = (types: string[]) => types.map((resourceType) => ({ urlPattern: '*', resourceType, requestStage: 'Request' }));
/** Page loads only (a form post that sends a card number): what is held while the run watches no value. */
const DOCUMENTS = patternsOf(['Document']);
const ALL = patternsOf(HELD_TYPES);
/** tabs whose every held type is paused (startHolding with `all`) */
const full = new Set<number>();

const judges = new Map<number, Judge>();
/** tab -> its held requests, still paused (`taken`: the run has them) */
const held = new Map<number, Array<{ held: Held; taken: boolean }>>();

interface Paused {
  requestId: string;
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
 * Pauses the tab's outgoing requests for judging: page loads only, or (`all`) every held type: the
 * run asks for all once it has a value to watch (a secret, a typed password or card number), since
 * pausing every API request costs an API-heavy page a round trip each (`npm run bench`, part hold).
 */
export async function startHolding(tabId: number, all: boolean): Promise<void> {
  if (all && full.has(tabId)) return;
  await cdp.send(tabId, 'Fetch.enable', { patterns: all ? ALL : DOCUMENTS });
  if (all) full.add(tabId);
}

/** Ends the pausing; requests still held are blocked first (disabling would let them go). */
export async function stopHolding(tabId: number): Promise<void> {
  full.delete(tabId);
  await dropHeld([tabId]);
  if (cdp.attachedTabs().includes(tabId)) await cdp.send(tabId, 'Fetch.disable').catch(() => undefined);
}

/** The function that judges the tab's requests; null: every request goes on. */
export function setJudge(tabId: number, judge: Judge | null): void {
  if (judge) judges.set(tabId, judge);
  else judges.delete(tabId);
}

chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId === undefined) return;
  judges.delete(source.tabId);
  full.delete(source.tabId);
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

async function answer(tabId: number, method: 'Fetch.continueRequest' | 'Fetch.failRequest' | 'Fetch.fulfillRequest', params: Record<string, unknown>): Promise<void> {
  // Straight to the debugger, not cdp.send: a tab no longer attached is not to be attached again.
  await chrome.debugger.sendCommand({ tabId }, method, params).catch(() => undefined);
}

function paused(tabId: number, p: Paused): void {
  const go = () => answer(tabId, 'Fetch.continueRequest', { requestId: p.requestId });
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
  list.push({ held: heldOf(hit, req, p.requestId, tabId, Date.now()), taken: false });
  held.set(tabId, list);
  for (const w of waiters) w(tabId);
}

/** Told of every request held (settledOrHeld). */
const waiters = new Set<(tabId: number) => void>();

/**
 * Waits for `settling` (an action's settle wait), or less: until one of these tabs holds a
 * request, since a page waiting on a held request does not settle and the question comes first.
 */
export async function settledOrHeld(tabIds: number[], settling: Promise<void>): Promise<void> {
  if (tabIds.some((t) => (held.get(t) ?? []).some((h) => !h.taken))) return;
  let w: (tabId: number) => void = () => undefined;
  const heldNow = new Promise<void>((resolve) => {
    w = (tabId) => { if (tabIds.includes(tabId)) resolve(); };
    waiters.add(w);
  });
  try {
    await Promise.race([settling, heldNow]);
  } finally {
    waiters.delete(w);
  }
}

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (method !== 'Fetch.requestPaused' || source.tabId === undefined) return;
  paused(source.tabId, params as Paused);
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
  for (const h of list) await answer(h.tabId, 'Fetch.continueRequest', { requestId: h.requestId });
}

/** The person said no: they fail (the page sees a network error, net::ERR_BLOCKED_BY_CLIENT). */
export async function blockHeld(list: Held[]): Promise<void> {
  forget(list);
  // A page load answered "204 No Content" does not happen: the tab stays on its page instead of an error page.
  for (const h of list) {
    if (h.document) await answer(h.tabId, 'Fetch.fulfillRequest', { requestId: h.requestId, responseCode: 204, responseHeaders: [] });
    else await answer(h.tabId, 'Fetch.failRequest', { requestId: h.requestId, errorReason: 'BlockedByClient' });
  }
}

/** A run ended: every request its tabs still hold, taken or not, is blocked. */
export async function dropHeld(tabIds: number[]): Promise<void> {
  await blockHeld(tabIds.flatMap((t) => (held.get(t) ?? []).map((h) => h.held)));
}
