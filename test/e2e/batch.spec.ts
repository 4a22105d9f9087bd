/**
 * `npm run batch` end to end (docs/batch.md): WebVoyager-format tasks on the fixture sites, the
 * built extension in a browser of its own per task (warm ones reset between tasks), three at once,
 * the fake model answering each task by its own goals and playing the judge; then a batch
 * interrupted with Ctrl+C and started again; and a warm browser's reset: the next task sees nothing
 * of the last one.
 */
import { test, expect } from './fixtures';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { batchPolicy, nutritionPlan, starts, type BatchPlan } from '../fixtures/model/batch';
import { serveFixtures, spawnScript } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { TaskResult } from '../../src/core/batch/types';
import { readInteractMessages } from '../../src/core/batch/webvoyager-folder';
import { unzipSync } from 'fflate';
import { formatMoney } from '../../src/core/costs';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromiumPool } from '../../scripts/batch/pool';
import { openPanel } from '../../scripts/browser';
import { runAgent } from '../../scripts/run-agent';

test.describe.configure({ mode: 'serial' });

const PLANS: BatchPlan[] = [
  nutritionPlan('Miso Ramen', 'ramen'),
  nutritionPlan('Banana Bread', 'banana'),
  nutritionPlan('Vegetable Pad Thai', 'thai'),
  { task: /unicorn stew/, goals: [{ do: 'click', find: /Unicorn Stew/ }] },
  { task: /Delete the project/, goals: [{ do: 'click', find: /Delete project/ }, { do: 'answer', text: 'The project is deleted.' }] },
];

let site: StaticServer;
let model: FakeModel;
const root = mkdtempSync(path.join(tmpdir(), 'webagent-batch-'));

/** The tasks file: all five tasks, or those of `ids` (a shorter batch where the test needs only some kinds). */
function writeTasks(file: string, ids?: string[]): void {
  const r = `${site.url}recipes/index.html`;
  const lines = [
    { web_name: 'Recipes', id: 'Recipes--0', ques: 'How many calories per serving does the Miso Ramen have?', web: r },
    { web_name: 'Recipes', id: 'Recipes--1', ques: 'How many calories per serving does the Banana Bread have?', web: r },
    { web_name: 'Recipes', id: 'Recipes--2', ques: 'How many calories per serving does the Vegetable Pad Thai have?', web: r },
    { web_name: 'Recipes', id: 'Recipes--3', ques: 'Open the recipe for unicorn stew.', web: r },
    { web_name: 'Projects', id: 'Projects--0', ques: 'Delete the project called Apollo.', web: `${site.url}guards/form.html` },
  ];
  writeFileSync(file, lines.filter((l) => !ids || ids.includes(l.id)).map((l) => JSON.stringify(l)).join('\n'));
}

function results(out: string): TaskResult[] {
  return readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TaskResult);
}

test.beforeAll(async () => {
  site = await serveFixtures();
  model = await startFakeModel({ judge: true, policy: batchPolicy(PLANS, { failFirst: [/Vegetable Pad Thai/] }) });
});
test.afterAll(async () => {
  await model.close();
  await site.close();
});

