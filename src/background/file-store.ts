/**
 * The files the person attaches for a run's file inputs, in a database of their own (IndexedDB
 * `webagent-files`, apart from the runs' so neither schema waits for the other):
 *
 * - owner 'staged': attached in the side panel (or by the runner's --file) for the next run;
 * - owner <run id>: the files of that run, moved there when it starts (claimStaged) or attached
 *   while it runs, read when an action opens a file chooser (act/files.ts), deleted when it ends.
 *
 * Runs and traces keep only names, sizes and types (core/files.ts FileMeta), never the bytes.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { openStore } from './stores';
import { MAX_FILES_BYTES, whyNotAttach, type FileMeta } from '../core/files';

export interface StoredFile extends FileMeta { lastModified: number; bytes: Blob }

interface FilesDB extends DBSchema {
  files: { key: string; value: StoredFile[] };
}

/** The owner of files attached for the next run. */
export const STAGED = 'staged';

let dbp: Promise<IDBPDatabase<FilesDB>> | null = null;
function db(): Promise<IDBPDatabase<FilesDB>> {
  dbp ??= openStore<FilesDB>('files', (d) => { d.createObjectStore('files'); });
  return dbp;
}

export function metaOf(f: FileMeta): FileMeta {
  return { name: f.name, type: f.type, size: f.size };
}

/** Serialized, so two files attached at once do not overwrite each other. */
let chain: Promise<unknown> = Promise.resolve();
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const next = chain.then(fn);
  chain = next.catch(() => undefined);
  return next;
}

async function get(owner: string): Promise<StoredFile[]> {
  return (await (await db()).get('files', owner)) ?? [];
}

/** The files of `owner` (STAGED or a run id), without their bytes. */
export function listFiles(owner: string): Promise<FileMeta[]> {
  return serial(async () => (await get(owner)).map(metaOf));
}

/** Adds a file; throws the reason (for the person) when it would pass the cap. */
export function addFile(owner: string, f: Omit<StoredFile, 'size'>): Promise<FileMeta[]> {
  return serial(async () => {
    const have = await get(owner);
    const file = { ...f, size: f.bytes.size };
    const why = whyNotAttach(have, file, MAX_FILES_BYTES);
    if (why) throw new Error(why);
    const now = [...have, file];
    await (await db()).put('files', now, owner);
    return now.map(metaOf);
  });
}

/** Removes one file (by its place in the list), or all of them when `index` is undefined. */
export function removeFile(owner: string, index?: number): Promise<FileMeta[]> {
  return serial(async () => {
    const now = index === undefined ? [] : (await get(owner)).filter((_, i) => i !== index);
    await (await db()).put('files', now, owner);
    return now.map(metaOf);
  });
}

/** The staged files become the run's (the next run starts with none staged). */
export function claimStaged(runId: string): Promise<FileMeta[]> {
  return serial(async () => {
    const files = await get(STAGED);
    if (!files.length) return [];
    const tx = (await db()).transaction('files', 'readwrite');
    await Promise.all([tx.store.put(files, runId), tx.store.delete(STAGED), tx.done]);
    return files.map(metaOf);
  });
}

/** The run's files with their bytes. */
export function runFiles(runId: string): Promise<StoredFile[]> {
  return serial(() => get(runId));
}

/** The run ended: its files' bytes are not kept. */
export function dropRunFiles(runId: string): Promise<void> {
  return serial(async () => { await (await db()).delete('files', runId); });
}
