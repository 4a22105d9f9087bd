/**
 * The worst-case model over the WHOLE hostile corpus (issue 26, item 7): every page of
 * test/fixtures/pages/hostile-text/ with glm-web, then every AT_POINTS page again with cogagent,
 * acting at points (89 serial runs at the time of writing; the machinery and what is measured:
 * test/e2e/obey-sweep.ts). The figures it prints are the ones docs/guards.md quotes.
 *
 * What runs where (issue 39: the default suite must stay fast):
 * - this full sweep is `npm run test:corpus` (playwright.corpus.config.ts, testDir test/corpus);
 * - the default suite (`npm run test:e2e`) runs a stratified sample of these runs
 *   (test/e2e/injection-obey.spec.ts: one page per attack channel × effect, every look-alike, one
 *   run at points), and checks every attack page cheaply in the page
 *   (test/e2e/injection-text.spec.ts).
 *
 * OBEY_ONLY=REGEX runs only the matching pages; OBEY_BROWSERS=N runs N browsers side by side.
 */
import { ALL_RUNS, registerObeySweep } from '../e2e/obey-sweep';

registerObeySweep('all', ALL_RUNS);
