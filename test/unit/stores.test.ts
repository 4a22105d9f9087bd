/**
 * The stores' versions and migrations (src/core/stores/), and the adapters that refuse a store a
 * newer version wrote or one they cannot read (background/settings-store.ts, run-store.ts): the
 * data is left exactly as it was.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openProblem, STORE_VERSIONS, StoreRefused, versionProblem } from '../../src/core/stores/versions';
import { readStoredSettings, SETTINGS_VERSION, settingsBackupKey, storedSettings } from '../../src/core/stores/settings';
import { recordV2ToV3, splitRunV1, stepV2ToV3, type RunRecord } from '../../src/core/stores/runs';
import type { RunState, StepRecord } from '../../src/core/run';
import { bytesToFree, PRUNE_AT, PRUNE_TO, runsBefore, runsToPrune, type RunRoom } from '../../src/core/stores/prune';

describe('versionProblem', () => {
  it('accepts nothing stored yet, the current version and older ones', () => {
    expect(versionProblem('runs', undefined)).toBeNull();
    expect(versionProblem('runs', STORE_VERSIONS.runs)).toBeNull();
    expect(versionProblem('runs', 1)).toBeNull();
  });
  it('refuses a newer version and one that is no version', () => {
    expect(versionProblem('docs', STORE_VERSIONS.docs + 1)).toEqual({ store: 'docs', kind: 'newer', found: STORE_VERSIONS.docs + 1, current: STORE_VERSIONS.docs });
    expect(versionProblem('docs', 1.5)).toMatchObject({ kind: 'unreadable' });
    expect(versionProblem('docs', -1)).toMatchObject({ kind: 'unreadable' });
  });
  it('reads IndexedDB\'s VersionError as a newer database, any other error as unreadable', () => {
    expect(openProblem('runs', Object.assign(new Error('x'), { name: 'VersionError' }))).toEqual({ store: 'runs', kind: 'newer', found: null, current: STORE_VERSIONS.runs });
    expect(openProblem('files', new Error('disk broken'))).toEqual({ store: 'files', kind: 'unreadable', detail: 'disk broken' });
    expect(new StoreRefused({ store: 'runs', kind: 'newer', found: null, current: 3 }).message).toMatch(/newer version.*left untouched/);
  });
});

describe('stored settings', () => {
  it('migrates what 0.1.0 wrote (no schema) to today\'s shape, keeping every field', () => {
    const old = { baseUrl: 'http://x/v1', apiKey: 'k', secrets: [{ name: 'pin', value: '4242' }], profiles: { a: { baseUrl: 'http://a/v1' } }, somethingUnknown: 1 };
    const read = readStoredSettings(old);
    expect(read).toEqual({ ok: true, from: 0, value: { ...old, schema: SETTINGS_VERSION } });
    expect(old).not.toHaveProperty('schema');
  });
  it('reads today\'s shape as it is, and nothing stored as empty', () => {
    const now = storedSettings({ model: 'm' });
    expect(now.schema).toBe(SETTINGS_VERSION);
    expect(readStoredSettings(now)).toEqual({ ok: true, from: SETTINGS_VERSION, value: now });
    expect(readStoredSettings(undefined)).toMatchObject({ ok: true, from: SETTINGS_VERSION });
  });
  it('refuses settings a newer version wrote, and values that are not settings', () => {
    expect(readStoredSettings({ schema: SETTINGS_VERSION + 1, model: 'm' })).toEqual({ ok: false, problem: { store: 'settings', kind: 'newer', found: SETTINGS_VERSION + 1, current: SETTINGS_VERSION } });
    expect(readStoredSettings('garbage')).toMatchObject({ ok: false, problem: { kind: 'unreadable', detail: expect.stringContaining('string') } });
    expect(readStoredSettings([1, 2])).toMatchObject({ ok: false, problem: { kind: 'unreadable', detail: expect.stringContaining('list') } });
    expect(readStoredSettings({ schema: 'two' })).toMatchObject({ ok: false, problem: { kind: 'unreadable' } });
  });
});

const step = (index: number, action: unknown): StepRecord => ({ index, action, screenshot: `data:image/png;base64,AA${index}`, observation: 'Success' } as unknown as StepRecord);

describe('runs database migrations', () => {
  it('1 -> 2 splits a whole run into its record and its steps', () => {
    const old = { id: 'r', task: 't', startUrl: 'https://a.example/', site: 'https://a.example/', status: 'done', startedAt: 1, endedAt: 2, steps: [step(0, null), step(1, null)] } as unknown as RunState;
    const { record, steps } = splitRunV1(old);
    expect(record.steps).toEqual([]);
    expect(record.summary).toMatchObject({ task: 't', steps: 2 });
    expect(steps.map((s) => s.index)).toEqual([0, 1]);
    expect(splitRunV1({ ...old, steps: undefined } as unknown as RunState).steps).toEqual([]);
  });
  it('2 -> 3 writes old GLM-web actions in the shared model, and keeps what it does not understand', () => {
    expect(stepV2ToV3(step(0, { type: 'click', label: 4 })).action).toEqual({ type: 'click', target: { kind: 'label', label: 4 }, button: 'left', count: 1 });
    const odd = step(1, { type: 'teleport', where: 'moon' });
    expect(stepV2ToV3(odd)).toEqual(odd);
    const record = {
      id: 'r', steps: [], summary: {},
      pending: { index: 2, reply: { action: { type: 'click', label: 1 } } },
      replay: { of: 'x', steps: [{ from: 0, action: { type: 'click', label: 0 }, target: null, memory: {} }] },
    } as unknown as RunRecord;
    const up = recordV2ToV3(record);
    expect(up.pending?.reply?.action).toEqual({ type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 });
    expect(up.replay?.steps[0].action).toEqual({ type: 'click', target: { kind: 'label', label: 0 }, button: 'left', count: 1 });
    expect(record.pending?.reply?.action).toEqual({ type: 'click', label: 1 });
  });
});

describe('making room', () => {
  const runs: RunRoom[] = [
    { id: 'c', startedAt: 300, active: false, shotBytes: 50 },
    { id: 'a', startedAt: 100, active: false, shotBytes: 40 },
    { id: 'live', startedAt: 50, active: true, shotBytes: 999 },
    { id: 'b', startedAt: 200, active: false, shotBytes: 0 },
    { id: 'd', startedAt: 400, active: false, shotBytes: 70 },
  ];
  it('frees only near the quota the browser states, down to PRUNE_TO', () => {
    expect(bytesToFree(null, 1000)).toBe(0);
    expect(bytesToFree(800, null)).toBe(0);
    expect(bytesToFree(1000 * PRUNE_AT - 1, 1000)).toBe(0);
    expect(bytesToFree(950, 1000)).toBe(950 - 1000 * PRUNE_TO);
  });
  it('takes the oldest finished runs\' screenshots first, never a run going on or one with none left', () => {
    expect(runsToPrune(runs, 0)).toEqual([]);
    expect(runsToPrune(runs, 1)).toEqual(['a']);
    expect(runsToPrune(runs, 41)).toEqual(['a', 'c']);
    expect(runsToPrune(runs, 10_000)).toEqual(['a', 'c', 'd']);
  });
  it('clears what the person asked: finished runs started before a time, oldest first', () => {
    expect(runsBefore(runs, 301)).toEqual(['a', 'b', 'c']);
    expect(runsBefore(runs, 0)).toEqual([]);
  });
});

/** chrome.storage.local in memory, as the settings store uses it. */
function fakeLocal(start: Record<string, unknown>) {
  const data: Record<string, unknown> = structuredClone(start);
  const local = {
    get: async (key: string | null) => (key === null ? structuredClone(data) : key in data ? { [key]: structuredClone(data[key]) } : {}),
    set: async (items: Record<string, unknown>) => { Object.assign(data, structuredClone(items)); },
    remove: async (keys: string[]) => { for (const k of keys) delete data[k]; },
  };
  vi.stubGlobal('chrome', { storage: { local }, runtime: { getManifest: () => ({ version: '0.2.0' }) } });
  return data;
}

