/**
 * The queue worker's forward proxy (scripts/batch/reach-proxy.ts) in node, against a server on
 * 127.0.0.1 made here: a local page is refused (403 naming the host and why) and never requested,
 * by plain HTTP and by CONNECT, unless the worker allows it (--allow-site, or its own endpoint);
 * an allowed host is forwarded, by plain HTTP and through a tunnel; a host is looked up once and
 * the connection goes to the address that was checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startPageReach, startReachProxy, type Lookup, type ReachProxy } from '../../scripts/batch/reach-proxy';
import { readAllowSites, type AllowSite } from '../../src/core/batch/reach';

let site: http.Server;
let port: number;
const seen: string[] = [];

beforeAll(async () => {
  site = http.createServer((req, res) => {
    seen.push(`${req.headers.host} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('the secret');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  port = (site.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => site.close(() => r())));

const allow = (...e: string[]): AllowSite[] => {
  const r = readAllowSites(e);
  if (!r.ok) throw new Error(r.problem);
  return r.value;
};

async function withProxy(o: Parameters<typeof startReachProxy>[0], f: (p: ReachProxy) => Promise<void>) {
  const p = await startReachProxy(o);
  try {
    await f(p);
  } finally {
    await p.close();
  }
}

/** A plain HTTP request through the proxy (absolute form). */
function viaProxy(p: ReachProxy, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: p.port, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT to host:port; when it opens, a GET of /secret through the tunnel. */
function tunnel(p: ReachProxy, target: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: p.port, method: 'CONNECT', path: target });
    req.on('connect', (res: http.IncomingMessage, socket: Socket, head: Buffer) => {
      // what came with the answer's head (a refusal's body) is the tunnel's first bytes
      let text = head.toString('utf8');
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => { text += d; });
      socket.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      if (res.statusCode === 200) socket.write(`GET /secret HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the reach proxy', () => {
  it('refuses a page on 127.0.0.1 and never requests it, by plain HTTP and by CONNECT', async () => {
    await withProxy({ allow: [] }, async (p) => {
      const before = seen.length;
      const plain = await viaProxy(p, `http://127.0.0.1:${port}/secret`);
      expect(plain.status).toBe(403);
      expect(plain.body).toMatch(new RegExp(`^The worker's browser may not reach 127\\.0\\.0\\.1:${port}: 127\\.0\\.0\\.1 is a loopback address; `));
      const connect = await tunnel(p, `127.0.0.1:${port}`);
      expect(connect.status).toBe(403);
      expect(connect.text).toContain('127.0.0.1 is a loopback address');
      expect(connect.text).not.toContain('the secret');
      expect((await viaProxy(p, 'http://169.254.169.254/latest/meta-data/')).body).toContain('169.254.169.254 is a metadata address');
      expect((await tunnel(p, '127.0.0.1:6379')).status).toBe(403);
      expect(seen.length).toBe(before);
      expect(p.refused.map((r) => r.target)).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`, '169.254.169.254:80', '127.0.0.1:6379']);
    });
  });

  it('forwards an allowed host:port, by plain HTTP and through a tunnel; the same host on another name is still refused', async () => {
    const lookups: string[] = [];
    const lookup: Lookup = async (h) => { lookups.push(h); return h === 'localhost' ? ['127.0.0.1'] : [h]; };
    await withProxy({ allow: allow(`127.0.0.1:${port}`), lookup }, async (p) => {
      const plain = await viaProxy(p, `http://127.0.0.1:${port}/secret?x=1`);
      expect(plain).toEqual({ status: 200, body: 'the secret' });
      expect(seen.at(-1)).toBe(`127.0.0.1:${port} /secret?x=1`);
      const connect = await tunnel(p, `127.0.0.1:${port}`);
      expect(connect.status).toBe(200);
      expect(connect.text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*the secret/);
      const other = await viaProxy(p, `http://localhost:${port}/secret`);
      expect(other.status).toBe(403);
      expect(other.body).toContain('localhost names this machine');
      expect(lookups).not.toContain('localhost');
    });
  });

  it('lets the worker\'s own endpoint through by its exact host:port', async () => {
    await withProxy({ allow: [], passes: [`127.0.0.1:${port}`] }, async (p) => {
      expect((await viaProxy(p, `http://127.0.0.1:${port}/v1/chat/completions`)).status).toBe(200);
      expect((await viaProxy(p, 'http://127.0.0.1:9/')).status).toBe(403);
      p.passes.add('127.0.0.1:6379');
      expect((await tunnel(p, '127.0.0.1:6379')).status).not.toBe(403);
    });
  });

  it('looks a host up once and connects to the address it checked, never to the name again', async () => {
    const lookups: string[] = [];
    // names only this lookup knows: a second lookup by the system would fail
    const lookup: Lookup = async (h) => {
      lookups.push(h);
      if (h === 'rebind.test') return ['93.184.215.14', '127.0.0.1'];
      if (h.endsWith('.intranet.test')) return ['127.0.0.1'];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    await withProxy({ allow: allow('intranet.test'), lookup }, async (p) => {
      const allowed = await viaProxy(p, `http://wiki.intranet.test:${port}/page`);
      expect(allowed).toEqual({ status: 200, body: 'the secret' });
      expect(seen.at(-1)).toBe(`wiki.intranet.test:${port} /page`);
      expect((await tunnel(p, `wiki.intranet.test:${port}`)).status).toBe(200);
      const rebind = await viaProxy(p, `http://rebind.test:${port}/`);
      expect(rebind.status).toBe(403);
      expect(rebind.body).toContain('rebind.test resolves to 127.0.0.1, which is a loopback address');
      expect((await viaProxy(p, 'http://nowhere.test/')).status).toBe(502);
      expect(lookups).toEqual(['wiki.intranet.test', 'wiki.intranet.test', 'rebind.test', 'nowhere.test']);
    });
  });

  it('answers a request that is not a proxy request without forwarding it', async () => {
    await withProxy({ allow: allow('127.0.0.1') }, async (p) => {
      const before = seen.length;
      const r = await new Promise<number>((resolve) => {
        http.get({ host: '127.0.0.1', port: p.port, path: '/secret' }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
      });
      expect(r).toBe(400);
      expect(seen.length).toBe(before);
    });
  });

  it('checks a job\'s start page by the same rule', async () => {
    const rules = { allow: allow(`127.0.0.1:${port}`), passes: new Set<string>() };
    expect(await startPageReach(`http://127.0.0.1:${port}/`, rules)).toBeNull();
    expect(await startPageReach(`http://localhost:${port}/secret.html`, rules)).toMatch(/^its start page is out of this worker's reach: localhost names this machine; /);
    expect(await startPageReach('http://127.0.0.1:6379/', rules)).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(await startPageReach('http://169.254.169.254/latest/', rules)).toMatch(/a metadata address/);
    expect(await startPageReach('https://[::ffff:127.0.0.1]/', rules)).toMatch(/a loopback address/);
  });
});
