/**
 * Downloads a run's tab starts, from any of its frames (a frame of another site, in its own
 * process, included), held for the run's download guard (core/guards/after.ts). Two ways in:
 *
 * - At the response (hold.ts, catchDownloads): a page load's response that would be a download
 *   (core/guards/download-response.ts: an attachment, the answer to a `download` link, a type the
 *   browser does not show) is held before any byte of its body is read. Yes: it goes on and the
 *   browser saves it. No: it fails, and nothing is written.
 * - When the browser begins it, for what no response shows (a file the page made itself: a blob or
 *   data URL) and what the response hold missed: the debugger's Page.downloadWillBegin says which
 *   tab (and frame) it came from; chrome.downloads.onCreated pauses the browser's download at once
 *   and keeps it paused when it is the run's, resumes it at once when not; and
 *   chrome.downloads.onDeterminingFilename keeps it from getting its name, so it is never a file
 *   of the Downloads folder while the person is asked. A file the page made is written by the
 *   browser as the download begins, whole, to a hidden temporary file: an extension cannot stop
 *   that (the debugger's download settings are refused to extensions). No: it is cancelled and
 *   erased, and the temporary file goes with it.
 *
 * Downloads a run never got to ask about are undone when it ends.
 */
import * as cdp from './cdp';
import { frameUrlOf, handleResponses, heldResponse, loadsInFlight, type PausedResponse } from './hold';
import { downloadOfResponse } from '../core/guards/download-response';
import { destinationOf } from '../core/site';
import type { DownloadNote } from '../core/run';

/** How long a download and its debugger announcement may be apart. */
const MATCH_MS = 3_000;
/** How long a yes or a no about a held response applies to the browser's download of its URL. */
const DECIDED_MS = 30_000;

interface Announced { tabId: number; url: string; filename: string; site?: string; at: number; id: number | null }

const announced: Announced[] = [];
/** tab -> its downloads caught and not yet taken by its run */
const caught = new Map<number, DownloadNote[]>();
/** downloads paused while we look whose they are */
const deciding = new Set<number>();
/** the browser's downloads of a run, kept from their name (onDeterminingFilename) until the person decides */
const naming = new Map<number, () => void>();

/** A response held before its body (id < 0 in its DownloadNote). */
interface HeldResponse { tabId: number; sessionId?: string; requestId: string; url: string }
const responsesHeld = new Map<number, HeldResponse>();
let nextHeld = -1;
/** URLs of held responses the person let go (the browser's download of it is theirs) or refused (what the browser makes of it is erased), until when */
const allowed = new Map<string, number>();
const refused = new Map<string, number>();

function prune(): void {
  const old = Date.now() - 60_000;
  while (announced.length && announced[0].at < old) announced.shift();
  for (const m of [allowed, refused]) for (const [u, until] of m) if (until < Date.now()) m.delete(u);
}

/** The site a download comes from (core/site.ts destinationOf): its URL's (a blob's, its page's), else its frame's. */
function siteOf(url: string, frameUrl?: string): string | undefined {
  return destinationOf(url.startsWith('blob:') ? url.slice(5) : url) ?? (frameUrl ? destinationOf(frameUrl) : null) ?? undefined;
}

function answer(h: HeldResponse, method: string, params: Record<string, unknown>): Promise<void> {
  // Straight to the debugger, not cdp.send: a tab no longer attached is not to be attached again.
  return chrome.debugger.sendCommand(h.sessionId ? { tabId: h.tabId, sessionId: h.sessionId } : { tabId: h.tabId }, method, params).then(() => undefined, () => undefined);
}

function responsePaused(r: PausedResponse): void {
  prune();
  const d = downloadOfResponse({ url: r.url, status: r.status, headers: r.headers, navigation: r.networkId !== undefined });
  const go = { requestId: r.requestId };
  const held: HeldResponse = { tabId: r.tabId, requestId: r.requestId, url: r.url, ...(r.sessionId ? { sessionId: r.sessionId } : {}) };
  if (!d || allowed.has(r.url)) { void answer(held, 'Fetch.continueRequest', go); return; }
  const id = nextHeld--;
  responsesHeld.set(id, held);
  const site = siteOf(r.url);
  const note: DownloadNote = {
    id, url: r.url, filename: d.filename, ...(d.size !== undefined ? { size: d.size } : {}), ...(d.type ? { type: d.type } : {}), ...(site ? { site } : {}),
    held: { tabId: r.tabId, requestId: r.requestId, ...(r.sessionId ? { sessionId: r.sessionId } : {}) },
  };
  caught.set(r.tabId, [...(caught.get(r.tabId) ?? []), note]);
  heldResponse(r.tabId);
}

