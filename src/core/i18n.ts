/**
 * Person-facing text in two languages (English, Simplified Chinese). The strings live in Chrome's
 * message files (public/_locales/<locale>/messages.json); this module reads them the way
 * chrome.i18n.getMessage does (named placeholders whose content is $1…$9), but from data we load
 * ourselves, because chrome.i18n cannot switch language while the extension runs.
 * What the MODEL reads is never here: prompts and observations stay in English (run/model-text.ts,
 * the dialects' templates).
 */

export const LOCALES = ['en', 'zh_CN'] as const;
export type Locale = (typeof LOCALES)[number];
/** the Settings value: follow the browser, or a fixed locale */
export type LanguageSetting = 'auto' | Locale;

export interface MessageEntry {
  message: string;
  description?: string;
  placeholders?: Record<string, { content: string; example?: string }>;
}
export type Messages = Record<string, MessageEntry>;
export type Arg = string | number;
/** Translates a key with positional arguments ($1…$9 in the file's placeholders). */
export type Translate = (key: string, ...args: Arg[]) => string;

export function isLanguageSetting(v: unknown): v is LanguageSetting {
  return v === 'auto' || (LOCALES as readonly unknown[]).includes(v);
}

/** The locale for a setting and the browser's UI language ("zh-CN", "zh-TW", "en-US"…). */
export function localeFor(setting: LanguageSetting, uiLanguage: string | undefined): Locale {
  if (setting !== 'auto') return setting;
  return /^zh\b/i.test(uiLanguage ?? '') ? 'zh_CN' : 'en';
}

/**
 * One message with its arguments filled in: `$1`…`$9` directly in the text, or Chrome's named
 * placeholders (`$COUNT$` with content "$1"); `$$` is a dollar sign. One pass, so an argument that
 * itself holds "$1" is left as it is.
 */
export function format(entry: MessageEntry, args: readonly Arg[]): string {
  const arg = (d: string) => String(args[Number(d) - 1] ?? '');
  return entry.message.replace(/\$([A-Za-z_@][A-Za-z0-9_@]*)\$|\$(\d)|\$\$/g, (whole, name: string | undefined, d: string | undefined) => {
    if (d) return arg(d);
    if (!name) return '$';
    const p = entry.placeholders?.[name.toLowerCase()];
    return p ? p.content.replace(/\$(\d)/g, (_, n: string) => arg(n)) : whole;
  });
}

/** An argument as a count: a number, or a number written with grouping commas. */
function countOf(a: Arg): number | undefined {
  if (typeof a === 'number') return a;
  return /^\d{1,3}(,\d{3})*(\.\d+)?$|^\d+(\.\d+)?$/.test(a) ? Number(a.replace(/,/g, '')) : undefined;
}

/** BCP 47 language of a locale (Intl's name for it). */
export function languageOf(locale: Locale): string {
  return locale === 'zh_CN' ? 'zh-CN' : 'en';
}

/**
 * A translator over `messages`, falling back to `fallback` (English) for a key the locale lacks, and to
 * the key itself when neither has it (a test keeps both files complete).
 *
 * Plurals: Chrome's message format has none, so a message that counts something may have variants
 * named `<key>_<category>` (`stepsDone_one` beside `stepsDone`), the category being the one
 * Intl.PluralRules gives in `lang` for the FIRST number among the arguments ("one", "other", …);
 * a number already written as text ("1,234", "1.5") counts as one.
 * The variant is used when the locale has it, the plain key otherwise (Chinese needs none).
 */
export function translator(messages: Messages, fallback: Messages = messages, lang = 'en'): Translate {
  const rules = new Intl.PluralRules(lang);
  return (key, ...args) => {
    const n = args.map(countOf).find((a) => a !== undefined);
    const variant = n === undefined ? undefined : messages[`${key}_${rules.select(n)}`];
    const entry = variant ?? messages[key] ?? fallback[key];
    return entry ? format(entry, args) : key;
  };
}

/** The placeholder names a message uses ($NAME$), lower-cased as Chrome keys them. */
export function placeholdersUsed(entry: MessageEntry): string[] {
  return [...entry.message.matchAll(/\$([A-Za-z_@][A-Za-z0-9_@]*)\$/g)].map((m) => m[1].toLowerCase());
}

/**
 * Plurals in English text outside the locale files (the runner's, the batch's, summary.html):
 * Intl.PluralRules' form of n ("one", "other", …; Chinese has only "other").
 */
export function pluralForm(n: number, locale: string = 'en'): Intl.LDMLPluralRule {
  const lang = locale.replace('_', '-');
  let rules = PLURAL_RULES.get(lang);
  if (!rules) PLURAL_RULES.set(lang, (rules = new Intl.PluralRules(lang)));
  return rules.select(n);
}

/** one Intl.PluralRules per language, made on first use */
const PLURAL_RULES = new Map<string, Intl.PluralRules>();

/** "1 step", "3 steps", "0 steps": the number and the English noun in the form its count takes. */
export function count(n: number, one: string, other = `${one}s`): string {
  return `${n} ${pluralForm(n, 'en') === 'one' ? one : other}`;
}
