/**
 * What a run costs: tokens from the responses' usage, priced per model from the table in settings
 * (per million tokens, input and output, in the person's currency). Pure.
 */
/** Tokens of one response (or a sum of them). */
export interface Usage { promptTokens: number; completionTokens: number }

export interface Price { inputPerMillion: number; outputPerMillion: number }
/** model name -> price; a model not in the table has no known cost */
export type PriceTable = Record<string, Price>;

/** Examples to start from; the person edits them to their provider's prices. */
export const DEFAULT_PRICES: PriceTable = {
  'glm-4.5v': { inputPerMillion: 0.6, outputPerMillion: 1.8 },
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
};

export function tokensOf(usages: Array<Usage | null>): Usage {
  const t = { promptTokens: 0, completionTokens: 0 };
  for (const u of usages) {
    if (!u) continue;
    t.promptTokens += u.promptTokens;
    t.completionTokens += u.completionTokens;
  }
  return t;
}

/** The cost of these tokens at this price, or null when the price is unknown. */
export function costOf(tokens: Usage, price: Price | null | undefined): number | null {
  if (!price) return null;
  return (tokens.promptTokens * price.inputPerMillion + tokens.completionTokens * price.outputPerMillion) / 1_000_000;
}

/** A price read from untrusted data (an imported trace), or null when it is not one. */
export function asPrice(x: unknown): Price | null {
  const q = x as Partial<Price> | null;
  const i = q?.inputPerMillion, o = q?.outputPerMillion;
  return typeof i === 'number' && typeof o === 'number' && Number.isFinite(i) && Number.isFinite(o) && i >= 0 && o >= 0 ? { inputPerMillion: i, outputPerMillion: o } : null;
}

export function normalizePrices(input: unknown): PriceTable {
  const out: PriceTable = {};
  if (!input || typeof input !== 'object') return { ...DEFAULT_PRICES };
  for (const [model, p] of Object.entries(input as Record<string, unknown>)) {
    const q = p as Partial<Price> | null;
    const i = Number(q?.inputPerMillion);
    const o = Number(q?.outputPerMillion);
    if (model.trim() && Number.isFinite(i) && Number.isFinite(o) && i >= 0 && o >= 0) out[model.trim()] = { inputPerMillion: i, outputPerMillion: o };
  }
  return out;
}

/** The currency of the price table when the person has not chosen one (ISO 4217 code). */
export const DEFAULT_CURRENCY = 'USD';

/** A currency setting read from untrusted data: an ISO 4217 code (three letters, any case), upper-cased, or null. */
export function asCurrency(x: unknown): string | null {
  if (typeof x !== 'string') return null;
  const code = x.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : null;
}

/** Whether `code` is a currency this JavaScript knows (Intl.supportedValuesOf; any well-formed code where that is missing). */
export function isKnownCurrency(code: string): boolean {
  const c = asCurrency(code);
  if (!c) return false;
  const list = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf;
  try {
    return list ? list('currency').includes(c) : true;
  } catch {
    return true;
  }
}

/**
 * An amount of money for a person: in `currency` (ISO 4217) through Intl.NumberFormat in `locale`
 * ("en", "zh-CN"), 4 decimals below 0.01 (a step costs fractions of a cent), else 2. A code
 * Intl does not know is written after the number ("0.0036 XYZ"); no currency (a trace made before
 * the currency was recorded): the number alone.
 */
export function formatMoney(amount: number, currency: string | null | undefined, locale = 'en'): string {
  const digits = amount !== 0 && Math.abs(amount) < 0.01 ? 4 : 2;
  const plain = amount.toFixed(digits);
  const code = asCurrency(currency);
  if (!code) return plain;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: code, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
  } catch {
    return `${plain} ${code}`;
  }
}

/** A run's cost for a person (formatMoney), or that it is unknown. */
export function formatCost(c: number | null, currency: string | null | undefined = DEFAULT_CURRENCY, locale = 'en'): string {
  if (c === null) return 'unknown (no price for this model in settings)';
  return formatMoney(c, currency, locale);
}
