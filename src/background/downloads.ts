/**
 * Downloads a run's tab starts, caught when the browser starts them (the download guard after an
 * action, core/guards/after.ts). Two sources, matched by URL:
 * - the debugger's Page.downloadWillBegin, which only tabs a run attached (cdp.ts) send: it says
 *   the download came from the run's tab, and its suggested file name;
 * - chrome.downloads.onCreated: the browser's download, paused at once while any run tab is
 *   attached, kept paused when it is the run's and resumed at once when it is not.
 * A caught download waits, paused, for the run: kept (resume) or undone (cancel and erase) after
 * the person decides. Downloads a run never got to ask about are cancelled when it ends.
 */
import * as cdp from './cdp';
import type { DownloadNote } from '../core/run';

/** How long a download and its debugger announcement may be apart. */
const MATCH_MS = 3_000;

interface Announced { tabId: number; url: string; filename: string; at: number; id: number | null }

const announced: Announced[] = [];
/** tab -> its downloads caught and not yet taken by its run */
const caught = new Map<number, DownloadNote[]>();
/** downloads paused while we look whose they are */
const deciding = new Set<number>();

function prune(): void {
  const old = Date.now() - 60_000;
  while (announced.length && announced[0].at < old) announced.shift();
}

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (method !== 'Page.downloadWillBegin' || source.tabId === undefined) return;
  const p = params as { url?: string; suggestedFilename?: string };
  prune();
  announced.push({ tabId: source.tabId, url: p.url ?? '', filename: p.suggestedFilename ?? '', at: Date.now(), id: null });
});

function matchOf(item: chrome.downloads.DownloadItem): Announced | undefined {
  const urls = [item.url, item.finalUrl].filter(Boolean);
  return announced.find((a) => a.id === null && urls.includes(a.url) && Math.abs(Date.now() - a.at) < MATCH_MS * 2);
}

async function created(item: chrome.downloads.DownloadItem): Promise<void> {
  if (!cdp.attachedTabs().length) return; // no run: not ours to touch
  // The extension's own (an export saved from the side panel) is never a page's.
  if (item.byExtensionId === chrome.runtime.id || item.url.startsWith(`blob:${location.origin}`) || item.url.startsWith(location.origin)) return;
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
  caught.set(from.tabId, [...(caught.get(from.tabId) ?? []), { id: item.id, url: item.finalUrl || item.url, filename }]);
}

chrome.downloads.onCreated.addListener((item) => { void created(item); });

/**
 * The downloads these tabs started since last taken: those announced by the debugger are waited
 * for (up to MATCH_MS) until the browser has created them.
 */
export async function takeDownloads(tabIds: number[]): Promise<DownloadNote[]> {
  const end = Date.now() + MATCH_MS;
  while (Date.now() < end && (deciding.size || announced.some((a) => a.id === null && tabIds.includes(a.tabId) && Date.now() - a.at < MATCH_MS))) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const out: DownloadNote[] = [];
  for (const t of tabIds) {
    out.push(...(caught.get(t) ?? []));
    caught.delete(t);
  }
  return out;
}

/** Lets the downloads go on. */
export async function keepDownloads(list: DownloadNote[]): Promise<void> {
  for (const d of list) await chrome.downloads.resume(d.id).catch(() => undefined);
}

/** Cancels the downloads and erases them: a finished one's file is deleted first. */
export async function undoDownloads(list: DownloadNote[]): Promise<void> {
  for (const d of list) {
    const [item] = await chrome.downloads.search({ id: d.id }).catch(() => []);
    if (item?.state === 'complete') await chrome.downloads.removeFile(d.id).catch(() => undefined);
    else await chrome.downloads.cancel(d.id).catch(() => undefined);
    await chrome.downloads.erase({ id: d.id }).catch(() => undefined);
  }
}

/** A run ended: what its tabs downloaded and nobody approved is undone. */
export async function dropDownloads(tabIds: number[]): Promise<void> {
  const left = tabIds.flatMap((t) => caught.get(t) ?? []);
  for (const t of tabIds) caught.delete(t);
  await undoDownloads(left);
}