/** Where a held response is: kept here, or (a worker restarted since) as its note says. */
function heldOfNote(d: DownloadNote): HeldResponse | undefined {
  const h = responsesHeld.get(d.id);
  responsesHeld.delete(d.id);
  return h ?? (d.held ? { ...d.held, url: d.url } : undefined);
}

/** Lets held responses go: the browser saves them (and they are not caught again when it begins). */
async function releaseResponses(list: DownloadNote[]): Promise<void> {
  for (const d of list) {
    const h = heldOfNote(d);
    if (!h) continue;
    allowed.set(h.url, Date.now() + DECIDED_MS);
    await answer(h, 'Fetch.continueRequest', { requestId: h.requestId });
  }
}

/** Fails held responses: nothing is written (the frame stays on its page); what the browser makes of a refused download request is erased. */
async function refuse(h: HeldResponse): Promise<void> {
  refused.set(h.url, Date.now() + DECIDED_MS);
  await answer(h, 'Fetch.failRequest', { requestId: h.requestId, errorReason: 'Aborted' });
}

async function refuseResponses(list: DownloadNote[]): Promise<void> {
  for (const d of list) {
    const h = heldOfNote(d);
    if (h) await refuse(h);
  }
}

/** Every response these tabs hold fails, taken by the run or not (and leaves the run's list). */
async function refuseHeldOf(tabIds: number[]): Promise<void> {
  const mine = [...responsesHeld].filter(([, h]) => tabIds.includes(h.tabId));
  for (const [id] of mine) responsesHeld.delete(id);
  for (const t of tabIds) {
    const left = (caught.get(t) ?? []).filter((d) => !mine.some(([id]) => id === d.id));
    if (left.length) caught.set(t, left);
    else caught.delete(t);
  }
  for (const [, h] of mine) await refuse(h);
}

handleResponses({
  paused: responsePaused,
  // the tab is let go (hold.ts stopHolding): what it holds fails
  drop: refuseHeldOf,
  waiting: (tabIds) => tabIds.reduce((n, t) => n + (caught.get(t)?.length ?? 0), 0),
});

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (method !== 'Page.downloadWillBegin' || source.tabId === undefined) return;
  const p = params as { url?: string; suggestedFilename?: string };
  prune();
  const url = p.url ?? '';
  // a held response the person already decided on: not the run's to ask about again
  if (allowed.has(url) || refused.has(url)) return;
  const site = siteOf(url, frameUrlOf((source as { sessionId?: string }).sessionId));
  announced.push({ tabId: source.tabId, url, filename: p.suggestedFilename ?? '', at: Date.now(), id: null, ...(site ? { site } : {}) });
});

function matchOf(item: chrome.downloads.DownloadItem): Announced | undefined {
  const urls = [item.url, item.finalUrl].filter(Boolean);
  return announced.find((a) => a.id === null && urls.includes(a.url) && Math.abs(Date.now() - a.at) < MATCH_MS * 2);
}

async function erase(id: number): Promise<void> {
  await chrome.downloads.cancel(id).catch(() => undefined);
  await chrome.downloads.erase({ id }).catch(() => undefined);
}

