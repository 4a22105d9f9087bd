/**
 * Values the model must never read: the person's secrets from Settings (a card number, a login)
 * and the passwords a run typed. Pure.
 *
 * - A secret is shown to the model as its placeholder, `{{secret:card}}`: every occurrence of its
 *   value in what goes to the model (task, element list, memory, history, answers) is replaced by
 *   it, and a typed placeholder is filled in only when the text is typed into the page.
 * - A typed password is shown as the mask (••••) wherever it appears later in the run.
 *
 * Values shorter than MIN_SECRET_CHARS are not looked for in text: a 1–3 character value
 * ("a", "12") is part of ordinary words and numbers, so hiding it would garble every thought and
 * element list while protecting almost nothing (three characters are guessed quickly anyway).
 * Settings refuses such secrets; a short password is masked only in the step that typed it.
 */
import type { Action } from './action/action';
import { hostKey, type GuardHit, type GuardSettings } from './guards';
import type { Translate } from './i18n';
import { english } from './locales';

export interface Secret {
  /** letters, digits, `_` and `-` (it is written inside the placeholder) */
  name: string;
  value: string;
}

/** What a run keeps in memory only (never in the database, the trace or a view). */
export interface Vault {
  /** passwords the run typed (MIN_SECRET_CHARS or longer), masked in everything later */
  typed: string[];
  /** the person's secrets when the run started */
  kept: Secret[];
}

export const MIN_SECRET_CHARS = 4;
const NAME = /^[A-Za-z0-9_-]{1,40}$/;
const PLACEHOLDER = /\{\{secret:([A-Za-z0-9_-]{1,40})\}\}/g;

export function placeholderOf(name: string): string {
  return `{{secret:${name}}}`;
}

/** Secrets as stored: entries with a string name and value (names trimmed), in order. */
export function normalizeSecrets(input: unknown): Secret[] {
  if (!Array.isArray(input)) return [];
  return input
    .filter((x): x is Secret => !!x && typeof x === 'object' && typeof (x as Secret).name === 'string' && typeof (x as Secret).value === 'string')
    .map((x) => ({ name: x.name.trim(), value: x.value }));
}

/** What is wrong with the secrets (the first problem), in the person's language, or null. */
export function secretsProblem(list: Secret[], t: Translate = english): string | null {
  const seen = new Set<string>();
  for (const s of list) {
    if (!s.name) return t('secretNoName');
    if (!NAME.test(s.name)) return t('secretBadName', s.name.slice(0, 40));
    if (seen.has(s.name)) return t('secretTwice', s.name);
    seen.add(s.name);
    if (s.value.length < MIN_SECRET_CHARS) return t('secretTooShort', s.name, MIN_SECRET_CHARS);
  }
  return null;
}

/** The secrets a run can use (valid names and values; the first of a name). */
export function usableSecrets(list: Secret[]): Secret[] {
  const seen = new Set<string>();
  return list.filter((s) => {
    if (!NAME.test(s.name) || s.value.length < MIN_SECRET_CHARS || seen.has(s.name)) return false;
    seen.add(s.name);
    return true;
  });
}

/** Every value to hide, longest first (so a value inside a longer one does not split it), with what replaces it. */
function replacements(v: Vault | undefined, mask: string): Array<[string, string]> {
  if (!v) return [];
  const pairs: Array<[string, string]> = [
    ...v.kept.filter((s) => s.value.length >= MIN_SECRET_CHARS).map((s): [string, string] => [s.value, placeholderOf(s.name)]),
    ...v.typed.filter((p) => p.length >= MIN_SECRET_CHARS).map((p): [string, string] => [p, mask]),
  ];
  return pairs.sort((a, b) => b[0].length - a[0].length);
}

/** `value` with every string in it (deeply) hidden: secrets as placeholders, typed passwords as `mask`. */
export function hideIn<T>(value: T, v: Vault | undefined, mask: string): T {
  const pairs = replacements(v, mask);
  if (!pairs.length) return value;
  const one = (s: string) => pairs.reduce((acc, [from, to]) => (acc.includes(from) ? acc.split(from).join(to) : acc), s);
  const walk = (x: unknown, depth: number): unknown => {
    if (typeof x === 'string') return one(x);
    if (depth > 200) return x; // memory is capped far below this (limits.ts)
    if (Array.isArray(x)) return x.map((y) => walk(y, depth + 1));
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y, depth + 1)]));
    return x;
  };
  return walk(value, 0) as T;
}

/** Every value a vault holds (for the export's last scrub). */
export function vaultValues(v: Vault | undefined): string[] {
  return v ? [...v.typed, ...v.kept.map((s) => s.value)] : [];
}

/** The placeholder names an action's typed text uses (none for other actions). */
export function placeholdersIn(a: Action): string[] {
  if (a.type !== 'type') return [];
  return [...a.text.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

/**
 * The action with its placeholders filled in, just before it is typed; `missing`: names that are
 * not secrets (the action is then not run).
 */
export function fillSecrets(a: Action, kept: Secret[]): { action: Action; missing: string[] } {
  if (a.type !== 'type') return { action: a, missing: [] };
  const missing: string[] = [];
  const text = a.text.replace(PLACEHOLDER, (whole, name: string) => {
    const s = kept.find((k) => k.name === name);
    if (!s) missing.push(name);
    return s ? s.value : whole;
  });
  return { action: { ...a, text }, missing };
}

/**
 * The guard for a typed secret, part of the password rule (its switch and its "always allow" on a
 * site apply): typing a placeholder, or a password the run typed before (`typed`, into any field),
 * asks the person first, even in auto mode.
 */
export function secretGuard(a: Action, site: string, guards: GuardSettings, t: Translate = english, typed: string[] = []): GuardHit | null {
  if (a.type !== 'type') return null;
  const names = placeholdersIn(a);
  const again = typed.some((p) => p.length >= MIN_SECRET_CHARS && a.text.includes(p));
  if (!names.length && !again) return null;
  const rule = guards.rules.find((r) => r.id === 'password');
  if (!rule?.on || (guards.allow[hostKey(site)] ?? []).includes('password')) return null;
  return { id: 'password', reason: names.length ? t('whySecret', names.map(placeholderOf).join(', ')) : t('whyTypedPassword') };
}