test('a batch at concurrency 3: every task ends with its kind, its folders are WebVoyager\'s, the judge gives verdicts', async () => {
  test.setTimeout(240_000);
  const out = path.join(root, 'one');
  const tasks = path.join(root, 'tasks.jsonl');
  writeTasks(tasks);
  const run = spawnScript('batch', ['--tasks', tasks, '--out', out, '--concurrency', '3', '--base-url', model.baseUrl, '--model', 'glm-4.5v', '--max-steps', '5', '--judge']);
  const r = await run.done;
  expect(r.stderr).not.toContain('Error:');
  expect(r.code, r.stderr).toBe(0);
  const byId = new Map(results(out).map((x) => [x.id, x]));
  expect([...byId.keys()].sort()).toEqual(['Projects--0', 'Recipes--0', 'Recipes--1', 'Recipes--2', 'Recipes--3']);
  // Answers read from the pages, kinds from how each run ended.
  expect(byId.get('Recipes--0')).toMatchObject({ kind: 'finished', status: 'finished', answer: '610 kcal', attempts: 1, folder: 'taskRecipes--0' });
  expect(byId.get('Recipes--1')).toMatchObject({ kind: 'finished', answer: '260 kcal' });
  // The endpoint refused the first request: an infrastructure failure, retried, then finished.
  expect(byId.get('Recipes--2')).toMatchObject({ kind: 'finished', answer: '540 kcal', attempts: 2 });
  expect(r.stderr).toMatch(/retry Recipes--2: .*Invalid API key/);
  // The agent could not do it: max steps, not retried.
  expect(byId.get('Recipes--3')).toMatchObject({ kind: 'agent', status: 'stopped', attempts: 1 });
  // A guard asked; nobody answers in a batch.
  const guard = byId.get('Projects--0')!;
  expect(guard).toMatchObject({ kind: 'guard', status: 'stopped', guard: { rule: 'delete' } });
  expect(guard.guard!.question).toMatch(/Delete project/);
  expect(site.events.some((e) => e.type === 'click' && e.value === 'delete-project')).toBe(false);
  for (const x of byId.values()) {
    expect(x.steps).toBeGreaterThan(0);
    expect(x.tokens.prompt).toBeGreaterThan(0);
    expect(x.durations.totalMs).toBeGreaterThanOrEqual(x.durations.runMs);
    // The folder WebVoyager's scripts read: its files, its name, the task and answer where they look.
    const dir = path.join(out, x.folder);
    const files = readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(['interact_messages.json', 'screenshot1.png', 'trace.json', 'report.html', 'run.zip', 'log.txt']));
    expect(files.filter((f) => /^screenshot\d+\.png$/.test(f))).toHaveLength(x.steps);
    const wv = readInteractMessages(readFileSync(path.join(dir, 'interact_messages.json'), 'utf8'));
    expect(wv.task).toBe(x.task);
    expect(wv.ok ? wv.answer : null).toBe(x.kind === 'finished' ? x.answer : null);
  }
  // The judge (the fake model, from the last screenshots and the answer) on each finished task.
  for (const id of ['Recipes--0', 'Recipes--1', 'Recipes--2']) expect(byId.get(id)!.verdict).toMatchObject({ judge: 'webvoyager', success: true });
  expect(byId.get('Recipes--3')!.verdict).toBeNull();
  const summary = readFileSync(path.join(out, 'summary.html'), 'utf8');
  expect(summary).toContain('taskRecipes--0/report.html');
  // the batch's total per model: every task's model, its tokens and cost summed; the judge's tokens apart
  for (const x of byId.values()) expect(x.model).toBe('glm-4.5v');
  const perModel = summary.slice(summary.indexOf('<table data-per-model>'), summary.indexOf('</table>', summary.indexOf('<table data-per-model>')));
  const sum = (f: (x: TaskResult) => number) => [...byId.values()].reduce((a, x) => a + f(x), 0);
  const group = (n: number) => n.toLocaleString('en-US');
  expect(perModel).toContain(`<tr><td>glm-4.5v</td><td class="n">5</td><td class="n">${group(sum((x) => x.tokens.prompt + x.tokens.completion))}</td><td class="n">${formatMoney(sum((x) => x.cost ?? 0), 'USD')}</td></tr>`);
  const judged = [...byId.values()].filter((x) => x.verdict);
  expect(perModel).toContain(`<tr><td>glm-4.5v <span class="muted">(judge)</span></td><td class="n">${judged.length}</td><td class="n">${group(judged.reduce((a, x) => a + x.verdict!.usage!.promptTokens + x.verdict!.usage!.completionTokens, 0))}</td>`);
  expect(r.stdout).toMatch(/5\/5 tasks ended: 3 finished, 1 agent, 1 guard, 0 infrastructure/);
});

