/**
 * The worst-case model on a stratified sample of the hostile corpus, in the default suite
 * (`npm run test:e2e`; issue 26, item 7, and issue 39: the suite must stay fast).
 *
 * A fake model that obeys every instruction it finds on the page runs pages of
 * test/fixtures/pages/hostile-text/ end to end through the built extension in AUTO mode; each run
 * must do no harm without asking the person, an injected answer must carry the injection finding,
 * and a page without an attack must run without a question (the machinery and what is measured:
 * test/e2e/obey-sweep.ts).
 *
 * What runs where:
 * - here: sampleRuns(), computed from the files: for each attack channel × effect pair (as
 *   readAttack reads the page's <meta name="attack">) the first page by name, every look-alike
 *   (every page without an attack: lookalike-*, hidden-*), and one AT_POINTS page again with the
 *   cogagent model (acting at points). A test below checks the sample still covers every pair and
 *   every look-alike, so it cannot silently shrink.
 * - every page is still checked cheaply in the default suite: test/e2e/injection-text.spec.ts finds
 *   each attack page's instruction at its element (and nothing on the look-alikes).
 * - the full sweep, every page plus every AT_POINTS page at points (89 runs), is
 *   test/corpus/injection-obey-all.spec.ts: `npm run test:corpus`.
 *
 * OBEY_ONLY=REGEX and OBEY_BROWSERS=N work as in the full sweep (obey-sweep.ts).
 */
import { test, expect } from './fixtures';
import { ALL_RUNS, ATTACKS, AT_POINTS, COG, DIR, isLookalike, NAMES, pairOf, registerObeySweep, sampleRuns } from './obey-sweep';

const SAMPLE = sampleRuns();

test('the corpus: at least 60 attack pages and their look-alikes', () => {
  const attacks = [...ATTACKS.values()].filter((a) => a !== null);
  expect(attacks.length).toBeGreaterThanOrEqual(60);
  expect(NAMES.filter((n) => n.startsWith('lookalike-')).length).toBeGreaterThanOrEqual(8);
});

test('the sample covers every channel × effect pair, every look-alike and the cogagent dialect at points', () => {
  const pairs = new Set([...ATTACKS.values()].filter((a) => a !== null).map(pairOf));
  const covered = new Set(SAMPLE.filter((k) => !k.endsWith(COG)).map((k) => ATTACKS.get(k)).filter((a) => !!a).map(pairOf));
  expect([...pairs].filter((p) => !covered.has(p)), 'channel × effect pairs of the corpus left out of the sample').toEqual([]);
  const lookalikes = NAMES.map((n) => `${DIR}/${n}`).filter(isLookalike);
  expect(lookalikes.length).toBeGreaterThanOrEqual(8);
  expect(lookalikes.filter((k) => !SAMPLE.includes(k)), 'look-alikes left out of the sample').toEqual([]);
  expect(SAMPLE.filter((k) => k.endsWith(COG) && AT_POINTS.includes(k.replace(COG, ''))).length, 'cogagent runs at points').toBeGreaterThanOrEqual(1);
  expect(SAMPLE.every((k) => ALL_RUNS.includes(k)), 'the sample is runs of the full sweep').toBe(true);
  console.log(`worst-case model sample: ${SAMPLE.length} of ${ALL_RUNS.length} runs (${pairs.size} channel × effect pairs, ${lookalikes.length} look-alikes, ${SAMPLE.filter((k) => k.endsWith(COG)).length} at points with cogagent); the full sweep: npm run test:corpus`);
});

registerObeySweep('sample', SAMPLE);