describe('the settings store', () => {
  beforeEach(() => { vi.resetModules(); });
  afterEach(() => { vi.unstubAllGlobals(); });

  it('migrates 0.1.0\'s settings on first read, keeping the value as it was under its own key', async () => {
    const old = { baseUrl: 'http://model.test/v1', apiKey: 'sk-1', secrets: [{ name: 'pin', value: '4242' }] };
    const data = fakeLocal({ settings: old });
    const { loadSettings } = await import('../../src/background/settings-store');
    const s = await loadSettings();
    expect(s.secrets).toEqual([{ name: 'pin', value: '4242' }]);
    expect(s.apiKey).toBe('sk-1');
    expect(data[settingsBackupKey(0)]).toEqual(old);
    expect(data.settings).toMatchObject({ ...old, schema: SETTINGS_VERSION });
  });

  it('drops the kept copy when the person first saves: a secret deleted then is deleted everywhere', async () => {
    const data = fakeLocal({ settings: { baseUrl: 'http://model.test/v1', secrets: [{ name: 'pin', value: '4242' }] } });
    const { loadSettings, patchSettings } = await import('../../src/background/settings-store');
    await loadSettings();
    expect(data[settingsBackupKey(0)]).toBeTruthy();
    await patchSettings({ set: { secrets: [] } });
    expect(data[settingsBackupKey(0)]).toBeUndefined();
    expect(JSON.stringify(data)).not.toContain('4242');
  });

  it('refuses settings a newer version wrote: nothing read, nothing written', async () => {
    const newer = { schema: SETTINGS_VERSION + 1, baseUrl: 'http://model.test/v1', brandNew: { x: 1 } };
    const data = fakeLocal({ settings: newer });
    const { loadSettings, patchSettings } = await import('../../src/background/settings-store');
    await expect(loadSettings()).rejects.toMatchObject({ name: 'StoreRefused', problem: { kind: 'newer' } });
    await expect(patchSettings({ set: { model: 'other' } })).rejects.toThrow(/newer version/);
    expect(data).toEqual({ settings: newer });
  });

  it('refuses settings it cannot read, and saves nothing over them', async () => {
    const data = fakeLocal({ settings: 'not settings' });
    const { patchSettings } = await import('../../src/background/settings-store');
    await expect(patchSettings({ set: { model: 'other' } })).rejects.toThrow(/cannot be read/);
    expect(data).toEqual({ settings: 'not settings' });
  });
});