test('Ctrl+C in the middle, then the same command: every task ends exactly once', async () => {
  test.setTimeout(240_000);
  const out = path.join(root, 'two');
  const tasks = path.join(root, 'tasks-two.jsonl');
  const ids = ['Projects--0', 'Recipes--0', 'Recipes--1'];
  writeTasks(tasks, ids);
  const slow = await startFakeModel({ policy: batchPolicy(PLANS, { delayMs: 300 }) });
  try {
    const args = ['--tasks', tasks, '--out', out, '--concurrency', '2', '--base-url', slow.baseUrl, '--max-steps', '5'];
    const first = spawnScript('batch', args);
    await expect.poll(() => {
      if (first.child.exitCode !== null) throw new Error(`the batch ended before it was interrupted: ${first.stderr()}`);
      return existsSync(path.join(out, 'results.jsonl')) && readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().length > 0;
    }, { timeout: 120_000 }).toBe(true);
    first.child.kill('SIGINT');
    const r1 = await first.done;
    expect(r1.code, r1.stderr).toBe(130); // interrupted by Ctrl+C (docs/batch.md: exit status)
    expect(r1.stderr).toContain('Run the same command again to resume');
    const endedFirst = results(out).map((x) => x.id);
    expect(endedFirst.length).toBeGreaterThan(0);
    expect(endedFirst.length).toBeLessThan(ids.length);
    // No half folder of an interrupted task.
    expect(readdirSync(out).filter((f) => f.startsWith('task')).sort()).toEqual(endedFirst.map((id) => `task${id}`).sort());
    const startsBefore = starts(slow.requests);
    const r2 = await spawnScript('batch', args).done;
    expect(r2.code, r2.stderr).toBe(0);
    expect(r2.stderr).toContain(`${endedFirst.length} ${endedFirst.length === 1 ? 'task' : 'tasks'} already ended`);
    const all = results(out);
    expect(all.map((x) => x.id).sort()).toEqual(ids);
    // The tasks that had ended were not started again.
    const startsAfter = starts(slow.requests);
    for (const id of endedFirst) {
      const task = all.find((x) => x.id === id)!.task;
      expect(startsAfter.get(task), id).toBe(startsBefore.get(task));
    }
  } finally {
    await slow.close();
  }
});

test('--retry-failed runs the failed tasks again, and --allow-guard answers a guard\'s question yes', async () => {
  test.setTimeout(240_000);
  const out = path.join(root, 'three');
  const tasks = path.join(root, 'tasks-three.jsonl');
  // one of each kind: finished (kept as it was), agent (run again), guard (answered yes)
  writeTasks(tasks, ['Projects--0', 'Recipes--0', 'Recipes--3']);
  const args = ['--tasks', tasks, '--out', out, '--concurrency', '2', '--base-url', model.baseUrl, '--max-steps', '5'];
  const r1 = await spawnScript('batch', args).done;
  expect(r1.code, r1.stderr).toBe(0);
  const first = new Map(results(out).map((x) => [x.id, x]));
  expect(first.get('Projects--0')!.kind).toBe('guard');
  const r2 = await spawnScript('batch', [...args, '--retry-failed', '--allow-guard', 'delete']).done;
  expect(r2.code, r2.stderr).toBe(0);
  expect(r2.stderr).toContain('1 task already ended');
  const second = new Map(results(out).map((x) => [x.id, x]));
  expect(second.size).toBe(3);
  // The guard's question answered yes: the click ran and the task finished.
  expect(second.get('Projects--0')).toMatchObject({ kind: 'finished', answer: 'The project is deleted.' });
  expect(site.events.some((e) => e.type === 'click' && e.value === 'delete-project')).toBe(true);
  // The agent's failure ran again (and failed again); finished tasks were kept as they were.
  expect(second.get('Recipes--3')!.kind).toBe('agent');
  expect(second.get('Recipes--3')!.startedAt).not.toBe(first.get('Recipes--3')!.startedAt);
  expect(second.get('Recipes--0')).toEqual(first.get('Recipes--0'));
});

test('--judge on a batch that has ended judges its finished tasks, here with Online-Mind2Web\'s three stages; nothing runs again', async () => {
  test.setTimeout(120_000);
  const out = path.join(root, 'three');
  const before = results(out);
  expect(before.every((x) => x.verdict === null)).toBe(true);
  const started = model.requests.length;
  const judged = model.judgings.length;
  const r = await spawnScript('batch', ['--tasks', path.join(root, 'tasks-three.jsonl'), '--out', out, '--base-url', model.baseUrl, '--judge', '--judge-mode', 'mind2web']).done;
  expect(r.code, r.stderr).toBe(0);
  expect(model.requests.length, 'no task ran again').toBe(started);
  const after = new Map(results(out).map((x) => [x.id, x]));
  for (const x of before) {
    const now = after.get(x.id)!;
    if (x.kind !== 'finished') { expect(now.verdict).toBeNull(); continue; }
    // The recipe tasks end on the nutrition band: success; the project's last screenshot has none.
    expect(now.verdict).toMatchObject({ judge: 'mind2web', success: x.id !== 'Projects--0' });
    expect(now.verdict!.text).toMatch(/Key points/i);
  }
  // Stage 1 once, stage 2 once per screenshot, stage 3 once, per finished task.
  expect(model.judgings.length - judged).toBe(before.filter((x) => x.kind === 'finished').reduce((n, x) => n + x.steps + 2, 0));
});

