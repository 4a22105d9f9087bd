/**
 * Runs in IndexedDB (idb), schema version 4 (core/stores/versions.ts), written after every transition so that a worker
 * Chrome stops picks the run up where it was:
 *
 * - runs:  the run (RunState without its finished steps) plus a summary for the history list;
 * - steps: each finished step, key [runId, index], written once, without its screenshots;
 * - shots: the step's screenshots as Blobs, key [runId, index, 'labelled' | 'clean'], and the
 *   model's screenshot of the step in progress, [runId, index, 'model'];
 * - sizes: each picture's size in bytes, by the same key (how much room a run takes, and what the
 *   oldest runs free when the quota is near: core/stores/prune.ts, docs/storage.md).
 *
 * Each picture is written once: the step in progress keeps its pictures in `shots` as soon as it
 * has them (the run record keeps '' in their place, filled in again by loadRun), and a finished
 * step's pictures already written are not written again. So the run record written at every
 * transition stays a few kB, and a step's writes do not depend on the run's length.
 *
 * A step, its screenshots and the run record that counts it go in one transaction: when the
 * browser's quota is full nothing is half-written (StorageFullError says so). Writes go through
 * one serialized chain so a later state never lands before an earlier one.
 *
 * The versions and their migrations: core/stores/runs.ts (pure); the upgrade below walks the
 * stores and writes what they return, in the one versionchange transaction (all or nothing).
 *
 * Text for a password field never reaches the database: while its action is pending it is kept
 * in chrome.storage.session (memory only, survives worker restarts). So is the run's vault (the
 * person's secrets and the passwords it typed, core/secrets/index.ts); when a password joins it, the
 * finished steps (masked by the run core) are written again.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { joinSecret, splitSecret, upgradeRun, type RunState, type StepRecord } from '../core/run';
import { runSummary, type RunSummary } from '../core/trace/history';
import { bytesToDataUrl, dataUrlToBytes } from '../core/export/data-url';
import { recordV2ToV3, splitRunV1, stepV2ToV3, toRecord, type RunRecord } from '../core/stores/runs';
import { bytesToFree, runsBefore, runsToPrune, type Pruned, type RunRoom } from '../core/stores/prune';
import { STORE_VERSIONS } from '../core/stores/versions';
import { DB_NAMES, openStore } from './stores';
import type { Vault } from '../core/secrets';

export type ShotKind = 'labelled' | 'clean';
/** the model's screenshot of the step in progress (its kept pictures are the step's 'labelled' and 'clean') */
type StoredKind = ShotKind | 'model';


interface AgentDB extends DBSchema {
  runs: { key: string; value: RunRecord; indexes: { startedAt: number } };
  steps: { key: [string, number]; value: StepRecord & { runId: string } };
  shots: { key: ShotKey; value: Blob };
  /** each picture's size in bytes, by the same key: room is measured without reading the pictures (version 4) */
  sizes: { key: ShotKey; value: number };
}

type ShotKey = [string, number, StoredKind];

export const DB_NAME = DB_NAMES.runs;
export const DB_VERSION = STORE_VERSIONS.runs;

export class StorageFullError extends Error {
  constructor() {
    super('The browser\'s storage for this extension is full, even with the screenshots of every older run removed, so the run was stopped after its last complete step. Delete old runs in History, or clear old ones in Settings (Storage), to make room.');
  }
}

type UpgradeTx = IDBPTransaction<AgentDB, StoreNames<AgentDB>[], 'versionchange'>;

/** Version 1 -> 2: steps and screenshots out of the run records (only IDB calls: the transaction must stay alive). */
async function upgradeFrom1(tx: UpgradeTx): Promise<void> {
  const runs = tx.objectStore('runs');
  let cursor = await runs.openCursor();
  while (cursor) {
    const { record, steps } = splitRunV1(cursor.value as unknown as RunState);
    for (const s of steps) await putStep(tx.objectStore('steps'), shotStores(tx), record.id, s);
    await cursor.update(record);
    cursor = await cursor.continue();
  }
}

