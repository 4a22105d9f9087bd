/**
 * A throwaway Redis for tests and the bench (batch runs, issue 16): Debian's `redis-server` on a
 * free port of 127.0.0.1, with no persistence (`--save '' --appendonly no`) and its own temp
 * dir, ready once it answers PING. stop() kills it and removes the dir.
 *
 * When `redis-server` is missing: as root on Debian, installs the `redis-server` package with
 * apt-get (waiting for another apt-get or dpkg: apt.ts, as chromium.ts does for Chromium);
 * otherwise throws a one-line error saying how to install it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { aptGet } from './apt';

export interface RedisServer {
  /** redis://127.0.0.1:PORT */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const READY_MS = 10_000;

/** REDIS_SERVER, /usr/bin/redis-server, then `redis-server` on PATH; null when none. */
export function findRedisServer(): string | null {
  const env = process.env.REDIS_SERVER;
  if (env && existsSync(env)) return env;
  const dirs = ['/usr/bin', ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean)];
  for (const dir of dirs) {
    const p = path.join(dir, 'redis-server');
    if (existsSync(p)) return p;
  }
  return null;
}

function ensureRedisServer(): string {
  const found = findRedisServer();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/etc/debian_version')) {
    console.error('redis-server not found: installing Debian\'s "redis-server" package with apt-get…');
    const log = (line: string) => console.error(line);
    aptGet(['update', '-qq'], log);
    aptGet(['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], log);
    const after = findRedisServer();
    if (after) return after;
  }
  throw new Error('redis-server not found: install it (Debian/Ubuntu: sudo apt-get install redis-server) or set REDIS_SERVER to its path');
}

/** A port of 127.0.0.1 that was free a moment ago (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** True when a PING on 127.0.0.1:port gets +PONG within a second. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let got = '';
    const done = (ok: boolean) => { sock.destroy(); resolve(ok); };
    sock.setTimeout(1_000, () => done(false));
    sock.once('error', () => done(false));
    sock.once('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes('\r\n')) done(got.startsWith('+PONG'));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited(child);
  clearTimeout(timer);
}

/** One attempt on one port; null when the port was taken meanwhile (the server exited at once). */
async function tryStart(bin: string, dir: string, port: number): Promise<RedisServer | null> {
  const child = spawn(bin, [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
    '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--logfile', '',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d: Buffer) => { log = (log + d.toString()).slice(-4_000); };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let spawnError: Error | null = null;
  child.once('error', (err) => { spawnError = err; });

  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (spawnError) throw new Error(`redis-server could not start: ${(spawnError as Error).message}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      if (/address already in use/i.test(log)) return null;
      throw new Error(`redis-server exited (${child.exitCode ?? child.signalCode}): ${log.trim().split('\n').slice(-3).join(' | ')}`);
    }
    if (await pings(port)) break;
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`redis-server did not answer PING on 127.0.0.1:${port} within ${READY_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.stdout?.removeListener('data', keep);
  child.stderr?.removeListener('data', keep);
  child.stdout?.resume();
  child.stderr?.resume();
  // Not left running when this process ends without calling stop().
  const onExit = () => { child.kill('SIGKILL'); };
  process.once('exit', onExit);
  const stop = async () => {
    process.removeListener('exit', onExit);
    await stopChild(child);
  };
  return { url: `redis://127.0.0.1:${port}`, port, stop };
}

/** Starts a private redis-server (see the top of this file). */
export async function startRedis(): Promise<RedisServer> {
  const bin = ensureRedisServer();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'webagent-redis-'));
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      const server = await tryStart(bin, dir, await freePort());
      if (!server) continue;
      let stopped: Promise<void> | null = null;
      const stop = () => {
        stopped ??= server.stop().then(() => rm(dir, { recursive: true, force: true }));
        return stopped;
      };
      return { url: server.url, port: server.port, stop };
    }
    throw new Error('redis-server: no free port of 127.0.0.1 after 5 tries');
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
