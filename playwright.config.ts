import { defineConfig } from '@playwright/test';

// Browser tests: the built extension (dist/) in real headless Chromium.
// Browsers are launched by the fixtures in test/e2e/fixtures.ts (Debian chromium,
// never a downloaded build), so no `use.browserName` projects here.
export default defineConfig({
  testDir: 'test/e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
});
