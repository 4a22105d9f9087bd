import { defineConfig } from '@playwright/test';

// The corpus sweeps (issue 39): `npm run test:corpus`, kept out of the default suite
// (playwright.config.ts, `npm run test:e2e`) because each runs a whole corpus end to end:
// - test/corpus/injection-obey-all.spec.ts: the obeying fake model over every hostile-text page
//   (the default suite runs a stratified sample: test/e2e/injection-obey.spec.ts);
// - test/corpus/marks-baseline.spec.ts: the WebVoyager baseline beside ours on the labeling corpus
//   (the default suite runs ours alone on every page: test/e2e/marks-quality.spec.ts).
// The default suite still checks every corpus page cheaply. Same settings as playwright.config.ts
// (the built extension, dist/, in Debian's chromium), two workers (the two sweeps side by side), a longer timeout, and the
// durations in test-results/corpus-durations.json (`node scripts/slowest.mjs test-results/corpus-durations.json`).
export default defineConfig({
  testDir: 'test/corpus',
  // its own output folder: Playwright empties a run's outputDir first, and the default (test-results/)
  // holds the default suite's durations.json, which npm test wrote just before
  outputDir: 'test-results/corpus',
  timeout: 30 * 60_000,
  expect: { timeout: 15_000 },
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/corpus-durations.json' }]],
});
