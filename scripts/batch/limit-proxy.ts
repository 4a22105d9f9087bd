/**
 * A worker's local door to the model endpoint (batch runs, issue 16): an HTTP server on
 * 127.0.0.1 (a port the OS picks) that forwards the extension's chat completions to the real
 * endpoint, taking a token of the shared rate limit (rate-limit.ts) before each one. The
 * extension in the worker's browsers is given `baseUrl` instead of the endpoint, and `token` as
 * its API key.
 *
 * Why it is locked down (issue 25): the proxy adds the worker's real key, and 127.0.0.1 is
 * reachable by every local user and by any web page open in the worker's browser. Left open it
 * would let them spend the key, or misuse it on any other path of the API (DELETE …/files, …).
 * So:
 * - Only `POST <base>/chat/completions` is forwarded (a query string may follow; one trailing
 *   slash is tolerated). Another path answers 404 (`not_found`), another method on that path
 *   405 (`method_not_allowed`, with `Allow: POST`). GET …/models is not forwarded either: a run
 *   uses chat completions only. The path is checked first, so these answers come with or without
 *   the token; they say nothing the source does not, and nothing is ever forwarded.
 * - Each proxy makes a random token (32 bytes, base64url) when it starts, given as `token`. A
 *   request to the chat path must carry `Authorization: Bearer <token>` (compared in constant
 *   time); one without it, or with another, answers 401 (`unauthorized`, with
 *   `WWW-Authenticate: Bearer`), is never forwarded, and never waits for a rate token.
 * - Paths: the proxy's base mirrors the target's path, so `target` https://api.example/v1 gives
 *   `baseUrl` http://127.0.0.1:PORT/v1, and baseUrl + "/chat/completions" goes to
 *   target + "/chat/completions" (query kept).
 * - Body and headers are forwarded, minus hop-by-hop headers, Host and the browser's
 *   Authorization (the proxy's token is never sent upstream). With `apiKey` the proxy sends
 *   `Authorization: Bearer <apiKey>` itself: each worker reads its key from its own environment,
 *   so the real key is never in a profile or a job. Without it no Authorization goes upstream
 *   (an endpoint that needs none).
 * - Responses stream through as they come (status, headers and body bytes unchanged, no
 *   buffering, no decompression): an SSE stream reaches the browser chunk by chunk.
 * - A client that goes away (or a run stopped) aborts the upstream request, or its wait for a
 *   token.
 * - Every answer of the proxy's own has an OpenAI-style body `{ error: { message, type } }`. An
 *   endpoint that cannot be reached answers 502 naming the endpoint (never the key); a limiter
 *   that fails (Redis gone) answers 503.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface LimitProxy {
  /** the base URL to give the extension: http://127.0.0.1:PORT plus the target's path */
  readonly baseUrl: string;
  /** the API key to give the extension: requests must carry `Authorization: Bearer <token>` */
  readonly token: string;
  /** chat completions forwarded so far (each took a token when there is a limiter) */
  readonly requests: number;
  /** total time those requests waited for their tokens, in ms */
  readonly waitedMs: number;
  close(): Promise<void>;
}

export interface LimitProxyOptions {
  /** the real base URL, e.g. https://api.example/v1 */
  target: string;
  /** the shared rate limit; null forwards without waiting */
  limiter: { take(signal?: AbortSignal): Promise<void> } | null;
  /** when given, sent upstream as `Authorization: Bearer …`; without it no Authorization is sent */
  apiKey?: string;
}

/** Headers meaningful for one connection only (RFC 9110 7.6.1), never forwarded; and Host. */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization',
  'te', 'trailer', 'transfer-encoding', 'upgrade', 'host',
]);

