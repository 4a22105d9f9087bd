/**
 * Values the model must never read: the person's secrets from Settings (a card number, a login)
 * and the passwords a run typed. Pure.
 *
 * - A secret is shown to the model as its placeholder, `{{secret:card}}`: every occurrence of its
 *   value in what goes to the model (task, element list, memory, history, answers) is replaced by
 *   it, and a typed placeholder is filled in only when the text is typed into the page.
 * - A typed password is shown as its own placeholder, `{{password:1}}` for the first the run
 *   typed, wherever it appears later in the run (and earlier: the task that gave it), so the model
 *   can still type it (a task that says "enter the password in both fields"): a typed placeholder
 *   is filled in only when the text is typed, like a secret's. Where a password must never be
 *   typed back (a learned note, the stand-in of a password waiting in memory-only storage), it is
 *   the mask (••••).
 *
 * A value is found in every encoding a page, a URL or a request may give it (secrets/encodings.ts: URL- and
 * form-encoded, HTML entities, JSON escapes, base64), and each occurrence gets the same
 * placeholder or mask: `q=alice%40example.com` in a URL reads `q={{secret:email}}`.
 *
 * Values shorter than MIN_SECRET_CHARS are not looked for in text: a 1–3 character value
 * ("a", "12") is part of ordinary words and numbers, so hiding it would garble every thought and
 * element list while protecting almost nothing (three characters are guessed quickly anyway).
 * Settings refuses such secrets; a short password is masked only in the step that typed it.
 */
import type { Action } from '../action/action';
import { hasEncoded, matcherOf } from './encodings';
import { hostKey, type GuardHit, type GuardSettings } from '../guards';
import type { Translate } from '../i18n';
import { english } from '../locales';

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
const TYPED_PLACEHOLDER = /\{\{password:([1-9]\d{0,3})\}\}/g;

export function placeholderOf(name: string): string {
  return `{{secret:${name}}}`;
}

/** The placeholder of the `i`-th password a run typed (0-based): `{{password:1}}` for the first. */
export function typedPlaceholderOf(i: number): string {
  return `{{password:${i + 1}}}`;
}

/** `hideIn`'s mask that shows each typed password as its own placeholder (typedPlaceholderOf). */
export const AS_PLACEHOLDERS: unique symbol = Symbol('typed passwords as placeholders');
export type Mask = string | typeof AS_PLACEHOLDERS;

/** The placeholder a typed password has, or would have once the run keeps it (`typed`: the vault's). */
export function typedPlaceholderFor(typed: readonly string[], password: string): string {
  const at = typed.indexOf(password);
  return typedPlaceholderOf(at >= 0 ? at : typed.length);
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
function replacements(v: Vault, mask: Mask): Array<[string, string]> {
  const pairs: Array<[string, string]> = [
    ...v.kept.filter((s) => s.value.length >= MIN_SECRET_CHARS).map((s): [string, string] => [s.value, placeholderOf(s.name)]),
    ...v.typed.map((p, i): [string, string] => [p, mask === AS_PLACEHOLDERS ? typedPlaceholderOf(i) : mask]).filter(([p]) => p.length >= MIN_SECRET_CHARS),
  ];
  return pairs.sort((a, b) => b[0].length - a[0].length);
}

type Masker = (text: string) => string;

/** A screenshot: not masked (README "Screenshots are not masked"), and a chance match would break the picture. */
const IMAGE_DATA_URL = /^data:image\/[\w.+-]+;base64,/;

/** A placeholder already in a text: never looked into (a value "card" or "password" must not rewrite `{{secret:card}}` or `{{password:1}}`). */
const ANY_PLACEHOLDER = /\{\{(?:secret:[A-Za-z0-9_-]{1,40}|password:[1-9]\d{0,3})\}\}/g;

/** `text` with `re` replaced by `by` outside the placeholders it holds. */
function replaceOutside(text: string, re: RegExp, by: string): string {
  if (!text.includes('{{')) return text.replace(re, () => by);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(ANY_PLACEHOLDER)) {
    out += text.slice(last, m.index).replace(re, () => by) + m[0];
    last = m.index + m[0].length;
  }
  return out + text.slice(last).replace(re, () => by);
}

/**
 * One text with each value, in every encoding (secrets/encodings.ts), replaced by its replacement, in
 * order, outside the placeholders (so hiding twice changes nothing the second time).
 */
function maskerOf(pairs: ReadonlyArray<readonly [string, string]>): Masker | null {
  if (!pairs.length) return null;
  const compiled = pairs.map(([value, by]) => [matcherOf(value), by] as const);
  return (text) => {
    if (!text || IMAGE_DATA_URL.test(text)) return text;
    let out = text;
    for (const [re, by] of compiled) out = replaceOutside(out, re, by);
    return out;
  };
}

