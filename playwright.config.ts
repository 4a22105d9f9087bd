import { defineConfig } from '@playwright/test';

// Browser tests: the built extension (dist/) in real headless Chromium.
// Browsers are launched by the fixtures in test/e2e/fixtures.ts and test/e2e/support.ts (Debian
// chromium, never a downloaded build), so no `use.browserName` projects here.
// Every run records each spec's and test's duration in test-results/durations.json (Playwright's
// JSON reporter); `node scripts/slowest.mjs` prints the slowest 15 (docs/testing.md).
export default defineConfig({
  testDir: 'test/e2e',
  // bundles the CLI scripts the specs start (spawnScript) once per session: test/e2e/global-setup.ts
  globalSetup: './test/e2e/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Three workers on two cores: a test spends most of its time waiting (pages settling, the fake
  // model, a run's own pauses), so three spec files side by side keep both cores busy; a fourth
  // gained nothing (measured: docs/testing.md). Each worker has its own warm browsers (fixtures.ts).
  workers: 3,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/durations.json' }]],
});
