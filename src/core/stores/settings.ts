/**
 * The settings as chrome.storage.local keeps them, read through their migrations.
 *
 * Stored: the Settings fields and `schema`, the shape's version (versions.ts). Version 0 is what
 * 0.1.0 and earlier wrote: the same fields without `schema`. Each migration takes one version to
 * the next and is a pure function; a field a migration does not know is carried over as it is
 * (normalizeSettings, core/settings.ts, decides what a field may hold).
 */
import { STORE_VERSIONS, versionProblem, type StoreProblem } from './versions';

export const SETTINGS_VERSION = STORE_VERSIONS.settings;

type Stored = Record<string, unknown>;

/** Version n -> n + 1, by n. */
export const SETTINGS_MIGRATIONS: Record<number, (s: Stored) => Stored> = {
  /** 0.1.0 and before: no `schema` field; nothing else changed */
  0: (s) => ({ ...s, schema: 1 }),
};

export type SettingsRead =
  | { ok: true; value: Stored; from: number }
  | { ok: false; problem: StoreProblem };

function isRecord(v: unknown): v is Stored {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The stored value in today's shape (`from`: the version it was stored in; below SETTINGS_VERSION
 * it should be written back, after keeping the value as it was), or why it is refused: a value
 * that is not an object, or a schema that is not a version this build knows.
 */
export function readStoredSettings(raw: unknown): SettingsRead {
  if (raw === undefined || raw === null) return { ok: true, value: { schema: SETTINGS_VERSION }, from: SETTINGS_VERSION };
  if (!isRecord(raw)) return { ok: false, problem: { store: 'settings', kind: 'unreadable', detail: `a ${Array.isArray(raw) ? 'list' : typeof raw} where an object belongs` } };
  const schema = raw.schema === undefined ? 0 : raw.schema;
  if (typeof schema !== 'number') return { ok: false, problem: { store: 'settings', kind: 'unreadable', detail: `schema ${JSON.stringify(schema)}` } };
  const problem = versionProblem('settings', schema);
  if (problem) return { ok: false, problem };
  let value: Stored = raw;
  for (let v = schema; v < SETTINGS_VERSION; v++) value = SETTINGS_MIGRATIONS[v](value);
  return { ok: true, value, from: schema };
}

/** What is written: the settings with their shape's version. */
export function storedSettings<T extends object>(settings: T): T & { schema: number } {
  return { ...settings, schema: SETTINGS_VERSION };
}

/**
 * Where the value as it was is kept before a migration's result is written over it (until the
 * person next saves settings: background/settings-store.ts).
 */
export function settingsBackupKey(from: number): string {
  return `settings.schema${from}`;
}

export function isBackupKey(key: string): boolean {
  return /^settings\.schema\d+$/.test(key);
}
