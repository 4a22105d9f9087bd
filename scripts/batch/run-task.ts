/**
 * One task of a batch (docs/batch.md): the headless runner's engine in a fresh browser profile,
 * nobody at the approval prompt (a guard's question ends the task as `guard`, unless its rule is
 * in the batch's allow list), a time limit, and the task's folder written whole or not at all:
 *
 *   task{id}/trace.json              the run's trace (docs/trace-format.md)
 *   task{id}/report.html             its HTML report
 *   task{id}/run.zip                 the zip export
 *   task{id}/interact_messages.json  WebVoyager's files, from the zip's webvoyager/ folder,
 *   task{id}/screenshot1.png, …      so its evaluation scripts read the folder as one of theirs
 *   task{id}/log.txt                 what the runner printed
 *
 * The folder is made under a temporary name and renamed when complete, so a crash or Ctrl+C
 * leaves no half folder that a resumed batch would take for a result.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { runAgent } from '../run-agent';
import type { Launched } from '../browser';
import type { BrowserPool } from './pool';
import type { RunOptions } from '../runner-options';
import { noRunResult, stopKindOf } from '../../src/core/batch/results';
import { taskFolder } from '../../src/core/batch/tasks';
import type { BatchTask, TaskResult } from '../../src/core/batch/types';
import { oneLine } from '../../src/core/run/person-text';
import { scrub } from '../../src/core/trace';
import { childPath } from './artefacts';

export interface TaskOptions {
  /** the batch's output folder */
  out: string;
  run: RunOptions;
  /** guard rules whose questions are answered yes (GuardId: password, payment, delete, send, download, leave-site) */
  allowGuards: ReadonlySet<string>;
  /** the run is stopped after this long and counted as an infrastructure failure */
  timeoutMs: number;
  /** the batch was interrupted: the run stops and nothing is written */
  signal: AbortSignal;
  /** keys (the model's, the judge's, a proxy's token): replaced by [REDACTED] in everything the task writes or returns */
  secrets: string[];
  /**
   * Warm browsers (pool.ts): the task runs in one reset since its last task instead of a new one,
   * and gives it back when its exports are built (closed instead when the task failed).
   */
  pool?: BrowserPool<Launched>;
}

/** More for one task: called once its run has ended, before the exports (the local batch frees the task's slot). */
export interface TaskHooks { onRunEnd?: () => void }

export type TaskEnd = { result: TaskResult } | { interrupted: true };

export const WORKER_ID = `${hostname()}:${process.pid}`;
export const INTERRUPTED = 'the batch was interrupted';

/** WebVoyager's files from the zip export's webvoyager/ folder, into the task's folder. */
function unpackWebVoyager(zipFile: string, dir: string): void {
  const files = unzipSync(readFileSync(zipFile), { filter: (f) => f.name.startsWith('webvoyager/') && !f.name.endsWith('/') });
  for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(dir, path.basename(name)), bytes);
}

export async function runTask(t: BatchTask, attempt: number, o: TaskOptions, hooks: TaskHooks = {}): Promise<TaskEnd> {
  const folder = taskFolder(t.id);
  // checked to stay in --out whatever the id (a queue's job is a stranger's request)
  const final = childPath(o.out, folder);
  const work = childPath(o.out, `.${folder}.partial-${process.pid}-${attempt}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const log: string[] = [];
  const startedAt = new Date();
  const t0 = performance.now();
  let guard: TaskResult['guard'] = null;
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = AbortSignal.any([o.signal, timeout]);
  const base = { id: t.id, site: t.site, task: t.task, url: t.url, folder, attempts: attempt, verdict: null, worker: WORKER_ID, startedAt: startedAt.toISOString() };
  let browser: Launched | undefined;
  try {
    // the wait for a warm browser (its reset) or a new one counts as the task's start
    if (o.pool) browser = await o.pool.acquire({ width: o.run.width, height: o.run.height, headed: o.run.headed });
    const acquireMs = Math.round(performance.now() - t0);
    const r = await runAgent(browser ?? null, {
      task: t.task, url: t.url, files: o.run.files, config: { ...o.run.config, approveSteps: false }, ...(t.answerSchema ? { answerSchema: t.answerSchema } : {}), ...(t.allowedSites ? { allowedSites: t.allowedSites } : {}),
      width: o.run.width, height: o.run.height, headed: o.run.headed,
      traceFile: path.join(work, 'trace.json'), reportFile: path.join(work, 'report.html'), zipFile: path.join(work, 'run.zip'), secrets: o.secrets,
    }, {
      onRunEnd: () => hooks.onRunEnd?.(),
      out: (l) => log.push(l), err: (l) => log.push(l), handleSigint: false, signal,
      decide: async (run) => {
        const a = run.pending?.approval;
        if (a?.rule && o.allowGuards.has(a.rule)) return { kind: 'approve' };
        const question = oneLine(a?.reason ?? 'approve this action?');
        guard = { rule: a?.rule ?? null, question };
        log.push(`A guard asked: ${question}${a?.rule ? ` (rule "${a.rule}")` : ''}. Nobody answers in a batch: the task ends here (allow the rule with --allow-guard ${a?.rule ?? 'RULE'} to answer yes).`);
        // Rejected, so the step is in the trace (its action not run), then the run stops.
        return { kind: 'reject', feedback: 'Nobody is there to approve this in a batch run.', thenStop: `A guard asked, and nobody answers in a batch: ${question}` };
      },
    });
    // the exports are out of it: reset for the next task while this one's folder is written
    if (browser) o.pool!.release(browser, true);
    browser = undefined;
    if (o.signal.aborted) return { interrupted: true };
    unpackWebVoyager(path.join(work, 'run.zip'), work);
    writeFileSync(path.join(work, 'log.txt'), scrub(`${log.join('\n')}\n`, o.secrets));
    const timedOut = timeout.aborted && r.status !== 'finished';
    const status = r.status === 'running' ? 'stopped' : r.status; // an ended run is never running
    const kind = stopKindOf({ status, failCause: r.run.failCause, guard: !!guard && r.status === 'stopped', timedOut });
    const result: TaskResult = scrub({
      ...base, status, kind, answer: r.answer, ...(r.run.answerJson !== undefined ? { answerJson: r.run.answerJson } : {}),
      stopReason: timedOut ? `ran past the task's time limit (${Math.round(o.timeoutMs / 1000)} s)` : r.status === 'finished' ? null : r.stopReason,
      guard: kind === 'guard' ? guard : null,
      steps: r.run.steps.length,
      tokens: { prompt: r.run.totals.promptTokens, completion: r.run.totals.completionTokens },
      cost: r.run.totals.cost, currency: r.run.totals.currency, model: r.run.model,
      durations: { totalMs: Math.round(performance.now() - t0), ...r.timings, startMs: acquireMs + r.timings.startMs },
      endedAt: new Date().toISOString(),
    }, o.secrets);
    writeFileSync(path.join(work, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
    rmSync(final, { recursive: true, force: true });
    renameSync(work, final);
    return { result };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    hooks.onRunEnd?.();
    if (o.signal.aborted) return { interrupted: true };
    const message = e instanceof Error ? e.message : String(e);
    return {
      result: noRunResult(t, scrub(oneLine(message), o.secrets), { attempts: attempt, startedAt: base.startedAt, endedAt: new Date().toISOString(), worker: WORKER_ID, totalMs: Math.round(performance.now() - t0) }),
    };
  } finally {
    // a browser that failed its task (crashed, closed, did not answer) is closed, not reused
    if (browser) o.pool!.release(browser, false);
  }
}
