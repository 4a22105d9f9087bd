/**
 * The worker's local proxy to the model endpoint (scripts/batch/limit-proxy.ts), against a tiny
 * upstream server made here: SSE chunks arrive one by one, body, headers and status go through,
 * Authorization is replaced by the worker's key, a token is taken per chat completion only,
 * an unreachable endpoint answers an OpenAI-style 502, and a client that goes away aborts the
 * upstream request.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardHeaders, startLimitProxy, type LimitProxy } from '../../scripts/batch/limit-proxy';

interface Seen { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }

let upstream: http.Server;
let upstreamUrl: string;
const seen: Seen[] = [];
let hungClosed: Promise<void> = Promise.resolve();
let onHungClosed: () => void = () => undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => { body += d; });
    req.on('end', async () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.method === 'GET' && req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: [{ id: 'm1' }] }));
        return;
      }
      const json = body ? JSON.parse(body) as { stream?: boolean; hang?: boolean } : {};
      if (json.hang) {
        res.on('close', () => { if (!res.writableFinished) onHungClosed(); });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"n":1}\n\n');
        return; // never ends: the client has to go away
      }
      if (json.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (let n = 1; n <= 3; n++) {
          res.write(`data: {"n":${n}}\n\n`);
          await sleep(150);
        }
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-upstream': 'yes' });
      res.end(JSON.stringify({ echo: json, url: req.url }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

const proxies: LimitProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  seen.length = 0;
});

async function proxy(o: Partial<Parameters<typeof startLimitProxy>[0]> = {}): Promise<LimitProxy> {
  const p = await startLimitProxy({ target: upstreamUrl, limiter: null, ...o });
  proxies.push(p);
  return p;
}

function countingLimiter(delayMs = 0) {
  const l = { takes: 0, async take() { l.takes++; if (delayMs) await sleep(delayMs); } };
  return l;
}

describe('startLimitProxy', () => {
  it('mirrors the target\'s path and forwards method, body, query, headers and status', async () => {
    const p = await proxy();
    expect(p.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const slash = await proxy({ target: `${upstreamUrl}/` });
    expect(slash.baseUrl).toMatch(/\/v1$/);

    const res = await fetch(`${p.baseUrl}/chat/completions?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-custom': 'kept', authorization: 'Bearer browser-key' },
      body: JSON.stringify({ model: 'm1', messages: [] }),
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(await res.json()).toEqual({ echo: { model: 'm1', messages: [] }, url: '/v1/chat/completions?x=1' });
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('POST');
    expect(seen[0].headers['x-custom']).toBe('kept');
    expect(seen[0].headers.authorization).toBe('Bearer browser-key'); // no apiKey: the client's
    expect(seen[0].headers.host).toBe(new URL(upstreamUrl).host);

    const outside = await fetch(p.baseUrl.replace(/\/v1$/, '/other'));
    expect(outside.status).toBe(404);
    expect((await outside.json() as { error: { type: string } }).error.type).toBe('not_found');
  });

  it('sets Authorization from apiKey in place of the browser\'s placeholder', async () => {
    const p = await proxy({ apiKey: 'sk-worker' });
    await (await fetch(`${p.baseUrl}/models`, { headers: { authorization: 'Bearer placeholder' } })).text();
    await (await fetch(`${p.baseUrl}/models`)).text();
    expect(seen.map((s) => s.headers.authorization)).toEqual(['Bearer sk-worker', 'Bearer sk-worker']);
  });

  it('streams SSE through chunk by chunk', async () => {
    const p = await proxy();
    const t0 = performance.now();
    const res = await fetch(`${p.baseUrl}/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stream: true }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let text = '';
    const firstSeen: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
      for (let n = firstSeen.length + 1; n <= 3 && text.includes(`"n":${n}`); n++) firstSeen.push(performance.now() - t0);
    }
    expect(text).toBe('data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\ndata: [DONE]\n\n');
    expect(firstSeen).toHaveLength(3);
    expect(firstSeen[1] - firstSeen[0]).toBeGreaterThan(100);
    expect(firstSeen[2] - firstSeen[1]).toBeGreaterThan(100);
  });

  it('takes a token once per chat completion, none for GET models', async () => {
    const limiter = countingLimiter(80);
    const p = await proxy({ limiter });
    const post = () => fetch(`${p.baseUrl}/chat/completions`, { method: 'POST', body: '{}' }).then((r) => r.text());
    await post();
    await (await fetch(`${p.baseUrl}/models`)).text();
    await post();
    expect(limiter.takes).toBe(2);
    expect(p.requests).toBe(2);
    expect(p.waitedMs).toBeGreaterThanOrEqual(150);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v1/chat/completions', 'GET /v1/models', 'POST /v1/chat/completions']);
  });

  it('answers an OpenAI-style 502 naming the endpoint (not the key) when it cannot be reached', async () => {
    const free = http.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', () => r()));
    const port = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    const p = await proxy({ target: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-secret-123' });
    const res = await fetch(`${p.baseUrl}/chat/completions`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(text).not.toContain('sk-secret-123');
    const body = JSON.parse(text) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('upstream_unreachable');
    expect(body.error.message).toContain(`http://127.0.0.1:${port}/v1`);
    expect(body.error.message).toContain('ECONNREFUSED');
  });

  it('aborts the upstream request when the client goes away', async () => {
    hungClosed = new Promise<void>((r) => { onHungClosed = r; });
    const p = await proxy();
    const ctl = new AbortController();
    const res = await fetch(`${p.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ hang: true }), signal: ctl.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"n":1');
    ctl.abort();
    const closed = await Promise.race([hungClosed.then(() => true), sleep(2_000).then(() => false)]);
    expect(closed).toBe(true);
  });

  it('a client that goes away while waiting for a token is never forwarded', async () => {
    const p = await proxy({ limiter: { take: (signal?: AbortSignal) => new Promise<void>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason))) } });
    const ctl = new AbortController();
    const sent = fetch(`${p.baseUrl}/chat/completions`, { method: 'POST', body: '{}', signal: ctl.signal });
    await sleep(100);
    ctl.abort();
    await expect(sent).rejects.toThrow();
    await sleep(100);
    expect(seen).toHaveLength(0);
    expect(p.requests).toBe(0);
  });
});

describe('forwardHeaders', () => {
  it('drops hop-by-hop headers, Host, and those Connection names', () => {
    expect(forwardHeaders({
      host: 'a', connection: 'keep-alive, x-hop', 'keep-alive': 'timeout=5', 'transfer-encoding': 'chunked',
      te: 'trailers', upgrade: 'h2c', 'proxy-authorization': 'Basic x', 'x-hop': '1',
      'content-type': 'application/json', 'content-length': '2', accept: 'text/event-stream',
    })).toEqual({ 'content-type': 'application/json', 'content-length': '2', accept: 'text/event-stream' });
  });
});
