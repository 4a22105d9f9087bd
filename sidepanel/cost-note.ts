/**
 * "Cost unknown" is said once per model, not on every run: the first run of a model without a
 * price says it (every time that run is shown); later runs of the same model show tokens only.
 * Remembered in the panel's own localStorage (a display preference, nothing secret).
 */
import { formatMoney } from '../src/core/costs';
import { currentLocale, t } from './i18n';

const KEY = 'webagent.costUnknownTold';

/** Whether this run of this model is the one that tells the person its cost is unknown. */
export function costNoteFor(model: string, runId: string, store: Pick<Storage, 'getItem' | 'setItem'> = localStorage): boolean {
  let told: Record<string, string> = {};
  try {
    const v = JSON.parse(store.getItem(KEY) ?? '{}') as unknown;
    if (v && typeof v === 'object') told = v as Record<string, string>;
  } catch { /* a broken entry: start again */ }
  if (told[model] !== undefined) return told[model] === runId;
  told[model] = runId;
  try { store.setItem(KEY, JSON.stringify(told)); } catch { /* storage full or blocked: say it again next time */ }
  return true;
}

/** A cost as the panel shows it: in the run's currency (the price table's when it ran), in the panel's language; unknown when null. */
export function costText(cost: number | null, currency: string | null | undefined): string {
  return cost === null ? t('reportCostUnknown') : formatMoney(cost, currency ?? null, currentLocale() === 'zh_CN' ? 'zh-CN' : 'en');
}
