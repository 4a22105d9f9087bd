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

export function formatCost(c: number | null): string {
  if (c === null) return 'unknown (no price for this model in settings)';
  return c < 0.01 ? `${c.toFixed(4)}` : c.toFixed(2);
}
