/**
 * scripts/apt.ts: who holds apt's / dpkg's locks (/proc/locks), and waiting for them with a
 * message instead of failing. The live cases lock a temporary file with flock(1), never apt's own.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { aptLockHolder, lockHolders, waitForApt } from '../../scripts/apt';

describe('lockHolders', () => {
  const inodes = new Map([[402117, '/var/lib/dpkg/lock-frontend'], [399286, '/var/lib/apt/lists/lock']]);
  it('finds the holder of a lock file by its inode, whatever the lock type', () => {
    const text = [
      '1: POSIX  ADVISORY  WRITE 29454 fe:00:2221442 1073741824 1073742335',
      '2: POSIX  ADVISORY  WRITE 4242 fe:00:402117 0 EOF',
      '3: FLOCK  ADVISORY  WRITE 777 08:01:399286 0 EOF',
    ].join('\n');
    expect(lockHolders(text, inodes)).toEqual([{ pid: 4242, lock: '/var/lib/dpkg/lock-frontend' }, { pid: 777, lock: '/var/lib/apt/lists/lock' }]);
  });
  it('skips requests waiting for a lock, OFD locks without a pid, and other files', () => {
    const text = [
      '2: -> POSIX  ADVISORY  WRITE 5151 fe:00:402117 0 EOF',
      '4: OFDLCK ADVISORY  WRITE -1 fe:00:402117 0 EOF',
      '5: POSIX  ADVISORY  WRITE 99 fe:00:12345 0 EOF',
      '',
    ].join('\n');
    expect(lockHolders(text, inodes)).toEqual([]);
  });
});

describe.runIf(existsSync('/proc/locks'))('waiting for a lock held by another process', () => {
  function holdLock(seconds: number) {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'apt-lock-')), 'lock');
    writeFileSync(file, '');
    const child = spawn('flock', [file, 'sleep', String(seconds)], { stdio: 'ignore' });
    return { file, child };
  }
  async function held(file: string) {
    for (let i = 0; i < 100 && !aptLockHolder([file]); i++) await new Promise((r) => setTimeout(r, 20));
  }

  it('names the holder, says what it waits for, and goes on once the lock is free', async () => {
    const { file, child } = holdLock(2);
    await held(file);
    expect(aptLockHolder([file])).toEqual({ pid: child.pid, lock: file, name: 'flock' });
    const lines: string[] = [];
    const started = Date.now();
    expect(waitForApt((l) => lines.push(l), [file], 30_000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(lines).toEqual([`waiting for another apt-get/dpkg (pid ${child.pid}, flock) to finish… (it holds ${file})`]);
    expect(aptLockHolder([file])).toBeNull();
  });

  it('gives up after its timeout while the lock is still held', async () => {
    const { file, child } = holdLock(30);
    try {
      await held(file);
      const lines: string[] = [];
      expect(waitForApt((l) => lines.push(l), [file], 500)).toBe(false);
      expect(lines).toHaveLength(1);
    } finally {
      child.kill();
    }
  });
});
