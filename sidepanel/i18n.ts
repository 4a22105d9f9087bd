/**
 * The panel's language. Every word the panel shows goes through t(); the strings are in
 * public/_locales/<locale>/messages.json. The language follows the browser until the person picks
 * one in Settings; a change re-renders the panel at once (use-language.ts, in app.tsx).
 */
import { localeFor, type Arg, type LanguageSetting, type Locale } from '../src/core/i18n';
import { translatorFor } from '../src/core/locales';

function browserLanguage(): string {
  try {
    return chrome.i18n.getUILanguage();
  } catch {
    return typeof navigator === 'undefined' ? 'en' : navigator.language;
  }
}

let locale: Locale = localeFor('auto', browserLanguage());
let current = translatorFor(locale);

/** The text of a message in the panel's language. */
export function t(key: string, ...args: Arg[]): string {
  return current(key, ...args);
}

export function currentLocale(): Locale {
  return locale;
}

/** Switches the panel's language (the caller re-renders). */
export function applyLanguage(setting: LanguageSetting): Locale {
  locale = localeFor(setting, browserLanguage());
  current = translatorFor(locale);
  document.documentElement.lang = locale === 'zh_CN' ? 'zh-CN' : 'en';
  return locale;
}
