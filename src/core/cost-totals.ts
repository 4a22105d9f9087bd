/**
 * What runs cost together: totals per day and per model (History in the panel; the batch's
 * summary.html per model). A run's cost is in the currency its price table had when it ran, so
 * amounts are summed per currency and never converted: a person who changed currency sees one
 * sum per currency. Runs without a known cost (no price for their model, or recorded before costs
 * were kept) are counted apart, with their tokens. Pure.
 */

/** What a total needs of one run (or one batch task). */
export interface Costed {
  /** the run's model (the key of the per-model totals) */
  model: string;
  /** when it started, ms since the epoch (the key of the per-day totals) */
  startedAt: number;
  /** null or absent: no known cost */
  cost?: number | null;
  /** the cost's currency (ISO 4217); null or absent: not recorded */
  currency?: string | null;
  promptTokens: number;
  completionTokens: number;
}

/** One currency's sum. */
export interface Amount { currency: string | null; amount: number }

export interface CostTotal {
  /** the day ("2026-11-30", the person's local day) or the model */
  key: string;
  /** one sum per currency, in the order first met; empty when no run of it has a cost */
  amounts: Amount[];
  runs: number;
  /** of `runs`, those without a known cost */
  unpriced: number;
  tokens: number;
}

export interface CostTotals {
  all: CostTotal;
  /** newest day first */
  byDay: CostTotal[];
  /** the most expensive first (by their first currency's sum), then by name */
  byModel: CostTotal[];
}

const hasCost = (r: Costed): r is Costed & { cost: number } => typeof r.cost === 'number' && Number.isFinite(r.cost);

function add(t: CostTotal, r: Costed): void {
  t.runs++;
  t.tokens += r.promptTokens + r.completionTokens;
  if (!hasCost(r)) {
    t.unpriced++;
    return;
  }
  const currency = r.currency ?? null;
  const a = t.amounts.find((x) => x.currency === currency);
  if (a) a.amount += r.cost;
  else t.amounts.push({ currency, amount: r.cost });
}

const empty = (key: string): CostTotal => ({ key, amounts: [], runs: 0, unpriced: 0, tokens: 0 });

/**
 * The local day of a moment as "YYYY-MM-DD", `offsetMinutes` east of UTC (the panel passes its
 * own: -new Date(ms).getTimezoneOffset()).
 */
export function dayKey(ms: number, offsetMinutes = 0): string {
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** Totals over `runs`: all of them, per day (`offsetOf`: the local offset at a moment), per model. */
export function costTotals(runs: readonly Costed[], offsetOf: (ms: number) => number = () => 0): CostTotals {
  const all = empty('');
  const days = new Map<string, CostTotal>();
  const models = new Map<string, CostTotal>();
  for (const r of runs) {
    add(all, r);
    const day = dayKey(r.startedAt, offsetOf(r.startedAt));
    const d = days.get(day) ?? empty(day);
    days.set(day, d);
    add(d, r);
    const name = r.model.trim() || '?';
    const m = models.get(name) ?? empty(name);
    models.set(name, m);
    add(m, r);
  }
  const first = (t: CostTotal) => t.amounts[0]?.amount ?? -1;
  return {
    all,
    byDay: [...days.values()].sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0)),
    byModel: [...models.values()].sort((a, b) => first(b) - first(a) || (a.key < b.key ? -1 : 1)),
  };
}
