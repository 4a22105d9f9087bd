/** Settings live in chrome.storage.local only (the API key included: never synced, never in traces). */
import { normalizeSettings, type Settings } from '../core/settings';
import { patched, type SettingsPatch } from '../core/settings-patch';

const KEY = 'settings';

export async function loadSettings(): Promise<Settings> {
  const got = await chrome.storage.local.get(KEY);
  return normalizeSettings(got[KEY] as Partial<Settings> | undefined);
}

/** Writes one after another, so that a patch never reads what another is about to overwrite. */
let writing: Promise<unknown> = Promise.resolve();

/** Every settings write: the stored settings read, the patch merged in (core/settings-patch.ts), written back. */
export function patchSettings(patch: SettingsPatch): Promise<Settings> {
  const next = writing.catch(() => undefined).then(async () => {
    const s = patched(await loadSettings(), patch);
    await chrome.storage.local.set({ [KEY]: s });
    return s;
  });
  writing = next;
  return next;
}
