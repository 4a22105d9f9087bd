/**
 * A batch through the BullMQ queue end to end (docs/batch.md): Debian's redis-server on a free
 * port, two worker processes each with its own directory and its key from its environment, the
 * submitting side following the queue; one worker killed (SIGKILL) in the middle of a task. Every
 * task must end exactly once, its folder must reach the submitting side's --out, the killed
 * worker's browsers must end with it, and no key may be in the queue.
 */
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { batchPolicy, nutritionPlan, starts } from '../fixtures/model/batch';
import { serveFixtures, spawnScript, type Spawned } from './support';
import { startRedis, type RedisServer } from '../../scripts/redis-server';
import type { StaticServer } from '../../scripts/static-server';
import type { TaskResult } from '../../src/core/batch/types';

const KEY = 'sk-worker-3c9e1a77f0b24d51';
const DISHES: Array<[string, string, string]> = [
  ['Miso Ramen', 'ramen', '610 kcal'], ['Banana Bread', 'banana', '260 kcal'],
  ['Vegetable Pad Thai', 'thai', '540 kcal'], ['Lemon Drizzle Cake', 'lemon', '320 kcal'],
];
const PLANS = DISHES.map(([name, search]) => nutritionPlan(name, search));

let site: StaticServer;
let model: FakeModel;
let redis: RedisServer;
const workers: Spawned[] = [];
const root = mkdtempSync(path.join(tmpdir(), 'webagent-queue-'));

test.beforeAll(async () => {
  redis = await startRedis();
  site = await serveFixtures();
  model = await startFakeModel({ apiKey: KEY, policy: batchPolicy(PLANS, { delayMs: 400 }) });
});
test.afterAll(async () => {
  // Each worker stops its runs on SIGTERM.
  for (const w of workers) {
    const pid = /^worker [^:\s]+:(\d+):/m.exec(w.stderr())?.[1];
    if (pid && alive(Number(pid))) process.kill(Number(pid), 'SIGTERM');
    if (w.child.exitCode === null) await Promise.race([w.done, new Promise((r) => setTimeout(r, 10_000))]);
    if (w.child.exitCode === null) w.child.kill('SIGKILL');
  }
  await model.close();
  await site.close();
  await redis.stop();
});

/** The processes under `pid` (children, grandchildren, …). */
function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
  const out: number[] = [];
  const walk = (p: number) => { for (const [c, pp] of rows) if (pp === p) { out.push(c); walk(c); } };
  walk(pid);
  return out;
}
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

test('two workers, one killed mid-task: every task ends exactly once and its folder reaches --out', async () => {
  test.setTimeout(300_000);
  const tasks = path.join(root, 'tasks.jsonl');
  writeFileSync(tasks, DISHES.map(([name], i) => JSON.stringify({ web_name: 'Recipes', id: `Recipes--${i}`, ques: `How many calories per serving does the ${name} have?`, web: `${site.url}recipes/index.html` })).join('\n'));
  const out = path.join(root, 'out');
  for (const name of ['a', 'b']) {
    workers.push(spawnScript('worker', ['--queue', redis.url, '--concurrency', '1', '--lock-seconds', '3', '--work', path.join(root, `work-${name}`)], { VLM_API_KEY: KEY }));
  }
  // The submitting side has no key at all: the workers' own keys reach the model.
  const submit = spawnScript('batch', ['--tasks', tasks, '--out', out, '--queue', redis.url, '--base-url', model.baseUrl, '--max-steps', '6', '--rate', '50/s'], { VLM_API_KEY: '' });
  // Worker a takes a task; once its run has asked the model twice, it is killed.
  const [a, b] = workers;
  await expect.poll(() => /: (Recipes--\d) \(attempt 1\)/.exec(a.stderr())?.[1] ?? null, { timeout: 90_000 }).not.toBeNull();
  const killedTask = /: (Recipes--\d) \(attempt 1\)/.exec(a.stderr())![1];
  const i = Number(killedTask.split('--')[1]);
  const question = `How many calories per serving does the ${DISHES[i][0]} have?`;
  await expect.poll(() => model.requests.filter((q) => q.prompt?.task === question).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  // The worker process: it says its pid when it starts.
  const pidOf = (w: Spawned) => Number(/^worker [^:\s]+:(\d+):/m.exec(w.stderr())![1]);
  const browsers = descendants(pidOf(a));
  expect(browsers.length, 'worker a runs a browser').toBeGreaterThan(0);
  process.kill(pidOf(a), 'SIGKILL');
  // Its browsers end with it (their DevTools pipe closes).
  await expect.poll(() => browsers.filter(alive).length, { timeout: 20_000 }).toBe(0);

  const r = await submit.done;
  expect(r.code, r.stderr).toBe(0);
  const lines = readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TaskResult);
  expect(lines.map((x) => x.id).sort()).toEqual(['Recipes--0', 'Recipes--1', 'Recipes--2', 'Recipes--3']);
  for (const x of lines) {
    expect(x).toMatchObject({ kind: 'finished', answer: DISHES[Number(x.id.split('--')[1])][2] });
    // The folder came back from the worker's own directory to --out.
    expect(readdirSync(path.join(out, x.folder))).toEqual(expect.arrayContaining(['interact_messages.json', 'screenshot1.png', 'trace.json', 'report.html']));
  }
  // The killed worker's task ran again on the other worker, and ended once.
  const again = lines.find((x) => x.id === killedTask)!;
  expect(again.worker).toMatch(new RegExp(`:${pidOf(b)}$`));
  expect(starts(model.requests).get(question)).toBe(2);
  // Keys: every request carried the worker's key; none is in Redis (job data, results, artefacts gone).
  expect(model.requests.every((q) => q.authorization === `Bearer ${KEY}`)).toBe(true);
  const client = new Redis(redis.url);
  try {
    const dump: string[] = [];
    for (const k of await client.keys('*')) {
      const type = await client.type(k);
      if (type === 'hash') dump.push(JSON.stringify(await client.hgetall(k)));
      else if (type === 'string') dump.push((await client.getBuffer(k))?.toString('latin1') ?? '');
    }
    expect(dump.join('\n')).not.toContain(KEY);
    expect(await client.keys('webagent:artefacts:*'), 'artefacts collected and removed').toEqual([]);
  } finally {
    client.disconnect();
  }
});