/** Version 2 -> 3: every stored action into the shared Action model (core/stores/runs.ts). */
async function upgradeFrom2(tx: UpgradeTx): Promise<void> {
  let steps = await tx.objectStore('steps').openCursor();
  while (steps) {
    if (steps.value.action) await steps.update(stepV2ToV3(steps.value));
    steps = await steps.continue();
  }
  let runs = await tx.objectStore('runs').openCursor();
  while (runs) {
    await runs.update(recordV2ToV3(runs.value));
    runs = await runs.continue();
  }
}

/** Version 3 -> 4: each kept picture's size into `sizes` (read once here, never again to measure room). */
async function upgradeFrom3(tx: UpgradeTx): Promise<void> {
  let cursor = await tx.objectStore('shots').openCursor();
  while (cursor) {
    await tx.objectStore('sizes').put(cursor.value.size, cursor.key);
    cursor = await cursor.continue();
  }
}

let dbp: Promise<IDBPDatabase<AgentDB>> | null = null;
/**
 * The database, upgraded to this build's version; StoreRefused when a newer build upgraded it
 * (IndexedDB refuses to open it at a lower version, and nothing is read or written) or it cannot
 * be opened at all.
 */
export function db(): Promise<IDBPDatabase<AgentDB>> {
  dbp ??= openStore<AgentDB>('runs', async (d, oldVersion, _new, tx) => {
    if (oldVersion < 1) d.createObjectStore('runs', { keyPath: 'id' }).createIndex('startedAt', 'startedAt');
    if (oldVersion < 4) d.createObjectStore('sizes');
    if (oldVersion < 2) {
      d.createObjectStore('steps');
      d.createObjectStore('shots');
      if (oldVersion === 1) await upgradeFrom1(tx);
    }
    if (oldVersion >= 1 && oldVersion < 3) await upgradeFrom2(tx);
    if (oldVersion >= 2 && oldVersion < 4) await upgradeFrom3(tx);
  });
  return dbp;
}

type StepStore = { put(v: StepRecord & { runId: string }, k: [string, number]): Promise<unknown> };
/** The pictures and their sizes, written and deleted together. */
interface ShotStores {
  shots: { put(v: Blob, k: ShotKey): Promise<unknown>; delete(k: ShotKey | IDBKeyRange): Promise<unknown> };
  sizes: { put(v: number, k: ShotKey): Promise<unknown>; delete(k: ShotKey | IDBKeyRange): Promise<unknown> };
}

function shotStores(tx: { objectStore(name: 'shots'): unknown; objectStore(name: 'sizes'): unknown }): ShotStores {
  return { shots: tx.objectStore('shots'), sizes: tx.objectStore('sizes') } as ShotStores;
}

function blobOf(dataUrl: string): Blob | null {
  const b = dataUrlToBytes(dataUrl);
  return b ? new Blob([b.bytes as Uint8Array<ArrayBuffer>], { type: b.mime }) : null;
}

/** per run, the pictures written, by `${index}:${kind}` (the data URL, compared by reference first): each is written once */
const written = new Map<string, Map<string, string>>();

/** A picture into `shots` (its size into `sizes`) unless this very one is there already. */
async function putShot(st: ShotStores, runId: string, index: number, kind: StoredKind, dataUrl: string): Promise<void> {
  const mine = written.get(runId) ?? new Map<string, string>();
  written.set(runId, mine);
  const key = `${index}:${kind}`;
  if (!dataUrl || mine.get(key) === dataUrl) return;
  const blob = blobOf(dataUrl);
  if (blob) {
    await st.shots.put(blob, [runId, index, kind]);
    await st.sizes.put(blob.size, [runId, index, kind]);
  }
  mine.set(key, dataUrl);
}

/** Finished steps before the last one are not written again but all at once (a password typed): their entries go. */
function forgetWritten(runId: string, finished: number): void {
  const mine = written.get(runId);
  if (!mine) return;
  for (const key of mine.keys()) if (Number(key.split(':')[0]) < finished - 1) mine.delete(key);
}

async function putStep(steps: StepStore, st: ShotStores, runId: string, s: StepRecord): Promise<void> {
  await putShot(st, runId, s.index, 'labelled', s.screenshot);
  await putShot(st, runId, s.index, 'clean', s.cleanScreenshot ?? '');
  await steps.put({ ...s, runId, screenshot: '', cleanScreenshot: '' }, [runId, s.index]);
}

