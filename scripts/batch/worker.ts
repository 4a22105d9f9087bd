/**
 * A queue worker (docs/batch.md): a BullMQ Worker that runs each job's task with the batch
 * runner's task engine in its own browser, then sends the task's folder back through Redis (a
 * zip under the job's artefacts key) and returns its result. An infrastructure failure is thrown
 * so BullMQ retries the job with its backoff (the last attempt returns its result instead); a
 * worker that dies mid-task leaves a job whose lock expires, and BullMQ's stalled-job check
 * gives it to another worker. With a rate in the job, model requests go through a local proxy
 * that takes a token from a limiter in Redis before each request (one limit for all workers) and
 * adds this machine's key.
 *
 * A job is a stranger's request (whoever can write to Redis can add one): its data is checked
 * as a task file and the flags are (core/batch/job.ts) and rebuilt from the known fields; a job
 * that names an endpoint this worker was not given (--base-url) is refused, so the key goes only
 * where its owner said; every path is made from the checked task id and checked to stay in
 * --work. A refused job fails at once (no retry) with the reason, which the submitting side
 * writes as the task's stop reason.
 *
 * Where its browsers may go (issue 48): every request of the worker's browsers goes through its
 * reach proxy (reach-proxy.ts), which lets through public addresses, the worker's own endpoints
 * (the model endpoint, its limit proxies) and its --allow-site hosts only. A job whose start page
 * is out of reach is refused up front by the same rule.
 */
import { rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { retryable } from '../../src/core/batch/results';
import { taskFolder } from '../../src/core/batch/tasks';
import type { TaskResult } from '../../src/core/batch/types';
import { checkJob, endpointAllowed, endpointKey, type JobData } from '../../src/core/batch/job';
import { oneLine } from '../../src/core/run/person-text';
import { ARTEFACTS_TTL_S, artefactsKey, QUEUE_NAME, redisFrom } from './queue';
import { runTask, WORKER_ID } from './run-task';
import { createLimiter } from './rate-limit';
import { startLimitProxy } from './limit-proxy';
import { childPath, packFolder } from './artefacts';
import { chromiumPool } from './pool';
import { startPageReach, startReachProxy } from './reach-proxy';
import { hostPortOf, type AllowSite } from '../../src/core/batch/reach';

export interface WorkerOptions {
  queue: string;
  concurrency: number;
  /** the model endpoints this worker sends its key to (--base-url): a job naming another is refused */
  endpoints: string[];
  /** this machine's key for the model endpoint ('' for none) */
  apiKey: string;
  /** where task folders are made */
  work: string;
  /** hosts (and host:port) the worker's browsers may reach whatever they resolve to (--allow-site) */
  allowSites: AllowSite[];
  /** the job lock's duration: a dead worker's task goes back to the queue after about this long */
  lockMs: number;
  log: (line: string) => void;
}

export async function startWorker(options: WorkerOptions): Promise<{ id: string; close(): Promise<void> }> {
  // what a job says reaches the log escaped (control and bidi characters shown as \u…)
  const o = { ...options, log: (line: string) => options.log(oneLine(line)) };
  const connection = redisFrom(o.queue);
  const stop = new AbortController();
  // every request of the browsers goes through the reach proxy; the model endpoints pass by host:port
  const reach = await startReachProxy({
    allow: o.allowSites, passes: o.endpoints.map((e) => hostPortOf(e)).filter((e): e is string => !!e), log: (l) => o.log(`reach: ${l}`),
  });
  // warm browsers, reset between jobs (pool.ts); one per job at once
  const pool = chromiumPool(o.concurrency, { extraArgs: reach.args });
  const proxies = new Map<string, Promise<Awaited<ReturnType<typeof startLimitProxy>>>>();
  /** the model endpoint for this job: its limited endpoint's local proxy (one per endpoint and rate), or the endpoint itself with this machine's key */
  const endpoint = async (data: JobData): Promise<{ baseUrl: string; apiKey: string }> => {
    const asked = data.run.config.baseUrl ?? '';
    const target = o.endpoints.find((e) => endpointAllowed(asked, [e]));
    if (!target) {
      throw new UnrecoverableError(`the job was refused: it names the model endpoint ${oneLine((endpointKey(asked) ?? asked).slice(0, 200))}, and this worker sends its key only to ${o.endpoints.map((e) => endpointKey(e)).join(', ')} (its --base-url)`);
    }
    if (!data.rate) return { baseUrl: target, apiKey: o.apiKey };
    const key = `webagent:rate:${createHash('sha1').update(endpointKey(target)!).digest('hex').slice(0, 16)}`;
    const tag = `${key}:${data.rate.max}/${data.rate.perMs}`;
    let proxy = proxies.get(tag);
    if (!proxy) {
      proxy = startLimitProxy({ target, limiter: createLimiter(connection, { key, ...data.rate }), ...(o.apiKey ? { apiKey: o.apiKey } : {}) });
      proxies.set(tag, proxy);
    }
    // the proxy sends this machine's key; the browser's profile gets the proxy's own token, which it alone accepts
    const p = await proxy;
    reach.passes.add(hostPortOf(p.baseUrl)!);
    return { baseUrl: p.baseUrl, apiKey: p.token };
  };
  const processor = async (job: Job<JobData, TaskResult>): Promise<TaskResult> => {
    const jobName = oneLine(String(job.id).slice(0, 200));
    const read = checkJob(job.data, JSON.stringify(job.data ?? null).length);
    if (!read.ok) {
      o.log(`${jobName}: ${read.problem}`);
      throw new UnrecoverableError(read.problem);
    }
    const data = read.job;
    const attempt = job.attemptsMade + 1;
    let baseUrl: string;
    let apiKey: string;
    try {
      ({ baseUrl, apiKey } = await endpoint(data));
    } catch (e) {
      o.log(`${jobName}: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    }
    const outOfReach = await startPageReach(data.task.url, { allow: o.allowSites, passes: reach.passes });
    if (outOfReach) {
      const problem = `the job was refused: ${outOfReach}`;
      o.log(`${jobName}: ${problem}`);
      throw new UnrecoverableError(problem);
    }
    o.log(`${jobName}: ${data.task.id} (attempt ${attempt})`);
    const end = await runTask(data.task, attempt, {
      out: o.work, run: { ...data.run, config: { ...data.run.config, baseUrl, apiKey } },
      allowGuards: new Set(data.allowGuards), timeoutMs: data.timeoutMs, signal: stop.signal,
      secrets: [o.apiKey, apiKey], pool,
    });
    if ('interrupted' in end) throw new Error(`the worker ${WORKER_ID} stopped during the task`);
    const result = end.result;
    if (retryable(result.kind) && attempt < (job.opts.attempts ?? 1)) throw new Error(result.stopReason ?? 'infrastructure failure');
    const dir = childPath(o.work, taskFolder(data.task.id));
    if (result.status !== 'error') {
      await connection.set(artefactsKey(job.id!), Buffer.from(packFolder(dir)), 'EX', ARTEFACTS_TTL_S);
      rmSync(dir, { recursive: true, force: true });
    }
    o.log(`${jobName}: ${result.kind}`);
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
      await pool.close();
      for (const p of proxies.values()) await (await p).close().catch(() => undefined);
      await reach.close();
      connection.disconnect();
    },
  };
}
