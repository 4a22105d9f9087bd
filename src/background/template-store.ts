/**
 * Saved tasks (core/templates.ts, docs/templates.md) in a database of their own (IndexedDB
 * `webagent-templates`, apart from the runs' and the files' so no schema waits for another): each
 * template with its files' bytes (base64), kept until the person deletes it. Starting one stages
 * its files for the run, as files attached in the panel are (file-store.ts).
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { openStore } from './stores';
import { base64Bytes, type TaskTemplate, type TemplateSummary } from '../core/templates';
import { base64Decode, base64Encode } from '../core/export/data-url';
import { addFile, removeFile, runFiles, STAGED } from './file-store';

interface Stored extends TaskTemplate { id: string; savedAt: number }

interface TemplatesDB extends DBSchema {
  templates: { key: string; value: Stored };
}

let dbp: Promise<IDBPDatabase<TemplatesDB>> | null = null;
function db(): Promise<IDBPDatabase<TemplatesDB>> {
  dbp ??= openStore<TemplatesDB>('templates', (d) => { d.createObjectStore('templates', { keyPath: 'id' }); });
  return dbp;
}

const summaryOf = ({ files, ...t }: Stored): TemplateSummary => ({ ...t, files: (files ?? []).map((f) => ({ name: f.name, type: f.type, size: base64Bytes(f.base64) })) });

/** Every saved task, by name. */
export async function listTemplates(): Promise<TemplateSummary[]> {
  const all = await (await db()).getAll('templates');
  return all.map(summaryOf).sort((a, b) => a.name.localeCompare(b.name) || a.savedAt - b.savedAt);
}

/** Saves a template (a checked one: core/templates.ts checkTemplate); `withStaged`: the files attached for the next run go with it. */
export async function saveTemplate(t: TaskTemplate, withStaged = false): Promise<string> {
  const files = withStaged
    ? await Promise.all((await runFiles(STAGED)).map(async (f) => ({ name: f.name, type: f.type, base64: base64Encode(new Uint8Array(await f.bytes.arrayBuffer())) })))
    : t.files ?? [];
  const id = crypto.randomUUID();
  await (await db()).put('templates', { ...t, ...(files.length ? { files } : { files: undefined }), id, savedAt: Date.now() });
  return id;
}

export async function deleteTemplate(id: string): Promise<void> {
  await (await db()).delete('templates', id);
}

/** The templates with their files, for a file (all of them, or those of `ids`). */
export async function exportTemplates(ids?: string[]): Promise<TaskTemplate[]> {
  const all = await (await db()).getAll('templates');
  return all.filter((t) => !ids || ids.includes(t.id)).sort((a, b) => a.name.localeCompare(b.name))
    .map(({ id: _i, savedAt: _s, files, ...t }) => ({ ...t, ...(files?.length ? { files } : {}) }));
}

/** The template, and its files staged for the next run in place of those attached (null: no such template). */
export async function stageTemplate(id: string): Promise<TaskTemplate | null> {
  const t = await (await db()).get('templates', id);
  if (!t) return null;
  await removeFile(STAGED);
  for (const f of t.files ?? []) {
    await addFile(STAGED, { name: f.name, type: f.type, lastModified: t.savedAt, bytes: new Blob([base64Decode(f.base64) as Uint8Array<ArrayBuffer>]) });
  }
  return t;
}
