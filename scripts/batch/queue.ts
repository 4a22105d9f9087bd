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
import path from 'node:path';
import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { noRunResult, planBatch } from '../../src/core/batch/results';
import { checkWorkerResult, JOB_LIMITS, type JobData } from '../../src/core/batch/job';
import { oneLine } from '../../src/core/run/person-text';
import { count } from '../../src/core/i18n';
import type { BatchTask, TaskResult, Verdict } from '../../src/core/batch/types';
import type { Display } from './display';
import { Tally } from './tally';
import { ResultsFile } from './results-file';
import type { BatchOutcome } from './local';
import { ARTEFACT_LIMITS, mb, readArtefacts, unpackFolder } from './artefacts';

export type { JobData };

export const QUEUE_NAME = 'webagent-tasks';
/** How much of each field of a job's hash the submitting side reads (bytes); a bigger one ends the task unread. */
const JOB_FIELD_CAPS = { data: JOB_LIMITS.jobBytes, returnvalue: 1024 * 1024, failedReason: 64 * 1024, stacktrace: 1024 * 1024 } as const;

/** artefacts are kept this long in Redis when nobody collects them */
export const ARTEFACTS_TTL_S = 7 * 24 * 3600;

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

/** A queue's URL as it may be printed: its password (redis://user:PASSWORD@host) hidden. */
export function shownQueue(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href;
  } catch {
    return url;
  }
}

/** The same --out on the same machine is the same batch (submitting again resumes it). */
export function batchId(out: string): string {
  return createHash('sha1').update(`${hostname()}\n${path.resolve(out)}`).digest('hex').slice(0, 12);
}

export function jobIdOf(batch: string, task: BatchTask): string {
  return `${batch}-${encodeURIComponent(task.id)}`;
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
  /** the submitting side's keys (model, judge): scrubbed from every output */
  secrets: string[];
  display: Display;
  signal: AbortSignal;
  onEnd?: (results: ResultsFile) => void;
  /** how often the jobs' states are read besides the queue's events (ms) */
  pollMs?: number;
  /** how long no task may be taken before the batch says no worker seems to be there (ms; default 30 s) */
  noWorkerMs?: number;
}

