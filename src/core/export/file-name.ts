/**
 * Names of exported files that a person can sort in a folder: site, then the run's local start
 * time, then the first words of the task, e.g. `shop.example-2025-01-31-1422-find-the-price-of.zip`.
 * Sorting by name groups a site's runs and orders them by time. Letters of any script are kept
 * (a Chinese task keeps its words); anything a file system may refuse is left out.
 */
import { hostKey } from '../guards';

/** Words of the task that go into the name, and the most characters they take. */
const TASK_WORDS = 6;
const TASK_CHARS = 48;

/** A piece of a file name: letters and digits of any script, runs of anything else as one "-". */
function slug(s: string): string {
  return s.normalize('NFC').toLowerCase().replace(/[^\p{L}\p{N}.]+/gu, '-').replace(/\.{2,}/g, '.').replace(/^[-.]+|[-.]+$/g, '');
}

/** "2025-01-31-1422": the local date and time, fixed width, so names sort by time. */
export function sortableTime(t: number): string {
  const d = new Date(t);
  if (!Number.isFinite(d.getTime())) return 'undated';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}`;
}

/** The file name (with `ext`, no dot) for an export of the run made on `startUrl` at `startedAt` for `task`. */
export function exportFileName(run: { startUrl: string; startedAt: number; task: string }, ext: string): string {
  const site = slug(hostKey(run.startUrl)) || 'page';
  // words as the task has them: a hyphenated one ("e-book") is one word, never cut in two
  const words = run.task.split(/\s+/).map(slug).filter(Boolean).slice(0, TASK_WORDS);
  let task = '';
  for (const w of words) {
    const next = task ? `${task}-${w}` : w;
    if ([...next].length > TASK_CHARS) {
      if (!task) task = [...w].slice(0, TASK_CHARS).join('');
      break;
    }
    task = next;
  }
  return `${[site, sortableTime(run.startedAt), task].filter(Boolean).join('-')}.${ext}`;
}
