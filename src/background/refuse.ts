/**
 * What the request hold (hold.ts) cannot pause is refused: the debugger's Fetch domain never sees
 * a WebSocket or WebTransport handshake, so once a value is in a tab's page, a session rule of
 * declarativeNetRequest blocks every such connection the tab opens (its frames and workers
 * included) to a domain the value may not go to, and another blocks the same from the service
 * workers of the value's own sites (they belong to no tab). declarativeNetRequest matches domains,
 * not ports: a connection to another port of a value's own host is not refused. Each refused
 * connection is seen by webRequest (net::ERR_BLOCKED_BY_CLIENT) and told to the model after the
 * action (takeRefused); the rules go when the tab is no longer watched (stopRefusing).
 */
import { hostOfDestination } from '../core/site';

const TYPES: chrome.declarativeNetRequest.ResourceType[] = [
  'websocket' as chrome.declarativeNetRequest.ResourceType,
  'webtransport' as chrome.declarativeNetRequest.ResourceType,
];

const KEY = 'refuseRules';

/** tab -> its rules' ids, in chrome.storage.session (the rules outlive a worker restart, and so must this) */
async function ruleIds(): Promise<Record<string, number[]>> {
  return ((await chrome.storage.session.get(KEY))[KEY] as Record<string, number[]> | undefined) ?? {};
}

const hostsOf = (destinations: readonly string[]) => [...new Set(destinations.map(hostOfDestination).filter((h): h is string => !!h))];

/**
 * Refuses the tab's connections to any domain but `allowed`'s (site.ts destinationOf: where every
 * value in the page may go), and those of the service workers of `homes` (the values' own sites),
 * replacing the tab's earlier rules.
 */
export async function refuseAway(tabId: number, allowedDestinations: readonly string[], homeDestinations: readonly string[]): Promise<void> {
  const allowed = hostsOf(allowedDestinations);
  const homes = hostsOf(homeDestinations);
  const except = allowed.length ? { excludedRequestDomains: allowed } : {};
  const byTab = await ruleIds();
  const old = byTab[tabId] ?? [];
  const taken = new Set((await chrome.declarativeNetRequest.getSessionRules()).map((r) => r.id));
  const ids: number[] = [];
  for (let id = 1; ids.length < 2; id++) if (!taken.has(id) || old.includes(id)) ids.push(id);
  const block = { type: 'block' as chrome.declarativeNetRequest.RuleActionType };
  await chrome.declarativeNetRequest.updateSessionRules({
    removeRuleIds: old,
    addRules: [
      { id: ids[0], priority: 1, action: block, condition: { tabIds: [tabId], resourceTypes: TYPES, ...except } },
      // the value's sites' service workers: they belong to no tab
      ...(homes.length ? [{ id: ids[1], priority: 1, action: block, condition: { tabIds: [-1], initiatorDomains: homes, resourceTypes: TYPES, ...except } }] : []),
    ],
  });
  await chrome.storage.session.set({ [KEY]: { ...byTab, [tabId]: ids } });
}

/** The tab is no longer watched: its rules go. */
export async function stopRefusing(tabId: number): Promise<void> {
  refused.delete(tabId);
  const byTab = await ruleIds();
  const old = byTab[tabId];
  if (!old) return;
  delete byTab[tabId];
  await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: old });
  await chrome.storage.session.set({ [KEY]: byTab });
}

/** tab -> the URLs refused since the run last took them (the query cut: it may carry the value) */
const refused = new Map<number, string[]>();

chrome.webRequest.onErrorOccurred.addListener((d) => {
  if (d.error !== 'net::ERR_BLOCKED_BY_CLIENT' || d.tabId < 0) return;
  let shown = d.url;
  try {
    const u = new URL(d.url);
    shown = `${u.protocol}//${u.host}`;
  } catch { /* keep it */ }
  const list = refused.get(d.tabId) ?? [];
  if (!list.includes(shown)) list.push(shown);
  refused.set(d.tabId, list);
}, { urls: ['<all_urls>'], types: ['websocket' as chrome.webRequest.ResourceType] });

/** The connections these tabs were refused since the last call (their scheme and host), for the model. */
export function takeRefused(tabIds: number[]): string[] {
  const out: string[] = [];
  for (const t of tabIds) {
    out.push(...(refused.get(t) ?? []));
    refused.delete(t);
  }
  return out;
}
