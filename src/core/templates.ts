/**
 * Saved tasks (docs/templates.md): a task kept to start again, from the side panel's list or by
 * the runner (`npm run agent -- --task-file FILE`), the same file either way. A template file is
 * JSON:
 *
 *   { "format": "webagent-task", "version": 1,
 *     "tasks": [{ "name": "…", "task": "…", "startUrl": "https://…", "dialect": "glm-web",
 *                 "files": [{ "name": "cv.pdf", "type": "application/pdf", "base64": "…" }],
 *                 "answerSchema": { "type": "object", … }, "allowedSites": ["pay.example"] }] }
 *
 * `startUrl`, `dialect`, `files`, `answerSchema` and `allowedSites` are optional. A file is read as untrusted input: a field this
 * version does not know is refused rather than ignored (a later version's field may limit what a
 * run may do, and dropping it silently would run the task with fewer limits than it was saved with).
 * Its reasons are the person's words (`t`; English, what the runner prints, by default). Pure.
 */
import { checkSchema } from './answer-schema';
import { readAllowedSites, type AllowedSites } from './allowed-sites';
import { isDialect } from './dialects/registry';
import { formatBytes, MAX_FILES_BYTES } from './files';
import type { Translate } from './i18n';
import { english } from './locales';

export const TEMPLATE_FORMAT = 'webagent-task';
export const TEMPLATE_VERSION = 1;

/** A file kept with a template: its bytes as base64. */
export interface TemplateFile { name: string; type: string; base64: string }

export interface TaskTemplate {
  name: string;
  task: string;
  /** where the run starts (absent: the tab the person is on; the runner needs --url then) */
  startUrl?: string;
  /** the dialect it runs in (absent: the one in Settings, or the runner's --dialect) */
  dialect?: string;
  files?: TemplateFile[];
  /** a JSON Schema its answer must match (core/answer-schema.ts; absent: a free answer) */
  answerSchema?: Record<string, unknown>;
  /** where it may act besides its start site: "any", or sites (core/allowed-sites.ts; absent: only the start site) */
  allowedSites?: AllowedSites;
}

/** A template as the panel lists it: without the files' bytes. */
export interface TemplateSummary extends Omit<TaskTemplate, 'files'> {
  id: string;
  savedAt: number;
  files: Array<{ name: string; type: string; size: number }>;
}

/** Lengths a template's texts may have (a task is typed by a person; a file's name is a name). */
const MAX_NAME = 120;
const MAX_TASK = 20_000;

const KEYS = new Set(['name', 'task', 'startUrl', 'dialect', 'files', 'answerSchema', 'allowedSites']);
const FILE_KEYS = new Set(['name', 'type', 'base64']);

/** Bytes a base64 text holds (its padding counted out). */
export function base64Bytes(b64: string): number {
  const s = b64.replace(/\s+/g, '');
  return Math.floor((s.length * 3) / 4) - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0);
}

export type TemplateCheck = { ok: true; template: TaskTemplate } | { ok: false; problem: string };

