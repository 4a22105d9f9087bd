/**
 * Sites allowed up front (docs/allowed-sites.md): before a run the person says where it may act,
 * only the start site (the default), the start site and these sites, or anywhere. The leave-site
 * guard (guards/index.ts, guards/after.ts) counts the allowed sites as the task's own; a step that
 * would act on another site asks, and a yes allows that site for the rest of the run (asked once).
 * The sites a run acted on are read from its steps. Pure.
 */
import type { Action } from './action/action';
import { httpHost, siteKey } from './site';

/** Where a run may act besides its start site: anywhere, or these sites (absent: only the start site). */
export type AllowedSites = 'any' | string[];

/** sites a list may name (a list of places, not a crawl) */
export const MAX_ALLOWED_SITES = 50;

export type AllowedRead = { ok: true; value: AllowedSites | undefined } | { ok: false; problem: string };

/** The site of a host or an address the person typed ("shop.example", "https://pay.example/x"), or null. */
export function siteOfTyped(s: string): string | null {
  const t = s.trim();
  if (!t) return null;
  const host = /^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? httpHost(t) : httpHost(`https://${t}`);
  // a host name's letters (the URL parser has made any other script punycode), or an IP address
  return host && /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(\.[a-z0-9_-]+)*)$/.test(host) ? siteKey(host) : null;
}

/**
 * What a file, a flag or the panel gives, checked: "any", "start" (only the start site), or a list
 * of hosts or addresses (as sites, each once). Problems in English words (technical, like a flag's).
 */
export function readAllowedSites(x: unknown): AllowedRead {
  if (x === undefined || x === null || x === 'start') return { ok: true, value: undefined };
  if (x === 'any') return { ok: true, value: 'any' };
  const list = typeof x === 'string' ? x.split(/[\s,]+/).filter(Boolean) : x;
  if (!Array.isArray(list)) return { ok: false, problem: 'allowed sites are "start", "any", or a list of sites' };
  if (list.length > MAX_ALLOWED_SITES) return { ok: false, problem: `at most ${MAX_ALLOWED_SITES} allowed sites` };
  const sites: string[] = [];
  for (const s of list) {
    const site = typeof s === 'string' ? siteOfTyped(s) : null;
    if (!site) return { ok: false, problem: `${JSON.stringify(s).slice(0, 80)} is not a site (write a host such as shop.example, or an http(s) address)` };
    if (!sites.includes(site)) sites.push(site);
  }
  return { ok: true, value: sites.length ? sites : undefined };
}

/** The sites the leave-site guard counts as the task's own besides its start site, as the apps list it reads ({ name, url }). */
export function allowedAsApps(s: { sitesAllowed?: string[]; sitesGranted?: string[] }): Array<{ name: string; url: string }> {
  return [...(s.sitesAllowed ?? []), ...(s.sitesGranted ?? [])].map((site) => ({ name: '', url: `https://${site}/` }));
}

/** Actions that do something in the page (not reading it, waiting, or answering). */
const ACTS = new Set<Action['type']>(['click', 'drag', 'hover', 'key', 'press', 'type', 'navigate', 'search', 'openApp', 'goBack', 'goHome']);

/** The sites a run acted on, in the order it first did, from its steps (where each acting step was taken). */
export function sitesActedOn(steps: Array<{ url: string; action?: Action | null; kind?: string; result?: { ok: boolean } }>): string[] {
  const out: string[] = [];
  for (const s of steps) {
    if (s.kind === 'person' || !s.action || !ACTS.has(s.action.type) || s.result?.ok === false) continue;
    const host = httpHost(s.url);
    const site = host ? siteKey(host) : null;
    if (site && !out.includes(site)) out.push(site);
  }
  return out;
}
