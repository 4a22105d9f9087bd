/**
 * Which site a host belongs to (docs/guards.md, "Sites and destinations"): the registrable domain
 * by the public suffix list (the tldts package, private suffixes included), so "shop.bbc.co.uk" is
 * bbc.co.uk's and "attacker.github.io" is not "x.github.io"'s. Hosting domains whose subdomains
 * are different customers but that the list does not name (TENANT_DOMAINS: "a.atlassian.net" and
 * "b.atlassian.net") give each subdomain its own site, and a few hosts that serve anyone's pages
 * under one company's domain (OWN_SITE_HOSTS: sites.google.com) are a site of their own. A host
 * with no registrable domain (an IP address, "localhost", a one-word intranet name) is its own site.
 *
 * For the leave-site guard ports never count: a site's pages on :3000 and :4000 are one site. For
 * where a value may go (destinationOf) they do: another port is another service.
 * Pure (tldts is data and code only).
 */
import { getDomain } from 'tldts';

/**
 * Hosting domains whose subdomains belong to different customers, missing from the public suffix
 * list's private section (checked with tldts 7.5): "acme.atlassian.net" is acme's site, not
 * Atlassian's, and not the site of "evil.atlassian.net".
 */
export const TENANT_DOMAINS: readonly string[] = [
  'atlassian.net', 'zendesk.com', 'wordpress.com', 'sharepoint.com', 'slack.com', 'freshdesk.com', 'freshservice.com',
  'service-now.com', 'okta.com', 'oktapreview.com', 'auth0.com', 'my.salesforce.com', 'force.com', 'salesforce-sites.com',
  'zoom.us', 'wixsite.com', 'squarespace.com', 'substack.com', 'tumblr.com', 'typepad.com', 'weebly.com', 'jimdosite.com',
  'ghost.io', 'gitbook.io', 'readme.io', 'statuspage.io', 'helpscoutdocs.com', 'typeform.com', 'bamboohr.com',
  'myworkdayjobs.com', 'workday.com', 'hubspotpagebuilder.com', 'hs-sites.com', 'webex.com', 'kayako.com', 'zohodesk.com',
  'teamwork.com', 'monday.com', 'notion.site', 'mailchimpsites.com', 'carrd.co', 'strikingly.com', 'framer.website',
];

/** Hosts that serve anyone's pages under a company's domain: each is a site of its own. */
export const OWN_SITE_HOSTS: readonly string[] = [
  'sites.google.com', 'script.google.com', 'script.googleusercontent.com', 'storage.googleapis.com', 'firebasestorage.googleapis.com',
  's3.amazonaws.com', 'blob.core.windows.net', 'raw.githubusercontent.com', 'gist.githubusercontent.com',
];

/** The tenant's site when `host` is a customer's subdomain of a hosting domain ("a.b.atlassian.net" -> "b.atlassian.net"), else null. */
function tenantSite(host: string): string | null {
  if (OWN_SITE_HOSTS.includes(host)) return host;
  for (const d of TENANT_DOMAINS) {
    if (!host.endsWith(`.${d}`)) continue;
    const labels = host.slice(0, -d.length - 1).split('.');
    const tenant = labels[labels.length - 1];
    return tenant === 'www' ? d : `${tenant}.${d}`;
  }
  return null;
}

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
  return tenantSite(bare) ?? getDomain(bare, { allowPrivateDomains: true }) ?? bare.replace(/^www\./, '');
}

/**
 * Where a request to `url` goes, for a watched value (guards/request-hold.ts): its site and, when not the
 * scheme's default, its port ("127.0.0.1:8081", "shop.example"): the same site on another port is
 * another service, and another destination. http and https (ws and wss) on their default ports are
 * one destination. Null for a URL that goes nowhere (data:, blob:, about:, the extension's own).
 */
export function destinationOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol) || !u.hostname) return null;
  return `${siteKey(u.hostname)}${u.port ? `:${u.port}` : ''}`;
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

/** The host part of a destination ("127.0.0.1:8080" -> "127.0.0.1", "shop.example" -> "shop.example"). */
export function hostOfDestination(dest: string): string | null {
  const h = dest.startsWith('[') ? dest.slice(0, dest.indexOf(']') + 1) : dest.replace(/:\d+$/, '');
  return h || null;
}
