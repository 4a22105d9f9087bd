/**
 * A batch's ends as they come in, for the local pool (local.ts) and the queue's follower
 * (queue.ts) alike: each task's end judged when asked, taken once into results.jsonl, counted
 * into the progress display, and the summary hook called.
 */
import { newProgress, withResult, type Progress } from '../../src/core/batch/progress';
import type { TaskResult, Verdict } from '../../src/core/batch/types';
import { endLine, type Display } from './display';
import type { ResultsFile } from './results-file';
import { scrub } from '../../src/core/trace';

export interface TallyOptions {
  display: Display;
  /** the judge of a finished task (--judge), or null */
  judge: ((r: TaskResult) => Promise<Verdict | null>) | null;
  signal: AbortSignal;
  /** called after each end (the summary page is rewritten) */
  onEnd?: (results: ResultsFile) => void;
  /** the batch's keys, replaced by [REDACTED] in every line shown */
  secrets?: string[];
}

export class Tally {
  progress: Progress;
  /** tasks that ended in this start */
  ran = 0;

  constructor(readonly results: ResultsFile, private o: TallyOptions, total: number, before: number) {
    this.progress = newProgress(total, before, Date.now());
    o.display.update(this.progress);
    // what results.jsonl held that is not kept: its tasks run again
    if (results.skipped) this.line(`results.jsonl: ${results.skipped} unreadable line(s) skipped (a crash cut a line?); their tasks run again`);
    for (const why of results.refused) this.line(why);
    // interrupted: the time left stops being estimated (it would only grow while the runs stop)
    o.signal.addEventListener('abort', () => this.set({ stopping: true }), { once: true });
  }

  /** Running and retrying counts changed. */
  set(p: Partial<Pick<Progress, 'running' | 'retrying' | 'stopping'>>): void {
    this.progress = { ...this.progress, ...p };
    this.o.display.update(this.progress);
  }

  line(text: string): void {
    this.o.display.line(scrub(text, this.o.secrets ?? []));
  }

  /** The result with the judge's verdict when it is finished and a judge was asked for; a judge that fails leaves it without. */
  async judged(r: TaskResult): Promise<TaskResult> {
    if (!this.o.judge || r.kind !== 'finished' || this.o.signal.aborted) return r;
    try {
      const verdict = await this.o.judge(r);
      return verdict ? { ...r, verdict } : r;
    } catch (e) {
      this.line(`judge: ${r.id}: ${e instanceof Error ? e.message : String(e)} (the task keeps no verdict; run the batch again with --judge to retry)`);
      return r;
    }
  }

  /** A task's end, taken once: a second end of the same task (a queue delivering twice) is ignored. */
  end(r: TaskResult): void {
    if (!this.results.add(r)) return;
    this.ran++;
    this.progress = withResult(this.progress, r);
    this.o.display.update(this.progress);
    this.line(endLine(r));
    this.o.onEnd?.(this.results);
  }

  /** Kept finished results of these tasks without a verdict: what a batch started again with --judge judges. */
  unjudged(kept: TaskResult[], ids: ReadonlySet<string>): TaskResult[] {
    return this.o.judge ? kept.filter((r) => r.kind === 'finished' && !r.verdict && ids.has(r.id)) : [];
  }

  /** Judges a kept result now and records its verdict. */
  async judgeKept(r: TaskResult): Promise<void> {
    const j = await this.judged(r);
    if (!j.verdict) return;
    this.results.update(j);
    this.line(`judged ${j.id}: ${j.verdict.success ? 'SUCCESS' : 'NOT SUCCESS'}`);
    this.o.onEnd?.(this.results);
  }

  close(): void {
    this.o.display.close(this.progress);
  }
}
