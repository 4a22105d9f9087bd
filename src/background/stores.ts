/**
 * The stores' versions at the worker's start (core/stores/versions.ts, docs/storage.md).
 *
 * - Each IndexedDB database opens through openStore: a database a newer build upgraded (IndexedDB
 *   refuses to open it at a lower version) or one that cannot be opened is refused with
 *   StoreRefused, and nothing is read or written.
 * - storeProblems lists every refused store for the side panel's notice, before anything opens
 *   them: the databases' versions as IndexedDB lists them (no database is opened, or created, to
 *   learn it), the settings' schema, and the databases that failed to open.
 * - updatedFrom: at the first start of a new version (an update or a downgrade), the version that
 *   ran before it (chrome.storage.local `installed` keeps the last version that started).
 */
import { openDB, type DBSchema, type IDBPDatabase, type OpenDBCallbacks } from 'idb';
import { openProblem, StoreRefused, versionProblem, type StoreName, type StoreProblem, STORE_VERSIONS } from '../core/stores/versions';
import { readStoredSettings } from '../core/stores/settings';

/** Each database's name. */
export const DB_NAMES = {
  runs: 'webagent',
  files: 'webagent-files',
  templates: 'webagent-templates',
  docs: 'webagent-docs',
} as const satisfies Record<Exclude<StoreName, 'settings'>, string>;

type DbStore = keyof typeof DB_NAMES;

/** Problems met opening a database, by store (the rest are found by storeProblems). */
const failed = new Map<StoreName, StoreProblem>();

/** A database at this build's version, upgraded by `upgrade`; StoreRefused when it cannot be. */
export function openStore<D extends DBSchema>(store: DbStore, upgrade: OpenDBCallbacks<D>['upgrade']): Promise<IDBPDatabase<D>> {
  return openDB<D>(DB_NAMES[store], STORE_VERSIONS[store], { upgrade }).catch((err: unknown) => {
    const problem = openProblem(store, err);
    failed.set(store, problem);
    throw new StoreRefused(problem);
  });
}

/** Every store this build refuses, and why. */
export async function storeProblems(): Promise<StoreProblem[]> {
  const out = new Map<StoreName, StoreProblem>(failed);
  const listed = await indexedDB.databases().catch(() => [] as IDBDatabaseInfo[]);
  for (const [store, name] of Object.entries(DB_NAMES) as Array<[DbStore, string]>) {
    const found = listed.find((d) => d.name === name)?.version;
    const p = versionProblem(store, found);
    if (p) out.set(store, p);
  }
  const raw = (await chrome.storage.local.get('settings').catch(() => ({} as Record<string, unknown>))).settings;
  const read = readStoredSettings(raw);
  if (!read.ok) out.set('settings', read.problem);
  return [...out.values()];
}

const INSTALLED = 'installed';

/**
 * Data and no `installed`: 0.1.0 kept it, the one release before versions were kept (its settings
 * have no schema, or it had runs). Asked before this version migrates or opens anything.
 */
async function keptBy010(): Promise<boolean> {
  const settings = (await chrome.storage.local.get('settings').catch(() => ({} as Record<string, unknown>))).settings as Record<string, unknown> | undefined;
  if (settings && typeof settings === 'object' && settings.schema === undefined) return true;
  const listed = await indexedDB.databases().catch(() => [] as IDBDatabaseInfo[]);
  return listed.some((d) => d.name === DB_NAMES.runs);
}
let updated: Promise<string | null> | null = null;

/**
 * The version that ran before this one when this worker is the new version's first (else null:
 * the same version as last time, or a first install). Read once per worker; this one is written.
 */
export function updatedFrom(): Promise<string | null> {
  updated ??= (async () => {
    const now = chrome.runtime.getManifest().version;
    const got = (await chrome.storage.local.get(INSTALLED).catch(() => ({} as Record<string, unknown>)))[INSTALLED] as { version?: unknown } | undefined;
    if (got?.version === now) return null;
    const before = typeof got?.version === 'string' ? got.version : await (async () => (await keptBy010()) ? '0.1.0' : null)();
    await chrome.storage.local.set({ [INSTALLED]: { version: now } }).catch(() => undefined);
    return before;
  })();
  return updated;
}
