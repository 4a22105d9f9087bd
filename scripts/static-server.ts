/** A tiny static file server on 127.0.0.1 (demo site and test fixture pages). */
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.json': 'application/json', '.jpg': 'image/jpeg',
};

export interface StaticServer {
  url: string;
  /** what pages reported through GET /__event?type=…&value=…&page=… (test fixture sites do) */
  events: Record<string, string>[];
  close(): Promise<void>;
}

const DOWNLOAD_BYTES = 256 * 1024;

/**
 * GET /__download/NAME?hold=MS&type=MIME&bytes=N: a file download (Content-Disposition: attachment
 * unless `inline=1`; `type` default application/octet-stream, `bytes` default 256 KB) whose first
 * kilobyte comes at once and the rest after `hold` ms, so it is still going when the browser
 * starts it (test fixture sites: the download guard).
 */
function download(res: http.ServerResponse, name: string, q: URLSearchParams, events: Record<string, string>[]): void {
  events.push({ type: 'download', value: name });
  const bytes = Math.min(Math.max(Number(q.get('bytes') ?? DOWNLOAD_BYTES) || DOWNLOAD_BYTES, 1024), 64 * 1024 * 1024);
  res.writeHead(200, {
    'content-type': q.get('type') ?? 'application/octet-stream', 'content-length': String(bytes), 'cache-control': 'no-store',
    ...(q.get('inline') === '1' ? {} : { 'content-disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"` }),
  });
  res.write(Buffer.alloc(1024, 97));
  setTimeout(() => res.end(Buffer.alloc(bytes - 1024, 98)), Math.min(Math.max(Number(q.get('hold') ?? 0), 0), 30_000));
}

export interface ServeOptions {
  /** URL prefix ("/lib/shoelace/") → folder served under it (test fixtures: libraries from node_modules) */
  mounts?: Record<string, string>;
}

/** The folder and file a path maps to (a mount's prefix first, else the root), or null outside them. */
function fileFor(pathname: string, base: string, mounts: Record<string, string>): string | null {
  for (const [prefix, dir] of Object.entries(mounts)) {
    if (!pathname.startsWith(prefix)) continue;
    const folder = path.resolve(dir);
    const file = path.resolve(folder, `./${pathname.slice(prefix.length)}`);
    return file.startsWith(folder) ? file : null;
  }
  const file = path.resolve(base, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`);
  return file.startsWith(base) ? file : null;
}

/**
 * Any file with `?delay=MS` is answered after MS ms (at most 30 s): a slow network for one
 * script, e.g. a component library that defines its elements late.
 */
export async function serveDir(root: string, port = 0, options: ServeOptions = {}): Promise<StaticServer> {
  const base = path.resolve(root);
  const mounts = options.mounts ?? {};
  const events: Record<string, string>[] = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const pathname = decodeURIComponent(url.pathname);
    if (pathname === '/__event') {
      events.push(Object.fromEntries(url.searchParams));
      res.writeHead(204);
      return res.end();
    }
    if (pathname === '/__redirect') {
      // GET /__redirect?to=URL: a 302 there (test fixture sites: a link whose server sends the page to another site)
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      return res.end();
    }
    if (pathname.startsWith('/__api/')) {
      // any method: recorded as {type: 'api', method, value: the path}, answered 200 (test fixture sites: a page's effects)
      events.push({ type: 'api', method: req.method ?? 'GET', value: pathname });
      req.resume();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return res.end('<!doctype html><title>Done</title><p>Done.</p>');
    }
    if (pathname.startsWith('/__download/')) return download(res, pathname.slice('/__download/'.length), url.searchParams, events);
    const file = fileFor(pathname, base, mounts);
    if (!file) { res.writeHead(403); return res.end(); }
    const delay = Math.min(Math.max(Number(url.searchParams.get('delay') ?? 0) || 0, 0), 30_000);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    try {
      const data = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(data);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    events,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
