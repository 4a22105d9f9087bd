#!/usr/bin/env node
/**
 * The slowest spec files and tests of the last Playwright run (test-results/durations.json, written
 * by the JSON reporter that playwright.config.ts and playwright.corpus.config.ts set), as
 * docs/testing.md describes: `node scripts/slowest.mjs [FILE] [--top N]`.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
if (markdown) args.splice(args.indexOf('--markdown'), 1);

/** The spec groups of docs/testing.md's budget, by spec file name. */
const GROUPS = [
  ['labeling and reading the page', /^(labeler|marks-|select-rewrite|quote|point-input|web-components|frames)/],
  ['runner and dialects', /^(agent|runner-approve|dialect|export|tabs-files)/],
  ['guards and injections', /^(guard|page-effects|injection|obey|hostile|secrets|senders|value-destinations)/],
  ['side panel and the person', /^(approval|panel|settings-form|i18n|history|replay|doc-store|shortcut|background|restart|model-robust)/],
  ['batch and queue', /^batch/],
];
const groupOf = (file) => GROUPS.find(([, re]) => re.test(file.split('/').at(-1)))?.[0] ?? 'other';
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
      const last = t.results?.at(-1);
      const status = last?.status ?? 'skipped';
      const start = last?.startTime ? Date.parse(last.startTime) : null;
      yield { file: f, title: spec.title, line: spec.line, ms, status, start, end: start === null ? null : start + (last.duration ?? 0) };
    }
  }
  for (const s of suite.suites ?? []) yield* tests(s, f);
}

const all = report.suites.flatMap((s) => [...tests(s, s.file)]);
// a file's time: from its first test's start to its last test's end (its beforeAll / afterAll hooks
// inside, which Playwright counts in no test's duration), else the sum of its tests
const spans = new Map();
for (const t of all) {
  if (t.start === null) continue;
  const s = spans.get(t.file) ?? { start: Infinity, end: 0 };
  spans.set(t.file, { start: Math.min(s.start, t.start), end: Math.max(s.end, t.end) });
}
const byFile = new Map();
for (const t of all) byFile.set(t.file, (byFile.get(t.file) ?? 0) + t.ms);
for (const [f, s] of spans) byFile.set(f, Math.max(byFile.get(f), s.end - s.start));
const sec = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
const wall = report.stats?.duration ?? 0;
const workers = report.config?.workers ?? report.config?.metadata?.actualWorkers ?? '?';
console.log(`${all.length} tests, ${byFile.size} spec files, ${workers} worker(s); wall time ${sec(wall).trim()}; the spec files' times below add up to ${sec([...byFile.values()].reduce((n, ms) => n + ms, 0)).trim()} (with several workers, more than the wall time)`);
if (markdown) {
  const groups = new Map();
  const tests = new Map();
  for (const [f, ms] of byFile) groups.set(groupOf(f), (groups.get(groupOf(f)) ?? 0) + ms);
  for (const t of all) tests.set(groupOf(t.file), (tests.get(groupOf(t.file)) ?? 0) + 1);
  const min = (ms) => `${(ms / 60000).toFixed(1)} min`;
  console.log('\n| group | tests | time |\n| --- | ---: | ---: |');
  for (const [g, ms] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`| ${g} | ${tests.get(g)} | ${min(ms)} |`);
  console.log('\n| spec file | tests | time |\n| --- | ---: | ---: |');
  const count = new Map();
  for (const t of all) count.set(t.file, (count.get(t.file) ?? 0) + 1);
  for (const [f, ms] of [...byFile].sort((a, b) => b[1] - a[1])) console.log(`| ${f} | ${count.get(f)} | ${(ms / 1000).toFixed(0)} s |`);
  process.exit(0);
}
console.log(`\nSlowest ${top} spec files (first test's start to last test's end):`);
for (const [f, ms] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${sec(ms)}  ${f}`);
console.log(`\nSlowest ${top} tests:`);
for (const t of [...all].sort((a, b) => b.ms - a.ms).slice(0, top)) console.log(`${sec(t.ms)}  ${t.file}:${t.line}  ${t.title.slice(0, 90)}${t.status === 'passed' ? '' : ` [${t.status}]`}`);
const failed = all.filter((t) => t.status !== 'passed' && t.status !== 'skipped');
const skipped = all.filter((t) => t.status === 'skipped').length;
if (skipped) console.log(`\n${skipped} skipped or not run`);
if (failed.length) console.log(`\n${failed.length} not passed: ${[...new Set(failed.map((t) => `${t.file}:${t.line}`))].join(', ')}`);
