/**
 * The panel's language. Every word the panel shows goes through t(); the strings are in
 * public/_locales/<locale>/messages.json. The language follows the browser until the person picks
 * one in Settings; a change re-renders the panel at once (useLanguage in app.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { localeFor, type Arg, type LanguageSetting, type Locale } from '../src/core/i18n';
import { translatorFor } from '../src/core/locales';
import { onSettingsChange, send } from './api';

function browserLanguage(): string {
  try {
    return chrome.i18n.getUILanguage();
  } catch {
    return navigator.language;
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

function apply(setting: LanguageSetting): Locale {
  locale = localeFor(setting, browserLanguage());
  current = translatorFor(locale);
  document.documentElement.lang = locale === 'zh_CN' ? 'zh-CN' : 'en';
  return locale;
}

/** The panel's locale, following the saved setting; the component using it re-renders on a change. */
export function useLanguage(): Locale {
  const [value, setValue] = useState<Locale>(() => apply('auto'));
  useEffect(() => {
    send('settings/get', {}).then((s) => setValue(apply(s.language)), () => undefined);
    return onSettingsChange((s) => setValue(apply(s.language)));
  }, []);
  return value;
}
