/**
 * A batch's task file read into tasks (docs/batch.md). Two forms:
 * - WebVoyager's jsonl: one object a line, `{ web_name, id, ques, web }`;
 * - a JSON list: `[{ id?, task | ques, url | web, site? | web_name? }, ...]` (an id is made from
 *   the position when missing: `task-1`, `task-2`, …).
 * Every problem is reported with its line (jsonl) or position (list), and the whole file is
 * refused, so a batch never starts on half a file. Pure.
 */
import type { BatchTask } from './types';
import { oneLine } from '../run/person-text';
import { detectInjection } from '../injection';
import { checkSchema } from '../answer-schema';
import { readAllowedSites } from '../allowed-sites';

export type TasksRead = { ok: true; tasks: BatchTask[] } | { ok: false; errors: string[] };

/** The task's folder under --out, named as WebVoyager names its own: `task{id}` (e.g. taskAllrecipes--0). */
export function taskFolder(id: string): string {
  return `task${id}`;
}

/** Limits on a task's fields: a task file (or a queue's job) cannot make a run carry more. */
export const TASK_LIMITS = { idChars: 150, taskChars: 20_000, urlChars: 8_192, siteChars: 200 } as const;

/**
 * Characters an id may not hold: C0 and C1 controls, and the invisible format characters (bidi
 * overrides and isolates, zero-width ones, the BOM) that would make a folder name or a terminal
 * line read other than it is.
 */
// eslint-disable-next-line no-control-regex
const ID_UNSAFE = /[\u0000-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/u;

/**
 * An id that is safe as a folder name: no separators, no dot-only names, no control or invisible
 * characters, not too long. `id` may be any JSON value (a queue's job is not trusted).
 */
export function idProblem(id: unknown): string | null {
  if (typeof id !== 'string') return 'its id is not a string';
  if (!id.trim()) return 'its id is empty';
  if (id.length > TASK_LIMITS.idChars) return `its id is longer than ${TASK_LIMITS.idChars} characters`;
  if (/[/\\]/.test(id) || ID_UNSAFE.test(id) || /^\.+$/.test(id)) return `its id "${oneLine(id)}" cannot be a folder name (no slashes, control or invisible characters)`;
  return null;
}

function str(o: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && k === 'id') return String(v);
  }
  return undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/**
 * One entry (already parsed JSON) -> a task, or why not. The one check of a task, whoever gives
 * it: a task file's entry, or a queue job's task on a worker (job.ts).
 */
export function taskOf(x: unknown, fallbackId: string): BatchTask | string {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return 'it is not an object';
  const o = x as Record<string, unknown>;
  const task = str(o, 'ques', 'task')?.trim();
  if (!task) return 'it has no task ("ques" or "task")';
  if (task.length > TASK_LIMITS.taskChars) return `its task is longer than ${TASK_LIMITS.taskChars} characters`;
  // a task file is someone else's words: a task that reads as instructions to an AI agent is refused (core/injection/index.ts)
  const aimed = detectInjection([{ text: task, where: 'task' }])[0];
  if (aimed) return `its task reads as instructions aimed at an AI agent ("${oneLine(aimed.phrase)}"), not a task a person would give`;
  const url = str(o, 'web', 'url')?.trim();
  if (!url) return 'it has no start page ("web" or "url")';
  if (url.length > TASK_LIMITS.urlChars) return `its start page is longer than ${TASK_LIMITS.urlChars} characters`;
  try {
    if (!/^https?:$/.test(new URL(url).protocol)) return `its start page "${url}" is not an http(s) URL`;
  } catch {
    return `its start page "${url}" is not a URL`;
  }
  const id = str(o, 'id')?.trim() ?? fallbackId;
  const bad = idProblem(id);
  if (bad) return bad;
  const site = str(o, 'web_name', 'site')?.trim() || hostOf(url);
  if (site.length > TASK_LIMITS.siteChars) return `its site name is longer than ${TASK_LIMITS.siteChars} characters`;
  const sites = readAllowedSites(o.allowedSites);
  if (!sites.ok) return `its allowed sites cannot be used: ${sites.problem}`;
  const schema = o.answerSchema === undefined ? null : checkSchema(o.answerSchema);
  if (schema && !schema.ok) return `its answer schema cannot be used: ${schema.problem}`;
  return { id, site, task, url, ...(schema?.ok ? { answerSchema: schema.schema } : {}), ...(sites.value ? { allowedSites: sites.value } : {}) };
}

/** Reads a task file's text (jsonl or a JSON list, told apart by the first non-blank character). */
export function readTasks(text: string): TasksRead {
  const errors: string[] = [];
  const tasks: BatchTask[] = [];
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed) return { ok: false, errors: ['the file has no tasks'] };
  if (trimmed.startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(trimmed);
    } catch (e) {
      return { ok: false, errors: [`it is not valid JSON: ${e instanceof Error ? e.message : String(e)}`] };
    }
    (list as unknown[]).forEach((x, i) => {
      const t = taskOf(x, `task-${i + 1}`);
      if (typeof t === 'string') errors.push(`task ${i + 1}: ${t}`);
      else tasks.push(t);
    });
  } else {
    trimmed.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      let x: unknown;
      try {
        x = JSON.parse(line);
      } catch {
        errors.push(`line ${i + 1}: not a JSON object`);
        return;
      }
      const t = taskOf(x, `line-${i + 1}`);
      if (typeof t === 'string') errors.push(`line ${i + 1}: ${t}`);
      else tasks.push(t);
    });
  }
  const seen = new Set<string>();
  for (const t of tasks) {
    if (seen.has(t.id)) errors.push(`the id "${t.id}" is used twice`);
    seen.add(t.id);
  }
  if (!errors.length && !tasks.length) errors.push('the file has no tasks');
  return errors.length ? { ok: false, errors } : { ok: true, tasks };
}
