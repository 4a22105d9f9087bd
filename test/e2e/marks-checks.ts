/**
 * What the labeling-quality specs share (not a spec): labeling the corpus (test/fixtures/pages/marks/,
 * rules in its README) with ours and with the WebVoyager baseline, and the assertions ours must pass.
 *
 * - test/e2e/marks-quality.spec.ts (the default suite, `npm run test:e2e`): ours alone, on every
 *   page, held to every assertion here (expectOurs).
 * - test/corpus/marks-baseline.spec.ts (`npm run test:corpus`): the baseline beside ours on the
 *   whole corpus, the comparison table printed (ours still held to expectOurs).
 */
import { expect } from './fixtures';
import { baselineUnderTest, benchLabeler, oursUnderTest, type PageRun } from '../bench/marks-bench';
import { plainSession } from '../bench/marks-browser';
import { listPages, type Corpus, type CorpusPage } from '../bench/marks-corpus';
import { extensionStatus, oursMode, startOurs } from '../bench/marks-ours';
import { totals } from '../bench/marks-report';

/** the pages labelled: every page of the corpus, or those BENCH_PAGES names (comma-separated parts of names) */
export const benchPages = (): CorpusPage[] => listPages(process.env.BENCH_PAGES);

/** One line of a labeler's figures on the pages it labelled. */
export function figures(who: string, runs: PageRun[]): string {
  const t = totals(runs);
  return `${who}: recall ${t.found}/${t.gold}, decoys labelled ${t.decoysLabelled}/${t.decoys}, texts ${t.textOk}/${t.textChecked}, overlaps ${t.overlaps}, gaps ${t.gaps}`;
}

/**
 * Ours on the pages: in the built extension (view message `marks/label`, all frames merged), or with
 * OURS=harness (or before the extension had `marks/label`) through the single-frame harness, which
 * cannot be held to the checks that NEED THE EXTENSION: gold/decoy elements inside iframes and
 * closed shadow roots are then left out of the score (marks-bench.ts, oursUnderTest's scope) and
 * reported as "out of scope". Prints ours' figures.
 */
export async function labelOurs(corpus: Corpus, pages: CorpusPage[]): Promise<PageRun[]> {
  const status = extensionStatus();
  const mode = oursMode();
  if (mode === 'harness' && process.env.OURS !== 'harness' && !status.ready && status.why.startsWith('dist/')) {
    throw new Error(`The extension has marks/label but ${status.why}.`);
  }
  console.log(`ours via ${mode} (${status.why})`);
  const ours = await startOurs(mode);
  let runs: PageRun[];
  try {
    runs = await benchLabeler(oursUnderTest(ours), { corpus, pages, runs: 0, screenshot: false });
  } finally {
    await ours.close();
  }
  const outOfScope = runs.reduce((n, r) => n + r.outOfScope, 0);
  if (outOfScope) console.log(`${outOfScope} gold/decoy elements in iframes or closed shadow roots were out of the harness's scope`);
  console.log(figures('ours', runs));
  return runs;
}

/** The WebVoyager baseline on the pages (its numbers are printed, never asserted; it must label every page). */
export async function labelBaseline(corpus: Corpus, pages: CorpusPage[]): Promise<PageRun[]> {
  const plain = await plainSession();
  let runs: PageRun[];
  try {
    runs = await benchLabeler(baselineUnderTest(plain), { corpus, pages, runs: 0, screenshot: false });
  } finally {
    await plain.close();
  }
  console.log(figures('baseline', runs));
  return runs;
}

/**
 * What ours must reach (soft assertions, so every failing check is reported): every page labelled,
 * no corpus problems, recall >= 99.5 %, no decoy labelled, no control labelled twice, >= 98 % of gold
 * texts exactly right, no overlapping label tags, no numbering gaps. Timings are never asserted.
 */
export function expectOurs(runs: PageRun[]): void {
  const t = totals(runs);
  expect.soft(t.failedPages, 'pages that could not be labelled').toEqual([]);
  expect.soft(runs.flatMap((r) => r.corpusProblems.map((p) => `${r.page}: ${p}`)), 'corpus problems').toEqual([]);
  expect.soft(t.recall ?? 0, `recall; missed:\n${t.missed.join('\n')}`).toBeGreaterThanOrEqual(0.995);
  expect.soft(t.decoyList, 'decoys labelled').toEqual([]);
  expect.soft(runs.flatMap((r) => (r.score?.duplicates ?? []).map((d) => `${r.page}: ${d}`)), 'controls labelled twice').toEqual([]);
  const wrong = t.textWrong.map((w) => `${w.desc}: want "${w.want}" got "${w.got}"`);
  expect.soft(t.textAccuracy ?? 0, `text accuracy; wrong:\n${wrong.join('\n')}`).toBeGreaterThanOrEqual(0.98);
  const per = (k: 'overlaps' | 'gaps') => runs.filter((r) => r.score && r.score[k] > 0).map((r) => `${r.page}: ${r.score![k]}`);
  expect.soft(per('overlaps'), 'pages with overlapping label tags').toEqual([]);
  expect.soft(per('gaps'), 'pages with numbering gaps').toEqual([]);
}