async function created(item: chrome.downloads.DownloadItem): Promise<void> {
  if (!cdp.attachedTabs().length) return; // no run: not ours to touch
  // The extension's own (an export saved from the side panel) is never a page's.
  if (item.byExtensionId === chrome.runtime.id || item.url.startsWith(`blob:${location.origin}`) || item.url.startsWith(location.origin)) return;
  const urls = [item.url, item.finalUrl].filter(Boolean);
  // A held response refused: the browser's download request it failed leaves an item, erased.
  if (urls.some((u) => refused.has(u))) { await erase(item.id); return; }
  if (urls.some((u) => allowed.has(u))) return;
  deciding.add(item.id);
  if (item.state === 'in_progress') await chrome.downloads.pause(item.id).catch(() => undefined);
  let from = matchOf(item);
  for (const end = Date.now() + MATCH_MS; !from && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 50));
    from = matchOf(item);
  }
  deciding.delete(item.id);
  if (!from) {
    await chrome.downloads.resume(item.id).catch(() => undefined);
    return;
  }
  from.id = item.id;
  const filename = from.filename || item.filename.split(/[\\/]/).pop() || item.url;
  const size = item.totalBytes > 0 ? item.totalBytes : undefined;
  const note: DownloadNote = { id: item.id, url: item.finalUrl || item.url, filename, ...(size !== undefined ? { size } : {}), ...(item.mime ? { type: item.mime } : {}), ...(from.site ? { site: from.site } : {}) };
  caught.set(from.tabId, [...(caught.get(from.tabId) ?? []), note]);
}

chrome.downloads.onCreated.addListener((item) => { void created(item); });

/** the browser's downloads a run took (asked about) and has not decided on yet */
const asked = new Set<number>();
/** Whether a browser download is one a run caught and has not decided on. */
const isCaught = (id: number) => asked.has(id) || [...caught.values()].some((l) => l.some((d) => d.id === id));

/**
 * The browser asks for a download's name: a run's (once created() has said so) waits for the
 * person without one; every other download is named at once.
 */
async function determining(item: chrome.downloads.DownloadItem, suggest: () => void): Promise<void> {
  for (const end = Date.now() + MATCH_MS + 500; deciding.has(item.id) && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
  if (isCaught(item.id)) naming.set(item.id, suggest);
  else suggest();
}

// Every download of the browser comes here for its name: all but a run's are named at once.
chrome.downloads.onDeterminingFilename.addListener((item, suggest) => {
  void determining(item, () => suggest());
  return true;
});

/**
 * The downloads these tabs started since last taken: page loads on their way are waited for until
 * answered (one may be a download), and those announced by the debugger until the browser has
 * created them (up to MATCH_MS in all).
 */
export async function takeDownloads(tabIds: number[]): Promise<DownloadNote[]> {
  const end = Date.now() + MATCH_MS;
  while (Date.now() < end && (deciding.size || loadsInFlight(tabIds) > 0 || announced.some((a) => a.id === null && tabIds.includes(a.tabId) && Date.now() - a.at < MATCH_MS))) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const out: DownloadNote[] = [];
  for (const t of tabIds) {
    out.push(...(caught.get(t) ?? []));
    caught.delete(t);
  }
  for (const d of out) if (d.id > 0) asked.add(d.id);
  return out;
}

/** Lets the downloads go on: held responses are saved, the browser's downloads resume and get their name. */
export async function keepDownloads(list: DownloadNote[]): Promise<void> {
  await releaseResponses(list.filter((d) => d.id < 0));
  for (const d of list.filter((x) => x.id > 0)) {
    asked.delete(d.id);
    naming.get(d.id)?.();
    naming.delete(d.id);
    await chrome.downloads.resume(d.id).catch(() => undefined);
  }
}

/** Undoes the downloads: held responses fail (nothing written); the browser's are cancelled and erased, a finished one's file deleted first. */
export async function undoDownloads(list: DownloadNote[]): Promise<void> {
  await refuseResponses(list.filter((d) => d.id < 0));
  for (const d of list.filter((x) => x.id > 0)) {
    asked.delete(d.id);
    naming.delete(d.id);
    const [item] = await chrome.downloads.search({ id: d.id }).catch(() => []);
    if (item?.state === 'complete') await chrome.downloads.removeFile(d.id).catch(() => undefined);
    await erase(d.id);
  }
}

/** A run ended: what its tabs downloaded and nobody approved is undone. */
export async function dropDownloads(tabIds: number[]): Promise<void> {
  await refuseHeldOf(tabIds);
  const left = tabIds.flatMap((t) => caught.get(t) ?? []);
  for (const t of tabIds) caught.delete(t);
  await undoDownloads(left);
}
