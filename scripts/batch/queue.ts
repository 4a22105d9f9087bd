/**
 * A batch over many machines (docs/batch.md): the submitting side puts each task in a BullMQ
 * queue on Redis (one job per task, its id made from the batch and the task, so submitting again
 * adds nothing twice), then follows the jobs with the same progress display as a local batch;
 * workers (worker.ts) run them. Each finished job's folder comes back through Redis (a zip under
 * an artefacts key) and is unpacked into --out, so the workers' own directories do not matter.
 * BullMQ delivers a job at least once: a task's end is taken once (the first) and written once.
 *
 * Job data never holds an API key: each worker reads its own from its environment.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { unzipSync } from 'fflate';
import { planBatch } from '../../src/core/batch/results';
import { newProgress, withResult, type Progress } from '../../src/core/batch/progress';
import type { BatchTask, TaskResult, Verdict } from '../../src/core/batch/types';
import type { RunOptions } from '../runner-options';
import { endLine, type Display } from './display';
import { ResultsFile } from './results-file';
import type { BatchOutcome } from './local';

export const QUEUE_NAME = 'webagent-tasks';
/** artefacts are kept this long in Redis when nobody collects them */
export const ARTEFACTS_TTL_S = 7 * 24 * 3600;

/** What a job carries: the task and the batch's options, never a key. */
export interface JobData {
  batch: string;
  task: BatchTask;
  run: RunOptions;
  allowGuards: string[];
  timeoutMs: number;
  /** model requests for all workers together (null: no limit) */
  rate: { max: number; perMs: number } | null;
}

export function artefactsKey(jobId: string): string {
  return `webagent:artefacts:${jobId}`;
}

/** A connection option BullMQ takes, from redis://[:password@]host:port[/db]. */
export function redisFrom(url: string): Redis {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`--queue ${url}: not a URL (expected redis://HOST:PORT)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`--queue ${url}: expected redis://HOST:PORT`);
  // BullMQ's workers block on Redis: maxRetriesPerRequest null is what it requires.
  return new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
}

/** The same --out on the same machine is the same batch (submitting again resumes it). */
export function batchId(out: string): string {
  return createHash('sha1').update(`${hostname()}\n${path.resolve(out)}`).digest('hex').slice(0, 12);
}

export function jobIdOf(batch: string, task: BatchTask): string {
  return `${batch}-${encodeURIComponent(task.id)}`;
}

