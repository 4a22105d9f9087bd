/**
 * The dialects' own settings (types.ts DialectOption) as stored, checked and carried: Settings
 * keeps the values per dialect (`dialectOptions`), a run carries its dialect's (RunState), the
 * runner reads them from `--dialect-option name=value`.
 */
import { DIALECTS } from './registry';
import type { Dialect, DialectOptionValues } from './types';

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Every option of `d` with its value: the given one when it is one of its choices, else its default. */
export function optionValues(d: Dialect, given: unknown): DialectOptionValues {
  const g = isRecord(given) ? given : {};
  return Object.fromEntries((d.options ?? []).map((o) => {
    const v = g[o.name];
    return [o.name, typeof v === 'string' && o.choices.includes(v) ? v : o.default];
  }));
}

/** The stored values of every dialect that has options (unknown dialects and names dropped). */
export function normalizeDialectOptions(x: unknown): Record<string, DialectOptionValues> {
  const given = isRecord(x) ? x : {};
  const out: Record<string, DialectOptionValues> = {};
  for (const d of Object.values(DIALECTS)) if (d.options?.length) out[d.id] = optionValues(d, given[d.id]);
  return out;
}

/** What is wrong with options given for `d` (a name it does not have, a value not among its choices), or null. */
export function optionProblem(d: Dialect, given: unknown): string | null {
  if (given === undefined) return null;
  if (!isRecord(given)) return '--dialect-option: not a list of name=value';
  const known = d.options ?? [];
  for (const [name, value] of Object.entries(given)) {
    const o = known.find((k) => k.name === name);
    if (!o) return known.length ? `--dialect-option: ${d.id} has no option "${name.slice(0, 40)}"; it has ${known.map((k) => k.name).join(', ')}` : `--dialect-option: ${d.id} has no options`;
    if (typeof value !== 'string' || !o.choices.includes(value)) return `--dialect-option ${o.name} must be one of ${o.choices.join(', ')}, got "${String(value).slice(0, 40)}"`;
  }
  return null;
}

/**
 * Fields that were stored before they became a dialect's option (issue 44), by the option's name:
 * Settings' and a job's `bbox` and `appagentDevice`, a run's `bbox` and `device`.
 */
const FIELDS_NOW_OPTIONS: Readonly<Record<string, string>> = { bbox: 'bbox', appagentDevice: 'device', device: 'device' };

/** The values `old` (settings, a run, a job's config as an older version stored it) holds for options `d` has. */
export function oldOptionFields(d: Dialect, old: Record<string, unknown>): Record<string, string> {
  const own = new Set((d.options ?? []).map((o) => o.name));
  return Object.fromEntries(Object.entries(FIELDS_NOW_OPTIONS)
    .filter(([field, option]) => own.has(option) && typeof old[field] === 'string')
    .map(([field, option]) => [option, old[field] as string]));
}

/** "name=value" lines (the runner's repeated flag) as values; null with the bad one when one has no "=". */
export function readOptionPairs(pairs: string[]): { ok: true; values: Record<string, string> } | { ok: false; problem: string } {
  const values: Record<string, string> = {};
  for (const p of pairs) {
    const at = p.indexOf('=');
    if (at <= 0) return { ok: false, problem: `--dialect-option must look like name=value, got "${p.slice(0, 40)}"` };
    values[p.slice(0, at).trim()] = p.slice(at + 1).trim();
  }
  return { ok: true, values };
}
