/**
 * Labeling quality of ours on the whole corpus (test/fixtures/pages/marks/, rules in its README), in
 * the default suite (`npm run test:e2e`): every page is labelled and ours must reach recall >= 99.5 %,
 * label no decoy, label no control twice, get >= 98 % of gold texts exactly right, draw no
 * overlapping label tags and leave no numbering gaps (expectOurs, test/e2e/marks-checks.ts). Ours'
 * figures are printed. Timings are never asserted.
 *
 * What runs where (issue 39: the default suite must stay fast): the WebVoyager baseline, which only
 * gives numbers to compare with (never asserted), runs beside ours in
 * test/corpus/marks-baseline.spec.ts (`npm run test:corpus`), which prints the comparison table;
 * `npm run bench` adds the cost tables.
 *
 * Ours runs in the built extension (view message `marks/label`, all frames merged). With OURS=harness
 * (or before the extension had `marks/label`) it runs through the single-frame harness instead,
 * which cannot be held to the checks that NEED THE EXTENSION: gold/decoy elements inside iframes
 * (iframe-same-origin, iframe-cross-origin) and inside closed shadow roots (shadow-closed) are then
 * left out of the score (marks-bench.ts, oursUnderTest's scope) and reported as "out of scope".
 * BENCH_PAGES=part,part labels only the pages whose names hold one of the parts.
 */
import { test, expect } from './fixtures';
import { listPages, serveCorpus, type Corpus } from '../bench/marks-corpus';
import { benchPages, expectOurs, labelOurs } from './marks-checks';

const pages = benchPages();
let corpus: Corpus;

test.beforeAll(async () => {
  corpus = await serveCorpus();
});

test.afterAll(async () => {
  await corpus?.close();
});

test('the corpus has at least 30 pages', () => {
  expect(listPages().length).toBeGreaterThanOrEqual(30);
});

test('ours on the corpus: recall, no decoys, texts, no overlapping tags, no numbering gaps', async () => {
  test.setTimeout(15 * 60_000);
  expectOurs(await labelOurs(corpus, pages));
});