/** A vault's masker, made once per vault and mask (a run masks every string of every step with it). */
const vaultMaskers = new WeakMap<Vault, { typed: string[]; kept: Secret[]; sizes: string; by: Map<Mask, Masker | null> }>();

function vaultMasker(v: Vault, mask: Mask): Masker | null {
  const sizes = `${v.typed.length}/${v.kept.length}`;
  let known = vaultMaskers.get(v);
  // a vault is replaced, never changed, when a password joins it; checked anyway
  if (!known || known.typed !== v.typed || known.kept !== v.kept || known.sizes !== sizes) {
    known = { typed: v.typed, kept: v.kept, sizes, by: new Map() };
    vaultMaskers.set(v, known);
  }
  if (!known.by.has(mask)) known.by.set(mask, maskerOf(replacements(v, mask)));
  return known.by.get(mask)!;
}

/** Every string in `value` (deeply) passed through `one`. */
function walkStrings<T>(value: T, one: Masker): T {
  const walk = (x: unknown, depth: number): unknown => {
    if (typeof x === 'string') return one(x);
    if (depth > 200) return x; // memory is capped far below this (limits.ts)
    if (Array.isArray(x)) return x.map((y) => walk(y, depth + 1));
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y, depth + 1)]));
    return x;
  };
  return walk(value, 0) as T;
}

/**
 * `value` with every string in it (deeply) hidden: secrets as placeholders, typed passwords as
 * `mask` (AS_PLACEHOLDERS: each as its own placeholder), each in every encoding (secrets/encodings.ts).
 * Image data URLs (screenshots) are left as they are.
 */
export function hideIn<T>(value: T, v: Vault | undefined, mask: Mask): T {
  const one = v ? vaultMasker(v, mask) : null;
  return one ? walkStrings(value, one) : value;
}

/**
 * `value` with every string in it (deeply) rid of each of `values` (MIN_SECRET_CHARS or longer), in
 * every encoding, each replaced by `by`: for a last scrub of an export (trace/index.ts `scrub`, with
 * `[REDACTED]`). Image data URLs are left as they are.
 */
export function hideValues<T>(value: T, values: readonly string[], by: string): T {
  const list = [...new Set(values.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_CHARS))].sort((a, b) => b.length - a.length);
  const one = maskerOf(list.map((s) => [s, by] as const));
  return one ? walkStrings(value, one) : value;
}

/**
 * `text` with `value` replaced by `mask` in every encoding, whatever its length: a password in the
 * step that typed it (run/step.ts `maskSecret`), where even a short one is hidden.
 */
export function hideValue(text: string, value: string, mask: string): string {
  return value ? maskerOf([[value, mask]])!(text) : text;
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

/** The typed-password placeholders an action's typed text uses, as written (`{{password:1}}`). */
export function typedPlaceholdersIn(a: Action): string[] {
  if (a.type !== 'type') return [];
  return [...a.text.matchAll(TYPED_PLACEHOLDER)].map((m) => m[0]);
}

/** The text is placeholders only (and spaces): it holds no value of its own. */
export function onlyPlaceholders(text: string): boolean {
  const rest = text.replace(PLACEHOLDER, '').replace(TYPED_PLACEHOLDER, '');
  return rest !== text && !rest.trim();
}

/**
 * The action with its placeholders filled in, just before it is typed: the person's secrets
 * (`kept`) and the passwords the run typed (`typed`, the vault's, in order); `missing`: the
 * placeholders that stand for nothing (the action is then not run).
 */
export function fillSecrets(a: Action, kept: Secret[], typed: readonly string[] = []): { action: Action; missing: string[] } {
  if (a.type !== 'type') return { action: a, missing: [] };
  const missing: string[] = [];
  const text = a.text.replace(PLACEHOLDER, (whole, name: string) => {
    const s = kept.find((k) => k.name === name);
    if (!s) missing.push(name);
    return s ? s.value : whole;
  }).replace(TYPED_PLACEHOLDER, (whole, n: string) => {
    const p = typed[Number(n) - 1];
    if (p === undefined) missing.push(whole);
    return p ?? whole;
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
  const again = typedPlaceholdersIn(a).length > 0 || typed.some((p) => p.length >= MIN_SECRET_CHARS && hasEncoded(a.text, p));
  if (!names.length && !again) return null;
  const rule = guards.rules.find((r) => r.id === 'password');
  if (!rule?.on || (guards.allow[hostKey(site)] ?? []).includes('password')) return null;
  return { id: 'password', reason: names.length ? t('whySecret', names.map(placeholderOf).join(', ')) : t('whyTypedPassword') };
}
