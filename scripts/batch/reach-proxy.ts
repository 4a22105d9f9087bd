/**
 * The queue worker's door to the network (docs/batch.md, "Who trusts what"; issue 48): a forward
 * proxy on 127.0.0.1 (a port the OS picks) that every request of the worker's browsers goes
 * through (`args`: --proxy-server, and --proxy-bypass-list=<-loopback> so that Chromium sends
 * loopback requests through it too, which it otherwise sends directly).
 *
 * - Plain HTTP requests come in absolute form (`GET http://host/path`) and are forwarded; CONNECT
 *   tunnels (https, wss, ws) are opened only after the same check. Anything else (a request in
 *   origin form, an Upgrade without CONNECT) is not forwarded.
 * - The check (src/core/batch/reach.ts): the worker's own endpoints (`passes`, exact host:port:
 *   the model endpoint, the limit proxy) and the hosts of its --allow-site list pass whatever they
 *   resolve to; a name of this machine (localhost, …) is refused unresolved; any other host is
 *   resolved once (every address) and refused when any address is not public.
 * - The connection is made to the address that was checked, never to the name again, so a name
 *   that resolves to a public address for the check and to 127.0.0.1 a moment later (DNS
 *   rebinding) still reaches the public one. The Host header and TLS (inside the tunnel, the
 *   browser's own) keep the name.
 * - A refused request answers 403 with a short text naming the host and why; a name that does
 *   not resolve or an address that cannot be reached answers 502.
 */
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import { forwardHeaders } from './limit-proxy';
import { reachByName, reachOfAddresses, type AllowSite, type ReachRules } from '../../src/core/batch/reach';
import { oneLine } from '../../src/core/run/person-text';

/** Every address of a host, as the system resolves it. */
export type Lookup = (host: string) => Promise<string[]>;

const systemLookup: Lookup = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

export type Reach = { ok: true; address: string } | { ok: false; status: 403 | 502; reason: string };

/** Whether the worker's browser may reach host:port, and at which address (the one checked). */
export async function checkReach(host: string, port: number, rules: ReachRules, lookup: Lookup = systemLookup): Promise<Reach> {
  const h = host.replace(/^\[(.*)\]$/, '$1');
  const byName = reachByName(h, port, rules);
  if (byName.verdict === 'refused') return { ok: false, status: 403, reason: byName.reason };
  let addresses: string[];
  try {
    addresses = await lookup(h);
  } catch (e) {
    return { ok: false, status: 502, reason: `${h} could not be resolved (${(e as NodeJS.ErrnoException).code ?? 'no address'})` };
  }
  if (byName.verdict === 'resolve') {
    const why = reachOfAddresses(h, addresses);
    if (why) return { ok: false, status: 403, reason: why };
  }
  if (!addresses.length) return { ok: false, status: 502, reason: `${h} resolves to no address` };
  return { ok: true, address: addresses[0] };
}

/** The check of a start page before its job runs: null when the worker's browser may load it, else why not. */
export async function startPageReach(url: string, rules: ReachRules, lookup: Lookup = systemLookup): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'its start page is not a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'its start page is not an http(s) URL';
  const r = await checkReach(u.hostname, Number(u.port || (u.protocol === 'https:' ? 443 : 80)), rules, lookup);
  return r.ok ? null : `its start page is out of this worker's reach: ${r.reason}`;
}

export interface ReachProxy {
  readonly port: number;
  /** Chromium's switches that send every request of the browser through this proxy */
  readonly args: string[];
  /** exact host:port let through whatever they resolve to (the worker's endpoints); the worker adds its limit proxies as they start */
  readonly passes: Set<string>;
  /** requests refused so far: host:port and why */
  readonly refused: Array<{ target: string; reason: string }>;
  close(): Promise<void>;
}

export interface ReachProxyOptions {
  allow: readonly AllowSite[];
  passes?: Iterable<string>;
  lookup?: Lookup;
  log?: (line: string) => void;
}

function refusal(target: string, reason: string): string {
  return `The worker's browser may not reach ${target}: ${reason}.\n`;
}

export async function startReachProxy(o: ReachProxyOptions): Promise<ReachProxy> {
  const passes = new Set(o.passes ?? []);
  const rules: ReachRules = { allow: o.allow, get passes() { return passes; } };
  const lookup = o.lookup ?? systemLookup;
  const refused: Array<{ target: string; reason: string }> = [];
  const sockets = new Set<Socket>();
  const refuse = (target: string, reason: string) => {
    refused.push({ target, reason });
    o.log?.(`refused ${oneLine(target.slice(0, 300))}: ${oneLine(reason)}`);
  };

  const server = http.createServer(async (req, res) => {
    const answer = (status: number, text: string) => {
      if (res.headersSent) { res.destroy(); return; }
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close' });
      res.end(text);
    };
    let u: URL;
    try {
      u = new URL(req.url ?? '');
    } catch {
      answer(400, 'This is a forward proxy: requests come in absolute form (GET http://host/path).\n');
      return;
    }
    if (u.protocol !== 'http:') { answer(400, `This proxy forwards http:// requests and CONNECT tunnels, not ${u.protocol}\n`); return; }
    const port = Number(u.port || 80);
    const target = `${u.hostname}:${port}`;
    const r = await checkReach(u.hostname, port, rules, lookup);
    if (!r.ok) {
      if (r.status === 403) refuse(target, r.reason);
      answer(r.status, refusal(target, r.reason));
      return;
    }
    const upstream = http.request({
      host: r.address, port, method: req.method, path: `${u.pathname}${u.search}`, agent: false,
      headers: { ...forwardHeaders(req.headers), host: u.host },
    }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, forwardHeaders(up.headers));
      up.pipe(res);
    });
    upstream.on('error', () => answer(502, `The worker's browser could not reach ${target}.\n`));
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });

  server.on('connect', async (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => undefined);
    const m = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/@]+):(\d{1,5})$/.exec(req.url ?? '');
    const reply = (status: string, text: string) => socket.end(`HTTP/1.1 ${status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) { reply('400 Bad Request', 'CONNECT takes host:port.\n'); return; }
    const target = `${m[1]}:${m[2]}`;
    const r = await checkReach(m[1], Number(m[2]), rules, lookup);
    if (!r.ok) {
      if (r.status === 403) refuse(target, r.reason);
      reply(r.status === 403 ? '403 Forbidden' : '502 Bad Gateway', refusal(target, r.reason));
      return;
    }
    const upstream = net.connect({ host: r.address, port: Number(m[2]) });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => {
      if (!connected) reply('502 Bad Gateway', `The worker's browser could not reach ${target}.\n`);
      else socket.destroy();
    });
    socket.on('close', () => upstream.destroy());
  });
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  server.on('clientError', (_e, s: Socket) => s.destroy());

  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const port = (server.address() as AddressInfo).port;
  return {
    port, passes, refused,
    args: [`--proxy-server=http://127.0.0.1:${port}`, '--proxy-bypass-list=<-loopback>', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp'],
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
