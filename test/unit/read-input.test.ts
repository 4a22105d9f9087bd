import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync, closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { humanBytes, readInputFile, readInputText } from '../../scripts/read-input';

const MB = 1024 * 1024;
let dir: string;
beforeAll(() => { dir = mkdtempSync(path.join(tmpdir(), 'read-input-')); });
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

/** The error `fn` throws, and how long it took to throw it. */
function refusal(fn: () => unknown): { message: string; ms: number } {
  const t0 = performance.now();
  try {
    fn();
  } catch (e) {
    return { message: e instanceof Error ? e.message : String(e), ms: performance.now() - t0 };
  }
  throw new Error('expected a refusal, but the file was read');
}

/**
 * refusal() in a child process, killed after 5 s: a reader that blocks on a FIFO or reads
 * /dev/zero without end fails the test instead of hanging (or filling the memory of) the test run.
 */
function refusalInChild(file: string, maxBytes: number): { message: string; ms: number } {
  const reader = path.resolve(import.meta.dirname, '../../scripts/read-input.ts');
  const code = `
    const { readInputFile } = await import(${JSON.stringify(reader)});
    const t0 = performance.now();
    let out = { message: 'expected a refusal, but the file was read' };
    try { readInputFile(${JSON.stringify(file)}, ${maxBytes}); } catch (e) { out = { message: e.message }; }
    console.log(JSON.stringify({ ...out, ms: performance.now() - t0 }));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    encoding: 'utf8', timeout: 5000, killSignal: 'SIGKILL',
  });
  if (child.error || child.status !== 0) throw new Error(`the reader did not come back within 5 s (${child.error?.message ?? `exit ${child.status}`}) ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!);
}

describe('readInputFile', () => {
  it('reads a regular file', () => {
    const f = path.join(dir, 'tasks.jsonl');
    writeFileSync(f, '{"id":"a"}\nhé\n');
    expect(readInputText(f, 1024)).toBe('{"id":"a"}\nhé\n');
    expect(readInputFile(f, 1024).equals(Buffer.from('{"id":"a"}\nhé\n'))).toBe(true);
  });

  it('reads a file exactly at the cap, and an empty file', () => {
    const f = path.join(dir, 'exact.bin');
    writeFileSync(f, Buffer.alloc(100, 7));
    expect(readInputFile(f, 100).length).toBe(100);
    const e = path.join(dir, 'empty');
    writeFileSync(e, '');
    expect(readInputFile(e, 0).length).toBe(0);
  });

  it('refuses a file over the cap with its size, without reading it (a sparse 5 GB file)', () => {
    const f = path.join(dir, 'huge.bin');
    closeSync(openSync(f, 'w'));
    truncateSync(f, 5 * 1024 * MB);
    const r = refusal(() => readInputFile(f, 20 * MB));
    expect(r.message).toBe(`${f} is 5 GB; the limit is 20 MB`);
  });

  it('refuses one byte over the cap', () => {
    const f = path.join(dir, 'over.bin');
    writeFileSync(f, Buffer.alloc(101));
    expect(refusal(() => readInputFile(f, 100)).message).toBe(`${f} is 101 B; the limit is 100 B`);
  });

  // A file of /proc says size 0 and has more: like a file that grew after the check.
  it('refuses a file that grows past the cap after the size check, and reads one that stays under it', () => {
    expect(refusal(() => readInputFile('/proc/self/status', 10)).message).toBe('/proc/self/status grew past the limit of 10 B while it was read');
    expect(readInputText('/proc/self/status', 1024 * 1024)).toMatch(/^Name:[\s\S]*\nPid:\s+\d+/);
  });

  it('says the limit as the caller words it', () => {
    const f = path.join(dir, 'worded.bin');
    writeFileSync(f, Buffer.alloc(3 * 1024));
    expect(refusal(() => readInputFile(f, 1024, { limit: '20 MB for all the files together' })).message)
      .toBe(`${f} is 3 KB; the limit is 20 MB for all the files together`);
  });

  it('refuses /dev/zero (in a child killed after 5 s: a reader that reads it fails here)', () => {
    const r = refusalInChild('/dev/zero', 20 * MB);
    expect(r.message).toBe('/dev/zero is a device (character device), not a regular file');
  }, 10_000);

  it('refuses a FIFO (no writer: the open does not wait for one; a child killed after 5 s)', () => {
    const p = path.join(dir, 'fifo');
    execFileSync('mkfifo', [p]);
    const r = refusalInChild(p, 20 * MB);
    expect(r.message).toBe(`${p} is a named pipe (FIFO), not a regular file`);
  }, 10_000);

  it('refuses a directory', () => {
    const d = path.join(dir, 'a-dir');
    mkdirSync(d);
    expect(refusal(() => readInputFile(d, 20 * MB)).message).toBe(`${d} is a directory, not a regular file`);
  });

  it('names a missing file (ENOENT)', () => {
    const f = path.join(dir, 'no-such-file.json');
    const m = refusal(() => readInputText(f, 20 * MB)).message;
    expect(m).toContain('ENOENT');
    expect(m).toContain(f);
  });
});

describe('humanBytes', () => {
  it('says sizes in a human unit', () => {
    expect(humanBytes(12)).toBe('12 B');
    expect(humanBytes(64 * 1024)).toBe('64 KB');
    expect(humanBytes(20 * MB)).toBe('20 MB');
    expect(humanBytes(1.5 * MB)).toBe('1.5 MB');
    expect(humanBytes(3.2 * 1024 * MB)).toBe('3.2 GB');
  });
});
