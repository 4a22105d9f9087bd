/**
 * The batch runner's records (docs/batch.md): a task of a task file, and the result line each
 * task ends with in results.jsonl. Pure types.
 */

import type { AllowedSites } from '../allowed-sites';

/** One task of a batch: WebVoyager's fields, or a simple list's, read into one shape (tasks.ts). */
export interface BatchTask {
  /** unique in the file; WebVoyager's `id` (e.g. "Allrecipes--0") */
  id: string;
  /** the site's name, for per-site rates (WebVoyager's `web_name`; else the start page's host) */
  site: string;
  /** the task as a person would type it (WebVoyager's `ques`) */
  task: string;
  /** the start page (WebVoyager's `web`) */
  url: string;
  /** a JSON Schema its answer must match (docs/answer-schema.md; the task entry's `answerSchema`) */
  answerSchema?: Record<string, unknown>;
  /** where it may act besides its start site (docs/allowed-sites.md; the task entry's `allowedSites`) */
  allowedSites?: AllowedSites;
}

/**
 * How a task ended, for resuming, retrying and counting:
 * - finished: the run ended with an answer or its task marked done;
 * - agent: the agent did not finish (max steps, gave up, unreadable replies, budget, loop): not retried;
 * - guard: a guard asked a question nobody in a batch can answer (unless its rule was allowed);
 * - infrastructure: the browser, the page's tab, storage or the model endpoint failed: retried with backoff.
 */
export type StopKind = 'finished' | 'agent' | 'guard' | 'infrastructure';

/** A judge's verdict on a finished task (judge.ts). */
export interface Verdict {
  /** which judge: WebVoyager's auto-evaluation, or Online-Mind2Web's three-stage one */
  judge: 'webvoyager' | 'mind2web';
  success: boolean;
  /** the judge's own words (its reasoning and verdict) */
  text: string;
  model: string;
  /** how many screenshots it was shown */
  screenshots: number;
  /** tokens the judge used */
  usage: { promptTokens: number; completionTokens: number } | null;
}

/** One line of results.jsonl: the end of one task (written once per task, however often it ran). */
export interface TaskResult {
  id: string;
  site: string;
  task: string;
  url: string;
  /** the task's folder under the batch's --out: `task{id}` (WebVoyager's name) */
  folder: string;
  /** the run's status as the runner reports it; 'error' when no run could be made (browser did not start) */
  status: 'finished' | 'stopped' | 'failed' | 'error';
  kind: StopKind;
  answer: string | null;
  /** the answer as JSON, when the task had an answer schema and the answer matched it */
  answerJson?: unknown;
  /** why it ended, when it did not finish (in English) */
  stopReason: string | null;
  /** kind 'guard': what the guard would have asked, and its rule */
  guard: { rule: string | null; question: string } | null;
  /** model steps the run made */
  steps: number;
  tokens: { prompt: number; completion: number };
  /** in the price table's currency; null when the model has no price */
  cost: number | null;
  /** the cost's currency (ISO 4217, the price table's); absent in results written before it was kept */
  currency?: string | null;
  /** the model the run asked (absent when no run was made, and in results written before it was kept) */
  model?: string;
  durations: {
    /** the whole task: browser start to artefacts written */
    totalMs: number;
    /** starting the browser with a fresh profile */
    startMs: number;
    /** the run itself */
    runMs: number;
    /** writing the trace, zip, report and WebVoyager folder */
    exportMs: number;
  };
  /** how many times it was started (infrastructure failures are retried) */
  attempts: number;
  /** the judge's verdict (--judge), null when not judged */
  verdict: Verdict | null;
  startedAt: string;
  endedAt: string;
  /** which machine and process ran it ("host:pid") */
  worker: string;
}
