/**
 * apt-get that waits for another apt-get / dpkg to finish instead of failing on its lock, and
 * says what it waits for (`npm run demo` and `npm test` install Debian's chromium when it is
 * missing: chromium.ts; .ci/run does the same in bash).
 *
 * 1. find who holds one of apt's / dpkg's locks: the lock files' inodes in /proc/locks (apt and
 *    dpkg lock them with fcntl, which /proc/locks lists with the holder's pid);
 * 2. while one does, say so once ("waiting for another apt-get/dpkg (pid N, name) to finish…")
 *    and look again every 2 s, up to 10 minutes;
 * 3. run apt-get with DPkg::Lock::Timeout as well (a lock taken between 1 and 3 is waited for
 *    by apt itself); `update` is tried again when it fails while someone holds a lock.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';

export const APT_LOCKS = ['/var/lib/dpkg/lock-frontend', '/var/lib/dpkg/lock', '/var/lib/apt/lists/lock', '/var/cache/apt/archives/lock'];
const WAIT_MS = 10 * 60_000;
const POLL_MS = 2_000;

export interface LockHolder { pid: number; lock: string }

/**
 * Holders of the given files' locks in /proc/locks text: "1: POSIX  ADVISORY  WRITE 1234
 * fe:00:402117 0 EOF" (pid, then major:minor:inode); a waiting request ("1: -> POSIX …") is not
 * a holder, nor an OFD lock (pid -1).
 */
export function lockHolders(procLocks: string, inodes: Map<number, string>): LockHolder[] {
  const out: LockHolder[] = [];
  for (const line of procLocks.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 6 || f[1] === '->') continue;
    const pid = Number(f[4]);
    const inode = Number(f[5].split(':')[2]);
    const lock = inodes.get(inode);
    if (lock && pid > 0) out.push({ pid, lock });
  }
  return out;
}

/** The first process holding one of `paths`' locks, with its name, or null. */
export function aptLockHolder(paths = APT_LOCKS): (LockHolder & { name: string }) | null {
  const inodes = new Map<number, string>();
  for (const p of paths) if (existsSync(p)) inodes.set(statSync(p).ino, p);
  let text = '';
  try {
    text = readFileSync('/proc/locks', 'utf8');
  } catch {
    return null; // not Linux: apt-get's own lock timeout still applies
  }
  const h = lockHolders(text, inodes)[0];
  if (!h) return null;
  let name = '?';
  try { name = readFileSync(`/proc/${h.pid}/comm`, 'utf8').trim(); } catch { /* it just ended */ }
  return { ...h, name };
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Steps 1-2 (blocking): true once no one holds a lock, false after `timeoutMs` of waiting. */
export function waitForApt(log: (line: string) => void, paths = APT_LOCKS, timeoutMs = WAIT_MS): boolean {
  const deadline = Date.now() + timeoutMs;
  let said = -1;
  for (let h = aptLockHolder(paths); h; h = aptLockHolder(paths)) {
    if (h.pid !== said) log(`waiting for another apt-get/dpkg (pid ${h.pid}, ${h.name}) to finish… (it holds ${h.lock})`);
    said = h.pid;
    if (Date.now() > deadline) return false;
    sleepSync(Math.min(POLL_MS, deadline - Date.now() + 10));
  }
  return true;
}

/** Step 3: `apt-get ARGS` (as root), noninteractive, after waiting for the locks. */
export function aptGet(args: string[], log: (line: string) => void): void {
  const run = () => execFileSync('apt-get', ['-o', `DPkg::Lock::Timeout=${WAIT_MS / 1000}`, ...args], {
    stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    waitForApt(log, APT_LOCKS, Math.max(0, deadline - Date.now()));
    try {
      run();
      return;
    } catch (err) {
      // `update` takes the lists lock, which DPkg::Lock::Timeout does not cover: try again.
      if (args[0] !== 'update' || !aptLockHolder() || Date.now() > deadline) throw err;
    }
  }
}
