/**
 * The batch's warm browsers (scripts/batch/pool.ts), driven with fake browsers: a released browser
 * is reset before another task gets it, one that failed its task or its reset is closed and
 * replaced, a browser serves only tasks of its own window, and the pool never holds more than its
 * size. (The real reset's isolation is tested end to end: test/e2e/batch.spec.ts.)
 */
import { describe, expect, it } from 'vitest';
import { BrowserPool, unpackedExtensionId, type BrowserSpec } from '../../scripts/batch/pool';
import { poolSize } from '../../scripts/batch/local';

interface Fake { n: number; spec: BrowserSpec; resets: number; closed: boolean; dirty: boolean }

function fakePool(max: number, o: { failReset?: (b: Fake) => boolean; hangReset?: (b: Fake) => boolean; resetMs?: number } = {}) {
  const made: Fake[] = [];
  const pool = new BrowserPool<Fake>({
    launch: async (spec) => { const b = { n: made.length + 1, spec, resets: 0, closed: false, dirty: false }; made.push(b); return b; },
    reset: async (b) => {
      await new Promise((r) => setTimeout(r, 5));
      if (o.hangReset?.(b)) await new Promise(() => undefined);
      if (o.failReset?.(b)) throw new Error('the browser kept 1 cookie(s)');
      b.resets++;
      b.dirty = false;
    },
    close: async (b) => { b.closed = true; },
  }, max, o.resetMs);
  return { pool, made };
}

const W: BrowserSpec = { width: 1280, height: 800, headed: false };
const flush = () => new Promise((r) => setTimeout(r, 30));

describe('BrowserPool', () => {
  it('gives the next task the same browser, reset after the last task', async () => {
    const { pool, made } = fakePool(2);
    const a = await pool.acquire(W);
    a.dirty = true;
    pool.release(a, true);
    const b = await pool.acquire(W);
    // not handed out while its reset is still going
    await flush();
    expect(b).toBe(a);
    expect(b.resets).toBe(1);
    expect(b.dirty).toBe(false);
    expect(made).toHaveLength(1);
    expect(pool.stats).toMatchObject({ launched: 1, reused: 1 });
    pool.release(b, true);
    await pool.close();
    expect(a.closed).toBe(true);
  });

  it('a browser that failed its task is closed, and the next task gets a new one', async () => {
    const { pool, made } = fakePool(1);
    const a = await pool.acquire(W);
    pool.release(a, false);
    const b = await pool.acquire(W);
    expect(b).not.toBe(a);
    expect(a.closed).toBe(true);
    expect(a.resets).toBe(0);
    expect(made).toHaveLength(2);
    pool.release(b, true);
    await pool.close();
  });

  it('a browser whose reset fails is closed and replaced, never handed out', async () => {
    const { pool } = fakePool(1, { failReset: (b) => b.n === 1 });
    const a = await pool.acquire(W);
    a.dirty = true;
    pool.release(a, true);
    const b = await pool.acquire(W);
    expect(b).not.toBe(a);
    expect(a.closed).toBe(true);
    expect(b.dirty).toBe(false);
    expect(pool.stats.replaced).toBe(1);
    pool.release(b, true);
    await pool.close();
  });

  it('a reset that never ends counts as failed after its time: the browser is closed, a waiting acquire gets a new one, close() does not hang', async () => {
    const { pool, made } = fakePool(1, { hangReset: (b) => b.n === 1, resetMs: 100 });
    const a = await pool.acquire(W);
    pool.release(a, true);
    const started = Date.now();
    const b = await pool.acquire(W);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(b).not.toBe(a);
    expect(a.closed).toBe(true);
    expect(made).toHaveLength(2);
    expect(pool.stats.replaced).toBe(1);
    pool.release(b, true);
    await pool.close();
    expect(b.closed).toBe(true);
  });

  it('a browser serves only its own window; a full pool closes an idle one of another window', async () => {
    const { pool } = fakePool(1);
    const a = await pool.acquire(W);
    pool.release(a, true);
    const phone = await pool.acquire({ width: 412, height: 915, headed: false });
    expect(phone).not.toBe(a);
    expect(a.closed).toBe(true);
    expect(phone.spec.width).toBe(412);
    pool.release(phone, true);
    await pool.close();
  });

  it('holds at most its size: an acquire waits for a release', async () => {
    const { pool, made } = fakePool(2);
    const a = await pool.acquire(W);
    const b = await pool.acquire(W);
    let third: Fake | null = null;
    const waiting = pool.acquire(W).then((x) => { third = x; });
    await flush();
    expect(third).toBeNull();
    pool.release(b, true);
    await waiting;
    expect(third).toBe(b);
    expect(made).toHaveLength(2);
    pool.release(a, true);
    pool.release(b, true);
    await pool.close();
    expect(made.every((x) => x.closed)).toBe(true);
  });

  it('after close, browsers still in a task are closed when released, and acquire refuses', async () => {
    const { pool } = fakePool(2);
    const a = await pool.acquire(W);
    await pool.close();
    pool.release(a, true);
    await flush();
    expect(a.closed).toBe(true);
    await expect(pool.acquire(W)).rejects.toThrow(/closed/);
  });
});

describe('pool helpers', () => {
  it('an unpacked extension\'s id is derived from its folder as Chromium does', () => {
    // the id Chromium gave /work/main/dist (seen in chrome-extension:// URLs)
    expect(unpackedExtensionId('/work/main/dist')).toBe('cecpmgecdffjijkjcjgdoklomefnejlc');
    expect(unpackedExtensionId('/tmp/x')).toMatch(/^[a-p]{32}$/);
  });
  it('a batch keeps a browser per run and room for those building exports', () => {
    expect(poolSize(1)).toBe(2);
    expect(poolSize(2)).toBe(3);
    expect(poolSize(4)).toBe(6);
  });
});
