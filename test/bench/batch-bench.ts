/**
 * Batch throughput (docs/batch.md), measured (numbers reported, never asserted):
 *   BENCH_PART=batch npm run bench
 * The local batch runner on the recipe fixture site, with a fake model that answers at once (so
 * the model's own time is taken out): tasks per minute at concurrency 1, 2 and 4, and beside it
 * the overhead each task pays besides its run — getting a browser that starts as new (startMs: a
 * warm one's reset, or the launch of a new one, and opening the extension's page) and building
 * the trace, report, zip and WebVoyager folder (exportMs, which no longer holds the task's slot:
 * the next task runs meanwhile). BENCH_BATCH_TASKS tasks per round (default 8);
 * BENCH_BATCH_FRESH=1 measures a new browser with a fresh profile per task instead (--fresh-browsers).
 *
 * Then what the queue's checks cost a finished task (issue 25): a real task folder from the first
 * round, packed as a worker packs it, taken on the submitting side as before the checks (unzip,
 * write) and as now (the result checked, the zip's names, count, compression and size checked,
 * unpacked under a temporary name and renamed), and the worker's check of that task's job.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { packFolder, readArtefacts, unpackFolder } from '../../scripts/batch/artefacts';
import { checkJob, checkWorkerResult } from '../../src/core/batch/job';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveDir } from '../../scripts/static-server';
import { runLocalBatch } from '../../scripts/batch/local';
import type { Display } from '../../scripts/batch/display';
import type { BatchTask, TaskResult } from '../../src/core/batch/types';
import { startFakeModel } from '../fixtures/model/server';
import { batchPolicy, nutritionPlan } from '../fixtures/model/batch';
import { cpuSpent, cpuWatch } from './cpu';

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
  /** core-seconds a task, by process (every browser of the round and this process: the batch runner, its exports and the fake model), from /proc */
  coreSecondsPerTask: ReturnType<typeof cpuSpent> | null;
}

export interface CollectCost { folderBytes: number; files: number; beforeMs: number; nowMs: number; checkJobMs: number }

/** Median ms of `n` runs of `f`. */
function timed(n: number, f: () => void): number {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) { const t0 = performance.now(); f(); xs.push(performance.now() - t0); }
  return Math.round(median(xs) * 100) / 100;
}

function collectCost(folder: string, r: TaskResult, task: BatchTask, run: Parameters<typeof runLocalBatch>[0]['task']['run']): CollectCost {
  const zip = packFolder(folder);
  const dest = mkdtempSync(path.join(tmpdir(), 'webagent-bench-collect-'));
  try {
    // before issue 25: every entry unzipped and written under the folder the worker named
    const beforeMs = timed(20, () => {
      const work = path.join(dest, 'before');
      rmSync(work, { recursive: true, force: true });
      mkdirSync(work);
      for (const [name, bytes] of Object.entries(unzipSync(zip))) writeFileSync(path.join(work, name), bytes);
    });
    const nowMs = timed(20, () => {
      const checked = checkWorkerResult(r, task);
      const files = readArtefacts(zip);
      if (!checked.ok || typeof files === 'string') throw new Error(`the bench's own folder was refused: ${checked.ok ? files : checked.problem}`);
      unpackFolder(files, dest, checked.result.folder);
    });
    const job = { batch: 'bench', task, run, allowGuards: [], timeoutMs: 60_000, rate: null };
    const checkJobMs = timed(200, () => { if (!checkJob(job, JSON.stringify(job).length).ok) throw new Error('the bench job was refused'); });
    return { folderBytes: zip.byteLength, files: readdirSync(folder).length, beforeMs, nowMs, checkJobMs };
  } finally {
    rmSync(dest, { recursive: true, force: true });
  }
}

