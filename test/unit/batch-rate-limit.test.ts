/**
 * The Redis-backed rate limit (scripts/batch/rate-limit.ts) on a real redis-server
 * (scripts/redis-server.ts): two limiters on two connections share one key and grant at most
 * `max` per window between them, tokens come back after the window, an abort stops a wait; and
 * parseRate's specs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startRedis, type RedisServer } from '../../scripts/redis-server';
import { createLimiter, parseRate } from '../../scripts/batch/rate-limit';

let server: RedisServer;
const conns: Redis[] = [];

function connect(): Redis {
  const r = new Redis(server.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  conns.push(r);
  return r;
}

beforeAll(async () => { server = await startRedis(); }, 30_000);
afterAll(async () => {
  await Promise.all(conns.map((c) => c.quit().catch(() => undefined)));
  await server?.stop();
});

describe('createLimiter', () => {
  it('two limiters on two connections sharing a key grant at most max per window in total', async () => {
    const o = { key: `test:shared:${Date.now()}`, max: 3, perMs: 400 };
    // Each grant's time on Redis's clock, the one the limiter decides by: the ZADD its script
    // runs, seen by MONITOR with its score. (This process's clock reads a grant only when Redis's
    // answer arrives, late by however busy the machine is.)
    const watch = await connect().monitor();
    const granted: number[] = [];
    watch.on('monitor', (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === 'zadd' && args[1] === o.key) granted.push(Number(args[2]));
    });
    try {
      const a = createLimiter(connect(), o);
      const b = createLimiter(connect(), o);
      const t0 = performance.now();
      const grants: number[] = [];
      const take = (l: typeof a) => l.take().then(() => { grants.push(performance.now() - t0); });
      await Promise.all([a, b, a, b, a, b, a, b].map(take));
      grants.sort((x, y) => x - y);
      expect(grants).toHaveLength(8);
      await expect.poll(() => granted.length).toBe(8);
      granted.sort((x, y) => x - y);
      // any max+1 grants in a row span at least one window, on the clock that decides
      for (let i = 0; i + o.max < granted.length; i++) {
        expect(granted[i + o.max] - granted[i]).toBeGreaterThanOrEqual(o.perMs);
      }
      // the first window's grants at once; later ones soon after a window ends (not starved)
      expect(granted[o.max - 1] - granted[0]).toBeLessThan(150);
      expect(granted[o.max] - granted[0]).toBeLessThan(o.perMs + 200);
      expect(granted[2 * o.max] - granted[0]).toBeLessThan(2 * o.perMs + 300);
    } finally {
      watch.disconnect();
    }
  });

  it('grants again once the window has passed', async () => {
    const l = createLimiter(connect(), { key: `test:again:${Date.now()}`, max: 2, perMs: 250 });
    await l.take();
    await l.take();
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    await l.take();
    await l.take();
    expect(performance.now() - t0).toBeLessThan(100);
  });

  it('a wait ends with the signal\'s reason when it aborts', async () => {
    const l = createLimiter(connect(), { key: `test:abort:${Date.now()}`, max: 1, perMs: 5_000 });
    await l.take();
    const ctl = new AbortController();
    const t0 = performance.now();
    setTimeout(() => ctl.abort(new Error('stop waiting')), 100);
    await expect(l.take(ctl.signal)).rejects.toThrow('stop waiting');
    expect(performance.now() - t0).toBeLessThan(1_000);
    await expect(l.take(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  it('refuses a max or period that cannot work', () => {
    const r = connect();
    expect(() => createLimiter(r, { key: 'k', max: 0, perMs: 1000 })).toThrow(/max/);
    expect(() => createLimiter(r, { key: 'k', max: 1.5, perMs: 1000 })).toThrow(/max/);
    expect(() => createLimiter(r, { key: 'k', max: 1, perMs: 0 })).toThrow(/perMs/);
  });
});

describe('parseRate', () => {
  it('reads requests per period', () => {
    expect(parseRate('30/min')).toEqual({ max: 30, perMs: 60_000 });
    expect(parseRate('5/s')).toEqual({ max: 5, perMs: 1_000 });
    expect(parseRate('100/60s')).toEqual({ max: 100, perMs: 60_000 });
    expect(parseRate(' 1000 / h ')).toEqual({ max: 1000, perMs: 3_600_000 });
    expect(parseRate('10/500ms')).toEqual({ max: 10, perMs: 500 });
    expect(parseRate('3/2minutes')).toEqual({ max: 3, perMs: 120_000 });
    expect(parseRate('2/1.5s')).toEqual({ max: 2, perMs: 1_500 });
    expect(parseRate('7/SEC')).toEqual({ max: 7, perMs: 1_000 });
  });

  it('says what it expects for bad input', () => {
    for (const bad of ['', '30', '30/', '/min', '0/min', '30/0s', '30/fortnight', 'x/min', '-1/s', '1.5/s', '30 per min']) {
      expect(() => parseRate(bad), bad).toThrow(/bad rate .*expected REQUESTS\/PERIOD such as 30\/min/);
    }
  });
});