/** A stored picture as a data URL (`mime` when the Blob has no type), or null. */
async function dataUrlOf(blob: Blob | undefined, mime: string): Promise<string | null> {
  return blob ? bytesToDataUrl(blob.type || mime, new Uint8Array(await blob.arrayBuffer())) : null;
}

/** The step in progress's pictures into `shots` (once each); the run record keeps '' in their place. */
async function putPending(st: ShotStores, runId: string, p: RunState['pending']): Promise<RunState['pending']> {
  if (!p) return p;
  await putShot(st, runId, p.index, 'model', p.screenshot);
  if (p.kept) {
    await putShot(st, runId, p.index, 'labelled', p.kept.labelled);
    await putShot(st, runId, p.index, 'clean', p.kept.clean);
  }
  return { ...p, screenshot: '', ...(p.kept ? { kept: { labelled: '', clean: '' } } : {}) };
}

/** The step in progress's pictures read back (a record written before they were kept apart has them inline). */
async function withPendingShots(d: IDBPDatabase<AgentDB>, runId: string, p: RunState['pending']): Promise<RunState['pending']> {
  if (!p || p.screenshot) return p;
  const read = async (kind: StoredKind) => (await dataUrlOf(await d.get('shots', [runId, p.index, kind]), 'image/png')) ?? '';
  const kept = p.kept && !p.kept.labelled && !p.kept.clean ? { labelled: await read('labelled'), clean: await read('clean') } : p.kept;
  return { ...p, screenshot: await read('model'), ...(kept ? { kept } : {}) };
}

let chain: Promise<unknown> = Promise.resolve();
/** steps of each run already in the database */
const stored = new Map<string, number>();
/** per run: the observation of the last step written (a finished step's observation may change once: core/run/unchanged.ts) */
const lastSaid = new Map<string, string>();
const secretKey = (id: string) => `secret:${id}`;
/** runs whose secret is in session storage (to remove it once the action is done) */
const withSecret = new Set<string>();
const vaultKey = (id: string) => `vault:${id}`;
/** the vault last written to session storage, by run (JSON), so it is written only when it changes */
const vaults = new Map<string, string>();

function isQuota(err: unknown): boolean {
  const name = (err as { name?: string })?.name ?? '';
  return name === 'QuotaExceededError' || /quota/i.test(String(err));
}

export function saveRun(state: RunState): Promise<void> {
  const { state: safe, secret, vault } = splitSecret(state);
  const vaultJson = vault ? JSON.stringify(vault) : null;
  const next = chain.then(async () => {
    let from = stored.get(state.id) ?? 0;
    const before = vaults.get(state.id);
    if (vaultJson !== null && vaultJson !== before) {
      await chrome.storage.session.set({ [vaultKey(state.id)]: vault });
      vaults.set(state.id, vaultJson);
      // A password joined the vault: the finished steps, masked again, are written again.
      const typedBefore = before === undefined ? 0 : (JSON.parse(before) as Vault).typed.length;
      if (typedBefore !== vault!.typed.length) from = 0;
    }
    // the last step written learned afterwards that its action changed nothing: written again
    if (from > 0 && from <= safe.steps.length && lastSaid.get(state.id) !== safe.steps[from - 1].observation) from -= 1;
    if (secret !== null) {
      await chrome.storage.session.set({ [secretKey(state.id)]: secret });
      withSecret.add(state.id);
    } else if (withSecret.delete(state.id)) {
      await chrome.storage.session.remove(secretKey(state.id));
    }
    // A full quota: the oldest runs' screenshots make room, one run at a time, and the write is
    // tried again (core/stores/prune.ts); with nothing left to remove, StorageFullError.
    for (;;) {
      try {
        await writeSave(safe, from);
        break;
      } catch (err) {
        if (!isQuota(err)) throw err;
        if (!(await makeRoom(1, state.id).catch(() => null))) throw new StorageFullError();
      }
    }
    stored.set(state.id, safe.steps.length);
    forgetWritten(state.id, safe.steps.length);
    const last = safe.steps.at(-1);
    if (last) lastSaid.set(state.id, last.observation);
    // near the quota the browser states: room made before a write fails, asked only when a
    // finished step (and its pictures) was written, not at every transition of the run
    if (from < safe.steps.length) {
      const est = await (globalThis.navigator?.storage?.estimate() ?? Promise.resolve(null)).catch(() => null);
      const need = bytesToFree(est?.usage ?? null, est?.quota ?? null);
      if (need > 0) await makeRoom(need, state.id).catch((err: unknown) => console.warn('making room failed', err));
    }
  });
  chain = next.catch(() => undefined);
  return next;
}

