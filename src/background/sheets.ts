/**
 * The texts of style sheets a page loaded from another origin, for the labeler (content-scripts/
 * labeler/sheets.ts), which cannot read their rules from the page's side. Fetched from the address
 * the page itself loaded, only when a labeling pass asks (during a run, or Show labels), without
 * cookies or credentials; kept for the next pages that use the same sheet.
 *
 * A public page's sheet on this machine or the local network is not fetched (src/core/private-
 * address.ts): the browser keeps a public page from reaching those addresses, and the extension,
 * which it does not stop, must not reach them for the page.
 *
 * Each address gives: its text; null when it cannot be reached (a network error: the page, which
 * loaded it moments before, could not reach it either, so it has no rules); nothing when unknown
 * (an HTTP error, not CSS, too big, too slow): the labeler then reads the page as if it had no text.
 */
import { isPrivateHost } from '../core/private-address';

const FETCH_MS = 3000;
const MAX_BYTES = 2_000_000;
const MAX_KEPT = 200;
const MAX_URLS = 30;

const kept = new Map<string, string | null>();

/** A sheet the page at `pageUrl` may have fetched for it: not a local address for a public page. */
function mayFetch(url: string, pageUrl: string | undefined): boolean {
  let sheet: URL, page: URL;
  try {
    sheet = new URL(url);
    page = new URL(pageUrl ?? '');
  } catch {
    return false;
  }
  if (sheet.protocol !== 'http:' && sheet.protocol !== 'https:') return false;
  return !isPrivateHost(sheet.hostname) || isPrivateHost(page.hostname);
}

async function fetchSheet(url: string): Promise<string | null | undefined> {
  if (kept.has(url)) return kept.get(url);
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'omit', cache: 'force-cache', signal: AbortSignal.timeout(FETCH_MS), redirect: 'follow' });
  } catch (err) {
    // a timeout is not an unreachable address
    if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError')) return undefined;
    remember(url, null);
    return null;
  }
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || (type && !/text\/css/i.test(type)) || Number(res.headers.get('content-length') ?? 0) > MAX_BYTES) return undefined;
  const text = await res.text().catch(() => undefined);
  if (text === undefined || text.length > MAX_BYTES) return undefined;
  remember(url, text);
  return text;
}

function remember(url: string, text: string | null): void {
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(url, text);
}

/** Answer the labeler's `sheets/fetch` (content scripts of this extension only). */
export function listenForSheets(): void {
  chrome.runtime.onMessage.addListener((msg: unknown, sender, reply) => {
    const m = msg as { event?: unknown; urls?: unknown } | null;
    if (sender.id !== chrome.runtime.id || m?.event !== 'sheets/fetch' || !Array.isArray(m.urls) || sender.tab?.id === undefined) return undefined;
    const urls = m.urls.filter((u): u is string => typeof u === 'string' && mayFetch(u, sender.url)).slice(0, MAX_URLS);
    void Promise.all(urls.map(async (u) => [u, await fetchSheet(u)] as const)).then((pairs) => {
      const out: Record<string, string | null> = {};
      for (const [u, t] of pairs) if (t !== undefined) out[u] = t;
      reply(out);
    });
    return true;
  });
}