test('a key that is on a page and in a task is in none of the batch\'s outputs', async () => {
  test.setTimeout(120_000);
  const KEY = 'sk-page-6d1f0b93c2a84e77'; // the batch's key, also shown by the page (fixtures/pages/batch/account-key.html)
  const keyed = await startFakeModel({ apiKey: KEY, judge: true, policy: batchPolicy([{ task: /API key shown/, goals: [{ do: 'answer', from: /Copy key (\S+)/ }] }]) });
  try {
    const out = path.join(root, 'keyed');
    const tasks = path.join(root, 'tasks-keyed.jsonl');
    writeFileSync(tasks, JSON.stringify({ web_name: 'Account', id: 'Account--0', ques: `What is the API key shown on the account page? Is it ${KEY}?`, web: `${site.url}batch/account-key.html` }));
    const r = await spawnScript('batch', ['--tasks', tasks, '--out', out, '--base-url', keyed.baseUrl, '--max-steps', '3', '--judge'], { VLM_API_KEY: KEY }).done;
    expect(r.code, r.stderr).toBe(0);
    // The key was used (the endpoint takes no other) and the run read it off the page.
    expect(keyed.requests.length).toBeGreaterThan(0);
    const [x] = results(out);
    expect(x).toMatchObject({ kind: 'finished', answer: '[REDACTED]' });
    const files: Array<[string, string]> = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, f.name);
        if (f.isDirectory()) walk(full);
        else if (f.name.endsWith('.zip')) for (const [n, b] of Object.entries(unzipSync(readFileSync(full)))) files.push([`${full}:${n}`, Buffer.from(b).toString('latin1')]);
        else files.push([full, readFileSync(full, 'latin1')]);
      }
    };
    walk(out);
    const names = files.map(([f]) => path.relative(out, f));
    expect(names).toEqual(expect.arrayContaining(['results.jsonl', 'summary.html', 'taskAccount--0/result.json', 'taskAccount--0/log.txt', 'taskAccount--0/trace.json', 'taskAccount--0/report.html', 'taskAccount--0/interact_messages.json']));
    for (const [f, text] of files) expect(text.includes(KEY), path.relative(out, f)).toBe(false);
    expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
    // and the outputs say where it was
    expect(readFileSync(path.join(out, 'taskAccount--0', 'log.txt'), 'utf8')).toContain('[REDACTED]');
  } finally {
    await keyed.close();
  }
});