/** A save's steps, pictures and run record in one transaction (all or nothing). */
async function writeSave(safe: RunState, from: number): Promise<void> {
  const tx = (await db()).transaction(['runs', 'steps', 'shots', 'sizes'], 'readwrite');
  const st = shotStores(tx);
  try {
    for (const s of safe.steps.slice(from)) {
      await putStep(tx.objectStore('steps'), st, safe.id, s);
      // the model's picture was the step in progress's only
      if (s.index >= (stored.get(safe.id) ?? 0)) {
        await st.shots.delete([safe.id, s.index, 'model']);
        await st.sizes.delete([safe.id, s.index, 'model']);
      }
    }
    const pending = await putPending(st, safe.id, safe.pending);
    await tx.objectStore('runs').put(toRecord({ ...safe, pending }));
    await tx.done;
  } catch (err) {
    tx.done.catch(() => undefined); // aborted below: its rejection is expected
    written.delete(safe.id); // what this transaction wrote is gone with it
    try { tx.abort(); } catch { /* already finished */ }
    throw err;
  }
}

const shotRange = (id: string) => IDBKeyRange.bound([id, -Infinity, ''], [id, Infinity, '\uffff']);

/** Every run as the room planner sees it: when it started, whether it goes on, its screenshots' bytes. */
async function roomOf(keep: string | null): Promise<Array<RunRoom & { shots: number }>> {
  const d = await db();
  const bytes = new Map<string, { bytes: number; shots: number }>();
  // sizes, never the pictures: a picture read keeps its bytes on disk until the reader lets it go
  let cursor = await d.transaction('sizes').store.openCursor();
  while (cursor) {
    const id = cursor.key[0];
    const b = bytes.get(id) ?? { bytes: 0, shots: 0 };
    b.bytes += cursor.value;
    b.shots += 1;
    bytes.set(id, b);
    cursor = await cursor.continue();
  }
  return (await d.getAll('runs')).map((r) => ({
    id: r.id, startedAt: r.startedAt, active: r.status === 'running' || r.id === keep,
    shotBytes: bytes.get(r.id)?.bytes ?? 0, shots: bytes.get(r.id)?.shots ?? 0,
  }));
}

/**
 * Removes these runs' screenshots, then counts them in the runs' records. Two transactions: the
 * browser refuses a transaction that writes anything while its quota is full, even one that frees
 * more than it writes, so the removal holds no write.
 */
async function removeShots(ids: string[]): Promise<Pruned> {
  const room = new Map((await roomOf(null)).map((r) => [r.id, r]));
  const out: Pruned = { at: Date.now(), runs: 0, shots: 0, bytes: 0 };
  const gone = ids.map((id) => room.get(id)).filter((r): r is NonNullable<typeof r> => !!r && r.shots > 0);
  if (!gone.length) return out;
  const d = await db();
  const tx = d.transaction(['shots', 'sizes'], 'readwrite');
  await Promise.all([...gone.flatMap((r) => [tx.objectStore('shots').delete(shotRange(r.id)), tx.objectStore('sizes').delete(shotRange(r.id))]), tx.done]);
  for (const r of gone) {
    written.delete(r.id);
    out.runs += 1;
    out.shots += r.shots;
    out.bytes += r.shotBytes;
  }
  try {
    const runs = d.transaction('runs', 'readwrite');
    for (const r of gone) {
      const rec = await runs.store.get(r.id);
      if (!rec) continue;
      const shotsRemoved = (rec.shotsRemoved ?? 0) + r.shots;
      await runs.store.put({ ...rec, shotsRemoved, summary: { ...rec.summary, shotsRemoved } });
    }
    await runs.done;
  } catch (err) {
    console.warn('the runs whose screenshots were removed could not be marked', err);
  }
  return out;
}

