/**
 * Settings live in chrome.storage.local only (the API key included: never synced, never in traces),
 * under `settings`, with their shape's version (core/stores/settings.ts). Settings stored by an
 * older version are migrated when first read: the value as it was is kept under its own key
 * (settingsBackupKey) before the migrated one is written, until the person first saves settings. Settings a newer version wrote, or that
 * cannot be read, are refused (StoreRefused): never read, never written over.
 */
import { normalizeSettings, type Settings } from '../core/settings';
import { patched, type SettingsPatch } from '../core/settings-patch';
import { isBackupKey, readStoredSettings, settingsBackupKey, storedSettings } from '../core/stores/settings';
import { StoreRefused } from '../core/stores/versions';
import { updatedFrom } from './stores';

const KEY = 'settings';

/** Writes one after another, so that a patch never reads what another is about to overwrite. */
let writing: Promise<unknown> = Promise.resolve();

function serial<T>(fn: () => Promise<T>): Promise<T> {
  const next = writing.catch(() => undefined).then(fn);
  writing = next;
  return next;
}

/** The stored settings in today's shape, migrated (and written back) when an older version stored them. */
async function readStored(): Promise<Partial<Settings>> {
  const raw = (await chrome.storage.local.get(KEY))[KEY];
  const read = readStoredSettings(raw);
  if (!read.ok) throw new StoreRefused(read.problem);
  if (raw !== undefined && read.from < (read.value.schema as number)) {
    // the version before this one is learned from the data before the data changes (stores.ts)
    await updatedFrom();
    await chrome.storage.local.set({ [settingsBackupKey(read.from)]: raw });
    await chrome.storage.local.set({ [KEY]: read.value });
  }
  return read.value as Partial<Settings>;
}

/** The settings (read after the writes already asked for; the first read after an update migrates them). */
export async function loadSettings(): Promise<Settings> {
  return normalizeSettings(await serial(readStored));
}

/** Every settings write: the stored settings read, the patch merged in (core/settings-patch.ts), written back. */
export function patchSettings(patch: SettingsPatch): Promise<Settings> {
  return serial(async () => {
    const s = patched(normalizeSettings(await readStored()), patch);
    await chrome.storage.local.set({ [KEY]: storedSettings(s) });
    // Saved in this version's shape: the copy kept from before a migration (keys and secrets in it) goes,
    // so a key or a secret deleted now is deleted everywhere.
    const old = Object.keys(await chrome.storage.local.get(null)).filter(isBackupKey);
    if (old.length) await chrome.storage.local.remove(old);
    return s;
  });
}
