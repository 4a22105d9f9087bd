/** The person's language in the background: what a run says to them (stop reasons, guard reasons, errors). */
import { localeFor, type Locale, type Translate } from '../core/i18n';
import { translatorFor } from '../core/locales';
import type { Settings } from '../core/settings';

function uiLanguage(): string {
  try {
    return chrome.i18n.getUILanguage();
  } catch {
    return 'en';
  }
}

export function personLocale(s: Pick<Settings, 'language'>): Locale {
  return localeFor(s.language, uiLanguage());
}

export function personT(s: Pick<Settings, 'language'>): Translate {
  return translatorFor(personLocale(s));
}
