import { useEffect, useState } from 'preact/hooks';
import { isLanguageSetting, type LanguageSetting, type Locale } from '../src/core/i18n';
import { onSettingsChange, send } from './api';
import { applyLanguage } from './i18n';

/** The last setting seen, so the panel's first paint is already in the person's language. */
const LAST = 'webagent.language';

function remembered(): LanguageSetting {
  try {
    const v = localStorage.getItem(LAST);
    return isLanguageSetting(v) ? v : 'auto';
  } catch {
    return 'auto';
  }
}

function take(setting: LanguageSetting): Locale {
  try { localStorage.setItem(LAST, setting); } catch { /* blocked: the first paint follows the browser */ }
  return applyLanguage(setting);
}

/** The panel's locale, following the saved setting; the component using it re-renders on a change. */
export function useLanguage(): Locale {
  const [value, setValue] = useState<Locale>(() => applyLanguage(remembered()));
  useEffect(() => {
    send('settings/get', {}).then((s) => setValue(take(s.language)), () => undefined);
    return onSettingsChange((s) => setValue(take(s.language)));
  }, []);
  return value;
}
