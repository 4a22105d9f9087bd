/**
 * The file a site's learned documentation is exported to and imported from, so a team can share
 * what was learned (format `webagent-docs`, version 1; docs/learned-docs.md describes it field by
 * field). Pure.
 *
 * The reader is tolerant: it never throws, keeps every entry it can use and says, entry by entry,
 * what it refused and why (a bad shape, a non-web origin, page instructions in the text). A file
 * comes from someone else, so every entry is screened exactly as one the model wrote (matching.ts).
 */
import { dropInvisible } from '../fold-text';
import type { Translate } from '../i18n';
import { english } from '../locales';
import { docOrigin, MAX_DOC_CHARS, newDocId, screenEntry } from './matching';
import { DOC_ACTIONS, DOC_USE_KEYS, type DocAction, type DocEntry } from './types';

export const DOCS_FORMAT = 'webagent-docs';
export const DOCS_VERSION = 1;
/** More entries than any one site needs: a bigger file is refused whole rather than half read. */
export const MAX_FILE_ENTRIES = 5000;
const MAX_TAG_CHARS = 40;
const MAX_TEXT_CHARS = 1000;
const MAX_PATH_CHARS = 4000;

/** One entry as the file keeps it (the store's DocEntry without its local id and source). */
export interface DocFileEntry {
  origin: string;
  fingerprint: { tag: string; text: string; path: string };
  docs: Partial<Record<DocAction, string>>;
  /** ms since the epoch */
  updatedAt: number;
}

export interface DocsFile {
  format: typeof DOCS_FORMAT;
  version: typeof DOCS_VERSION;
  /** the site the file was exported for (absent: entries of several sites) */
  origin?: string;
  /** when it was exported, ms since the epoch */
  exportedAt: number;
  entries: DocFileEntry[];
}

/** The file for these entries (already masked by the caller). */
export function toDocsFile(entries: DocEntry[], now: number, origin?: string): DocsFile {
  return {
    format: DOCS_FORMAT, version: DOCS_VERSION, ...(origin ? { origin } : {}), exportedAt: now,
    entries: entries.map((e) => ({ origin: e.origin, fingerprint: { ...e.fingerprint }, docs: { ...e.docs }, updatedAt: e.updatedAt })),
  };
}

/** A kept file name is cut here. */
export const MAX_FILE_NAME_CHARS = 200;

/**
 * The name an imported file is remembered by (DocEntry.importedFrom), or undefined: its last part
 * only (no folders), without control or hidden characters (no bidi overrides that would show it
 * reversed), spaces collapsed, at most MAX_FILE_NAME_CHARS. It is page-independent data, shown as
 * text, never as HTML.
 */
export function importName(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = dropInvisible(base).replace(/\s+/g, ' ').replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return Array.from(clean).slice(0, MAX_FILE_NAME_CHARS).join('') || undefined;
}

/** An entry the reader did not take: its place in the file (1-based) and why, in the person's words. */
export interface Refused { entry: number; reason: string }

export type ReadDocs =
  | { ok: true; origin: string | null; entries: DocEntry[]; refused: Refused[] }
  | { ok: false; error: string };

function isObject(x: unknown): x is Record<string, unknown> {
  return !!x && typeof x === 'object' && !Array.isArray(x);
}

/** One entry of the file as a DocEntry (source "import", `from`: the file's name), or why not. */
function readEntry(x: unknown, fileOrigin: string | null, now: number, t: Translate, from?: string): DocEntry | string {
  if (!isObject(x)) return t('docBadEntry');
  const origin = typeof x.origin === 'string' ? docOrigin(x.origin) : fileOrigin;
  if (!origin) return t('docBadOrigin');
  const fp = x.fingerprint;
  if (!isObject(fp) || typeof fp.tag !== 'string' || typeof fp.text !== 'string' || typeof fp.path !== 'string') return t('docBadFingerprint');
  if (!/^[a-z][a-z0-9-]*$/.test(fp.tag) || fp.tag.length > MAX_TAG_CHARS || fp.text.length > MAX_TEXT_CHARS || fp.path.length > MAX_PATH_CHARS) return t('docBadFingerprint');
  if (!isObject(x.docs)) return t('docNoText');
  const docs: Partial<Record<DocAction, string>> = {};
  for (const a of DOC_ACTIONS) {
    const v = x.docs[a];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') return t('docBadText', a);
    if (v.length > MAX_DOC_CHARS) return t('docTooLong', t(DOC_USE_KEYS[a]), MAX_DOC_CHARS);
    if (v.trim()) docs[a] = v.trim();
  }
  if (!Object.keys(docs).length) return t('docNoText');
  const updatedAt = typeof x.updatedAt === 'number' && Number.isFinite(x.updatedAt) && x.updatedAt > 0 ? Math.min(x.updatedAt, now) : now;
  const entry: DocEntry = {
    id: newDocId(now), origin, fingerprint: { tag: fp.tag, text: fp.text, path: fp.path }, docs, source: 'import', updatedAt,
    ...(from ? { importedFrom: from } : {}),
  };
  return screenEntry(entry, t) ?? entry;
}

/**
 * The entries of a documentation file (its JSON text or already parsed), those refused with why; or
 * why the whole file cannot be read. `only`: take only entries of this origin (the others refused).
 * `fileName`: the file's name as the person chose it, kept on every entry (importedFrom, cleaned by
 * importName); an `importedFrom` inside the file is ignored, a file does not say where it came from.
 */
export function readDocsFile(input: unknown, now: number, t: Translate = english, only?: string, fileName?: string): ReadDocs {
  let json = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input);
    } catch (err) {
      return { ok: false, error: t('docFileNotJson', err instanceof Error ? err.message : String(err)) };
    }
  }
  if (!isObject(json) || json.format !== DOCS_FORMAT) return { ok: false, error: t('docFileNotDocs') };
  if (json.version !== DOCS_VERSION) return { ok: false, error: t('docFileVersion', JSON.stringify(json.version ?? null).slice(0, 20), DOCS_VERSION) };
  if (!Array.isArray(json.entries)) return { ok: false, error: t('docFileNoEntries') };
  if (json.entries.length > MAX_FILE_ENTRIES) return { ok: false, error: t('docFileTooMany', json.entries.length, MAX_FILE_ENTRIES) };
  const origin = typeof json.origin === 'string' ? docOrigin(json.origin) : null;
  const entries: DocEntry[] = [];
  const refused: Refused[] = [];
  const from = importName(fileName);
  json.entries.forEach((x, i) => {
    const r = readEntry(x, origin, now, t, from);
    if (typeof r === 'string') refused.push({ entry: i + 1, reason: r });
    else if (only && r.origin !== only) refused.push({ entry: i + 1, reason: t('docOtherSite', r.origin, only) });
    else entries.push(r);
  });
  return { ok: true, origin, entries, refused };
}
