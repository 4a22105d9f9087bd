/**
 * A batch's results.jsonl (docs/batch.md): read when the batch starts (a resumed batch keeps what
 * ended), a line appended as each task ends (so a crash loses nothing that ended), and rewritten
 * at the end with one line per task in the task file's order (written to a temporary file, then
 * renamed). A task's end is taken once per start: a second end of the same task (a queue
 * delivering a job twice) is ignored. The batch's keys are scrubbed from every line written.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readResults, resultsText } from '../../src/core/batch/results';
import type { BatchTask, TaskResult } from '../../src/core/batch/types';
import { scrub } from '../../src/core/trace';

export class ResultsFile {
  readonly file: string;
  readonly byId: Map<string, TaskResult>;
  /** lines that could not be read when it was opened */
  readonly skipped: number;
  private taken = new Set<string>();

  /** `secrets`: the batch's keys, replaced by [REDACTED] in every line written */
  constructor(out: string, private secrets: string[] = []) {
    this.file = path.join(out, 'results.jsonl');
    const r = readResults(existsSync(this.file) ? readFileSync(this.file, 'utf8') : '');
    this.byId = r.byId;
    this.skipped = r.skipped;
  }

  /** Records a task's end; false when this start already took an end of that task. */
  add(result: TaskResult): boolean {
    const r = scrub(result, this.secrets);
    if (this.taken.has(r.id)) return false;
    this.taken.add(r.id);
    this.byId.set(r.id, r);
    appendFileSync(this.file, `${JSON.stringify(r)}\n`);
    return true;
  }

  /** Replaces a recorded result (the judge's verdict added later). */
  update(result: TaskResult): void {
    const r = scrub(result, this.secrets);
    this.byId.set(r.id, r);
    appendFileSync(this.file, `${JSON.stringify(r)}\n`);
  }

  /** One line per task, in the task file's order. */
  compact(order: BatchTask[]): void {
    const tmp = `${this.file}.tmp-${process.pid}`;
    writeFileSync(tmp, scrub(resultsText(this.byId.values(), order), this.secrets));
    renameSync(tmp, this.file);
  }
}
