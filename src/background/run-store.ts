/**
 * Runs in IndexedDB (idb). Writes go through one serialized chain so a
 * later state never lands before an earlier one.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { RunState } from '../core/run';

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

export function saveRun(state: RunState): Promise<void> {
  const next = chain.then(async () => { await (await db()).put('runs', state); });
  chain = next.catch(() => undefined);
  return next;
}

export async function loadRun(id: string): Promise<RunState | undefined> {
  await chain;
  return (await db()).get('runs', id);
}

/** The most recently started run. */
export async function latestRun(): Promise<RunState | undefined> {
  await chain;
  const cursor = await (await db()).transaction('runs').store.index('startedAt').openCursor(null, 'prev');
  return cursor?.value;
}
