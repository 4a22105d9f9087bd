/**
 * What the request hold (hold.ts) cannot pause is refused, by session rules of
 * declarativeNetRequest (docs/guards.md, "The request hold"):
 *
 * - **During a run**, once a value is in a tab's page, the debugger's Fetch domain holds every
 *   request but WebSocket and WebTransport handshakes, which it never sees, and the browser's own
 *   prefetches, which it may not: those ("other" requests with them) the tab makes (its frames
 *   and workers included) to a domain the values may not go to are refused, and so are those of the
 *   service workers of the values' own sites (they belong to no tab). Each refusal is seen by
 *   webRequest (net::ERR_BLOCKED_BY_CLIENT) and told to the model after the action (takeRefused).
 * - **After the run** (linger), a tab still on a value's site keeps holding the value: no run
 *   asks the person any more, so every request the tab (and those service workers) sends to a
 *   domain the values may not go to is refused, whatever its type, until the tab leaves the
 *   site, closes, or the person releases it in the side panel (watch/list, watch/release). A
 *   navigation of the whole tab is never refused: that is how the person leaves.
 *
 * declarativeNetRequest matches domains, not ports: a request to another port of a value's own
 * host is not refused here (the hold still holds it during a run).
 */
import { destinationOf, hostOfDestination } from '../core/site';

type ResourceType = chrome.declarativeNetRequest.ResourceType;
/**
 * What the hold cannot be sure to pause: connections, and "other" requests, which include the
 * browser's own prefetches (a `<link rel=prefetch>` the hold blocked was seen sent again past it).
 */
const UNHELD = ['websocket', 'webtransport', 'other'] as ResourceType[];

/** A tab watched after its run ended, as the side panel lists it. */
export interface Lingering {
  tabId: number;
  /** the host the tab is on (a value's site) */
  site: string;
  /** the values' destinations: the tab leaving them ends the watch */
  homes: string[];
  /** what kinds of value are in it */
  kinds: string[];
  since: number;
  /** requests refused since the run ended */
  refused: number;
}

interface Entry { ids: number[]; lingering?: Lingering }

const KEY = 'refuseRules';

/** tab -> its rules and its after-run watch, in chrome.storage.session (the rules outlive a worker restart, and so must this) */
async function entries(): Promise<Record<string, Entry>> {
  return ((await chrome.storage.session.get(KEY))[KEY] as Record<string, Entry> | undefined) ?? {};
}

/** Storage writes one after another (a read-modify-write each). */
let chain: Promise<unknown> = Promise.resolve();
function update<T>(fn: (all: Record<string, Entry>) => Promise<T>): Promise<T> {
  const next = chain.then(async () => {
    const all = await entries();
    const out = await fn(all);
    await chrome.storage.session.set({ [KEY]: all });
    return out;
  });
  chain = next.catch(() => undefined);
  return next;
}

const hostsOf = (destinations: readonly string[]) => [...new Set(destinations.map(hostOfDestination).filter((h): h is string => !!h))];

/** The tab's two rules (its own requests; its values' service workers), replacing what it had. */
async function setRules(all: Record<string, Entry>, tabId: number, allowedDestinations: readonly string[], homeDestinations: readonly string[], every: boolean): Promise<void> {
  const allowed = hostsOf(allowedDestinations);
  const homes = hostsOf(homeDestinations);
  const except = allowed.length ? { excludedRequestDomains: allowed } : {};
  const types = every ? { excludedResourceTypes: ['main_frame'] as ResourceType[] } : { resourceTypes: UNHELD };
  const old = all[tabId]?.ids ?? [];
  const taken = new Set((await chrome.declarativeNetRequest.getSessionRules()).map((r) => r.id));
  const ids: number[] = [];
  for (let id = 1; ids.length < 2; id++) if (!taken.has(id) || old.includes(id)) ids.push(id);
  const block = { type: 'block' as chrome.declarativeNetRequest.RuleActionType };
  await chrome.declarativeNetRequest.updateSessionRules({
    removeRuleIds: old,
    addRules: [
      { id: ids[0], priority: 1, action: block, condition: { tabIds: [tabId], ...types, ...except } },
      ...(homes.length ? [{ id: ids[1], priority: 1, action: block, condition: { tabIds: [-1], initiatorDomains: homes, ...types, ...except } }] : []),
    ],
  });
  all[tabId] = { ids };
}