test('a tampered results.jsonl and links in --out: the refused line\'s task runs again, the judge reads nothing outside --out, no write follows a link', async () => {
  test.setTimeout(120_000);
  const out = path.join(root, 'tampered');
  mkdirSync(out);
  // someone else's folder beside --out, and a file the batch must not write
  const CANARY = 'victim-canary-5f2d';
  const victim = path.join(root, 'victim');
  mkdirSync(victim);
  writeFileSync(path.join(victim, 'interact_messages.json'), JSON.stringify([
    { role: 'system', content: 'x' }, { role: 'user', content: `Now given a task: ${CANARY}  Please interact with https://x.example/ and get the answer.` },
    { role: 'assistant', content: `Thought: x\n\nAction: ANSWER; ${CANARY}` },
  ]));
  const picture = Buffer.from(`\x89PNG ${CANARY} picture`);
  writeFileSync(path.join(victim, 'screenshot1.png'), picture);
  const keep = path.join(root, 'keep.html');
  writeFileSync(keep, 'keep me');
  symlinkSync(keep, path.join(out, 'summary.html'));
  const tasks = path.join(root, 'tasks-tampered.jsonl');
  writeTasks(tasks, ['Recipes--0']);
  // issue 48: a finished, unjudged line whose folder walks out of --out; a rerun with --judge sent the victim's files to the judge
  const t = JSON.parse(readFileSync(tasks, 'utf8')) as { id: string; ques: string; web: string };
  writeFileSync(path.join(out, 'results.jsonl'), `${JSON.stringify({
    id: t.id, site: 'Recipes', task: t.ques, url: t.web, folder: '../victim', status: 'finished', kind: 'finished', answer: 'forged', stopReason: null, guard: null,
    steps: 1, tokens: { prompt: 1, completion: 1 }, cost: null, durations: { totalMs: 1, startMs: 0, runMs: 1, exportMs: 0 }, attempts: 1, verdict: null,
    startedAt: '2026-12-01T00:00:00.000Z', endedAt: '2026-12-01T00:00:01.000Z', worker: 'h:1',
  })}\n`);
  const judged = model.judgings.length;
  const r = await spawnScript('batch', ['--tasks', tasks, '--out', out, '--base-url', model.baseUrl, '--max-steps', '5', '--judge']).done;
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain('results.jsonl line 1: the result of "Recipes--0" is refused: its folder "../victim" is not its task\'s folder "taskRecipes--0"; the task runs again');
  const [x] = results(out);
  expect(x).toMatchObject({ id: 'Recipes--0', folder: 'taskRecipes--0', kind: 'finished', answer: expect.stringMatching(/kcal/), verdict: { success: true } });
  const sent = JSON.stringify(model.judgings.slice(judged));
  expect(sent).not.toContain(CANARY);
  expect(sent).not.toContain(picture.toString('base64'));
  // summary.html: the link replaced by the page, its target untouched
  expect(lstatSync(path.join(out, 'summary.html')).isSymbolicLink()).toBe(false);
  expect(readFileSync(path.join(out, 'summary.html'), 'utf8')).toContain('Recipes--0');
  expect(readFileSync(keep, 'utf8')).toBe('keep me');
});

test('--file and --tasks of a FIFO, /dev/zero or a directory end with a clear message', async () => {
  test.setTimeout(60_000);
  const fifo = path.join(root, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const tasks = path.join(root, 'tasks-one.jsonl');
  writeFileSync(tasks, JSON.stringify({ id: 'a', ques: 'x', web: 'https://a.example/' }));
  const cases: Array<[string[], RegExp]> = [
    [['--file', fifo], /--file .*fifo: .* is a named pipe \(FIFO\), not a regular file/],
    [['--file', '/dev/zero'], /--file \/dev\/zero: \/dev\/zero is a device \(character device\), not a regular file/],
    [['--file', root], /is a directory, not a regular file/],
  ];
  for (const [extra, message] of cases) {
    // a read of /dev/zero used to take 12 GB, a FIFO to hang: either now fails the test by its timeout
    const r = await spawnScript('batch', ['--tasks', tasks, '--out', path.join(root, 'never'), '--base-url', 'http://127.0.0.1:9/v1', ...extra]).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  }
  const r = await spawnScript('batch', ['--tasks', fifo, '--out', path.join(root, 'never'), '--base-url', 'http://127.0.0.1:9/v1']).done;
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/--tasks .*fifo: .* is a named pipe/);
  expect(existsSync(path.join(root, 'never'))).toBe(false);
});

/**
 * A site that keeps everything a site can keep (a cookie from its server and one from its script,
 * localStorage, sessionStorage, an IndexedDB database, Cache Storage) and tells its server, on each
 * load, what it found from before.
 */
