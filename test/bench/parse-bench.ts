/**
 * Bench part "parse": per registered dialect, the worst parseReply / parseAction time over the
 * hostile replies of test/fixtures/dialects/fuzz.ts (HOSTILE) at 100 kB and at 1 MB, and the growth
 * of the pattern slowest at 1 MB (its 1 MB time over its 100 kB time; linear is ~10x; target
 * ≤ 50 ms per 100 kB), plus base64Decode of 20 MB (valid, and a hostile run of "=" that does not
 * end the text). Each time is the best of BENCH_PARSE_RUNS
 * tries (default 3), so one GC pause is not a reading.
 */
import { DIALECTS } from '../../src/core/dialects/registry';
import { base64Decode, base64Encode } from '../../src/core/export/data-url';
import type { ShotGeometry } from '../../src/core/action/coords';
import { HOSTILE } from '../fixtures/dialects/fuzz';

const RUNS = Number(process.env.BENCH_PARSE_RUNS ?? 3);
const SIZES = [100_000, 1_000_000];
const SHOT: ShotGeometry = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } };

function timeOf(f: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    try {
      f();
    } catch {
      // base64Decode throws on bad input; the time is what counts
    }
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

interface Worst { ms: number; pattern: string }

export async function parseBench() {
  const dialects: Record<string, Record<string, unknown>> = {};
  console.log(`\nparse: worst time over ${Object.keys(HOSTILE).length} hostile replies (best of ${RUNS} tries each)`);
  console.log('dialect      function      100 kB ms  (pattern)               1 MB ms  (pattern)            growth');
  for (const [id, d] of Object.entries(DIALECTS)) {
    const row: Record<string, unknown> = {};
    for (const fn of ['parseReply', 'parseAction'] as const) {
      const worst: Worst[] = SIZES.map(() => ({ ms: 0, pattern: '' }));
      const times: Array<Record<string, number>> = SIZES.map(() => ({}));
      SIZES.forEach((size, k) => {
        for (const [pattern, build] of Object.entries(HOSTILE)) {
          const text = build(size);
          const ms = fn === 'parseReply' ? timeOf(() => d.parseReply(text, null, SHOT)) : timeOf(() => d.parseAction(text, SHOT));
          times[k][pattern] = ms;
          if (ms > worst[k].ms) worst[k] = { ms, pattern };
        }
      });
      // growth of the pattern slowest at 1 MB: its own 1 MB time over its own 100 kB time
      const ratio = worst[1].ms / Math.max(times[0][worst[1].pattern], 0.01);
      row[fn] = { worst100kB: worst[0], worst1MB: worst[1], ratio: Number(ratio.toFixed(1)) };
      console.log(`${id.padEnd(12)} ${fn.padEnd(12)} ${worst[0].ms.toFixed(1).padStart(10)}  ${worst[0].pattern.padEnd(20)} ${worst[1].ms.toFixed(1).padStart(10)}  ${worst[1].pattern.padEnd(20)} ${ratio.toFixed(1).padStart(6)}`);
    }
    dialects[id] = row;
  }
  const bytes = new Uint8Array(15_000_000).map((_, i) => (i * 131) & 255);
  const valid = base64Encode(bytes); // 20 MB of text
  const hostile = '='.repeat(20_000_000) + 'A';
  const base64 = { validMs: timeOf(() => base64Decode(valid)), hostileMs: timeOf(() => base64Decode(hostile)), chars: valid.length };
  console.log(`base64Decode of 20 MB: valid ${base64.validMs.toFixed(1)} ms, a run of "=" not at the end ${base64.hostileMs.toFixed(1)} ms`);
  return { date: new Date().toISOString(), runs: RUNS, sizes: SIZES, patterns: Object.keys(HOSTILE), dialects, base64 };
}
