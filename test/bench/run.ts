/**
 * npm run bench: end-to-end step timings of the built extension on the demo
 * site with the scripted demo model (so the model's own time is ~0 and what
 * is measured is ours): observe (label + screenshot), act (incl. settle), and
 * the screenshot's size in bytes and in GLM image tokens (one per 28x28 px).
 * Prints a table and writes bench-results.json. Numbers are reported, never asserted.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveDir } from '../../scripts/static-server';
import { runAgent } from '../../scripts/run-agent';
import { DEMO_TASK, startDemoModel } from '../../scripts/demo-model';
import type { Trace } from '../../src/core/trace';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, median: at(0.5), p95: at(0.95), max: s[s.length - 1] };
}

async function main() {
  const site = await serveDir(path.join(import.meta.dirname, '..', '..', 'scripts', 'demo-site'));
  const model = await startDemoModel();
  const dir = mkdtempSync(path.join(tmpdir(), 'webagent-bench-'));
  const observe: number[] = [], act: number[] = [], bytes: number[] = [], tokens: number[] = [], runMs: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const traceFile = path.join(dir, `run-${i}.json`);
      const r = await runAgent({ task: DEMO_TASK, url: site.url, config: { baseUrl: model.baseUrl, model: 'demo-scripted', apiKey: '' }, traceFile, width: 1280, height: 800, headed: false, out: () => undefined, err: () => undefined });
      if (r.status !== 'finished') throw new Error(`bench run ${i} did not finish: ${r.stopReason}`);
      const t = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
      runMs.push(Date.parse(t.run.endedAt!) - Date.parse(t.run.startedAt));
      for (const s of t.steps) {
        observe.push(s.timings.observeMs);
        if (s.action.type !== 'answer') act.push(s.timings.actMs);
        bytes.push(s.request.imageBytes);
        tokens.push(Math.ceil(s.request.imageWidth / 28) * Math.ceil(s.request.imageHeight / 28));
      }
    }
  } finally {
    await model.close();
    await site.close();
  }
  const results = {
    date: new Date().toISOString(),
    runs: RUNS,
    task: DEMO_TASK,
    observeMs: stats(observe),
    actMs: stats(act),
    runMs: stats(runMs),
    screenshotBytes: stats(bytes),
    glmImageTokens: stats(tokens),
  };
  console.log('metric               n   median      p95      max');
  for (const [k, v] of Object.entries(results)) {
    if (typeof v === 'object' && v && 'median' in v) console.log(`${k.padEnd(18)} ${String(v.n).padStart(3)} ${String(v.median).padStart(8)} ${String(v.p95).padStart(8)} ${String(v.max).padStart(8)}`);
  }
  writeFileSync('bench-results.json', JSON.stringify(results, null, 2));
  console.log('\nwrote bench-results.json');
}

main().catch((e) => { console.error(e); process.exit(1); });
