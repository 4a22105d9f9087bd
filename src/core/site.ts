/**
 * Which site a host belongs to, for the leave-site guard: the registrable domain by the public
 * suffix list (the tldts package, private suffixes included), so "shop.bbc.co.uk" is bbc.co.uk's
 * and "attacker.github.io" is not "x.github.io"'s. A host with no registrable domain (an IP
 * address, "localhost", a one-word intranet name) is its own site. Ports never count: a site's
 * pages on :3000 and :4000 are one site. Pure (tldts is data and code only).
 */
import { getDomain } from 'tldts';

/** The host of an http(s) URL, lower case, without the port; null for any other URL. */
export function httpHost(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** The site of a host ("news.bbc.co.uk" -> "bbc.co.uk"), a port or a trailing dot dropped. */
export function siteKey(host: string): string {
  const h = host.toLowerCase().trim().replace(/\.$/, '');
  const bare = /^\[.*\]$/.test(h) ? h : h.replace(/:\d+$/, '');
  return getDomain(bare, { allowPrivateDomains: true }) ?? bare.replace(/^www\./, '');
}

/** Two hosts are on one site. */
export function sameSite(a: string, b: string): boolean {
  return siteKey(a) === siteKey(b);
}

/**
 * The host `url` goes to when it is another site than the task's `site` (a URL) and than the
 * person's apps (their sites count as the task's own); null when it is the same site, or not an
 * http(s) URL, or the task's site is not one.
 */
export function awayHost(site: string, url: string, apps: { url: string }[] = []): string | null {
  const home = httpHost(site);
  const to = httpHost(url);
  if (!home || !to || sameSite(home, to)) return null;
  if (apps.some((a) => { const h = httpHost(a.url); return h !== null && sameSite(h, to); })) return null;
  return to;
}
