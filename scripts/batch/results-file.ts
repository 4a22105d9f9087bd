/**
 * A batch's results.jsonl (docs/batch.md): read when the batch starts (a resumed batch keeps what
 * ended), a line appended as each task ends (so a crash loses nothing that ended), and rewritten
 * at the end with one line per task in the task file's order (written to a new temporary file,
 * then renamed). A task's end is taken once per start: a second end of the same task (a queue
 * delivering a job twice) is ignored. The batch's keys are scrubbed from every line written.
 *
 * The file is input from whoever could write --out, checked as a worker's result is: it is read
 * only when it is a regular file, not a symbolic link; each task's last line is kept only when its
 * folder is its task's own (inside --out, `childPath`) and its task is the task file's
 * (results.ts `readResults`); a refused line says why (`refused`) and its task runs again. Writes
 * never go through a symbolic link (safe-write.ts).
 */
import path from 'node:path';
import { readResults, resultsText } from '../../src/core/batch/results';
import type { BatchTask, TaskResult } from '../../src/core/batch/types';
import { scrub } from '../../src/core/trace';
import { readInputText } from '../read-input';
import { childPath } from './artefacts';
import { appendNoFollow, replaceFile } from './safe-write';

/** The most results.jsonl may hold: about what one string of Node's holds. */
const RESULTS_BYTES = 512 * 1024 * 1024;

/** The file's text ('' when there is none yet); a link, a FIFO or a device there is refused with why. */
function readOrNothing(file: string): string {
  try {
    return readInputText(file, RESULTS_BYTES, { noFollow: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw e;
  }
}

export class ResultsFile {
  readonly file: string;
  readonly byId: Map<string, TaskResult>;
  /** lines that could not be read when it was opened */
  readonly skipped: number;
  /** why a task's last line was refused when it was opened (its task runs again), one sentence each */
  readonly refused: string[];
  private taken = new Set<string>();

  /**
   * `tasks`: the task file, which each kept line must match; `secrets`: the batch's keys,
   * replaced by [REDACTED] in every line written.
   */
  constructor(out: string, tasks: readonly BatchTask[], private secrets: string[] = []) {
    this.file = path.join(out, 'results.jsonl');
    const r = readResults(readOrNothing(this.file), tasks);
    this.refused = r.refused;
    // the folder, once more as a worker's is: a plain name inside --out
    for (const [id, res] of r.byId) {
      try {
        childPath(out, res.folder);
      } catch (e) {
        r.byId.delete(id);
        this.refused.push(`results.jsonl: the result of "${id}" is refused: ${(e as Error).message}`);
      }
    }
    this.byId = r.byId;
    this.skipped = r.skipped;
  }

  /** Records a task's end; false when this start already took an end of that task. */
  add(result: TaskResult): boolean {
    const r = scrub(result, this.secrets);
    if (this.taken.has(r.id)) return false;
    this.taken.add(r.id);
    this.byId.set(r.id, r);
    appendNoFollow(this.file, `${JSON.stringify(r)}\n`);
    return true;
  }

  /** Replaces a recorded result (the judge's verdict added later). */
  update(result: TaskResult): void {
    const r = scrub(result, this.secrets);
    this.byId.set(r.id, r);
    appendNoFollow(this.file, `${JSON.stringify(r)}\n`);
  }

  /** One line per task, in the task file's order. */
  compact(order: BatchTask[]): void {
    replaceFile(this.file, scrub(resultsText(this.byId.values(), order), this.secrets));
  }
}
