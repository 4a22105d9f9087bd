/**
 * Runs in IndexedDB (idb), written after every transition so that a worker Chrome stops picks the
 * run up where it was. Writes go through one serialized chain so a later state never lands before
 * an earlier one. Text for a password field never reaches the database: while its action is
 * pending it is kept in chrome.storage.session (memory only, survives worker restarts).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { joinSecret, splitSecret, type RunState } from '../core/run';

interface AgentDB extends DBSchema {
  runs: { key: string; value: RunState; indexes: { startedAt: number } };
}

const DB_NAME = 'webagent';
const DB_VERSION = 1;

let dbp: Promise<IDBPDatabase<AgentDB>> | null = null;
function db(): Promise<IDBPDatabase<AgentDB>> {
  dbp ??= openDB<AgentDB>(DB_NAME, DB_VERSION, {
    upgrade(d) {
      const runs = d.createObjectStore('runs', { keyPath: 'id' });
      runs.createIndex('startedAt', 'startedAt');
    },
  });
  return dbp;
}

let chain: Promise<unknown> = Promise.resolve();

const secretKey = (id: string) => `secret:${id}`;
/** runs whose secret is in session storage (to remove it once the action is done) */
const withSecret = new Set<string>();

export function saveRun(state: RunState): Promise<void> {
  const { state: stored, secret } = splitSecret(state);
  const next = chain.then(async () => {
    if (secret !== null) {
      await chrome.storage.session.set({ [secretKey(state.id)]: secret });
      withSecret.add(state.id);
    } else if (withSecret.delete(state.id)) {
      await chrome.storage.session.remove(secretKey(state.id));
    }
    await (await db()).put('runs', stored);
  });
  chain = next.catch(() => undefined);
  return next;
}

async function withSecretRestored(state: RunState | undefined): Promise<RunState | undefined> {
  if (!state?.pending?.reply?.secret) return state;
  const got = await chrome.storage.session.get(secretKey(state.id)).catch(() => ({} as Record<string, unknown>));
  const secret = typeof got[secretKey(state.id)] === 'string' ? (got[secretKey(state.id)] as string) : null;
  if (secret !== null) withSecret.add(state.id);
  return joinSecret(state, secret);
}

export async function loadRun(id: string): Promise<RunState | undefined> {
  await chain;
  return withSecretRestored(await (await db()).get('runs', id));
}

/** The most recently started run. */
export async function latestRun(): Promise<RunState | undefined> {
  await chain;
  const cursor = await (await db()).transaction('runs').store.index('startedAt').openCursor(null, 'prev');
  return withSecretRestored(cursor?.value);
}

/**
 * Per-run settings given at start (the runner's flags, its API key included), in memory-only
 * storage. Written for every run, so its absence after a worker restart means the browser (or the
 * extension) restarted, which ends the run: tab ids are reused after a browser restart.
 */
export async function saveRunConfig(id: string, config: object): Promise<void> {
  await chrome.storage.session.set({ [`config:${id}`]: config });
}

/** null: the browser or the extension restarted since the run started. */
export async function loadRunConfig(id: string): Promise<Record<string, unknown> | null> {
  const got = await chrome.storage.session.get(`config:${id}`).catch(() => ({} as Record<string, unknown>));
  const v = got[`config:${id}`];
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
}
