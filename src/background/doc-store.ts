/**
 * Learned documentation of sites' controls (core/docs), in IndexedDB by site (origin).
 *
 * A database of its own, `webagent-docs` (version 1, store `entries`, key `id`, index `origin`),
 * like the attached files' (file-store.ts): apart from the runs' `webagent` database, so neither
 * schema's version waits for the other and clearing the history never touches what was learned.
 *
 * Every entry is masked (the person's secrets and any passwords the caller names: never typed text
 * in a note) and screened (matching.ts screenEntry: page instructions, and notes that tell the agent
 * how to behave, note-rules.ts) before it is written, by every way in: the model's notes (docSink),
 * the person's edits, imported files. A refused entry is not written and the caller gets the reason.
 * Entries stored before a rule was added stay stored (the panel shows them, with why they are held
 * back) but are screened again when read for the model (docsForPage, docSink.find) and never given.
 * Writes go through one chain so a refinement read and written back never loses another written
 * meanwhile.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { DB_NAMES, openStore } from './stores';
import { STORE_VERSIONS } from '../core/stores/versions';
import { docOrigin, findEntry, MAX_DOC_CHARS, maskEntry, matchDocs, screenEntry, upsertEntry } from '../core/docs/matching';
import { toDocsFile, type DocsFile, type Refused } from '../core/docs/file';
import { DOC_ACTIONS, DOC_USE_KEYS, type DocAction, type DocEntry, type ScreenDoc } from '../core/docs/types';
import type { Fingerprint, Mark } from '../core/marks';
import type { Translate } from '../core/i18n';
import { english } from '../core/locales';
import { loadSettings } from './settings-store';

interface DocsDB extends DBSchema {
  entries: { key: string; value: DocEntry; indexes: { origin: string } };
}

export const DOCS_DB_NAME = DB_NAMES.docs;
export const DOCS_DB_VERSION = STORE_VERSIONS.docs;

let dbp: Promise<IDBPDatabase<DocsDB>> | null = null;
function db(): Promise<IDBPDatabase<DocsDB>> {
  dbp ??= openStore<DocsDB>('docs', (d, oldVersion) => {
    if (oldVersion < 1) d.createObjectStore('entries', { keyPath: 'id' }).createIndex('origin', 'origin');
  });
  return dbp;
}

let chain: Promise<unknown> = Promise.resolve();
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const next = chain.then(fn);
  chain = next.catch(() => undefined);
  return next;
}

/** What a stored entry must not contain: the person's secrets, and the passwords the caller names. */
async function secretValues(extra: string[]): Promise<string[]> {
  const { secrets } = await loadSettings();
  return [...extra, ...secrets.map((s) => s.value)];
}

export class DocRefused extends Error {}

/** Masked, then screened: the entry as it may be stored, or DocRefused with the reason. */
async function clean(entry: DocEntry, secrets: string[], t: Translate): Promise<DocEntry> {
  const masked = maskEntry(entry, await secretValues(secrets));
  const why = screenEntry(masked, t);
  if (why) throw new DocRefused(why);
  return masked;
}

/** A site's entries, newest first. */
export async function listEntries(origin: string): Promise<DocEntry[]> {
  const all = await (await db()).getAllFromIndex('entries', 'origin', origin);
  return all.sort((a, b) => b.updatedAt - a.updatedAt);
}

/** Every site with entries, and how many, by name. */
export async function listOrigins(): Promise<Array<{ origin: string; count: number }>> {
  const counts = new Map<string, number>();
  let cursor = await (await db()).transaction('entries').store.index('origin').openKeyCursor();
  while (cursor) {
    counts.set(cursor.key, (counts.get(cursor.key) ?? 0) + 1);
    cursor = await cursor.continue();
  }
  return [...counts].map(([origin, count]) => ({ origin, count })).sort((a, b) => a.origin.localeCompare(b.origin));
}

/**
 * One action's documentation of an element written (found by fingerprint: a refinement replaces
 * that action's text), masked and screened. `secrets`: passwords typed in the run that wrote it.
 */
export function writeDoc(
  origin: string, fingerprint: Fingerprint, action: DocAction, text: string, source: DocEntry['source'],
  secrets: string[] = [], t: Translate = english,
): Promise<DocEntry> {
  return serial(async () => {
    const { entry } = upsertEntry(await listEntries(origin), origin, fingerprint, action, text, source, Date.now());
    const stored = await clean(entry, secrets, t);
    await (await db()).put('entries', stored);
    return stored;
  });
}

/**
 * The person's edit of an entry: its texts replaced by `docs` (an empty text removes that action);
 * with no `id`, the element's entry found by fingerprint, or a new one.
 */
