/**
 * The batch summary: its numbers (success per site, judged or finished), its page (escaped,
 * self-contained, linked to each task's report) and WebVoyager's reference answers.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readReferences, succeeded, successText, summaryHtml, summaryStats } from '../../src/core/batch/summary';
import type { TaskResult, Verdict } from '../../src/core/batch/types';

function result(id: string, over: Partial<TaskResult> = {}): TaskResult {
  const site = id.split('--')[0];
  return {
    id, site, task: `Task ${id}`, url: 'https://example.com/', folder: `task${id}`,
    status: 'finished', kind: 'finished', answer: 'an answer', stopReason: null, guard: null,
    steps: 4, tokens: { prompt: 1000, completion: 100 }, cost: 0.01,
    durations: { totalMs: 30_000, startMs: 1000, runMs: 28_000, exportMs: 1000 },
    attempts: 1, verdict: null, startedAt: '2025-01-01T00:00:00.000Z', endedAt: '2025-01-01T00:00:30.000Z', worker: 'h:1',
    ...over,
  };
}

const verdict = (success: boolean): Verdict => ({ judge: 'webvoyager', success, text: success ? 'SUCCESS' : 'NOT SUCCESS', model: 'gpt-4o', screenshots: 3, usage: { promptTokens: 2000, completionTokens: 50 } });

describe('successText (the batch runner\'s last line)', () => {
  it('never counts an unjudged task under the judge\'s verdict (a batch stopped before its judge)', () => {
    const mixed = summaryStats([result('A--0', { verdict: verdict(true) }), result('A--1')]);
    expect(mixed.byJudge).toEqual({ tasks: 1, succeeded: 1, rate: 1 });
    expect(mixed.unjudged).toEqual({ tasks: 1, succeeded: 1, rate: 1 });
    expect(successText(mixed)).toBe('success 2/2 (100%: 1/1 judged a success by the judge; 1/1 not judged, counted as a success when it finished)');
    expect(successText(summaryStats([result('A--0', { verdict: verdict(false) }), result('A--1'), result('A--2', { kind: 'agent' })])))
      .toBe('success 1/3 (33.3%: 0/1 judged a success by the judge; 1/2 not judged, counted as a success when they finished)');
  });
  it('all judged, or none', () => {
    expect(successText(summaryStats([result('A--0', { verdict: verdict(true) })]))).toBe('success 1/1 (100%, by the judge\'s verdict on 1 task)');
    expect(successText(summaryStats([result('A--0', { verdict: verdict(true) }), result('A--1', { verdict: verdict(false) })]))).toBe('success 1/2 (50%, by the judge\'s verdict on 2 tasks)');
    expect(successText(summaryStats([result('A--0')]))).toBe('success 1/1 (100%: finished tasks, none judged)');
  });
});

describe('summary page wording', () => {
  it('counts in the right form and shows a readable date in the given time zone', () => {
    const one = summaryHtml([result('A--0', { steps: 1, verdict: { ...verdict(true), screenshots: 1 } })], { title: 't', generatedAt: '2026-11-27T18:40:00.000Z', timeZone: 'Asia/Shanghai' });
    expect(one).toContain('<time datetime="2026-11-27T18:40:00.000Z">Nov 28, 2026, 02:40 GMT+8</time> · 1 task ·');
    expect(one).toContain('1 screenshot)');
    expect(one).toContain('>1 step<');
    expect(one).not.toMatch(/\b1 (steps|tasks|screenshots)\b/);
    const two = summaryHtml([result('A--0', { cost: 0.02 }), result('A--1', { verdict: verdict(false) })], { title: 't', generatedAt: '2026-11-27T18:40:00.000Z', timeZone: 'UTC' });
    expect(two).toContain('Nov 27, 2026, 18:40 UTC');
    expect(two).toContain(' · 2 tasks ·');
    expect(two).toContain('over 2 priced tasks;');
    expect(two).toContain('1 of 2 tasks was judged');
  });
});

describe('summaryStats', () => {
  it('counts a judged task by its verdict and an unjudged one by finishing, per site', () => {
    const rs = [
      result('Allrecipes--0', { verdict: verdict(true) }),
      result('Allrecipes--1', { verdict: verdict(false) }), // finished, but the judge said no
      result('Allrecipes--2', { kind: 'agent', status: 'stopped', answer: null, stopReason: 'max steps' }),
      result('Amazon--0'), // not judged, finished
      result('Amazon--1', { kind: 'infrastructure', status: 'failed', answer: null, cost: null }),
      result('Amazon--2', { kind: 'guard', status: 'stopped', answer: null, verdict: verdict(false) }),
      result('Apple--0', { kind: 'agent', status: 'stopped', verdict: verdict(true) }), // the judge's word wins
    ];
    expect(rs.map(succeeded)).toEqual([true, false, false, true, false, false, true]);
    const s = summaryStats(rs);
    expect(s.overall).toEqual({ tasks: 7, succeeded: 3, rate: 3 / 7 });
    expect(s.sites).toEqual([
      { site: 'Allrecipes', tasks: 3, succeeded: 1, rate: 1 / 3 },
      { site: 'Amazon', tasks: 3, succeeded: 1, rate: 1 / 3 },
      { site: 'Apple', tasks: 1, succeeded: 1, rate: 1 },
    ]);
    expect(s.judged).toBe(4);
    expect(s.kinds).toEqual({ finished: 3, agent: 2, guard: 1, infrastructure: 1 });
    expect(s.cost).toMatchObject({ priced: 6 });
    expect(s.cost!.total).toBeCloseTo(0.06);
    expect(s.judgeTokens).toEqual({ prompt: 8000, completion: 200 });
  });

  it('spreads steps and costs, and copes with no results', () => {
    const s = summaryStats([result('A--0', { steps: 1, cost: 0.5 }), result('A--1', { steps: 9, cost: 0.1 }), result('A--2', { steps: 4, cost: null })]);
    expect(s.steps).toEqual({ min: 1, median: 4, mean: 14 / 3, max: 9 });
    expect(s.cost).toMatchObject({ min: 0.1, max: 0.5, median: 0.3, priced: 2 });
    const none = summaryStats([]);
    expect(none.overall).toEqual({ tasks: 0, succeeded: 0, rate: 0 });
    expect(none.cost).toBeNull();
    expect(summaryHtml([], { title: 'Empty', generatedAt: 'now' })).toContain('No data.');
  });
});

describe('summaryHtml', () => {
  const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
  const rs = [
    result('Allrecipes--0', { answer: hostile, task: `Find "${hostile}"`, verdict: { ...verdict(true), text: hostile, model: '<b>m</b>' }, stopReason: null }),
    result('Amazon--0', { kind: 'agent', status: 'stopped', answer: null, stopReason: hostile, durations: { totalMs: 90_000, startMs: 0, runMs: 0, exportMs: 0 }, cost: 0.2 }),
    result('Cambridge Dictionary--0', { folder: 'taskCambridge Dictionary--0', site: 'Cambridge Dictionary' }),
  ];
  const html = summaryHtml(rs, { title: 'Batch <1>', generatedAt: '2025-01-02T03:04:05Z', references: { 'Allrecipes--0': ["'Vegetarian Four Cheese Lasagna', <4.6-star>"] } });

  it('writes costs in the currency the results name, and a bare number for results written before it was kept', () => {
    expect(summaryHtml([result('A--0', { cost: 0.005, currency: 'CNY' }), result('A--1', { cost: 1.5, currency: 'CNY' })], { title: 'T', generatedAt: '2025-01-01T00:00:00.000Z' }))
      .toContain('total CN¥1.51 over 2 priced tasks');
    const old = summaryHtml([result('A--0', { cost: 0.005 })], { title: 'T', generatedAt: '2025-01-01T00:00:00.000Z' });
    expect(old).toContain('total 0.0050 over 1 priced task;');
  });

  it('escapes every string from the results and runs no script', () => {
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>m</b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Batch &lt;1&gt;');
    expect(html).toContain('&lt;4.6-star&gt;');
    expect(html).toMatch(/Content-Security-Policy" content="default-src 'none'/);
    expect(html).not.toMatch(/<link|src="http/);
  });

  it('shows rates with the rule used, per site, the reference beside the verdict, and links each report', () => {
    expect(html).toContain('66.7 %');
    expect(html).toContain('1 of 3 tasks was judged');
    expect(html).toMatch(/<td>Amazon<\/td><td class="n">0 \/ 1<\/td><td class="n">0\.0 %<\/td>/);
    expect(html).toMatch(/<td>Cambridge Dictionary<\/td><td class="n">1 \/ 1<\/td>/);
    expect(html).toContain('reference: &#39;Vegetarian Four Cheese Lasagna&#39;');
    expect(html).toContain('href="taskAllrecipes--0/report.html"');
    expect(html).toContain('href="taskCambridge%20Dictionary--0/report.html"');
    // the slowest and the most expensive: Amazon--0 first in both
    const slowest = html.slice(html.indexOf('Slowest tasks'));
    expect(slowest.indexOf('Amazon--0')).toBeLessThan(slowest.indexOf('Allrecipes--0'));
    expect(html).toContain('1 min 30 s');
    expect(html).toContain('<svg class="hist"');
  });

  it('says when no task was judged that finishing is what counts', () => {
    const plain = summaryHtml([result('A--0')], { title: 't', generatedAt: 'g' });
    expect(plain).toContain('No task was judged');
    expect(plain).toContain('not judged');
  });
});

describe('readReferences', () => {
  it('reads WebVoyager\'s reference_answer.json shape as Site--id', () => {
    const json = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', 'fixtures', 'batch', 'reference_answer.json'), 'utf8'));
    const refs = readReferences(json);
    expect(Object.keys(refs).sort()).toEqual(['Allrecipes--0', 'Allrecipes--1', 'Allrecipes--2', 'Amazon--0', 'Amazon--1', 'Cambridge Dictionary--0']);
    expect(refs['Amazon--1']).toEqual(["PUMA Golf 2019 Men's Rotation Polo; $50.00"]);
    expect(refs['Cambridge Dictionary--0'][0]).toMatch(/^UK: \/səˌsteɪ/);
  });

  it('skips bad entries', () => {
    const refs = readReferences({
      Good: { notice: '', answers: [{ id: 1, type: 'golden', ans: 'yes' }, { id: 1, type: 'possible', ans: 'also' }, { id: '2', ans: 'str id' }] },
      NoAnswers: { notice: 'x' },
      NotList: { answers: 'nope' },
      BadItems: { answers: [null, 5, { id: 'x', ans: 'a' }, { id: 3 }, { id: 4, ans: '' }, { id: 1.5, ans: 'frac' }] },
      Null: null,
    });
    expect(refs).toEqual({ 'Good--1': ['yes', 'also'], 'Good--2': ['str id'] });
    expect(readReferences(null)).toEqual({});
    expect(readReferences([1, 2])).toEqual({});
  });
});

describe('summary.html per model', () => {
  it('sums each model\'s tasks, tokens and cost (in the results\' currency); a judge\'s tokens are listed apart, unpriced', () => {
    const html = summaryHtml([
      result('A--0', { model: 'glm-4.5v', cost: 0.01, currency: 'USD' }),
      result('A--1', { model: 'glm-4.5v', cost: 0.02, currency: 'USD', verdict: verdict(true) }),
      result('A--2', { model: 'gpt-4o', cost: null, currency: 'USD' }),
      result('A--3', { status: 'error', kind: 'infrastructure', cost: null, tokens: { prompt: 0, completion: 0 } }),
    ], { title: 'Batch', generatedAt: '2025-01-01T00:00:00Z' });
    const table = html.slice(html.indexOf('<table data-per-model>'), html.indexOf('</table>', html.indexOf('<table data-per-model>')));
    const rows = [...table.matchAll(/<tr><td>(.*?)<\/td><td class="n">(\d+)<\/td><td class="n">([\d,]+)<\/td><td class="n">(.*?)<\/td><\/tr>/g)].map((m) => m.slice(1));
    expect(rows).toEqual([
      ['glm-4.5v', '2', '2,200', '$0.03'],
      ['gpt-4o', '1', '1,100', '—<div class="muted">1 task without a price</div>'],
      ['gpt-4o <span class="muted">(judge)</span>', '1', '2,050', '<span class="muted">not priced</span>'],
    ]);
  });
});
