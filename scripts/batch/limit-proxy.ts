/**
 * A worker's local door to the model endpoint (batch runs, issue 16): an HTTP server on
 * 127.0.0.1 (a port the OS picks) that forwards every request under its base URL to the same
 * path under the real endpoint, taking a token of the shared rate limit (rate-limit.ts) before
 * each POST …/chat/completions (GET …/models and anything else go straight through). The
 * extension in the worker's browsers is given `baseUrl` instead of the endpoint.
 *
 * - Paths: the proxy's base mirrors the target's path, so `target` https://api.example/v1 gives
 *   `baseUrl` http://127.0.0.1:PORT/v1, and baseUrl + "/chat/completions" goes to
 *   target + "/chat/completions" (query kept). Paths outside the base answer 404.
 * - Method, body and headers are forwarded, minus hop-by-hop headers and Host. With `apiKey` the
 *   proxy sets `Authorization: Bearer <apiKey>` itself, replacing whatever the browser sent: each
 *   worker reads its key from its own environment, and the browser's profile can be given any
 *   placeholder key (e.g. "via-proxy"), so the real key is never in a profile or a job.
 * - Responses stream through as they come (status, headers and body bytes unchanged, no
 *   buffering, no decompression): an SSE stream reaches the browser chunk by chunk.
 * - A client that goes away (or a run stopped) aborts the upstream request, or its wait for a
 *   token.
 * - An endpoint that cannot be reached answers 502 with an OpenAI-style error body
 *   `{ error: { message, type } }` naming the endpoint (never the key); a limiter that fails
 *   (Redis gone) answers 503 the same way.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface LimitProxy {
  /** the base URL to give the extension: http://127.0.0.1:PORT plus the target's path */
  readonly baseUrl: string;
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
  /** when given, sent as `Authorization: Bearer …` in place of the client's */
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

function sendError(res: http.ServerResponse, status: number, type: string, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { message, type } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function isChatCompletion(method: string | undefined, pathname: string): boolean {
  return method === 'POST' && /\/chat\/completions\/?$/.test(pathname);
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
  let requests = 0;
  let waitedMs = 0;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const pathname = path.split('?')[0];
    if (prefix && pathname !== prefix && !pathname.startsWith(`${prefix}/`)) {
      sendError(res, 404, 'not_found', `the limit proxy forwards only paths under ${prefix}/ (to ${endpoint}); got ${pathname}`);
      return;
    }
    const ctl = new AbortController();
    res.on('close', () => { if (!res.writableFinished) ctl.abort(new Error('the client went away')); });

    if (isChatCompletion(req.method, pathname)) {
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
    }

    const headers = forwardHeaders(req.headers);
    if (o.apiKey !== undefined) headers.authorization = `Bearer ${o.apiKey}`;
    const url = `${target.origin}${path}`;
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