export async function submitAndFollow(o: QueueBatchOptions): Promise<BatchOutcome> {
  const connection = redisFrom(o.queue);
  const queue = new Queue<JobData, TaskResult>(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection: connection.duplicate() });
  const results = new ResultsFile(o.out, o.tasks, o.secrets);
  const batch = batchId(o.out);
  const plan = planBatch(o.tasks, results.byId, o.retryFailed);
  const tally = new Tally(results, o, o.tasks.length, o.tasks.length - plan.run.length);
  try {
    /** Why a job's hash is not read (a field made huge by a worker or by anyone with Redis), or null. */
    const oversized = async (id: string): Promise<string | null> => {
      const key = queue.toKey(id);
      const caps = Object.entries(JOB_FIELD_CAPS);
      // one round trip for the four fields
      const sizes = await Promise.all(caps.map(([field]) => connection.hstrlen(key, field)));
      const i = sizes.findIndex((n, k) => n > caps[k][1]);
      return i < 0 ? null : `its job's ${caps[i][0]} is ${mb(sizes[i])} in Redis; the limit is ${mb(caps[i][1])}`;
    };
    /** A task's end when its job's result or state could not be taken: an infrastructure failure that says why. */
    const refused = (t: BatchTask, why: string, attempts = 1): TaskResult => {
      tally.line(`${t.id}: ${why}`);
      const now = new Date().toISOString();
      return noRunResult(t, why, { attempts, startedAt: now, endedAt: now, worker: '', totalMs: 0 });
    };

    // Submit: a job per task without one; with --retry-failed an ended job of a failed task is replaced,
    // and so is a job under this task's id that does not carry this task (someone else's, in its place).
    const pending = new Map<string, BatchTask>();
    for (const t of plan.run) {
      const id = jobIdOf(batch, t);
      const old = (await oversized(id)) ? null : await queue.getJob(id);
      const ours = !!old && old.data?.batch === batch && JSON.stringify(old.data?.task) === JSON.stringify(t);
      if (old && (!ours || results.byId.has(t.id) || (await old.isFailed()))) await old.remove();
      else if (old) { pending.set(id, t); continue; }
      else if (await oversized(id)) await queue.remove(id).catch(() => undefined); // locked by a worker: followed, and refused unread below
      await queue.add(t.id, { batch, task: t, ...o.job, rate: o.rate }, {
        jobId: id, attempts: o.attempts, backoff: { type: 'exponential', delay: 5_000 }, removeOnComplete: false, removeOnFail: false,
      });
      pending.set(id, t);
    }
    tally.line(`${count(pending.size, 'task')} in the queue "${QUEUE_NAME}" at ${shownQueue(o.queue)} (batch ${batch}); start workers with: npm run worker -- --queue ${shownQueue(o.queue)} --base-url ${o.job.run.config.baseUrl}`);
    // As a local batch does: kept finished tasks without a verdict are judged when --judge is given.
    for (const r of tally.unjudged(plan.kept, new Set(o.tasks.map((t) => t.id)))) await tally.judgeKept(r);

    /**
     * A completed job: its result checked against the task this batch submitted (a worker names
     * no path: the folder is the task's own), its folder's zip checked and unpacked into --out,
     * its result judged and taken, its artefacts removed from Redis. What is refused ends the
     * task as an infrastructure failure that says why (the batch run again retries it).
     */
    const collect = async (job: Job<JobData, TaskResult>, t: BatchTask, returned: unknown): Promise<void> => {
      const key = artefactsKey(job.id!);
      const checked = checkWorkerResult(returned, t);
      const refuse = (why: string) => refused(t, why, job.attemptsMade || 1);
      let r: TaskResult;
      if (!checked.ok) r = refuse(checked.problem);
      else {
        r = checked.result;
        const size = await connection.strlen(key);
        const zip = size > ARTEFACT_LIMITS.zipBytes ? null : await connection.getBuffer(key);
        const files = size > ARTEFACT_LIMITS.zipBytes ? `its folder's zip is ${mb(size)}; the limit is ${mb(ARTEFACT_LIMITS.zipBytes)}` : zip ? readArtefacts(zip) : null;
        if (typeof files === 'string') r = refuse(`the worker's result was refused: ${files}`);
        else if (files) {
          unpackFolder(files, o.out, r.folder);
          r = await tally.judged(r);
        } else if (r.status !== 'error') r = { ...r, stopReason: `${r.stopReason ? `${r.stopReason}; ` : ''}the task's folder did not come back from the worker (expired or lost)` };
      }
      tally.end(r);
      pending.delete(job.id!);
      await connection.del(key);
    };

    let wake: () => void = () => undefined;
    for (const e of ['completed', 'failed', 'active', 'stalled', 'waiting'] as const) events.on(e, () => wake());
    o.signal.addEventListener('abort', () => wake(), { once: true });
    // nobody working on the queue: said once per quiet stretch, with the command that starts a worker
    const quietMs = o.noWorkerMs ?? 30_000;
    let busyAt = Date.now();
    let said = false;
    let ended = tally.ran;
    while (pending.size && !o.signal.aborted) {
      let running = 0;
      let retrying = 0;
      for (const [id, t] of [...pending]) {
        // the state first, then the job as it is in that state (read the other way round, a job
        // that ends in between looks ended without its result or its reason)
        const state = await queue.getJobState(id);
        const gone = () => { pending.delete(id); tally.line(`${t.id}: its job left the queue (removed by someone?); run the batch again to submit it`); };
        if (state === 'unknown') { gone(); continue; }
        if (state === 'active') { running++; continue; }
        if (state !== 'completed' && state !== 'failed') {
          if (state === 'delayed' || (state === 'waiting' && Number(await connection.hget(queue.toKey(id), 'atm')) > 0)) retrying++;
          continue;
        }
        const big = await oversized(id);
        if (big) { tally.end(refused(t, `the job was not read: ${big}`)); pending.delete(id); continue; }
        const job = await queue.getJob(id);
        if (!job) { gone(); continue; }
        if (state === 'completed') await collect(job, t, job.returnvalue);
        else {
          const now = new Date().toISOString();
          tally.end(noRunResult(t, oneLine((job.failedReason || 'the job failed').slice(0, 2_000)), {
            attempts: job.attemptsMade, startedAt: job.processedOn ? new Date(job.processedOn).toISOString() : now, endedAt: now, worker: '', totalMs: 0,
          }));
          pending.delete(id);
        }
      }
      if (running !== tally.progress.running || retrying !== tally.progress.retrying) tally.set({ running, retrying });
      if (!pending.size) break;
      if (running || tally.ran !== ended) { busyAt = Date.now(); said = false; ended = tally.ran; }
      else if (!said && Date.now() - busyAt >= quietMs) {
        said = true;
        tally.line(`No worker has taken a task for ${Math.round((Date.now() - busyAt) / 1000)} s. Is one running? Start one with: npm run worker -- --queue ${shownQueue(o.queue)} --base-url ${o.job.run.config.baseUrl} (docs/batch.md)`);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, o.pollMs ?? 1000);
        wake = () => { clearTimeout(t); resolve(); };
      });
    }
    if (o.signal.aborted && pending.size) tally.line(`${count(pending.size, 'task')} still in the queue: the workers go on with them; run the same command again to follow them and collect their results.`);
    results.compact(o.tasks);
    tally.close();
    return { results, interrupted: o.signal.aborted, progress: tally.progress, ran: tally.ran };
  } finally {
    await events.close().catch(() => undefined);
    await queue.close().catch(() => undefined);
    connection.disconnect();
  }
}