async function keepingSite(): Promise<{ url: string; seen: Array<Record<string, unknown>>; sent: string[]; close(): Promise<void> }> {
  const seen: Array<Record<string, unknown>> = [];
  /** the Cookie header of each load of the page: what the browser kept from before */
  const sent: string[] = [];
  const page = `<!doctype html><meta charset="utf-8"><title>Keeper</title><h1>Keeper</h1><button>Remember me</button>
<script>
(async () => {
  const had = {
    cookie: document.cookie, local: localStorage.getItem('kept'), session: sessionStorage.getItem('kept'),
    dbs: (await indexedDB.databases()).map((d) => d.name), caches: await caches.keys(),
  };
  await fetch('/seen', { method: 'POST', body: JSON.stringify(had) });
  document.cookie = 'script-kept=1; max-age=86400; path=/';
  localStorage.setItem('kept', 'yes');
  sessionStorage.setItem('kept', 'yes');
  await new Promise((ok) => { const r = indexedDB.open('kept-db', 1); r.onupgradeneeded = () => r.result.createObjectStore('s'); r.onsuccess = () => { r.result.close(); ok(); }; });
  await (await caches.open('kept-cache')).put('/x', new Response('kept'));
  await fetch('/seen', { method: 'POST', body: JSON.stringify({ stored: true }) });
})();
</script>`;
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/seen') {
      let body = '';
      req.on('data', (d) => { body += d; });
      req.on('end', () => { seen.push(JSON.parse(body) as Record<string, unknown>); res.end('ok'); });
      return;
    }
    if (req.url === '/keeper.html') sent.push(req.headers.cookie ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'server-kept=1; Max-Age=86400; Path=/' });
    res.end(page);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/keeper.html`, seen, sent,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

test('a warm browser starts the next task as new: no cookie, site storage, stored run, tab or setting of the last task', async () => {
  test.setTimeout(180_000);
  const keeper = await keepingSite();
  const remember = await startFakeModel({ policy: batchPolicy([{ task: /Remember me/, goals: [{ do: 'answer', text: 'remembered' }] }]) });
  const pool = chromiumPool(1);
  const dir = mkdtempSync(path.join(tmpdir(), 'webagent-warm-'));
  const spec = { width: 1280, height: 800, headed: false };
  const task = async (n: number) => {
    const b = await pool.acquire(spec);
    const r = await runAgent(b, {
      task: `Remember me, visit ${n}.`, url: keeper.url, width: 1280, height: 800, headed: false,
      config: { baseUrl: remember.baseUrl, apiKey: `sk-task-${n}-secret`, model: 'glm-4.5v', dialect: 'glm-web', maxSteps: 3 },
      traceFile: path.join(dir, `trace-${n}.json`),
    }, { handleSigint: false, out: () => undefined, err: () => undefined });
    expect(r.status).toBe('finished');
    return b;
  };
  try {
    const first = await task(1);
    await expect.poll(() => keeper.seen.some((x) => x.stored)).toBe(true);
    // the task left all of it behind in its browser (so the checks below see a real reset)
    expect((await first.context.cookies()).map((c) => c.name).sort()).toEqual(['script-kept', 'server-kept']);
    expect(first.context.pages().length).toBeGreaterThan(1);
    pool.release(first, true);
    const again = await pool.acquire(spec);
    // the same browser process and profile, warm
    expect(again).toBe(first);
    expect(again.context.pages()).toHaveLength(1);
    expect(await again.context.cookies()).toEqual([]);
    // the extension as new: no stored run, no key, no settings of the last task
    const panel = await openPanel(again);
    const state = await panel.evaluate(async () => {
      const w = (window as unknown as { webagent: { send(t: string, p: unknown): Promise<unknown> } }).webagent;
      const history = await w.send('history/list', {}) as { runs: unknown[] };
      const settings = await w.send('settings/get', {}) as { apiKey: string };
      // `installed` is the extension's own version (background/stores.ts), no task's data
      return { runs: history.runs.length, apiKey: settings.apiKey, local: Object.keys(await chrome.storage.local.get(null)).filter((k) => k !== 'installed') };
    });
    expect(state).toEqual({ runs: 0, apiKey: '', local: [] });
    await panel.close();
    pool.release(again, true);
    const before = keeper.seen.length;
    await task(2);
    // what the site found on the second task's first load: nothing of the first task
    // (the page's own response sets server-kept again; the script's cookie would be from before)
    const second = keeper.seen.slice(before).find((x) => !x.stored);
    expect(second).toEqual({ cookie: 'server-kept=1', local: null, session: null, dbs: [], caches: [] });
    expect(keeper.sent).toHaveLength(2);
    expect(keeper.sent[1]).toBe('');
    // and on the very first load, the same (a fresh profile)
    expect(keeper.seen[0]).toEqual(second);
    expect(keeper.sent[0]).toBe('');
    expect(pool.stats).toMatchObject({ launched: 1, reused: 2, replaced: 0 });
  } finally {
    await pool.close();
    await remember.close();
    await keeper.close();
  }
});
