/**
 * One rate limit shared by every process that uses the same Redis and key (batch runs, issue 16:
 * the model endpoint's requests, counted across all workers; limit-proxy.ts takes a token before
 * forwarding each chat completion).
 *
 * A sliding window log: the key is a sorted set holding one member per grant, scored with the
 * time it was granted. A Lua script (atomic in Redis) reads Redis's own clock (TIME, so the
 * callers' clocks never matter), drops grants older than the window, and either adds a grant
 * (fewer than `max` left) or answers how long until the oldest leaves the window. take() waits
 * that long and asks again, so at most `max` grants fall in any window of `perMs`. Waiters are
 * not served in order (whoever asks first after a grant leaves the window gets it).
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface Rate {
  max: number;
  perMs: number;
}

export interface Limiter {
  /** Resolves once a token is granted; rejects with the signal's reason when it aborts first. */
  take(signal?: AbortSignal): Promise<void>;
}

/**
 * KEYS[1] the sorted set; ARGV max, perMs, member. Returns 0 when granted, else the ms to wait
 * (at least 1).
 */
const TAKE_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local key = KEYS[1]
local max = tonumber(ARGV[1])
local per = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - per)
if redis.call('ZCARD', key) < max then
  redis.call('ZADD', key, now, ARGV[3])
  redis.call('PEXPIRE', key, math.ceil(per) + 1000)
  return 0
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
local wait = math.ceil(tonumber(oldest[2]) + per - now)
if wait < 1 then wait = 1 end
return wait
`;

const COMMAND = 'webagentRateTake';

type TakeCommand = (key: string, max: number, perMs: number, member: string) => Promise<number>;

/** Members must differ across processes and grants: a random id per process, then a counter. */
const PROCESS_ID = randomBytes(6).toString('hex');
let counter = 0;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => { clearTimeout(timer); reject(signal?.reason); };
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A limiter on `redis` (any ioredis connection; one per process is enough) for `key`. */
export function createLimiter(redis: Redis, o: { key: string; max: number; perMs: number }): Limiter {
  if (!Number.isInteger(o.max) || o.max < 1) throw new Error(`rate limit: max must be a whole number ≥ 1 (got ${o.max})`);
  if (!Number.isFinite(o.perMs) || o.perMs <= 0) throw new Error(`rate limit: perMs must be > 0 (got ${o.perMs})`);
  if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: TAKE_LUA });
  const run = (redis as unknown as Record<string, TakeCommand>)[COMMAND].bind(redis);
  return {
    async take(signal) {
      for (;;) {
        signal?.throwIfAborted();
        const wait = Number(await run(o.key, o.max, o.perMs, `${PROCESS_ID}:${++counter}`));
        signal?.throwIfAborted(); // a token granted meanwhile is spent unused
        if (wait <= 0) return;
        // A little jitter, so waiters of many processes do not all ask at the same moment.
        await sleep(wait + Math.floor(Math.random() * Math.min(20, 1 + wait / 10)), signal);
      }
    },
  };
}

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000, sec: 1_000, secs: 1_000, second: 1_000, seconds: 1_000,
  m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hr: 3_600_000, hour: 3_600_000, hours: 3_600_000,
};

/**
 * "30/min", "5/s", "100/60s", "1000/h", "10/500ms" → { max, perMs }: a whole number of requests,
 * a slash, then an optional number and a unit (ms, s, min, h and their long names).
 */
export function parseRate(spec: string): Rate {
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*([a-z]+)\s*$/i.exec(spec);
  const unit = m ? UNITS[m[3].toLowerCase()] : undefined;
  const max = m ? Number(m[1]) : NaN;
  const count = m?.[2] === undefined ? 1 : Number(m[2]);
  const perMs = unit === undefined ? NaN : count * unit;
  if (!m || unit === undefined || !(max >= 1) || !(perMs > 0)) {
    throw new Error(`bad rate "${spec}": expected REQUESTS/PERIOD such as 30/min, 5/s or 100/60s (units ms, s, min, h; at least 1 request in a period longer than 0)`);
  }
  return { max, perMs };
}
