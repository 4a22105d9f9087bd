/**
 * What crosses the queue (docs/batch.md, "Who trusts what"): a job the submitting side puts in
 * Redis, and the result a worker returns. Whoever can write to Redis can write either, so each
 * side checks what it receives as a stranger's request:
 * - a worker checks a job's task with the task file's own check (tasks.ts `taskOf`) and its run
 *   options with the flags' own (run-options.ts `runOptionsFrom`), and rebuilds the job from the
 *   known fields only;
 * - the submitting side checks a result's fields and rebuilds it around the task it submitted
 *   (its id, its folder), never taking a name or a path from the worker.
 * Pure.
 */
import { GUARD_IDS } from '../guards';
import { asCurrency } from '../costs';
import { choicesOf, runOptionsFrom, whole, type RunOptions } from '../run-options';
import { taskFolder, taskOf } from './tasks';
import { checkAnswer } from '../answer-schema';
import type { BatchTask, StopKind, TaskResult } from './types';
import { oneLine } from '../run/person-text';

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

export const JOB_LIMITS = {
  /** a job's JSON (its files are the most of it: 20 MB in base64) */
  jobBytes: 32 * 1024 * 1024,
  maxTimeoutMs: 24 * 3600_000,
  /** a result's texts */
  answerChars: 20_000, reasonChars: 4_000, workerChars: 200,
} as const;

export type JobRead = { ok: true; job: JobData } | { ok: false; problem: string };


/**
 * A job's data checked and rebuilt, or why it is refused. `bytes` is the size of its JSON as it
 * came (BullMQ has parsed it already).
 */
export function checkJob(x: unknown, bytes: number): JobRead {
  const no = (problem: string): JobRead => ({ ok: false, problem: `the job was refused: ${problem}` });
  if (bytes > JOB_LIMITS.jobBytes) return no(`its data is ${Math.round(bytes / 1024 / 1024)} MB; the limit is ${JOB_LIMITS.jobBytes / 1024 / 1024} MB`);
  if (!x || typeof x !== 'object' || Array.isArray(x)) return no('its data is not an object');
  const d = x as Partial<Record<keyof JobData, unknown>>;
  if (typeof d.batch !== 'string' || !/^[\w-]{1,64}$/.test(d.batch)) return no('its batch id is not a plain name');
  const raw = d.task as { id?: unknown } | undefined;
  if (!raw || typeof raw !== 'object' || typeof raw.id !== 'string') return no('its task has no id');
  const task = taskOf(raw, '');
  if (typeof task === 'string') return no(`its task: ${task}`);
  const run = runOptionsFrom(choicesOf(d.run));
  if (!run.ok) return no(run.problem);
  if (!Array.isArray(d.allowGuards) || d.allowGuards.length > GUARD_IDS.length || !d.allowGuards.every((g) => (GUARD_IDS as unknown[]).includes(g))) {
    return no(`its --allow-guard list holds something other than ${GUARD_IDS.join(', ')}`);
  }
  if (!whole(d.timeoutMs, 1_000, JOB_LIMITS.maxTimeoutMs)) return no('its task time limit is not from 1 s to 24 h');
  let rate: JobData['rate'] = null;
  if (d.rate !== null && d.rate !== undefined) {
    const r = d.rate as { max?: unknown; perMs?: unknown };
    if (!whole(r.max, 1, 1_000_000) || !whole(r.perMs, 1, 86_400_000)) return no('its --rate is not N requests per period');
    rate = { max: r.max, perMs: r.perMs };
  }
  return { ok: true, job: { batch: d.batch, task, run: run.run, allowGuards: d.allowGuards as string[], timeoutMs: d.timeoutMs, rate } };
}

/**
 * An endpoint as compared: scheme, host, port and path, lower-cased, without a trailing slash.
 * Null when it is not an http(s) URL, or when it carries a user (`user@`, `user:password@`, even an
 * empty one), a query (`?…`, even an empty `?`) or a fragment (`#…`, even an empty `#`): those are
 * refused, never normalised away, so `http://evil@127.0.0.1:8000/v1/?q=1#x` is no spelling of
 * `http://127.0.0.1:8000/v1`.
 */
