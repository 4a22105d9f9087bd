/**
 * Where a queue worker's browser may go (docs/batch.md, "Who trusts what"; issue 48): a job is a
 * stranger's request, and a page the worker's browser loads can read what only the worker's
 * machine or network serves (a page on localhost, a cloud's metadata service, Redis on
 * 127.0.0.1:6379), then hand it back in the job's artefacts. So every request of the worker's
 * browser goes through a local proxy (scripts/batch/reach-proxy.ts) that resolves its host once
 * and refuses it when any of its addresses is not public, unless the host is on the worker's
 * allow list (--allow-site) or is the worker's own model endpoint. This file is the rule:
 * - `addressClass`: what an IPv4 or IPv6 address is (IPv4-mapped, -compatible, NAT64 and 6to4
 *   IPv6 addresses by the IPv4 address they carry); anything but 'public' is refused;
 * - `localName`: names that mean this machine whatever DNS says (localhost, *.localhost, …),
 *   refused before any lookup;
 * - `readAllowSites` / `allowedBy`: the allow list, host or host:port, matched as the runner's
 *   other site lists are (allowed-sites.ts `siteOfTyped`, by site.ts `siteKey`): a host covers its
 *   site (shop.example covers www.shop.example), an entry without a port covers every port;
 * - `reachByName` and `reachOfAddresses`: the two halves of a request's check (before and after
 *   the lookup). Pure.
 */
import { siteOfTyped } from '../allowed-sites';

export type AddressClass =
  | 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'shared (CGNAT)'
  | 'multicast' | 'broadcast' | 'reserved' | 'not an IP address';

/** The four bytes of a dotted IPv4 address (decimal, as the resolver gives it), or null. */
function ipv4(s: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((n) => n <= 255) ? parts : null;
}

