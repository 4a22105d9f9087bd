/**
 * A batch on this machine (docs/batch.md): up to `concurrency` runs at once, each in a browser of
 * its own that starts as new: a warm browser reset since its last task (pool.ts), or with
 * freshBrowsers a new Chromium with a fresh profile; infrastructure failures retried with backoff,
 * the agent's own failures and guard stops not; each end written to results.jsonl as it comes
 * (after the task's folder is written), judged when asked. A run's slot is free as soon as the run
 * ends: its exports (trace, report, zip, WebVoyager folder) are built while the next task runs, in
 * the browser that ran it, which is reset only after. The batch ends when every folder is written.
 * An interrupted batch (Ctrl+C) stops its runs and writes nothing for them, so the same command
 * later runs them again.
 */
import pLimit from 'p-limit';
import { backoffMs, planBatch, retryable } from '../../src/core/batch/results';
import { count } from '../../src/core/i18n';
import type { Progress } from '../../src/core/batch/progress';
import type { BatchTask, TaskResult, Verdict } from '../../src/core/batch/types';
import type { Display } from './display';
import { ResultsFile } from './results-file';
import { runTask, type TaskOptions } from './run-task';
import { chromiumPool } from './pool';
import { Tally } from './tally';

export interface LocalBatchOptions {
  tasks: BatchTask[];
  out: string;
  concurrency: number;
  retryFailed: boolean;
  /** tries per task for infrastructure failures (1 = no retry) */
  attempts: number;
  task: Omit<TaskOptions, 'out' | 'signal' | 'secrets'>;
  /** the batch's keys (model, judge): scrubbed from every output */
  secrets: string[];
  /** the judge of a finished task (--judge), or null */
  judge: ((r: TaskResult) => Promise<Verdict | null>) | null;
  display: Display;
  signal: AbortSignal;
  /** called after each end (the summary page is rewritten) */
  onEnd?: (results: ResultsFile) => void;
  /** a new browser with a fresh profile for every task, as before warm browsers (--fresh-browsers) */
  freshBrowsers?: boolean;
}

/** How many browsers a batch keeps: one per run, and room for those still building a finished task's exports. */
export function poolSize(concurrency: number): number {
  return concurrency + Math.max(1, Math.ceil(concurrency / 2));
}

/** `n` slots; give() is safe to call twice for one take(). */
class Slots {
  private waiting: Array<() => void> = [];
  constructor(private free: number) {}
  async take(signal: AbortSignal): Promise<(() => void) | null> {
    while (this.free <= 0) {
      if (signal.aborted) return null;
      await new Promise<void>((r) => {
        const stop = () => r();
        this.waiting.push(() => { signal.removeEventListener('abort', stop); r(); });
        signal.addEventListener('abort', stop, { once: true });
      });
    }
    if (signal.aborted) return null;
    this.free--;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.free++;
      this.waiting.shift()?.();
    };
  }
}

export interface BatchOutcome { results: ResultsFile; interrupted: boolean; progress: Progress; ran: number }

/** Waits `ms`, or less when the signal aborts; false when it did. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const t = setTimeout(() => { signal.removeEventListener('abort', stop); resolve(true); }, ms);
    const stop = () => { clearTimeout(t); resolve(false); };
    signal.addEventListener('abort', stop, { once: true });
  });
}

export async function runLocalBatch(o: LocalBatchOptions): Promise<BatchOutcome> {
  const results = new ResultsFile(o.out, o.tasks, o.secrets);
  const plan = planBatch(o.tasks, results.byId, o.retryFailed);
  const tally = new Tally(results, o, o.tasks.length, o.tasks.length - plan.run.length);
  if (plan.kept.length) tally.line(`${count(plan.kept.length, 'task')} already ended in ${results.file}; ${plan.run.length} to run${o.retryFailed ? ' (failed ones included: --retry-failed)' : ''}`);
  const limit = pLimit(o.concurrency);
  const slots = new Slots(o.concurrency);
  const pool = o.freshBrowsers || !plan.run.length ? undefined : chromiumPool(poolSize(o.concurrency));
  const taskOptions: TaskOptions = { ...o.task, out: o.out, signal: o.signal, secrets: o.secrets, pool };

  const one = async (t: BatchTask): Promise<void> => {
    for (let attempt = 1; !o.signal.aborted; attempt++) {
      const give = await slots.take(o.signal);
      if (!give) return;
      tally.set({ running: tally.progress.running + 1 });
      // "running" counts the runs holding a slot: a task writing its exports after its run ended
      // has given its slot to the next one, and is not counted twice (3 running at --concurrency 2)
      let counted = true;
      const release = () => {
        give();
        if (counted) tally.set({ running: tally.progress.running - 1 });
        counted = false;
      };
      let end;
      try {
        end = await runTask(t, attempt, taskOptions, { onRunEnd: release });
      } finally {
        release();
      }
      if ('interrupted' in end) return;
      if (retryable(end.result.kind) && attempt < o.attempts) {
        const wait = backoffMs(attempt, Math.random());
        tally.line(`retry ${end.result.id}: ${end.result.stopReason ?? 'infrastructure failure'} (attempt ${attempt} of ${o.attempts}; again in ${Math.round(wait / 1000)} s)`);
        tally.set({ retrying: tally.progress.retrying + 1 });
        const waited = await pause(wait, o.signal);
        tally.set({ retrying: tally.progress.retrying - 1 });
        if (!waited) return;
        continue;
      }
      tally.end(await tally.judged(end.result));
      return;
    }
  };

  // Tasks still waiting for a slot return at once once the batch is interrupted (p-limit's
  // clearQueue would drop them with their promises never settled).
  try {
    await Promise.all([
      ...tally.unjudged(plan.kept, new Set(o.tasks.map((t) => t.id))).map((r) => limit(() => tally.judgeKept(r))),
      ...plan.run.map((t) => one(t)),
    ]);
  } finally {
    await pool?.close();
  }
  results.compact(o.tasks);
  tally.close();
  return { results, interrupted: o.signal.aborted, progress: tally.progress, ran: tally.ran };
}
