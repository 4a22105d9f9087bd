/**
 * Batch throughput (docs/batch.md), measured (numbers reported, never asserted):
 *   BENCH_PART=batch npm run bench
 * The local batch runner on the recipe fixture site, with a fake model that answers at once (so
 * the model's own time is taken out): tasks per minute at concurrency 1, 2 and 4, and beside it
 * the overhead each task pays besides its run — starting a browser with a fresh profile and the
 * extension (startMs) and writing the trace, report, zip and WebVoyager folder (exportMs).
 * BENCH_BATCH_TASKS tasks per round (default 8).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveDir } from '../../scripts/static-server';
import { runLocalBatch } from '../../scripts/batch/local';
import type { Display } from '../../scripts/batch/display';
import type { BatchTask, TaskResult } from '../../src/core/batch/types';
import { startFakeModel } from '../fixtures/model/server';
import { batchPolicy, nutritionPlan } from '../fixtures/model/batch';

const TASKS = Number(process.env.BENCH_BATCH_TASKS ?? 8);
const DISHES: Array<[string, string]> = [['Miso Ramen', 'ramen'], ['Banana Bread', 'banana'], ['Vegetable Pad Thai', 'thai'], ['Lemon Drizzle Cake', 'lemon']];
const PLANS = DISHES.map(([name, search]) => nutritionPlan(name, search));

const quiet: Display = { update: () => undefined, line: () => undefined, close: () => undefined };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

export interface BatchRound {
  concurrency: number; tasks: number; finished: number; wallMs: number; tasksPerMinute: number;
  medianTaskMs: number; medianRunMs: number; medianStartMs: number; medianExportMs: number; overheadShare: number;
}

export async function batchBench(): Promise<BatchRound[]> {
  const site = await serveDir(path.join(import.meta.dirname, '..', 'fixtures', 'pages'));
  const model = await startFakeModel({ policy: batchPolicy(PLANS) });
  const rounds: BatchRound[] = [];
  try {
    const tasks: BatchTask[] = Array.from({ length: TASKS }, (_, i) => ({
      id: `Recipes--${i}`, site: 'Recipes', task: `How many calories per serving does the ${DISHES[i % DISHES.length][0]} have?`, url: `${site.url}recipes/index.html`,
    }));
    for (const concurrency of [1, 2, 4]) {
      const out = mkdtempSync(path.join(tmpdir(), 'webagent-bench-batch-'));
      const t0 = performance.now();
      const o = await runLocalBatch({
        tasks, out, concurrency, retryFailed: false, attempts: 1,
        task: { run: { config: { baseUrl: model.baseUrl, apiKey: '', model: 'glm-4.5v', dialect: 'glm-web', maxSteps: 8 }, files: [], width: 1280, height: 800, headed: false }, allowGuards: new Set(), timeoutMs: 300_000 },
        judge: null, secrets: [], display: quiet, signal: new AbortController().signal,
      });
      const wallMs = performance.now() - t0;
      const rs = [...o.results.byId.values()] as TaskResult[];
      const start = median(rs.map((r) => r.durations.startMs));
      const exp = median(rs.map((r) => r.durations.exportMs));
      const total = median(rs.map((r) => r.durations.totalMs));
      rounds.push({
        concurrency, tasks: rs.length, finished: rs.filter((r) => r.kind === 'finished').length, wallMs: Math.round(wallMs),
        tasksPerMinute: Math.round((rs.length / (wallMs / 60_000)) * 10) / 10,
        medianTaskMs: total, medianRunMs: median(rs.map((r) => r.durations.runMs)), medianStartMs: start, medianExportMs: exp,
        overheadShare: Math.round(((start + exp) / Math.max(1, total)) * 100) / 100,
      });
      rmSync(out, { recursive: true, force: true });
    }
  } finally {
    await model.close();
    await site.close();
  }
  console.log('\nBatch throughput (recipe fixture site, zero-latency fake model, 2-core machine)');
  console.log('concurrency  tasks  finished  wall s  tasks/min  task ms (median)  run ms  start ms  export ms  overhead');
  for (const r of rounds) {
    console.log(`${String(r.concurrency).padStart(11)}  ${String(r.tasks).padStart(5)}  ${String(r.finished).padStart(8)}  ${(r.wallMs / 1000).toFixed(1).padStart(6)}  ${String(r.tasksPerMinute).padStart(9)}  ${String(r.medianTaskMs).padStart(16)}  ${String(r.medianRunMs).padStart(6)}  ${String(r.medianStartMs).padStart(8)}  ${String(r.medianExportMs).padStart(9)}  ${`${Math.round(r.overheadShare * 100)}%`.padStart(8)}`);
  }
  return rounds;
}