/** `headers` without hop-by-hop ones (also those the Connection header names). */
export function forwardHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = new Set(String(headers.connection ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/** The endpoint as it may be shown: no user or password, no trailing slash. */
function shown(url: URL): string {
  const u = new URL(url.href);
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  return u.href.replace(/\/+$/, '');
}

function sendError(res: http.ServerResponse, status: number, type: string, message: string, headers: http.OutgoingHttpHeaders = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { message, type } });
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Whether `authorization` is exactly `Bearer <token>` (the scheme in any case), in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^bearer (.*)$/is.exec(authorization ?? '');
  if (!m) return false;
  const got = Buffer.from(m[1], 'utf8');
  const want = Buffer.from(token, 'utf8');
  return got.length === want.length && timingSafeEqual(got, want);
}

/** Starts the proxy (see the top of this file). */
export async function startLimitProxy(o: LimitProxyOptions): Promise<LimitProxy> {
  const target = new URL(o.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new Error(`limit proxy: the target must be an http(s) URL (got ${target.protocol})`);
  }
  const prefix = target.pathname.replace(/\/+$/, '');
  const client = target.protocol === 'https:' ? https : http;
  const agent = target.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const endpoint = shown(target);
  const chatPath = `${prefix}/chat/completions`;
  const token = randomBytes(32).toString('base64url');
  let requests = 0;
  let waitedMs = 0;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const q = path.indexOf('?');
    const pathname = q < 0 ? path : path.slice(0, q);
    const query = q < 0 ? '' : path.slice(q);
    if (pathname !== chatPath && pathname !== `${chatPath}/`) {
      sendError(res, 404, 'not_found', `the limit proxy forwards only POST ${chatPath} (to ${endpoint}); got ${pathname}`);
      return;
    }
    if (req.method !== 'POST') {
      sendError(res, 405, 'method_not_allowed', `the limit proxy forwards only POST ${chatPath}; got ${req.method}`, { allow: 'POST' });
      return;
    }
    if (!bearerMatches(req.headers.authorization, token)) {
      sendError(res, 401, 'unauthorized', 'the limit proxy needs its token as the API key (Authorization: Bearer <token>)', { 'www-authenticate': 'Bearer' });
      return;
    }
    const ctl = new AbortController();
    res.on('close', () => { if (!res.writableFinished) ctl.abort(new Error('the client went away')); });

    const t0 = performance.now();
    try {
      await o.limiter?.take(ctl.signal);
    } catch (err) {
      if (ctl.signal.aborted) return;
      sendError(res, 503, 'rate_limiter_error', `the shared rate limit for ${endpoint} could not be taken: ${(err as Error).message}`);
      return;
    }
    waitedMs += performance.now() - t0;
    requests++;

    const headers = forwardHeaders(req.headers);
    delete headers.authorization; // the proxy's token stays here
    if (o.apiKey !== undefined) headers.authorization = `Bearer ${o.apiKey}`;
    const url = `${target.origin}${pathname}${query}`;
    const upstream = client.request(url, { method: req.method, headers, agent, signal: ctl.signal }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, forwardHeaders(up.headers));
      res.flushHeaders();
      up.pipe(res);
      // cut off midway: the client sees the cut rather than a short body that looks whole
      up.on('close', () => { if (!up.complete) res.destroy(); });
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (ctl.signal.aborted) return;
      const why = err.message || err.code || 'unknown error';
      sendError(res, 502, 'upstream_unreachable', `the model endpoint ${endpoint} could not be reached (${req.method} ${pathname.slice(prefix.length) || '/'}): ${why}`);
    });
    req.pipe(upstream);
  }

  const sockets = new Set<Socket>();
  const server = http.createServer({ noDelay: true, requestTimeout: 0 }, (req, res) => {
    handle(req, res).catch((err: Error) => sendError(res, 500, 'proxy_error', `limit proxy: ${err.message}`));
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}${prefix}`;

  return {
    baseUrl,
    token,
    get requests() { return requests; },
    get waitedMs() { return Math.round(waitedMs); },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        agent.destroy();
      });
    },
  };
}