export function editEntry(
  req: { id?: string; origin: string; fingerprint: Fingerprint; docs: Partial<Record<DocAction, string>> }, t: Translate = english,
): Promise<DocEntry> {
  return serial(async () => {
    const origin = docOrigin(req.origin);
    if (!origin) throw new DocRefused(t('docBadOrigin'));
    const d = await db();
    const old = req.id ? await d.get('entries', req.id) : findEntry(await listEntries(origin), origin, req.fingerprint);
    if (req.id && !old) throw new DocRefused(t('docNotFound'));
    const docs: Partial<Record<DocAction, string>> = {};
    for (const a of DOC_ACTIONS) {
      const v: unknown = req.docs?.[a];
      if (typeof v !== 'string' || !v.trim()) continue;
      if (v.length > MAX_DOC_CHARS) throw new DocRefused(t('docTooLong', t(DOC_USE_KEYS[a]), MAX_DOC_CHARS));
      docs[a] = v.trim();
    }
    if (!Object.keys(docs).length) throw new DocRefused(t('docNoText'));
    const entry: DocEntry = {
      id: old?.id ?? crypto.randomUUID(), origin: old?.origin ?? origin, fingerprint: old?.fingerprint ?? req.fingerprint,
      docs, source: 'edit', updatedAt: Date.now(),
      ...(old?.importedFrom ? { importedFrom: old.importedFrom } : {}), // where it first came from stays known
    };
    const stored = await clean(entry, [], t);
    await d.put('entries', stored);
    return stored;
  });
}

export function deleteEntry(id: string): Promise<void> {
  return serial(async () => { await (await db()).delete('entries', id); });
}

/**
 * Entries read from a file (core/docs/file.ts, already screened there) merged into the store: an
 * element already documented gets the file's texts for the actions the file has (the rest kept),
 * others are added. Screened again here, after masking, like every write. Each keeps the name of
 * the file it came from (importedFrom, set by readDocsFile), replacing an earlier import's.
 */
export function importEntries(entries: DocEntry[], t: Translate = english): Promise<{ added: number; updated: number; refused: Refused[] }> {
  return serial(async () => {
    const d = await db();
    let added = 0;
    let updated = 0;
    const refused: Refused[] = [];
    const byOrigin = new Map<string, DocEntry[]>();
    for (const [i, e] of entries.entries()) {
      const have = byOrigin.get(e.origin) ?? (await listEntries(e.origin));
      const old = findEntry(have, e.origin, e.fingerprint);
      let merged = e;
      if (old) {
        // the file it came from is this import's now (none when the caller did not name the file)
        const { importedFrom: _earlier, ...kept } = old;
        merged = {
          ...kept, docs: { ...old.docs, ...e.docs }, source: 'import', updatedAt: Math.max(old.updatedAt, e.updatedAt),
          ...(e.importedFrom ? { importedFrom: e.importedFrom } : {}),
        };
      }
      try {
        const stored = await clean(merged, [], t);
        await d.put('entries', stored);
        byOrigin.set(e.origin, old ? have.map((x) => (x === old ? stored : x)) : [...have, stored]);
        if (old) updated++;
        else added++;
      } catch (err) {
        refused.push({ entry: i + 1, reason: err instanceof Error ? err.message : String(err) });
        byOrigin.set(e.origin, have);
      }
    }
    return { added, updated, refused };
  });
}

/** A site's entries as a file to share (the person's secrets scrubbed once more). */
export async function exportOrigin(origin: string): Promise<DocsFile> {
  const secrets = await secretValues([]);
  return toDocsFile((await listEntries(origin)).map((e) => maskEntry(e, secrets)), Date.now(), origin);
}

/** The documentation of the elements on screen of a page of `origin` (entries that fail screening left out: matchDocs). */
export async function docsForPage(origin: string, marks: Mark[]): Promise<ScreenDoc[]> {
  const entries = await listEntries(origin);
  return entries.length ? matchDocs(entries, marks) : [];
}

/**
 * What an exploring or demonstrated run reads and writes through (background/explore.ts DocSink):
 * the entry's text for one use of an element, and writing it (refused: why, for the model's note).
 * `typed`: passwords the run typed, masked out of what is stored.
 */
export function docSink(source: DocEntry['source'] = 'explore', typed: () => string[] = () => []) {
  return {
    /** The text to refine: none when it fails screening today (a note stored before a rule was added), so the model never reads it. */
    async find(origin: string, fingerprint: Fingerprint, kind: DocAction): Promise<string | null> {
      const entry = findEntry(await listEntries(origin), origin, fingerprint);
      const text = entry?.docs[kind];
      if (!entry || !text) return null;
      return screenEntry({ ...entry, docs: { [kind]: text } }) ? null : text;
    },
    async put(origin: string, fingerprint: Fingerprint, kind: DocAction, text: string): Promise<{ ok: true } | { ok: false; reason: string }> {
      try {
        await writeDoc(origin, fingerprint, kind, text, source, typed());
        return { ok: true };
      } catch (err) {
        if (err instanceof DocRefused) return { ok: false, reason: err.message };
        throw err;
      }
    },
  };
}
