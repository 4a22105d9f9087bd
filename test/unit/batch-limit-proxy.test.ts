/**
 * The worker's local proxy to the model endpoint (scripts/batch/limit-proxy.ts), against a tiny
 * upstream server made here: SSE chunks arrive one by one, body, headers and status go through,
 * Authorization is replaced by the worker's key (the proxy's own token never goes upstream), a
 * rate token is taken per chat completion, an unreachable endpoint answers an OpenAI-style 502,
 * and a client that goes away aborts the upstream request. Issue 25: only POST …/chat/completions
 * with the proxy's token is forwarded; anything else is answered by the proxy and the upstream
 * sees nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerMatches, forwardHeaders, startLimitProxy, type LimitProxy } from '../../scripts/batch/limit-proxy';

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

/** a request to the proxy carrying its token (as the extension's API key) */
function withToken(p: LimitProxy, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${p.token}` } };
}

/** POST …/chat/completions through `p` with its token */
function chat(p: LimitProxy, body: unknown = {}, init: RequestInit = {}): Promise<Response> {
  return fetch(`${p.baseUrl}/chat/completions`, withToken(p, { method: 'POST', body: JSON.stringify(body), ...init }));
}

/** A raw request (no URL normalising, unlike fetch): status and body */
function raw(p: LimitProxy, method: string, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<{ status: number; body: string }> {
  const u = new URL(p.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

function errorOf(text: string): { message: string; type: string } {
  return (JSON.parse(text) as { error: { message: string; type: string } }).error;
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

    const res = await fetch(`${p.baseUrl}/chat/completions?x=1`, withToken(p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-custom': 'kept' },
      body: JSON.stringify({ model: 'm1', messages: [] }),
    }));
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(await res.json()).toEqual({ echo: { model: 'm1', messages: [] }, url: '/v1/chat/completions?x=1' });
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('POST');
    expect(seen[0].headers['x-custom']).toBe('kept');
    expect(seen[0].headers.host).toBe(new URL(upstreamUrl).host);

    // one trailing slash is tolerated, the query kept
    const trailing = await fetch(`${p.baseUrl}/chat/completions/?y=2`, withToken(p, { method: 'POST', body: '{}' }));
    expect(trailing.status).toBe(201);
    expect(seen.map((s) => s.url)).toEqual(['/v1/chat/completions?x=1', '/v1/chat/completions/?y=2']);

    const outside = await fetch(p.baseUrl.replace(/\/v1$/, '/other'), withToken(p));
    expect(outside.status).toBe(404);
    expect(errorOf(await outside.text()).type).toBe('not_found');
    expect(seen).toHaveLength(2);
  });

  it('sets Authorization from apiKey in place of the browser\'s token', async () => {
    const p = await proxy({ apiKey: 'sk-worker' });
    expect((await chat(p)).status).toBe(201);
    expect((await chat(p)).status).toBe(201);
    expect(seen.map((s) => s.headers.authorization)).toEqual(['Bearer sk-worker', 'Bearer sk-worker']);
  });

  it('never sends its token upstream: without apiKey no Authorization goes', async () => {
    const p = await proxy();
    const res = await chat(p, { model: 'm1' }, { headers: { 'x-custom': 'kept' } });
    expect(res.status).toBe(201);
    expect(seen).toHaveLength(1);
    expect(seen[0].headers['x-custom']).toBe('kept'); // the other headers do go
    expect(seen[0].headers.authorization).toBeUndefined();
    expect(JSON.stringify(seen[0])).not.toContain(p.token);
  });

  it('makes a different random token for each proxy', async () => {
    const a = await proxy();
    const b = await proxy();
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(b.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    // one proxy's token does not open another
    const res = await fetch(`${b.baseUrl}/chat/completions`, withToken(a, { method: 'POST', body: '{}' }));
    expect(res.status).toBe(401);
    expect(seen).toHaveLength(0);
  });

  it('answers 401 to a request without its token, forwarding nothing and taking no rate token', async () => {
    const limiter = countingLimiter();
    const p = await proxy({ limiter, apiKey: 'sk-worker' });
    const wrong = `${p.token.slice(0, -1)}${p.token.endsWith('A') ? 'B' : 'A'}`; // same length, one character off
    const cases: (Record<string, string> | undefined)[] = [
      undefined,
      { authorization: 'Bearer via-local-proxy' },
      { authorization: `Bearer ${wrong}` },
      { authorization: `Bearer ${p.token}x` },
      { authorization: `Bearer ${p.token.slice(0, -1)}` },
      { authorization: p.token },
      { authorization: `Basic ${p.token}` },
      { authorization: 'Bearer ' },
      { 'x-api-key': p.token },
    ];
    for (const headers of cases) {
      const res = await fetch(`${p.baseUrl}/chat/completions`, { method: 'POST', body: '{}', ...(headers ? { headers } : {}) });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      const text = await res.text();
      expect(errorOf(text).type).toBe('unauthorized');
      expect(text).not.toContain('sk-worker');
      expect(text).not.toContain(p.token);
    }
    expect(seen).toHaveLength(0);
    expect(limiter.takes).toBe(0);
    expect(p.requests).toBe(0);
    // the same request with the token does go, and takes one
    expect((await chat(p)).status).toBe(201);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v1/chat/completions']);
    expect(limiter.takes).toBe(1);
  });

  it('forwards nothing but POST …/chat/completions, even with its token', async () => {
    const limiter = countingLimiter();
    const p = await proxy({ limiter, apiKey: 'sk-worker' });
    const auth = { authorization: `Bearer ${p.token}` };
    const refused: [string, string, number][] = [
      ['DELETE', '/v1/files', 404],
      ['GET', '/v1/models', 404],
      ['POST', '/v1/files', 404],
      ['POST', '/v1/embeddings', 404],
      ['POST', '/v1/chat/completions/x', 404],
      ['POST', '/v1/chat/completions//', 404],
      ['POST', '/v1/chat/completionsx', 404],
      ['POST', '/v1/../v1/files', 404],
      ['POST', '/v1/x/../chat/completions', 404],
      ['POST', '/v1/chat%2Fcompletions', 404],
      ['POST', '/chat/completions', 404],
      ['POST', `http://127.0.0.1:${new URL(upstreamUrl).port}/v1/chat/completions`, 404],
      ['GET', '/v1/chat/completions', 405],
      ['DELETE', '/v1/chat/completions', 405],
      ['PUT', '/v1/chat/completions?x=1', 405],
    ];
    for (const [method, path, status] of refused) {
      const res = await raw(p, method, path, auth);
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(errorOf(res.body).type).toBe(status === 404 ? 'not_found' : 'method_not_allowed');
      // and without the token they are not forwarded either
      expect((await raw(p, method, path)).status, `${method} ${path} without the token`).toBeGreaterThanOrEqual(400);
    }
    expect(seen).toHaveLength(0);
    expect(limiter.takes).toBe(0);
    expect(p.requests).toBe(0);
    // the one allowed request, sent the same raw way, does go
    expect((await raw(p, 'POST', '/v1/chat/completions', auth)).status).toBe(201);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v1/chat/completions']);
  });

  it('streams SSE through chunk by chunk', async () => {
    const p = await proxy();
    const t0 = performance.now();
    const res = await chat(p, { stream: true }, { headers: { 'content-type': 'application/json' } });
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

  it('takes a rate token once per chat completion, none for a refused request', async () => {
    const limiter = countingLimiter(80);
    const p = await proxy({ limiter });
    const post = () => chat(p).then((r) => r.text());
    await post();
    const models = await fetch(`${p.baseUrl}/models`, withToken(p));
    expect(models.status).toBe(404); // no longer forwarded: a run uses chat completions only
    await models.text();
    await post();
    expect(limiter.takes).toBe(2);
    expect(p.requests).toBe(2);
    expect(p.waitedMs).toBeGreaterThanOrEqual(150);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v1/chat/completions', 'POST /v1/chat/completions']);
  });

  it('answers an OpenAI-style 503 when the limiter fails', async () => {
    const p = await proxy({ limiter: { take: () => Promise.reject(new Error('Redis is gone')) } });
    const res = await chat(p);
    expect(res.status).toBe(503);
    const error = errorOf(await res.text());
    expect(error.type).toBe('rate_limiter_error');
    expect(error.message).toContain('Redis is gone');
    expect(seen).toHaveLength(0);
  });

  it('answers an OpenAI-style 502 naming the endpoint (not the key) when it cannot be reached', async () => {
    const free = http.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', () => r()));
    const port = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    const p = await proxy({ target: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-secret-123' });
    const res = await chat(p);
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(text).not.toContain('sk-secret-123');
    expect(text).not.toContain(p.token);
    const body = JSON.parse(text) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('upstream_unreachable');
    expect(body.error.message).toContain(`http://127.0.0.1:${port}/v1`);
    expect(body.error.message).toContain('ECONNREFUSED');
  });

  it('aborts the upstream request when the client goes away', async () => {
    hungClosed = new Promise<void>((r) => { onHungClosed = r; });
    const p = await proxy();
    const ctl = new AbortController();
    const res = await chat(p, { hang: true }, { signal: ctl.signal });
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
    const sent = chat(p, {}, { signal: ctl.signal });
    await sleep(100);
    ctl.abort();
    await expect(sent).rejects.toThrow();
    await sleep(100);
    expect(seen).toHaveLength(0);
    expect(p.requests).toBe(0);
  });
});

describe('bearerMatches', () => {
  it('accepts exactly "Bearer <token>" (the scheme in any case)', () => {
    expect(bearerMatches('Bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('Bearer abd', 'abc')).toBe(false);
    expect(bearerMatches('Bearer abcd', 'abc')).toBe(false);
    expect(bearerMatches('Bearer ab', 'abc')).toBe(false);
    expect(bearerMatches('Bearer  abc', 'abc')).toBe(false);
    expect(bearerMatches('abc', 'abc')).toBe(false);
    expect(bearerMatches(undefined, 'abc')).toBe(false);
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
