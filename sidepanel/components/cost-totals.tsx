/**
 * The cost of the runs History lists (core/cost-totals.ts): one line with the sum, and per day and
 * per model when opened. Over the runs the search shows, so "glm" totals one model's runs. Sums
 * stay in the currency each run was priced in (never converted); runs without a price are counted
 * apart, with their tokens.
 */
import { costTotals, type CostTotal, type Costed } from '../../src/core/cost-totals';
import { costText } from '../cost-note';
import { formatCount } from '../format';
import { currentLocale, t } from '../i18n';

const amountText = (total: CostTotal) => (total.amounts.length ? total.amounts.map((a) => costText(a.amount, a.currency)).join(' + ') : '—');

/** "30 Nov 2026" for the day key "2026-11-30", in the panel's language. */
function dayText(key: string): string {
  const [y, m, d] = key.split('-').map(Number);
  return new Date(y, m - 1, d).toLocaleDateString(currentLocale() === 'zh_CN' ? 'zh-CN' : 'en', { year: 'numeric', month: 'short', day: 'numeric' });
}

function Rows({ totals, label, testId }: { totals: CostTotal[]; label: (key: string) => string; testId: string }) {
  return (
    <table class="cost-table" data-testid={testId}>
      <tbody>
        {totals.map((x) => (
          <tr key={x.key} data-testid="cost-row" data-key={x.key}>
            <th scope="row">{label(x.key)}</th>
            <td data-testid="cost-amount">{amountText(x)}</td>
            <td class="hint">{t('costRuns', x.runs)}{x.unpriced ? ` · ${t('costUnpriced', x.unpriced)}` : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CostTotals({ runs }: { runs: Costed[] }) {
  if (!runs.length) return null;
  const totals = costTotals(runs, (ms) => -new Date(ms).getTimezoneOffset());
  const { all } = totals;
  return (
    <details class="cost-totals" data-testid="cost-totals">
      <summary data-testid="cost-total">
        {t('costTotal', amountText(all), t('costRuns', all.runs))}
        {all.unpriced ? ` · ${t('costUnpriced', all.unpriced)}` : ''}
      </summary>
      <h3>{t('costByDay')}</h3>
      <Rows totals={totals.byDay} label={dayText} testId="cost-by-day" />
      <h3>{t('costByModel')}</h3>
      <Rows totals={totals.byModel} label={(k) => k} testId="cost-by-model" />
      <p class="hint">{t('costTokensNote', formatCount(all.tokens))}</p>
    </details>
  );
}
