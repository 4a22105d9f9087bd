/**
 * A batch's results (docs/batch.md): how a run's end is classed, which tasks still need a run
 * when a batch is started again, how long to wait before retrying an infrastructure failure, and
 * results.jsonl read back (the last line of a task wins; a line cut by a crash is skipped; a line
 * whose folder is not its task's, or whose task is not the task file's, is refused). Pure.
 */
import { idProblem, taskFolder } from './tasks';
import { oneLine } from '../run/person-text';
import type { BatchTask, StopKind, TaskResult } from './types';

/** What the batch knows of a run's end. */
export interface RunEnd {
  /** the run's status; 'error' when there was no run (the browser did not start, or died) */
  status: TaskResult['status'];
  /** the run failed because something outside the agent failed (the extension says which: RunState.failCause) */
  failCause?: string | null;
  /** the batch stopped the run because a guard asked a question */
  guard?: boolean;
  /** the batch stopped the run because it ran past the task's time limit */
  timedOut?: boolean;
}

export function stopKindOf(e: RunEnd): StopKind {
  if (e.status === 'finished') return 'finished';
  if (e.guard) return 'guard';
  if (e.status === 'error' || e.timedOut || (e.status === 'failed' && e.failCause)) return 'infrastructure';
  return 'agent';
}

/** Infrastructure failures are retried; the agent's own failures and guard stops are not. */
export function retryable(kind: StopKind): boolean {
  return kind === 'infrastructure';
}

/** Wait before attempt `attempt + 1` (attempt counts from 1): 5 s, 10 s, 20 s, … up to a minute. `jitter` in [0, 1). */
export function backoffMs(attempt: number, jitter = 0): number {
  const base = Math.min(60_000, 5_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + 0.25 * jitter));
}

export interface ReadResults {
  /** the last line of each task, by id, when that line is taken */
  byId: Map<string, TaskResult>;
  /** lines that could not be read (a crash cut the last one) */
  skipped: number;
  /** why a task's last line was refused, one sentence a task (its task runs again) */
  refused: string[];
}

function isResult(x: unknown): x is TaskResult {
  const r = x as Partial<TaskResult> | null;
  return !!r && typeof r === 'object' && typeof r.id === 'string' && typeof r.kind === 'string' && typeof r.status === 'string';
}

/**
 * Why a result read back from results.jsonl is not kept (null: kept). results.jsonl is a file
 * anyone with --out could have written: a result's folder must be its task's own (`task{id}`, the
 * id a plain folder name), and a result of a task in the task file must be for that task (its text
 * and start page), as a worker's result must be (job.ts `checkWorkerResult`).
 */
export function keptProblem(r: TaskResult, t?: BatchTask): string | null {
  const id = idProblem(r.id);
  if (id) return id;
  if (r.folder !== taskFolder(r.id)) return `its folder "${oneLine(String(r.folder).slice(0, 160))}" is not its task's folder "${taskFolder(r.id)}"`;
  if (t && r.task !== t.task) return 'its task is not the task file\'s (the text differs)';
  if (t && r.url !== t.url) return `its start page "${oneLine(String(r.url).slice(0, 160))}" is not the task file's "${oneLine(t.url)}"`;
  return null;
}

/**
 * results.jsonl read back: the last line of each task is its result, when it is one the batch may
 * keep (keptProblem, against `tasks`, the task file); a refused line leaves its task without a
 * result, so the task runs again, and says why.
 */
export function readResults(text: string, tasks: readonly BatchTask[] = []): ReadResults {
  const byId = new Map<string, TaskResult>();
  const why = new Map<string, string>();
  const inFile = new Map(tasks.map((t) => [t.id, t]));
  let skipped = 0;
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch {
      skipped++;
      return;
    }
    if (!isResult(r)) { skipped++; return; }
    const t = inFile.get(r.id);
    const problem = keptProblem(r, t);
    if (!problem) { byId.set(r.id, r); why.delete(r.id); return; }
    byId.delete(r.id);
    why.set(r.id, `results.jsonl line ${i + 1}: the result of "${oneLine(r.id.slice(0, 160))}" is refused: ${problem}; ${t ? 'the task runs again' : 'it is dropped'}`);
  });
  return { byId, skipped, refused: [...why.values()] };
}

/** results.jsonl's text: one line a result, in the task file's order, then any others. */
export function resultsText(results: Iterable<TaskResult>, order: BatchTask[] = []): string {
  const all = [...results];
  const pos = new Map(order.map((t, i) => [t.id, i]));
  const at = (r: TaskResult) => pos.get(r.id) ?? Number.MAX_SAFE_INTEGER;
  return all.sort((a, b) => at(a) - at(b)).map((r) => `${JSON.stringify(r)}\n`).join('');
}

export interface Plan {
  /** tasks to run, in the file's order */
  run: BatchTask[];
  /** tasks that already have their end (kept as they are) */
  kept: TaskResult[];
}

/**
 * What a (re)started batch does: every task without a result runs; with `retryFailed`, so does
 * every task whose result is not `finished` (agent, guard and infrastructure ends). A result whose
 * task is no longer in the file is kept. A result the batch may not keep (keptProblem: another
 * folder, another task under the same id) is no result: its task runs, and it is not kept.
 */
export function planBatch(tasks: BatchTask[], done: Map<string, TaskResult>, retryFailed: boolean): Plan {
  const run: BatchTask[] = [];
  const kept: TaskResult[] = [];
  const inFile = new Set(tasks.map((t) => t.id));
  for (const t of tasks) {
    const r = done.get(t.id);
    if (!r || keptProblem(r, t) || (retryFailed && r.kind !== 'finished')) run.push(t);
    else kept.push(r);
  }
  for (const [id, r] of done) if (!inFile.has(id) && !keptProblem(r)) kept.push(r);
  return { run, kept };
}

/**
 * The end of a task that got no run to its end (its browser did not start or died, its job failed
 * in the queue): an infrastructure failure, with why.
 */
export function noRunResult(t: BatchTask, why: string, o: { attempts: number; startedAt: string; endedAt: string; worker: string; totalMs: number }): TaskResult {
  return {
    id: t.id, site: t.site, task: t.task, url: t.url, folder: taskFolder(t.id), status: 'error', kind: 'infrastructure', answer: null,
    stopReason: why, guard: null, steps: 0, tokens: { prompt: 0, completion: 0 }, cost: null,
    durations: { totalMs: o.totalMs, startMs: 0, runMs: 0, exportMs: 0 }, attempts: o.attempts, verdict: null,
    startedAt: o.startedAt, endedAt: o.endedAt, worker: o.worker,
  };
}
