/**
 * Every shape the extension keeps, with the version of the shape this build writes
 * (docs/storage.md has the table: where each lives, what each version changed).
 *
 * The IndexedDB databases carry their version as the database's own version; the settings in
 * chrome.storage.local carry it as their `schema` field. What lives in chrome.storage.session is
 * memory only and is gone after an update, so it has none.
 *
 * A store written by a newer build (a downgrade) or one this build cannot read is refused: the
 * build neither reads nor writes it, says so in the side panel, and leaves it as it is, so the
 * newer build finds it whole again.
 */

export const STORE_VERSIONS = {
  /** chrome.storage.local `settings`: endpoint, profiles, secrets, guard rules and allow-lists */
  settings: 1,
  /** IndexedDB `webagent`: runs, their steps, screenshots and the screenshots' sizes */
  runs: 4,
  /** IndexedDB `webagent-files`: files attached to a run */
  files: 1,
  /** IndexedDB `webagent-templates`: saved tasks */
  templates: 1,
  /** IndexedDB `webagent-docs`: Site notes */
  docs: 1,
} as const;

export type StoreName = keyof typeof STORE_VERSIONS;

export const STORE_NAMES = Object.keys(STORE_VERSIONS) as StoreName[];

/** Why a store is refused: written by a newer build, or not readable at all. */
export type StoreProblem =
  /** found: the newer shape's version when it can be read (IndexedDB does not say it) */
  | { store: StoreName; kind: 'newer'; found: number | null; current: number }
  | { store: StoreName; kind: 'unreadable'; detail: string };

/** The problem with a store found at `found` (undefined: nothing there yet), or null. */
export function versionProblem(store: StoreName, found: number | undefined): StoreProblem | null {
  const current = STORE_VERSIONS[store];
  if (found === undefined) return null;
  if (!Number.isInteger(found) || found < 0) return { store, kind: 'unreadable', detail: `version ${String(found)}` };
  if (found > current) return { store, kind: 'newer', found, current };
  return null;
}

/** The error a refused store's readers and writers get: nothing is read or written. */
export class StoreRefused extends Error {
  constructor(readonly problem: StoreProblem) {
    super(problem.kind === 'newer'
      ? `The ${problem.store} store was written by a newer version of the extension (${problem.found === null ? 'a newer shape' : `shape ${problem.found}`}; this version reads up to ${problem.current}). It is left untouched.`
      : `The ${problem.store} store cannot be read (${problem.detail}). It is left untouched.`);
    this.name = 'StoreRefused';
  }
}

/**
 * The problem IndexedDB's error on opening a database means: a VersionError is a database a newer
 * build upgraded; anything else is a database that cannot be read.
 */
export function openProblem(store: StoreName, err: unknown): StoreProblem {
  const name = (err as { name?: string } | null)?.name ?? '';
  if (name === 'VersionError') return { store, kind: 'newer', found: null, current: STORE_VERSIONS[store] };
  return { store, kind: 'unreadable', detail: err instanceof Error ? err.message : String(err) };
}
