/**
 * The price table in settings: one row per model, input and output price per million tokens, in
 * the currency set beside it (every cost shown is in it). Rows are kept as typed (a half-filled
 * row is fine while editing) and parsed on Save.
 */
import { t } from '../i18n';
import type { PriceTable } from '../../src/core/costs';

export interface PriceRow { key: number; model: string; input: string; output: string }

let nextKey = 1;

/** A new row (for this model, or blank), prices still to type. */
export function emptyRow(model = ''): PriceRow {
  return { key: nextKey++, model, input: '', output: '' };
}

export function rowsOf(t: PriceTable): PriceRow[] {
  return Object.entries(t).map(([model, p]) => ({ key: nextKey++, model, input: String(p.inputPerMillion), output: String(p.outputPerMillion) }));
}

function price(text: string): number | null {
  if (!text.trim()) return null;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** The table the rows say, or what is wrong with them. Empty rows are ignored. */
export function tableOf(rows: PriceRow[]): { table: PriceTable; problem: string | null } {
  const table: PriceTable = {};
  for (const r of rows) {
    const model = r.model.trim();
    if (!model && !r.input.trim() && !r.output.trim()) continue;
    if (!model) return { table, problem: t('priceNeedsModel') };
    const i = price(r.input);
    const o = price(r.output);
    if (i === null || o === null) return { table, problem: t('priceNotNumber', model) };
    if (model in table) return { table, problem: t('priceTwice', model, rows.filter((x) => x.model.trim() === model).length) };
    table[model] = { inputPerMillion: i, outputPerMillion: o };
  }
  return { table, problem: null };
}

export function PriceTableForm({ rows, onChange, problem, currency, currencyProblem, onCurrency }: {
  rows: PriceRow[]; onChange: (rows: PriceRow[]) => void; problem: string | null;
  currency: string; currencyProblem: string | undefined; onCurrency: (code: string) => void;
}) {
  const edit = (key: number, patch: Partial<PriceRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const value = (e: Event) => (e.target as HTMLInputElement).value;
  return (
    <fieldset class="prices" data-testid="price-table">
      <legend>{t('pricesLegend', currency)}</legend>
      <div class="field currency">
        <label for="setting-currency">{t('fieldCurrency')}</label>
        <input type="text" id="setting-currency" data-testid="setting-currency" value={currency} autocomplete="off" maxLength={3} spellcheck={false}
          aria-describedby="setting-currency-help" aria-invalid={!!currencyProblem || undefined} onInput={(e) => onCurrency(value(e))} />
        <small id="setting-currency-help" class={currencyProblem ? 'help bad' : 'help'}>{currencyProblem ?? t('fieldCurrencyHelp')}</small>
      </div>
      <table>
        <colgroup><col class="price-model" /><col class="price-num" /><col class="price-num" /><col /></colgroup>
        <thead><tr><th>{t('fieldModel')}</th><th>{t('priceInput')}</th><th>{t('priceOutput')}</th><th /></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-testid="price-row" data-model={r.model}>
              <td><input type="text" data-testid="price-model" aria-label={t('fieldModel')} value={r.model} autocomplete="off" onInput={(e) => edit(r.key, { model: value(e) })} /></td>
              <td><input type="number" step="any" min="0" data-testid="price-input" aria-label={t('priceInputOf', r.model || t('thisModel'))} value={r.input} onInput={(e) => edit(r.key, { input: value(e) })} /></td>
              <td><input type="number" step="any" min="0" data-testid="price-output" aria-label={t('priceOutputOf', r.model || t('thisModel'))} value={r.output} onInput={(e) => edit(r.key, { output: value(e) })} /></td>
              <td><button type="button" data-testid="price-remove" title={t('removeRow')} aria-label={r.model ? t('removeNamed', r.model) : t('removeRow')} onClick={() => onChange(rows.filter((x) => x.key !== r.key))}>✕</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" data-testid="price-add" onClick={() => onChange([...rows, emptyRow()])}>{t('addModel')}</button>
      <small class={problem ? 'error' : 'hint'} data-testid="price-problem">{problem ?? t('priceHelp')}</small>
    </fieldset>
  );
}
