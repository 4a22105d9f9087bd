#!/usr/bin/env node
/**
 * The slowest spec files and tests of the last Playwright run (test-results/durations.json, written
 * by the JSON reporter that playwright.config.ts and playwright.corpus.config.ts set), as
 * docs/testing.md describes: `node scripts/slowest.mjs [FILE] [--top N]`.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) || 15 : 15;
const file = args[0] ?? 'test-results/durations.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.error(`Cannot read ${file} (${e instanceof Error ? e.message : e}). Run the browser tests first: npm run test:e2e`);
  process.exit(1);
}

/** every test of a suite tree, with its spec file */
function* tests(suite, fileName) {
  const f = suite.file ?? fileName;
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      const ms = (t.results ?? []).reduce((n, r) => n + (r.duration ?? 0), 0);
      const status = t.results?.at(-1)?.status ?? 'skipped';
      yield { file: f, title: spec.title, line: spec.line, ms, status };
    }
  }
  for (const s of suite.suites ?? []) yield* tests(s, f);
}

const all = report.suites.flatMap((s) => [...tests(s, s.file)]);
const byFile = new Map();
for (const t of all) byFile.set(t.file, (byFile.get(t.file) ?? 0) + t.ms);
const sec = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
const wall = report.stats?.duration ?? 0;
// beforeAll / afterAll time is not in any test's duration: the files' sums fall short of the wall time by it
console.log(`${all.length} tests, ${byFile.size} spec files; wall time ${sec(wall).trim()} (tests' own time ${sec(all.reduce((n, t) => n + t.ms, 0)).trim()}; the rest is hooks shared by a file)`);
console.log(`\nSlowest ${top} spec files (sum of their tests):`);
for (const [f, ms] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${sec(ms)}  ${f}`);
console.log(`\nSlowest ${top} tests:`);
for (const t of [...all].sort((a, b) => b.ms - a.ms).slice(0, top)) console.log(`${sec(t.ms)}  ${t.file}:${t.line}  ${t.title.slice(0, 90)}${t.status === 'passed' ? '' : ` [${t.status}]`}`);
const failed = all.filter((t) => t.status !== 'passed' && t.status !== 'skipped');
if (failed.length) console.log(`\n${failed.length} not passed: ${failed.map((t) => `${t.file}:${t.line}`).join(', ')}`);
