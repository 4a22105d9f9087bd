/**
 * Labeling quality on the whole corpus (test/fixtures/pages/marks/, rules in its README):
 * ours must reach recall >= 99.5 %, label no decoy, label no control twice, get >= 98 % of gold texts exactly right,
 * draw no overlapping label tags and leave no numbering gaps. The WebVoyager baseline runs too;
 * its numbers are printed, never asserted. Timings are never asserted.
 *
 * Ours runs in the built extension (view message `marks/label`, all frames merged). With OURS=harness
 * (or before the extension had `marks/label`) it runs through the single-frame harness instead,
 * which cannot be held to the checks that NEED THE EXTENSION: gold/decoy elements inside iframes
 * (iframe-same-origin, iframe-cross-origin) and inside closed shadow roots (shadow-closed) are then
 * left out of the score (marks-bench.ts, oursUnderTest's scope) and reported as "out of scope".
 */
import { test, expect } from '@playwright/test';
import { baselineUnderTest, benchLabeler, oursUnderTest, type PageRun } from '../bench/marks-bench';
import { plainSession } from '../bench/marks-browser';
import { listPages, serveCorpus, type Corpus } from '../bench/marks-corpus';
import { extensionStatus, oursMode, startOurs } from '../bench/marks-ours';
import { pageRows, printTables, totals } from '../bench/marks-report';

const pages = listPages(process.env.BENCH_PAGES);
let corpus: Corpus;
let oursRuns: PageRun[] = [];
let baseRuns: PageRun[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  corpus = await serveCorpus();
});

test.afterAll(async () => {
  if (oursRuns.length && baseRuns.length) printTables(pageRows(oursRuns, baseRuns), totals(oursRuns), totals(baseRuns), oursMode(), false);
  await corpus?.close();
});

test('the corpus has at least 30 pages', () => {
  expect(listPages().length).toBeGreaterThanOrEqual(30);
});

// The baseline first: serial mode skips the tests after a failing one, and ours is the one that may fail.
test('the WebVoyager baseline runs on the corpus (numbers printed, not asserted)', async () => {
  test.setTimeout(15 * 60_000);
  const plain = await plainSession();
  try {
    baseRuns = await benchLabeler(baselineUnderTest(plain), { corpus, pages, runs: 0, screenshot: false });
  } finally {
    await plain.close();
  }
  const t = totals(baseRuns);
  console.log(`baseline: recall ${t.found}/${t.gold}, decoys labelled ${t.decoysLabelled}/${t.decoys}, texts ${t.textOk}/${t.textChecked}, overlaps ${t.overlaps}, gaps ${t.gaps}`);
  expect(baseRuns.filter((r) => r.score).length, 'pages the baseline labelled').toBe(pages.length);
});

test('ours on the corpus: recall, no decoys, texts, no overlapping tags, no numbering gaps', async () => {
  test.setTimeout(15 * 60_000);
  const status = extensionStatus();
  const mode = oursMode();
  if (mode === 'harness' && process.env.OURS !== 'harness' && !status.ready && status.why.startsWith('dist/')) {
    throw new Error(`The extension has marks/label but ${status.why}.`);
  }
  console.log(`ours via ${mode} (${status.why})`);
  const ours = await startOurs(mode);
  try {
    oursRuns = await benchLabeler(oursUnderTest(ours), { corpus, pages, runs: 0, screenshot: false });
  } finally {
    await ours.close();
  }
  const t = totals(oursRuns);
  const outOfScope = oursRuns.reduce((n, r) => n + r.outOfScope, 0);
  if (outOfScope) console.log(`${outOfScope} gold/decoy elements in iframes or closed shadow roots were out of the harness's scope`);
  console.log(`ours: recall ${t.found}/${t.gold}, decoys labelled ${t.decoysLabelled}/${t.decoys}, texts ${t.textOk}/${t.textChecked}, overlaps ${t.overlaps}, gaps ${t.gaps}`);

  expect.soft(t.failedPages, 'pages that could not be labelled').toEqual([]);
  expect.soft(oursRuns.flatMap((r) => r.corpusProblems.map((p) => `${r.page}: ${p}`)), 'corpus problems').toEqual([]);
  expect.soft(t.recall ?? 0, `recall; missed:\n${t.missed.join('\n')}`).toBeGreaterThanOrEqual(0.995);
  expect.soft(t.decoyList, 'decoys labelled').toEqual([]);
  expect.soft(oursRuns.flatMap((r) => (r.score?.duplicates ?? []).map((d) => `${r.page}: ${d}`)), 'controls labelled twice').toEqual([]);
  const wrong = t.textWrong.map((w) => `${w.desc}: want "${w.want}" got "${w.got}"`);
  expect.soft(t.textAccuracy ?? 0, `text accuracy; wrong:\n${wrong.join('\n')}`).toBeGreaterThanOrEqual(0.98);
  const per = (k: 'overlaps' | 'gaps') => oursRuns.filter((r) => r.score && r.score[k] > 0).map((r) => `${r.page}: ${r.score![k]}`);
  expect.soft(per('overlaps'), 'pages with overlapping label tags').toEqual([]);
  expect.soft(per('gaps'), 'pages with numbering gaps').toEqual([]);
});
