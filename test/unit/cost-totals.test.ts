/** Cost totals per day and per model (History's, the batch summary's): per currency, never converted; unpriced runs counted apart. */
import { describe, expect, it } from 'vitest';
import { costTotals, dayKey, type Costed } from '../../src/core/cost-totals';

const run = (over: Partial<Costed>): Costed => ({ model: 'glm-4.5v', startedAt: Date.UTC(2026, 10, 30, 12), cost: 0.01, currency: 'USD', promptTokens: 1000, completionTokens: 100, ...over });

describe('costTotals', () => {
  it('sums per day (newest first) and per model (most expensive first), the tokens of every run', () => {
    const t = costTotals([
      run({}),
      run({ cost: 0.02, startedAt: Date.UTC(2026, 10, 29, 9) }),
      run({ model: 'gpt-4o', cost: 0.5 }),
    ]);
    expect(t.all).toEqual({ key: '', amounts: [{ currency: 'USD', amount: 0.53 }], runs: 3, unpriced: 0, tokens: 3300 });
    expect(t.byDay.map((d) => [d.key, d.amounts[0].amount, d.runs])).toEqual([['2026-11-30', 0.51, 2], ['2026-11-29', 0.02, 1]]);
    expect(t.byModel.map((m) => [m.key, m.amounts[0].amount, m.runs])).toEqual([['gpt-4o', 0.5, 1], ['glm-4.5v', 0.03, 2]]);
  });
  it('keeps one sum per currency, and counts runs without a cost (no price, or saved before costs were kept) apart with their tokens', () => {
    const t = costTotals([run({}), run({ currency: 'CNY', cost: 0.07 }), run({ cost: null }), run({ cost: undefined, currency: undefined })]);
    expect(t.all.amounts).toEqual([{ currency: 'USD', amount: 0.01 }, { currency: 'CNY', amount: 0.07 }]);
    expect(t.all.unpriced).toBe(2);
    expect(t.all.tokens).toBe(4400);
    const only = costTotals([run({ cost: null })]);
    expect(only.all.amounts).toEqual([]);
    expect(only.byModel[0]).toMatchObject({ key: 'glm-4.5v', runs: 1, unpriced: 1 });
  });
  it('days are the person\'s local days (the offset east of UTC at that moment)', () => {
    const late = Date.UTC(2026, 10, 30, 23, 30);
    expect(dayKey(late)).toBe('2026-11-30');
    expect(dayKey(late, 8 * 60)).toBe('2026-12-01');
    expect(dayKey(late, -5 * 60)).toBe('2026-11-30');
    expect(costTotals([run({ startedAt: late })], () => 8 * 60).byDay[0].key).toBe('2026-12-01');
  });
});