/** A task folder from its zip, unpacked under a temporary name and renamed when whole. */
export function unpackFolder(zip: Uint8Array, out: string, folder: string): void {
  const work = path.join(out, `.${folder}.incoming-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  for (const [name, bytes] of Object.entries(unzipSync(zip))) {
    if (name.endsWith('/')) continue;
    const to = path.join(work, name);
    if (!to.startsWith(work + path.sep)) continue; // no path leaves the folder
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, bytes);
  }
  rmSync(path.join(out, folder), { recursive: true, force: true });
  renameSync(work, path.join(out, folder));
}

export interface QueueBatchOptions {
  queue: string;
  tasks: BatchTask[];
  out: string;
  retryFailed: boolean;
  attempts: number;
  rate: { max: number; perMs: number } | null;
  job: Omit<JobData, 'batch' | 'task' | 'rate'>;
  judge: ((r: TaskResult) => Promise<Verdict | null>) | null;
  display: Display;
  signal: AbortSignal;
  onEnd?: (results: ResultsFile) => void;
  /** how often the jobs' states are read besides the queue's events (ms) */
  pollMs?: number;
}

export async function submitAndFollow(o: QueueBatchOptions): Promise<BatchOutcome> {
  const connection = redisFrom(o.queue);
  const queue = new Queue<JobData, TaskResult>(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection: connection.duplicate() });
  const results = new ResultsFile(o.out);
  const batch = batchId(o.out);
  const plan = planBatch(o.tasks, results.byId, o.retryFailed);
  let progress = newProgress(o.tasks.length, o.tasks.length - plan.run.length, Date.now());
  const set = (p: Progress) => { progress = p; o.display.update(p); };
  set(progress);
  let ran = 0;
  try {
    // Submit: a job per task without one; with --retry-failed an ended job of a failed task is replaced.
    const pending = new Map<string, BatchTask>();
    for (const t of plan.run) {
      const id = jobIdOf(batch, t);
      const old = await queue.getJob(id);
      if (old && (results.byId.has(t.id) || (await old.isFailed()))) await old.remove();
      else if (old) { pending.set(id, t); continue; }
      await queue.add(t.id, { batch, task: t, ...o.job, rate: o.rate }, {
        jobId: id, attempts: o.attempts, backoff: { type: 'exponential', delay: 5_000 }, removeOnComplete: false, removeOnFail: false,
      });
      pending.set(id, t);
    }
    o.display.line(`${pending.size} task(s) in the queue "${QUEUE_NAME}" at ${o.queue} (batch ${batch}); start workers with: npm run worker -- --queue ${o.queue}`);

    const collect = async (job: Job<JobData, TaskResult>, t: BatchTask, result: TaskResult): Promise<void> => {
      const key = artefactsKey(job.id!);
      const zip = await connection.getBuffer(key);
      let r = result;
      if (zip) unpackFolder(zip, o.out, r.folder);
      else if (r.status !== 'error') r = { ...r, stopReason: `${r.stopReason ? `${r.stopReason}; ` : ''}the task's folder did not come back from the worker (expired or lost)` };
      if (o.judge && r.kind === 'finished' && zip) {
        try {
          const verdict = await o.judge(r);
          if (verdict) r = { ...r, verdict };
        } catch (e) {
          o.display.line(`judge: ${r.folder}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      if (results.add(r)) {
        ran++;
        set(withResult(progress, r));
        o.display.line(endLine(r));
        o.onEnd?.(results);
      }
      pending.delete(job.id!);
      await connection.del(key);
      void t;
    };

    const failedResult = (job: Job<JobData, TaskResult>, t: BatchTask): TaskResult => {
      const now = new Date().toISOString();
      return {
        id: t.id, site: t.site, task: t.task, url: t.url, folder: `task${t.id}`, status: 'error', kind: 'infrastructure', answer: null,
        stopReason: job.failedReason || 'the job failed', guard: null, steps: 0, tokens: { prompt: 0, completion: 0 }, cost: null,
        durations: { totalMs: 0, startMs: 0, runMs: 0, exportMs: 0 }, attempts: job.attemptsMade, verdict: null,
        startedAt: job.processedOn ? new Date(job.processedOn).toISOString() : now, endedAt: now, worker: '',
      };
    };

    let wake: () => void = () => undefined;
    for (const e of ['completed', 'failed', 'active', 'stalled', 'waiting'] as const) events.on(e, () => wake());
    o.signal.addEventListener('abort', () => wake(), { once: true });
    while (pending.size && !o.signal.aborted) {
      let running = 0;
      let retrying = 0;
      for (const [id, t] of [...pending]) {
        const job = await queue.getJob(id);
        if (!job) { pending.delete(id); o.display.line(`${t.id}: its job left the queue (removed by someone?); run the batch again to submit it`); continue; }
        const state = await job.getState();
        if (state === 'completed' && job.returnvalue) await collect(job, t, job.returnvalue);
        else if (state === 'failed') {
          const r = failedResult(job, t);
          if (results.add(r)) { ran++; set(withResult(progress, r)); o.display.line(endLine(r)); o.onEnd?.(results); }
          pending.delete(id);
        } else if (state === 'active') running++;
        else if (state === 'delayed' || (state === 'waiting' && job.attemptsMade > 0)) retrying++;
      }
      if (running !== progress.running || retrying !== progress.retrying) set({ ...progress, running, retrying });
      if (!pending.size) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, o.pollMs ?? 1000);
        wake = () => { clearTimeout(t); resolve(); };
      });
    }
    if (o.signal.aborted && pending.size) o.display.line(`${pending.size} task(s) still in the queue: the workers go on with them; run the same command again to follow them and collect their results.`);
    results.compact(o.tasks);
    o.display.close(progress);
    return { results, interrupted: o.signal.aborted, progress, ran };
  } finally {
    await events.close().catch(() => undefined);
    await queue.close().catch(() => undefined);
    connection.disconnect();
  }
}