export async function batchBench(): Promise<{ rounds: BatchRound[]; collect: CollectCost | null }> {
  const site = await serveDir(path.join(import.meta.dirname, '..', 'fixtures', 'pages'));
  const model = await startFakeModel({ policy: batchPolicy(PLANS) });
  const rounds: BatchRound[] = [];
  let collect: CollectCost | null = null;
  try {
    const tasks: BatchTask[] = Array.from({ length: TASKS }, (_, i) => ({
      id: `Recipes--${i}`, site: 'Recipes', task: `How many calories per serving does the ${DISHES[i % DISHES.length][0]} have?`, url: `${site.url}recipes/index.html`,
    }));
    for (const concurrency of [1, 2, 4]) {
      const out = mkdtempSync(path.join(tmpdir(), 'webagent-bench-batch-'));
      const t0 = performance.now();
      const cpu = cpuWatch('webagent-profile-');
      const o = await runLocalBatch({
        tasks, out, concurrency, retryFailed: false, attempts: 1,
        task: { run: { config: { baseUrl: model.baseUrl, apiKey: '', model: 'glm-4.5v', dialect: 'glm-web', maxSteps: 8 }, files: [], width: 1280, height: 800, headed: false }, allowGuards: new Set(), timeoutMs: 300_000 },
        judge: null, secrets: [], display: quiet, signal: new AbortController().signal,
        freshBrowsers: process.env.BENCH_BATCH_FRESH === '1',
      });
      const wallMs = performance.now() - t0;
      const used = cpu.stop();
      const rs = [...o.results.byId.values()] as TaskResult[];
      const start = median(rs.map((r) => r.durations.startMs));
      const exp = median(rs.map((r) => r.durations.exportMs));
      const total = median(rs.map((r) => r.durations.totalMs));
      rounds.push({
        concurrency, tasks: rs.length, finished: rs.filter((r) => r.kind === 'finished').length, wallMs: Math.round(wallMs),
        tasksPerMinute: Math.round((rs.length / (wallMs / 60_000)) * 10) / 10,
        medianTaskMs: total, medianRunMs: median(rs.map((r) => r.durations.runMs)), medianStartMs: start, medianExportMs: exp,
        overheadShare: Math.round(((start + exp) / Math.max(1, total)) * 100) / 100,
        coreSecondsPerTask: Object.keys(used).length > 1 ? cpuSpent({}, used, rs.length) : null,
      });
      const done = rs.find((r) => r.kind === 'finished');
      if (!collect && done) collect = collectCost(path.join(out, done.folder), done, tasks.find((t) => t.id === done.id)!, { config: { baseUrl: model.baseUrl, apiKey: '', model: 'glm-4.5v', dialect: 'glm-web', apps: '', maxSteps: 8 }, files: [], width: 1280, height: 800, headed: false });
      rmSync(out, { recursive: true, force: true });
    }
  } finally {
    await model.close();
    await site.close();
  }
  console.log(`\nBatch throughput (recipe fixture site, zero-latency fake model, 2-core machine; ${process.env.BENCH_BATCH_FRESH === '1' ? 'a new browser per task' : 'warm browsers reset between tasks'})`);
  console.log('concurrency  tasks  finished  wall s  tasks/min  task ms (median)  run ms  start ms  export ms  overhead');
  for (const r of rounds) {
    console.log(`${String(r.concurrency).padStart(11)}  ${String(r.tasks).padStart(5)}  ${String(r.finished).padStart(8)}  ${(r.wallMs / 1000).toFixed(1).padStart(6)}  ${String(r.tasksPerMinute).padStart(9)}  ${String(r.medianTaskMs).padStart(16)}  ${String(r.medianRunMs).padStart(6)}  ${String(r.medianStartMs).padStart(8)}  ${String(r.medianExportMs).padStart(9)}  ${`${Math.round(r.overheadShare * 100)}%`.padStart(8)}`);
  }
  console.log('\ncore-seconds a task, by process (every browser of the round, and the runner: its exports and the fake model)');
  for (const r of rounds) {
    const c = r.coreSecondsPerTask;
    console.log(`concurrency ${r.concurrency}: ${c ? `${c.total} (${Object.entries(c).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${v}`).join(', ')})` : 'not measured (no /proc)'}`);
  }
  if (collect) {
    console.log('\nA finished task through the queue: what the submitting side\'s checks cost (median of 20)');
    console.log(`folder ${(collect.folderBytes / 1024).toFixed(0)} KB in ${collect.files} files: taken as before (unzip, write) ${collect.beforeMs} ms; checked and taken now ${collect.nowMs} ms; a worker's check of the job ${collect.checkJobMs} ms`);
  }
  return { rounds, collect };
}
