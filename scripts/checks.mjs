#!/usr/bin/env node
/**
 * Runs npm scripts side by side (npm test: typecheck, lint, unit tests and the build before the
 * end-to-end tests). Each one's output is kept and printed whole when it ends, with its time, so
 * the outputs never interleave. Exits 1 when any of them failed, after all have ended.
 *
 *   node scripts/checks.mjs typecheck lint test:unit build
 *
 * Side by side because each is mostly one core's work (tsc, eslint) or waits on sockets and timers
 * (a few unit test files): on two cores the four take about 40 s together instead of 70 one after
 * another (docs/testing.md).
 */
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (!names.length) {
  console.error('usage: node scripts/checks.mjs SCRIPT...');
  process.exit(2);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const results = await Promise.all(names.map((name) => new Promise((resolve) => {
  const started = performance.now();
  const child = spawn(npm, ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') } });
  const chunks = [];
  child.stdout.on('data', (c) => chunks.push(c));
  child.stderr.on('data', (c) => chunks.push(c));
  const end = (code) => {
    const s = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(`\n── npm run ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${s} s\n`);
    process.stdout.write(Buffer.concat(chunks));
    resolve(code === 0);
  };
  child.on('error', (e) => { chunks.push(Buffer.from(`${e.message}\n`)); end(1); });
  child.on('close', (code) => end(code ?? 1));
})));

const failed = names.filter((_, i) => !results[i]);
if (failed.length) {
  console.error(`\nFailed: ${failed.map((n) => `npm run ${n}`).join(', ')}`);
  process.exit(1);
}
