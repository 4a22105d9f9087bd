/**
 * The settings form against the stored settings: what Save writes, and whether the form shows
 * something else than what is stored (then Start saves it first: a run uses what the person sees).
 * Pure: tested in node.
 */
import { normalizeSettings, type Settings } from '../src/core/settings';
import type { PriceTable } from '../src/core/costs';

/**
 * The part of the settings the form's Save writes. The step-approval switch, the saved profiles and
 * the always-allowed sites are saved on their own (at once), so they are left out.
 */
export function savablePart(s: Settings, prices: PriceTable): Omit<Settings, 'approveSteps' | 'profiles' | 'guards'> & { guards: { rules: Settings['guards']['rules'] } } {
  const { approveSteps: _a, profiles: _p, prices: _t, guards, ...rest } = s;
  return { ...rest, prices, guards: { rules: guards.rules } };
}

/** JSON with object keys sorted, so that two equal values give the same text. */
export function stableJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : x));
}

/** True when the form (with the price table as typed) would store something else than `saved`. */
export function differsFromSaved(form: Settings, prices: PriceTable, saved: Settings): boolean {
  // Compared as storage keeps them (trimmed URL and key, normalized guard words and prices).
  const a = normalizeSettings({ ...form, prices });
  const b = normalizeSettings(saved);
  return stableJson(savablePart(a, a.prices)) !== stableJson(savablePart(b, b.prices));
}

/**
 * The unsaved form, kept while the person edits so that closing or reloading the panel does not
 * lose it: the settings as typed and the price table's rows as typed (a half-filled row is kept).
 * Kept in chrome.storage.session (memory only, gone when the browser closes), without the API
 * keys (draftOf), dropped once the form matches storage again.
 */
export interface SettingsDraft { settings: Settings; rows: Array<{ model: string; input: string; output: string }> }

/** The storage key of the draft in chrome.storage.session. */
export const DRAFT_KEY = 'settingsDraft';

/**
 * The draft of a form. API keys are left out (they live only in chrome.storage.local, and so do the
 * profiles, which hold them): an API key typed and not saved is not kept; the rest of the form is.
 */
export function draftOf(settings: Settings, rows: Array<{ model: string; input: string; output: string }>): SettingsDraft {
  const kept: Partial<Settings> = { ...settings };
  delete kept.apiKey;
  delete kept.textApiKey;
  delete kept.profiles;
  return { settings: kept as Settings, rows: rows.map(({ model, input, output }) => ({ model, input, output })) };
}

/**
 * The form a kept draft gives back over what storage holds now (`saved`): its own fields, with the
 * parts saved on their own (the step-approval switch, profiles, language, always-allowed sites)
 * taken from storage; `table` reads the price rows (price-table.tsx's tableOf). Null when there is no draft, it cannot be read, or it says what storage says.
 */
export function restoreDraft(
  x: unknown, saved: Settings, table: (rows: SettingsDraft['rows']) => { table: PriceTable; problem: string | null },
): SettingsDraft | null {
  const d = x as Partial<SettingsDraft> | null | undefined;
  if (!d || typeof d !== 'object' || !d.settings || typeof d.settings !== 'object' || !Array.isArray(d.rows)) return null;
  const typed = Object.fromEntries(Object.entries(d.settings).filter(([, v]) => v !== null && v !== undefined)) as Partial<Settings>;
  const form = normalizeSettings({ ...saved, ...typed });
  const settings: Settings = {
    ...form, approveSteps: saved.approveSteps, profiles: saved.profiles, language: saved.language,
    guards: { rules: form.guards.rules, allow: saved.guards.allow },
  };
  const rows = d.rows.filter((r) => r && typeof r === 'object')
    .map((r) => ({ model: String(r.model ?? ''), input: String(r.input ?? ''), output: String(r.output ?? '') }));
  const prices = table(rows);
  // a row still being typed (the table has a problem) is a change in itself
  if (prices.problem === null && !differsFromSaved(settings, prices.table, saved)) return null;
  return { settings, rows };
}