/**
 * During a run: refuses the tab's connections to any domain but `allowed`'s (site.ts
 * destinationOf: where every value in the page may go), and those of the service workers of
 * `homes` (the values' own sites).
 */
export function refuseAway(tabId: number, allowed: readonly string[], homes: readonly string[]): Promise<void> {
  return update((all) => setRules(all, tabId, allowed, homes, false));
}

/**
 * The run ended with values in the tab's page: while the tab is on one of `homes`, every request
 * to a domain not in `allowed` is refused (see the module's comment). A tab already elsewhere is
 * not watched.
 */
export async function linger(tabId: number, allowed: readonly string[], homes: readonly string[], kinds: readonly string[]): Promise<void> {
  const url = (await chrome.tabs.get(tabId).catch(() => null))?.url ?? '';
  const here = destinationOf(url);
  if (!here || !homes.includes(here)) return;
  await update(async (all) => {
    await setRules(all, tabId, allowed, homes, true);
    all[tabId].lingering = { tabId, site: new URL(url).host, homes: [...homes], kinds: [...new Set(kinds)], since: Date.now(), refused: 0 };
  });
}

/** The tab is no longer watched (the run left it, it left the values' site or closed, or the person released it): its rules go. */
export async function stopRefusing(tabId: number): Promise<void> {
  refused.delete(tabId);
  await update(async (all) => {
    const old = all[tabId]?.ids;
    delete all[tabId];
    if (old?.length) await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: old });
  });
}

/** The tabs watched after their run, for the side panel. */
export async function lingering(): Promise<Lingering[]> {
  await chain;
  return Object.values(await entries()).flatMap((e) => (e.lingering ? [e.lingering] : []));
}

/** tab -> the connections refused during its run since the run last took them (scheme and host: the rest may carry the value) */
const refused = new Map<number, string[]>();

chrome.webRequest.onErrorOccurred.addListener((d) => {
  if (d.error !== 'net::ERR_BLOCKED_BY_CLIENT' || d.tabId < 0) return;
  if ((UNHELD as string[]).includes(d.type)) {
    let shown = d.url;
    try {
      const u = new URL(d.url);
      shown = `${u.protocol}//${u.host}`;
    } catch { /* keep it */ }
    const list = refused.get(d.tabId) ?? [];
    if (!list.includes(shown)) list.push(shown);
    refused.set(d.tabId, list);
  }
  // counted only for a tab watched after its run (most blocked requests are another extension's)
  void entries().then((all) => (all[d.tabId]?.lingering ? update(async (now) => { const l = now[d.tabId]?.lingering; if (l) l.refused++; }) : undefined));
}, { urls: ['<all_urls>'] });

chrome.tabs.onRemoved.addListener((tabId) => {
  void entries().then((all) => (all[tabId] ? stopRefusing(tabId) : undefined));
});

// A watched tab that goes to another site than its values' is no longer watched.
chrome.tabs.onUpdated.addListener((tabId, info) => {
  if (!info.url) return;
  const to = destinationOf(info.url);
  void entries().then((all) => {
    const l = all[tabId]?.lingering;
    if (l && (!to || !l.homes.includes(to))) return stopRefusing(tabId);
    return undefined;
  });
});

/** The connections these tabs were refused since the last call (their scheme and host), for the model. */
export function takeRefused(tabIds: number[]): string[] {
  const out: string[] = [];
  for (const t of tabIds) {
    out.push(...(refused.get(t) ?? []));
    refused.delete(t);
  }
  return out;
}