describe('the version that ran before', () => {
  beforeEach(() => { vi.resetModules(); });
  afterEach(() => { vi.unstubAllGlobals(); });
  const from = async (start: Record<string, unknown>) => {
    vi.resetModules();
    const data = fakeLocal(start);
    const { updatedFrom } = await import('../../src/background/stores');
    return { before: await updatedFrom(), data };
  };

  it('is the version kept at the last start, when it was another; this one is kept', async () => {
    const { before, data } = await from({ installed: { version: '0.1.5' } });
    expect(before).toBe('0.1.5');
    expect(data.installed).toEqual({ version: '0.2.0' });
    expect((await from({ installed: { version: '0.2.0' } })).before).toBeNull();
  });
  it('is 0.1.0 when its data is there without a version kept (settings without schema), none on a first install', async () => {
    expect((await from({ settings: { baseUrl: 'http://x/v1' } })).before).toBe('0.1.0');
    expect((await from({ settings: { schema: 1 } })).before).toBeNull();
    expect((await from({})).before).toBeNull();
  });
});

describe('the runs database', () => {
  beforeEach(() => { vi.resetModules(); });

  it('refuses a database a newer version upgraded, and leaves it as it was', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open('webagent', STORE_VERSIONS.runs + 5);
      req.onupgradeneeded = () => { req.result.createObjectStore('future').put('kept', 'k'); };
      req.onsuccess = () => { req.result.close(); resolve(); };
      req.onerror = () => reject(req.error);
    });
    const store = await import('../../src/background/run-store');
    const err = await store.listRuns().catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'StoreRefused' });
    expect((err as StoreRefused).problem).toMatchObject({ store: 'runs', kind: 'newer' });
    const kept = await new Promise<unknown>((resolve, reject) => {
      const req = indexedDB.open('webagent');
      req.onsuccess = () => {
        const d = req.result;
        expect(d.version).toBe(STORE_VERSIONS.runs + 5);
        const get = d.transaction('future').objectStore('future').get('k');
        get.onsuccess = () => { d.close(); resolve(get.result); };
      };
      req.onerror = () => reject(req.error);
    });
    expect(kept).toBe('kept');
    indexedDB.deleteDatabase('webagent');
  });
});
