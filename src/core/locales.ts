import en from '../../public/_locales/en/messages.json' with { type: 'json' };
import zhCN from '../../public/_locales/zh_CN/messages.json' with { type: 'json' };
import { languageOf, translator, type Locale, type Messages, type Translate } from './i18n';

/**
 * The message files, bundled: the panel switches language at once and the report gets its strings at
 * export without a fetch. The same files are the extension's _locales, which Chrome reads for the
 * manifest's name and description.
 */
export const MESSAGES: Record<Locale, Messages> = { en: en as Messages, zh_CN: zhCN as Messages };

/** A translator for a locale (English when none is given), English where a key is missing. */
export function translatorFor(locale: Locale = 'en'): Translate {
  return translator(MESSAGES[locale], MESSAGES.en, languageOf(locale));
}

/** English: what the runner prints and what traces keep. */
export const english: Translate = translatorFor('en');