/** One template checked: every field known and well formed. */
export function checkTemplate(x: unknown, t: Translate = english): TemplateCheck {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return { ok: false, problem: t('tplNotObject') };
  const o = x as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KEYS.has(k));
  if (unknown.length) return { ok: false, problem: t('tplUnknownFields', unknown.map((k) => `"${k}"`).join(', ')) };
  const name = typeof o.name === 'string' ? o.name.trim() : '';
  if (!name || name.length > MAX_NAME) return { ok: false, problem: t('tplName', MAX_NAME) };
  const task = typeof o.task === 'string' ? o.task.trim() : '';
  if (!task || task.length > MAX_TASK) return { ok: false, problem: t('tplTask', name, MAX_TASK) };
  const out: TaskTemplate = { name, task };
  if (o.startUrl !== undefined) {
    let ok = false;
    try {
      ok = typeof o.startUrl === 'string' && /^https?:$/.test(new URL(o.startUrl).protocol);
    } catch { /* not a URL */ }
    if (!ok) return { ok: false, problem: t('tplStartUrl', name) };
    out.startUrl = o.startUrl as string;
  }
  if (o.dialect !== undefined) {
    if (typeof o.dialect !== 'string' || !isDialect(o.dialect)) return { ok: false, problem: t('tplDialect', name, JSON.stringify(o.dialect)) };
    out.dialect = o.dialect;
  }
  if (o.answerSchema !== undefined) {
    const schema = checkSchema(o.answerSchema);
    if (!schema.ok) return { ok: false, problem: t('tplAnswerSchema', name, schema.problem) };
    out.answerSchema = schema.schema;
  }
  if (o.allowedSites !== undefined) {
    const sites = readAllowedSites(o.allowedSites);
    if (!sites.ok) return { ok: false, problem: t('tplAllowedSites', name, sites.problem) };
    if (sites.value) out.allowedSites = sites.value;
  }
  if (o.files !== undefined) {
    if (!Array.isArray(o.files)) return { ok: false, problem: t('tplFiles', name) };
    const files: TemplateFile[] = [];
    let bytes = 0;
    for (const f of o.files as unknown[]) {
      const r = f as Record<string, unknown> | null;
      if (!r || typeof r !== 'object' || Object.keys(r).some((k) => !FILE_KEYS.has(k))
        || typeof r.name !== 'string' || !r.name.trim() || typeof r.type !== 'string' || typeof r.base64 !== 'string'
        || !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(r.base64)) {
        return { ok: false, problem: t('tplFiles', name) };
      }
      bytes += base64Bytes(r.base64);
      if (bytes > MAX_FILES_BYTES) return { ok: false, problem: t('tplFilesTooBig', name, formatBytes(MAX_FILES_BYTES)) };
      files.push({ name: r.name.trim(), type: r.type, base64: r.base64.replace(/\s+/g, '') });
    }
    if (files.length) out.files = files;
  }
  return { ok: true, template: out };
}

export type TemplatesRead = { ok: true; templates: TaskTemplate[]; refused: Array<{ index: number; problem: string }> } | { ok: false; problem: string };

/** A template file read: its format and version, then each template (a bad one refused with its reason, the others kept). */
export function readTemplateFile(x: unknown, t: Translate = english): TemplatesRead {
  const o = x as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || o.format !== TEMPLATE_FORMAT) return { ok: false, problem: t('tplNotFile', TEMPLATE_FORMAT) };
  if (o.version !== TEMPLATE_VERSION) return { ok: false, problem: t('tplVersion', JSON.stringify(o.version), TEMPLATE_VERSION) };
  const extra = Object.keys(o).filter((k) => !['format', 'version', 'tasks'].includes(k));
  if (extra.length) return { ok: false, problem: t('tplUnknownFields', extra.map((k) => `"${k}"`).join(', ')) };
  if (!Array.isArray(o.tasks) || !o.tasks.length) return { ok: false, problem: t('tplNoTasks') };
  const templates: TaskTemplate[] = [];
  const refused: Array<{ index: number; problem: string }> = [];
  o.tasks.forEach((x, index) => {
    const c = checkTemplate(x, t);
    if (c.ok) templates.push(c.template);
    else refused.push({ index, problem: c.problem });
  });
  return { ok: true, templates, refused };
}

/** The file for these templates (what Export writes and the runner reads). */
export function templateFile(templates: TaskTemplate[]): string {
  return `${JSON.stringify({ format: TEMPLATE_FORMAT, version: TEMPLATE_VERSION, tasks: templates }, null, 2)}\n`;
}

/** The template a runner's --task-file names: the only one, or the one called `name`. */
export function pickTemplate(read: TaskTemplate[], name?: string, t: Translate = english): TaskTemplate | string {
  if (name !== undefined) {
    const found = read.filter((t) => t.name === name);
    if (found.length === 1) return found[0];
    return found.length ? t('tplNameTwice', found.length, name) : t('tplNoSuchName', name, read.map((x) => `"${x.name}"`).join(', '));
  }
  if (read.length === 1) return read[0];
  return t('tplWhich', read.length, read.map((x) => `"${x.name}"`).join(', '));
}
