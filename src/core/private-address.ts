/**
 * Whether a host names this machine or the local network (what Chrome's Private Network Access
 * keeps a public page from reaching): localhost and `*.localhost`, loopback, private, link-local,
 * shared (CGNAT) and unspecified IPv4 and IPv6 addresses (IPv4-mapped ones too), one-word names
 * and the names only a local network resolves (`.local`, `.lan`, `.internal`, `.home.arpa`,
 * `.intranet`, `.corp`). A name that a public DNS server maps to such an address is not seen.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!host) return true;
  if (host.includes(':')) return privateIpv6(host);
  const v4 = ipv4(host);
  if (v4) return privateIpv4(v4);
  if (!host.includes('.')) return true;
  return /(?:^|\.)(?:localhost|local|lan|internal|intranet|corp|home\.arpa)$/.test(host);
}

function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((n) => n <= 255) ? parts : null;
}

function privateIpv4([a, b]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}

function privateIpv6(host: string): boolean {
  if (host === '::1' || host === '::') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped) {
    const v4 = ipv4(mapped[1]);
    return v4 ? privateIpv4(v4) : true;
  }
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (hex) {
    const hi = parseInt(hex[1], 16), lo = parseInt(hex[2], 16);
    return privateIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  const first = parseInt(host.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}