const PRUNED = 'pruned';

/**
 * Room for `need` bytes: the oldest runs' screenshots removed (never those of `keep`, the run
 * being saved, or of a run going on), the person told (History reads `pruned`). null: nothing to remove.
 */
async function makeRoom(need: number, keep: string): Promise<Pruned | null> {
  const ids = runsToPrune(await roomOf(keep), need);
  if (!ids.length) return null;
  const done = await removeShots(ids);
  if (!done.runs) return null;
  try {
    await chrome.storage.local.set({ [PRUNED]: done });
  } catch { /* the removal stands; only the notice is lost */ }
  console.warn(`storage nearly full: removed the screenshots of ${done.runs} oldest run(s), ${done.bytes} bytes`);
  return done;
}

/** The last time screenshots were removed to make room, or null. */
export async function lastPruned(): Promise<Pruned | null> {
  try {
    const got = (await chrome.storage.local.get(PRUNED))[PRUNED] as Pruned | undefined;
    return got && typeof got.at === 'number' ? got : null;
  } catch {
    return null;
  }
}

/** What the runs use: how many, their screenshots' bytes (the Settings' Storage line). */
export async function runsUsage(): Promise<{ runs: number; shots: number; shotBytes: number }> {
  await chain;
  const room = await roomOf(null);
  return { runs: room.length, shots: room.reduce((n, r) => n + r.shots, 0), shotBytes: room.reduce((n, r) => n + r.shotBytes, 0) };
}

/**
 * What the person cleared: finished runs started before `before` (ms), their screenshots or the
 * runs themselves. Runs going on are never touched.
 */
export async function clearOld(before: number, what: 'screenshots' | 'runs'): Promise<{ runs: number; bytes: number }> {
  await chain;
  const room = await roomOf(null);
  const ids = runsBefore(room, before);
  if (what === 'screenshots') {
    const done = await serialized(() => removeShots(ids));
    return { runs: done.runs, bytes: done.bytes };
  }
  const bytes = new Map(room.map((r) => [r.id, r.shotBytes]));
  let freed = 0;
  for (const id of ids) {
    await deleteRun(id);
    freed += bytes.get(id) ?? 0;
  }
  return { runs: ids.length, bytes: freed };
}

/** fn in the write chain (after every save asked for, before any asked later). */
function serialized<T>(fn: () => Promise<T>): Promise<T> {
  const next = chain.then(fn);
  chain = next.catch(() => undefined);
  return next;
}

/** Memory-only session storage, or nothing when it cannot be read. */
async function sessionGet(keys: string[]): Promise<Record<string, unknown>> {
  try {
    return await chrome.storage.session.get(keys);
  } catch {
    return {};
  }
}

async function withSecretRestored(state: RunState | undefined): Promise<RunState | undefined> {
  if (!state) return state;
  const got = await sessionGet([secretKey(state.id), vaultKey(state.id)]);
  const secret = typeof got[secretKey(state.id)] === 'string' ? (got[secretKey(state.id)] as string) : null;
  if (secret !== null) withSecret.add(state.id);
  const v = got[vaultKey(state.id)] as Vault | undefined;
  const vault = v && Array.isArray(v.typed) && Array.isArray(v.kept) ? v : null;
  if (vault) vaults.set(state.id, JSON.stringify(vault));
  return joinSecret(state, secret, vault);
}

function stepRange(runId: string): IDBKeyRange {
  return IDBKeyRange.bound([runId, -Infinity], [runId, Infinity]);
}

/** The run with its steps (screenshots not loaded: '' — see loadShot, withScreenshots). */
export async function loadRun(id: string): Promise<RunState | undefined> {
  await chain;
  const d = await db();
  const rec = await d.get('runs', id);
  if (!rec) return undefined;
  const steps = (await d.getAll('steps', stepRange(id))).map(({ runId: _r, ...s }) => s as StepRecord);
  steps.sort((a, b) => a.index - b.index);
  stored.set(id, steps.length);
  if (steps.length) lastSaid.set(id, steps[steps.length - 1].observation);
  const { summary: _s, ...run } = rec;
  // a run saved by an older version in today's shape (core/run/create.ts upgradeRun)
  const state = await withSecretRestored({ ...run, steps, pending: await withPendingShots(d, id, run.pending) });
  return state && upgradeRun(state);
}