/** The eight 16-bit groups of an IPv6 address (a zone such as %eth0 dropped; a dotted IPv4 tail allowed), or null. */
function ipv6(s: string): number[] | null {
  let t = s.replace(/%.*$/, '');
  const tail = /(?:^|:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(t);
  const extra: number[] = [];
  if (tail) {
    const v4 = ipv4(tail[1]);
    if (!v4) return null;
    extra.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    t = t.slice(0, t.length - tail[1].length);
    if (t.endsWith(':') && !t.endsWith('::')) t = t.slice(0, -1);
  }
  const halves = t.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const want = 8 - extra.length;
  const n = head.length + rest.length;
  if (halves.length === 1 ? n !== want : n > want - 1) return null;
  const zeros = halves.length === 2 ? want - n : 0;
  return [...head.map((g) => parseInt(g, 16)), ...Array<number>(zeros).fill(0), ...rest.map((g) => parseInt(g, 16)), ...extra];
}

function classOf4([a, b, c, d]: number[]): AddressClass {
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return c === 169 && d === 254 ? 'metadata' : 'link-local';
  if (a === 100 && b === 100 && c === 100 && d === 200) return 'metadata';
  if (a === 100 && b >= 64 && b <= 127) return 'shared (CGNAT)';
  if (a === 255 && b === 255 && c === 255 && d === 255) return 'broadcast';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  // IETF protocol assignments, documentation and benchmarking networks
  if ((a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 198 && (b === 18 || b === 19)) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'reserved';
  return 'public';
}

const v4Of = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255];

function classOf6(g: number[]): AddressClass {
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return 'unspecified';
  if (zeroTo(7) && g[7] === 1) return 'loopback';
  // IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d
  if (zeroTo(5) && g[5] === 0xffff) return classOf4(v4Of(g[6], g[7]));
  if (zeroTo(4) && g[4] === 0xffff && g[5] === 0) return classOf4(v4Of(g[6], g[7]));
  if (zeroTo(6)) return classOf4(v4Of(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classOf4(v4Of(g[6], g[7]));
  // 6to4 2002:AABB:CCDD::/48 carries a.b.c.d
  if (g[0] === 0x2002) return classOf4(v4Of(g[1], g[2]));
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return 'metadata';
  if ((g[0] & 0xfe00) === 0xfc00) return 'private';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'private'; // site-local, deprecated
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'reserved'; // documentation
  if (g[0] < 0x2000 || g[0] > 0x3fff) return 'reserved'; // outside the global unicast block 2000::/3
  return 'public';
}

/** What an address is: 'public', or why a worker's browser may not reach it. Brackets around IPv6 are accepted. */
export function addressClass(address: string): AddressClass {
  const s = address.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const v4 = ipv4(s);
  if (v4) return classOf4(v4);
  const v6 = s.includes(':') ? ipv6(s) : null;
  return v6 ? classOf6(v6) : 'not an IP address';
}

/** A host as compared: lower case, no brackets, no trailing dot. */
function bare(host: string): string {
  return host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/** Whether a host name means this machine whatever DNS says: the empty host, localhost, *.localhost, localhost.localdomain, ip6-localhost, ip6-loopback. */
export function localName(host: string): boolean {
  const h = bare(host);
  return h === '' || h === 'localhost' || h.endsWith('.localhost') || h === 'localhost.localdomain' || h === 'ip6-localhost' || h === 'ip6-loopback';
}

/** An entry of the allow list: a site, and a port or any. */
export interface AllowSite { site: string; port: number | null }

export type AllowSitesRead = { ok: true; value: AllowSite[] } | { ok: false; problem: string };

/** The entries of --allow-site (each a host, an IP address, [IPv6], or any of them with :port), or the first that is not one. */
export function readAllowSites(entries: readonly string[]): AllowSitesRead {
  const value: AllowSite[] = [];
  for (const raw of entries.flatMap((e) => e.split(',')).map((e) => e.trim()).filter(Boolean)) {
    const m = /^(\[[0-9a-f:.]+\]|[^:/\s[\]@?#]+)(?::(\d{1,5}))?$/i.exec(raw);
    const port = m?.[2] === undefined ? null : Number(m[2]);
    const site = m ? siteOfTyped(m[1]) : null;
    if (!m || !site || (port !== null && (port < 1 || port > 65535))) {
      return { ok: false, problem: `--allow-site ${JSON.stringify(raw).slice(0, 80)} is not a host or host:port (such as intranet.example, 10.0.0.5:8080 or [::1]:3000)` };
    }
    value.push({ site, port });
  }
  return { ok: true, value };
}

/** Whether a request to host:port is on the allow list (the host's site, and the entry's port when it has one). */
export function allowedBy(host: string, port: number, allow: readonly AllowSite[]): boolean {
  const site = siteOfTyped(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  return !!site && allow.some((a) => a.site === site && (a.port === null || a.port === port));
}

/** `host:port` of an http(s) URL as requests to it are compared (default ports spelled out), or null. */
export function hostPortOf(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return `${bare(u.hostname)}:${u.port || (u.protocol === 'https:' ? 443 : 80)}`;
  } catch {
    return null;
  }
}

/** What the worker lets through: its --allow-site list, and the exact host:port of its own endpoints (the model, its limit proxy). */
export interface ReachRules { allow: readonly AllowSite[]; passes: ReadonlySet<string> }

export type ByName = { verdict: 'allowed' } | { verdict: 'refused'; reason: string } | { verdict: 'resolve' };

const HINT = 'this worker\'s browser reaches only public addresses, its model endpoint and its --allow-site hosts';

/** The check before a lookup: the worker's own endpoint or an allowed host passes, a name of this machine is refused, anything else is resolved and checked. */
export function reachByName(host: string, port: number, rules: ReachRules): ByName {
  const h = bare(host);
  if (rules.passes.has(`${h}:${port}`) || allowedBy(h, port, rules.allow)) return { verdict: 'allowed' };
  if (localName(h)) return { verdict: 'refused', reason: `${h || 'the empty host'} names this machine; ${HINT}` };
  return { verdict: 'resolve' };
}

/** The check after the lookup of a host that was not allowed by name: null when every address is public, else why not. */
export function reachOfAddresses(host: string, addresses: readonly string[]): string | null {
  if (!addresses.length) return `${bare(host)} resolves to no address`;
  for (const a of addresses) {
    const c = addressClass(a);
    if (c !== 'public') return `${bare(host)}${bare(host) === bare(a) ? '' : ` resolves to ${bare(a)}, which`} is ${c === 'not an IP address' ? 'not an IP address' : `${/^[aeiou]/.test(c) ? 'an' : 'a'} ${c} address`}; ${HINT}`;
  }
  return null;
}