export function endpointKey(url: string): string | null {
  // what the URL parser would drop or keep apart, seen in the text as given: an empty query,
  // fragment or user leaves no trace in the parsed URL
  if (/[?#]/.test(url)) return null;
  const authority = url.trim().replace(/^[a-z][a-z\d+.-]*:[/\\]*/i, '').split(/[/\\]/)[0];
  if (authority.includes('@')) return null;
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (u.username || u.password) return null;
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return null;
  }
}

/** Whether `url` is one of `allowed` (endpointKey equal), where a worker's owner lets it send its key. */
export function endpointAllowed(url: string, allowed: readonly string[]): boolean {
  const k = endpointKey(url);
  return !!k && allowed.some((a) => endpointKey(a) === k);
}

const STATUSES: ReadonlyArray<TaskResult['status']> = ['finished', 'stopped', 'failed', 'error'];
const KINDS: readonly StopKind[] = ['finished', 'agent', 'guard', 'infrastructure'];

const text = (x: unknown, max: number): x is string => typeof x === 'string' && x.length <= max;
const textOrNull = (x: unknown, max: number): x is string | null => x === null || text(x, max);
const count = (x: unknown): x is number => whole(x, 0, Number.MAX_SAFE_INTEGER);
const time = (x: unknown): x is string => typeof x === 'string' && x.length <= 40 && !Number.isNaN(Date.parse(x));

export type ResultRead = { ok: true; result: TaskResult } | { ok: false; problem: string };

/**
 * A worker's result for the task `t` that this batch submitted, checked and rebuilt: the task's
 * id, site, text, start page and folder are the submitted task's (a worker names no path), the
 * verdict is the submitting side's to give. Refused (with why) when it is for another task or a
 * field is not what a result holds.
 */
export function checkWorkerResult(x: unknown, t: BatchTask): ResultRead {
  const no = (problem: string): ResultRead => ({ ok: false, problem: `the worker's result was refused: ${problem}` });
  if (!x || typeof x !== 'object' || Array.isArray(x)) return no('it is not an object');
  const r = x as Partial<Record<keyof TaskResult, unknown>>;
  if (r.id !== t.id) return no(`it is for the task "${oneLine(String(r.id).slice(0, 160))}", not "${t.id}", which this job carried`);
  if (r.folder !== undefined && r.folder !== taskFolder(t.id)) return no(`it names the folder "${oneLine(String(r.folder).slice(0, 160))}"; a task's folder is "${taskFolder(t.id)}"`);
  if (!STATUSES.includes(r.status as TaskResult['status'])) return no('its status is not one a run ends with');
  if (!KINDS.includes(r.kind as StopKind)) return no('its kind is not finished, agent, guard or infrastructure');
  if (!textOrNull(r.answer, JOB_LIMITS.answerChars)) return no(`its answer is not text of at most ${JOB_LIMITS.answerChars} characters`);
  if (!textOrNull(r.stopReason, JOB_LIMITS.reasonChars)) return no(`its stop reason is not text of at most ${JOB_LIMITS.reasonChars} characters`);
  let guard: TaskResult['guard'] = null;
  if (r.guard !== null && r.guard !== undefined) {
    const g = r.guard as { rule?: unknown; question?: unknown };
    if (!(g.rule === null || (GUARD_IDS as unknown[]).includes(g.rule)) || !text(g.question, JOB_LIMITS.reasonChars)) return no('its guard is not a rule and a question');
    guard = { rule: g.rule as string | null, question: g.question };
  }
  const tk = r.tokens as { prompt?: unknown; completion?: unknown } | undefined;
  if (!count(r.steps) || !tk || !count(tk.prompt) || !count(tk.completion)) return no('its steps or tokens are not counts');
  if (!(r.cost === null || (typeof r.cost === 'number' && Number.isFinite(r.cost) && r.cost >= 0))) return no('its cost is not a number');
  const d = r.durations as Partial<Record<keyof TaskResult['durations'], unknown>> | undefined;
  if (!d || !count(d.totalMs) || !count(d.startMs) || !count(d.runMs) || !count(d.exportMs)) return no('its durations are not counts of ms');
  if (!whole(r.attempts, 1, 1_000)) return no('its attempts are not a count');
  if (!time(r.startedAt) || !time(r.endedAt)) return no('its times are not dates');
  if (!text(r.worker, JOB_LIMITS.workerChars)) return no('it does not say which worker ran it');
  // a JSON answer is kept only as the task's schema accepts it, checked here again (the worker is a stranger)
  let answerJson: { answerJson: unknown } | null = null;
  if (r.answerJson !== undefined) {
    if (!t.answerSchema) return no('it has a JSON answer, and the task has no answer schema');
    const json = JSON.stringify(r.answerJson) ?? '';
    if (json.length > JOB_LIMITS.answerChars) return no(`its JSON answer is longer than ${JOB_LIMITS.answerChars} characters`);
    const checked = checkAnswer(t.answerSchema, json);
    if (!checked.ok) return no(`its JSON answer does not match the task's answer schema: ${checked.error}`);
    answerJson = { answerJson: checked.value };
  }
  return {
    ok: true,
    result: {
      id: t.id, site: t.site, task: t.task, url: t.url, folder: taskFolder(t.id),
      status: r.status as TaskResult['status'], kind: r.kind as StopKind, answer: r.answer, ...answerJson, stopReason: r.stopReason, guard,
      steps: r.steps, tokens: { prompt: tk.prompt, completion: tk.completion }, cost: r.cost, currency: asCurrency(r.currency),
      durations: { totalMs: d.totalMs, startMs: d.startMs, runMs: d.runMs, exportMs: d.exportMs },
      attempts: r.attempts, verdict: null, startedAt: r.startedAt, endedAt: r.endedAt, worker: oneLine(r.worker),
      ...(text(r.model, JOB_LIMITS.workerChars) ? { model: oneLine(r.model) } : {}),
    },
  };
}
