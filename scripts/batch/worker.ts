/**
 * A queue worker (docs/batch.md): a BullMQ Worker that runs each job's task with the batch
 * runner's task engine in its own browser, then sends the task's folder back through Redis (a
 * zip under the job's artefacts key) and returns its result. An infrastructure failure is thrown
 * so BullMQ retries the job with its backoff (the last attempt returns its result instead); a
 * worker that dies mid-task leaves a job whose lock expires, and BullMQ's stalled-job check
 * gives it to another worker. With a rate in the job, model requests go through a local proxy
 * that takes a token from a limiter in Redis before each request (one limit for all workers) and
 * adds this machine's key.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Worker, type Job } from 'bullmq';
import { zipSync } from 'fflate';
import { retryable } from '../../src/core/batch/results';
import type { TaskResult } from '../../src/core/batch/types';
import { ARTEFACTS_TTL_S, artefactsKey, QUEUE_NAME, redisFrom, type JobData } from './queue';
import { runTask, WORKER_ID } from './run-task';
import { createLimiter } from './rate-limit';
import { startLimitProxy } from './limit-proxy';

export interface WorkerOptions {
  queue: string;
  concurrency: number;
  /** this machine's key for the model endpoint ('' for none) */
  apiKey: string;
  /** where task folders are made */
  work: string;
  /** the job lock's duration: a dead worker's task goes back to the queue after about this long */
  lockMs: number;
  log: (line: string) => void;
}

function filesOf(dir: string, prefix = ''): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(out, filesOf(full, `${prefix}${name}/`));
    else out[`${prefix}${name}`] = readFileSync(full);
  }
  return out;
}

export async function startWorker(o: WorkerOptions): Promise<{ id: string; close(): Promise<void> }> {
  const connection = redisFrom(o.queue);
  const stop = new AbortController();
  const proxies = new Map<string, Promise<Awaited<ReturnType<typeof startLimitProxy>>>>();
  /** the model endpoint for this job: its limited endpoint's local proxy (one per endpoint and rate), or the endpoint itself with this machine's key */
  const endpoint = async (data: JobData): Promise<{ baseUrl: string; apiKey: string }> => {
    const target = data.run.config.baseUrl ?? '';
    if (!data.rate) return { baseUrl: target, apiKey: o.apiKey };
    const key = `webagent:rate:${createHash('sha1').update(target).digest('hex').slice(0, 16)}`;
    const tag = `${key}:${data.rate.max}/${data.rate.perMs}`;
    let proxy = proxies.get(tag);
    if (!proxy) {
      proxy = startLimitProxy({ target, limiter: createLimiter(connection, { key, ...data.rate }), ...(o.apiKey ? { apiKey: o.apiKey } : {}) });
      proxies.set(tag, proxy);
    }
    // the proxy sends this machine's key; the browser's profile gets a placeholder
    return { baseUrl: (await proxy).baseUrl, apiKey: 'via-local-proxy' };
  };
  const processor = async (job: Job<JobData, TaskResult>): Promise<TaskResult> => {
    const data = job.data;
    const attempt = job.attemptsMade + 1;
    const { baseUrl, apiKey } = await endpoint(data);
    o.log(`${job.id}: ${data.task.id} (attempt ${attempt})`);
    const end = await runTask(data.task, attempt, {
      out: o.work, run: { ...data.run, config: { ...data.run.config, baseUrl, apiKey } },
      allowGuards: new Set(data.allowGuards), timeoutMs: data.timeoutMs, signal: stop.signal,
    });
    if ('interrupted' in end) throw new Error(`the worker ${WORKER_ID} stopped during the task`);
    const result = end.result;
    if (retryable(result.kind) && attempt < (job.opts.attempts ?? 1)) throw new Error(result.stopReason ?? 'infrastructure failure');
    const dir = path.join(o.work, result.folder);
    if (result.status !== 'error') {
      await connection.set(artefactsKey(job.id!), Buffer.from(zipSync(filesOf(dir), { level: 0 })), 'EX', ARTEFACTS_TTL_S);
      rmSync(dir, { recursive: true, force: true });
    }
    o.log(`${job.id}: ${result.kind}`);
    return result;
  };
  const worker = new Worker<JobData, TaskResult>(QUEUE_NAME, processor, {
    connection, concurrency: o.concurrency, lockDuration: o.lockMs, stalledInterval: Math.max(1000, Math.round(o.lockMs / 2)), maxStalledCount: 2,
  });
  worker.on('error', (e) => o.log(`worker error: ${e.message}`));
  await worker.waitUntilReady();
  return {
    id: WORKER_ID,
    close: async () => {
      stop.abort('the worker is stopping');
      await worker.close();
      for (const p of proxies.values()) await (await p).close().catch(() => undefined);
      connection.disconnect();
    },
  };
}
