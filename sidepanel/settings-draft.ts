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