/** The most recently started run's id and status, without reading its steps. */
export async function latestRunHead(): Promise<{ id: string; status: RunState['status'] } | undefined> {
  await chain;
  const cursor = await (await db()).transaction('runs').store.index('startedAt').openCursor(null, 'prev');
  return cursor ? { id: cursor.value.id, status: cursor.value.status } : undefined;
}

/** The most recently started run. */
export async function latestRun(): Promise<RunState | undefined> {
  const head = await latestRunHead();
  return head ? loadRun(head.id) : undefined;
}

/**
 * After a StorageFullError: ends the run in its saved record (a small write, no new steps), so the
 * history shows why, and a restarted worker does not pick it up again.
 */
export async function markEnded(state: RunState): Promise<void> {
  await chain;
  const d = await db();
  const rec = await d.get('runs', state.id);
  if (!rec) return;
  const { status, phase, endedAt, stopReason } = state;
  await d.put('runs', { ...rec, status, phase, endedAt, stopReason, pending: null, summary: { ...rec.summary, status, endedAt, stopReason } });
}

/** Every run's summary, newest first (for the history list). */
export async function listRuns(): Promise<Array<{ id: string; summary: RunSummary }>> {
  await chain;
  const all = await (await db()).getAllFromIndex('runs', 'startedAt');
  return all.reverse().map((r) => ({ id: r.id, summary: r.summary ?? { ...runSummary({ ...r, steps: [] }), cost: undefined } }));
}

/** Deletes a run with its steps and screenshots, in one transaction. */
export async function deleteRun(id: string): Promise<void> {
  await chain;
  const tx = (await db()).transaction(['runs', 'steps', 'shots', 'sizes'], 'readwrite');
  await Promise.all([
    tx.objectStore('runs').delete(id),
    tx.objectStore('steps').delete(stepRange(id)),
    tx.objectStore('shots').delete(shotRange(id)),
    tx.objectStore('sizes').delete(shotRange(id)),
    tx.done,
  ]);
  stored.delete(id);
  written.delete(id);
  lastSaid.delete(id);
  vaults.delete(id);
  try {
    await chrome.storage.session.remove([secretKey(id), vaultKey(id)]);
  } catch { /* nothing kept there */ }
}

/** A step's screenshot as a data URL, or null. */
export async function loadShot(runId: string, index: number, kind: ShotKind): Promise<string | null> {
  await chain;
  return dataUrlOf(await (await db()).get('shots', [runId, index, kind]), 'image/jpeg');
}

/** The run with every step's screenshots filled in (for exports). */
export async function withScreenshots(state: RunState): Promise<RunState> {
  const steps = await Promise.all(state.steps.map(async (s) => ({
    ...s,
    screenshot: s.screenshot || (await loadShot(state.id, s.index, 'labelled')) || '',
    cleanScreenshot: s.cleanScreenshot || (await loadShot(state.id, s.index, 'clean')) || '',
  })));
  return { ...state, steps };
}

/**
 * Per-run settings given at start (the runner's flags), in memory-only storage, without the API
 * key: keys live only in chrome.storage.local (settings; the runner saves its key there, in its
 * own temporary profile). Written for every run, so its absence after a worker restart means the
 * browser (or the extension) restarted, which ends the run: tab ids are reused after a restart.
 */
export async function saveRunConfig(id: string, config: Record<string, unknown>): Promise<void> {
  const { apiKey: _key, ...rest } = config;
  await chrome.storage.session.set({ [`config:${id}`]: rest });
}

/** null: the browser or the extension restarted since the run started. */
export async function loadRunConfig(id: string): Promise<Record<string, unknown> | null> {
  const got = await chrome.storage.session.get(`config:${id}`).catch(() => ({} as Record<string, unknown>));
  const v = got[`config:${id}`];
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
}
