/** The batch's pure parts: task files, how runs end, resume plans, backoff, results.jsonl, progress. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readTasks, taskFolder } from '../../src/core/batch/tasks';
import { backoffMs, planBatch, readResults, resultsText, retryable, stopKindOf } from '../../src/core/batch/results';
import { etaMs, newProgress, progressBar, progressLine, progressText, withResult } from '../../src/core/batch/progress';
import type { TaskResult } from '../../src/core/batch/types';
import { endLine } from '../../scripts/batch/display';
import { createRun, reduce } from '../../src/core/run/reduce';
import { toTrace } from '../../src/core/trace';

const WV = path.join(import.meta.dirname, '..', 'fixtures', 'batch', 'tasks.jsonl');

function result(id: string, kind: TaskResult['kind'], extra: Partial<TaskResult> = {}): TaskResult {
  return {
    id, site: 'S', task: `task ${id}`, url: 'https://s.example/', folder: taskFolder(id), status: kind === 'finished' ? 'finished' : 'stopped', kind,
    answer: null, stopReason: null, guard: null, steps: 3, tokens: { prompt: 1000, completion: 100 }, cost: 0.01,
    durations: { totalMs: 10_000, startMs: 1000, runMs: 8000, exportMs: 1000 }, attempts: 1, verdict: null,
    startedAt: '2026-11-24T00:00:00.000Z', endedAt: '2026-11-24T00:00:10.000Z', worker: 'h:1', ...extra,
  };
}

describe('task files', () => {
  it('reads WebVoyager\'s jsonl as it is published', () => {
    const r = readTasks(readFileSync(WV, 'utf8'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.tasks[0]).toEqual({ id: 'Allrecipes--0', site: 'Allrecipes', task: expect.stringContaining('vegetarian lasagna'), url: 'https://www.allrecipes.com/' });
    expect(new Set(r.tasks.map((t) => t.site)).size).toBeGreaterThan(1);
    expect(taskFolder(r.tasks[0].id)).toBe('taskAllrecipes--0');
  });
  it('reads a JSON list, making ids and sites where missing', () => {
    const r = readTasks(JSON.stringify([{ task: 'Find a', url: 'https://a.example/x' }, { id: 7, ques: 'Find b', web: 'http://b.example/', site: 'B' }]));
    expect(r).toEqual({ ok: true, tasks: [
      { id: 'task-1', site: 'a.example', task: 'Find a', url: 'https://a.example/x' },
      { id: '7', site: 'B', task: 'Find b', url: 'http://b.example/' },
    ] });
  });
  it('refuses a file with problems, naming each line', () => {
    const text = [
      JSON.stringify({ id: 'a', ques: 'q', web: 'https://a.example/' }),
      '{not json',
      JSON.stringify({ id: 'b', web: 'https://a.example/' }),
      JSON.stringify({ id: 'c', ques: 'q', web: 'ftp://a.example/' }),
      JSON.stringify({ id: '../x', ques: 'q', web: 'https://a.example/' }),
      JSON.stringify({ id: 'a', ques: 'q', web: 'https://a.example/' }),
    ].join('\n');
    const r = readTasks(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      'line 2: not a JSON object',
      'line 3: it has no task ("ques" or "task")',
      'line 4: its start page "ftp://a.example/" is not an http(s) URL',
      'line 5: its id "../x" cannot be a folder name (no slashes, control or invisible characters)',
      'the id "a" is used twice',
    ]);
    expect(readTasks('  \n')).toEqual({ ok: false, errors: ['the file has no tasks'] });
  });
});

describe('how a run ends', () => {
  it('classes runs by what ended them', () => {
    expect(stopKindOf({ status: 'finished' })).toBe('finished');
    expect(stopKindOf({ status: 'stopped' })).toBe('agent');
    expect(stopKindOf({ status: 'failed' })).toBe('agent');
    expect(stopKindOf({ status: 'failed', failCause: 'endpoint' })).toBe('infrastructure');
    expect(stopKindOf({ status: 'error' })).toBe('infrastructure');
    expect(stopKindOf({ status: 'stopped', timedOut: true })).toBe('infrastructure');
    expect(stopKindOf({ status: 'stopped', guard: true })).toBe('guard');
    expect(retryable('infrastructure')).toBe(true);
    expect(['finished', 'agent', 'guard'].some((k) => retryable(k as TaskResult['kind']))).toBe(false);
  });
  it('a run that fails for the endpoint says so (failCause); the agent\'s own failure does not', () => {
    const run = createRun({ id: 'r', task: 't', startUrl: 'https://a.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'b', maxSteps: 5, at: 1 });
    expect(reduce(run, { type: 'fail', at: 2, reason: 'HTTP 503', cause: 'endpoint' })).toMatchObject({ status: 'failed', failCause: 'endpoint' });
    expect(reduce(run, { type: 'fail', at: 2, reason: 'x' }).failCause).toBeUndefined();
    // and the trace says it
    expect(toTrace(reduce(run, { type: 'fail', at: 2, reason: 'HTTP 503', cause: 'endpoint' }), []).run).toMatchObject({ status: 'failed', failCause: 'endpoint' });
    expect(toTrace(reduce(run, { type: 'fail', at: 2, reason: 'x' }), []).run).not.toHaveProperty('failCause');
  });
  it('backs off 5 s, 10 s, 20 s, … up to a minute, with up to a quarter of jitter', () => {
    expect([1, 2, 3, 4, 5, 9].map((a) => backoffMs(a))).toEqual([5000, 10_000, 20_000, 40_000, 60_000, 60_000]);
    expect(backoffMs(1, 0.999)).toBeLessThan(6250);
  });
});

describe('resume', () => {
  const tasks = ['a', 'b', 'c', 'd'].map((id) => ({ id, site: 'S', task: `task ${id}`, url: 'https://s.example/' }));
  it('runs what has no result; with --retry-failed also what did not finish', () => {
    const done = new Map([['a', result('a', 'finished')], ['b', result('b', 'agent')], ['c', result('c', 'infrastructure')], ['gone', result('gone', 'finished')]]);
    const plain = planBatch(tasks, done, false);
    expect(plain.run.map((t) => t.id)).toEqual(['d']);
    expect(plain.kept.map((r) => r.id).sort()).toEqual(['a', 'b', 'c', 'gone']);
    expect(planBatch(tasks, done, true).run.map((t) => t.id)).toEqual(['b', 'c', 'd']);
  });
  it('reads results.jsonl: the last line of a task wins, a cut line is skipped; writes it back in file order', () => {
    const text = `${JSON.stringify(result('b', 'agent'))}\n${JSON.stringify(result('a', 'finished'))}\n${JSON.stringify(result('b', 'finished'))}\n{"id":"c","ki`;
    const r = readResults(text);
    expect(r.skipped).toBe(1);
    expect([...r.byId.keys()]).toEqual(['b', 'a']);
    expect(r.byId.get('b')!.kind).toBe('finished');
    expect(resultsText(r.byId.values(), tasks).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as TaskResult).id)).toEqual(['a', 'b']);
  });
});

describe('resume: results.jsonl is input too', () => {
  // the task file's tasks, and lines as result() writes them for those tasks
  const tasks = ['a', 'b', 'c'].map((id) => ({ id, site: 'S', task: `task ${id}`, url: 'https://s.example/' }));
  const lines = (...rs: TaskResult[]) => rs.map((r) => JSON.stringify(r)).join('\n');
  it('keeps a line of its task, in its own folder', () => {
    const r = readResults(lines(result('a', 'finished'), result('gone', 'finished')), tasks);
    expect([...r.byId.keys()]).toEqual(['a', 'gone']);
    expect(r.refused).toEqual([]);
  });
  it('refuses a line whose folder is not its task\'s, and says why: its task runs again (issue 48: "../victim" went to the judge)', () => {
    const r = readResults(lines(result('a', 'finished', { folder: '../victim' }), result('b', 'finished', { folder: 'taskc' })), tasks);
    expect(r.byId.size).toBe(0);
    expect(r.refused).toEqual([
      'results.jsonl line 1: the result of "a" is refused: its folder "../victim" is not its task\'s folder "taska"; the task runs again',
      'results.jsonl line 2: the result of "b" is refused: its folder "taskc" is not its task\'s folder "taskb"; the task runs again',
    ]);
    expect(planBatch(tasks, r.byId, false).run.map((t) => t.id)).toEqual(['a', 'b', 'c']);
  });
  it('refuses a line of the same id whose task text or start page is not the task file\'s', () => {
    const r = readResults(lines(result('a', 'finished', { task: 'Send all the money' }), result('b', 'finished', { url: 'https://evil.example/' })), tasks);
    expect(r.byId.size).toBe(0);
    expect(r.refused).toEqual([
      'results.jsonl line 1: the result of "a" is refused: its task is not the task file\'s (the text differs); the task runs again',
      'results.jsonl line 2: the result of "b" is refused: its start page "https://evil.example/" is not the task file\'s "https://s.example/"; the task runs again',
    ]);
  });
  it('drops a line of a task no longer in the file whose id or folder could walk out of --out', () => {
    const r = readResults(lines(result('../x', 'finished'), result('gone', 'finished', { folder: '/etc' })), tasks);
    expect(r.byId.size).toBe(0);
    expect(r.refused[0]).toMatch(/^results\.jsonl line 1: the result of "\.\.\/x" is refused: its id "\.\.\/x" cannot be a folder name .*; it is dropped$/);
    expect(r.refused[1]).toBe('results.jsonl line 2: the result of "gone" is refused: its folder "/etc" is not its task\'s folder "taskgone"; it is dropped');
  });
  it('takes the last line of a task: a refused last line leaves it without a result, a good one after a refused one is kept', () => {
    const good = result('a', 'finished');
    const bad = result('a', 'finished', { folder: '../victim' });
    const afterGood = readResults(lines(good, bad), tasks);
    expect(afterGood.byId.has('a')).toBe(false);
    expect(afterGood.refused).toHaveLength(1);
    const afterBad = readResults(lines(bad, good), tasks);
    expect(afterBad.byId.get('a')).toEqual(good);
    expect(afterBad.refused).toEqual([]);
  });
  it('plans a run, not a kept result, for a result that is not its task\'s, however it got into the map', () => {
    const done = new Map([
      ['a', result('a', 'finished', { folder: '../victim' })], ['b', result('b', 'finished', { task: 'other' })], ['c', result('c', 'finished')],
      ['gone', result('gone', 'finished', { folder: '../../x' })],
    ]);
    const plan = planBatch(tasks, done, false);
    expect(plan.run.map((t) => t.id)).toEqual(['a', 'b']);
    expect(plan.kept.map((r) => r.id)).toEqual(['c']);
  });
});

describe('progress', () => {
  it('counts ends by kind, tokens and cost, and the time left at the pace so far', () => {
    let p = newProgress(10, 2, 0);
    expect(progressText(p, 0)).toContain('cost $0.00'); // no result yet: the runs' currency (the settings' default) from the start
    p = withResult(p, result('a', 'finished', { currency: 'EUR' }));
    p = withResult(p, result('b', 'guard'));
    p = { ...p, running: 3 };
    expect(etaMs(p, 60_000)).toBe(180_000); // 2 ended in a minute, 6 left
    expect(progressText(p, 60_000)).toBe('4/10 done (1 finished, 1 failed: 0 agent, 1 guard, 0 infra; 2 from before) · 3 running · ETA 3m00s · 2.2k tokens · cost €0.02');
    expect(progressBar(p, 10)).toBe('[####>>>...]');
    expect(withResult(p, result('c', 'finished', { cost: null })).cost).toBeNull();
    // interrupted: no time left is estimated any more (it only grew while the runs stopped)
    const stopping = { ...p, stopping: true };
    expect(etaMs(stopping, 600_000)).toBeNull();
    expect(progressText(stopping, 600_000)).toContain(' · 3 running · stopping · ');
    expect(progressLine(stopping, 600_000, 80)).toContain('stopping');
  });

  it('fits the live line to the terminal: shorter words, then the least useful parts dropped, never cut', () => {
    let p = newProgress(120, 20, 0);
    for (const [i, k] of (['finished', 'agent', 'guard', 'infrastructure', 'finished'] as const).entries()) p = withResult(p, result(`t${i}`, k));
    p = { ...p, running: 4, retrying: 1 };
    const at = (cols: number) => progressLine(p, 60_000, cols);
    for (const cols of [40, 60, 80, 120, 200]) expect(at(cols).length, `${cols}: ${at(cols)}`).toBeLessThan(cols);
    // 120 columns: the count's breakdown shortened, everything else, with a bar
    expect(at(120)).toMatch(/^\[[#>.]{10,30}\] 25\/120 done \(2 ok, 3 failed; 20 before\) · 4 running, 1 to retry · 19m00s left · [\d.]+k tok · cost \S+$/);
    // 80: running, time left, tokens and cost all show (the bar gives way first)
    expect(at(80)).toMatch(/^25\/120 done · 4 running, 1 to retry · 19m00s left · [\d.]+k tok · cost \S+$/);
    // 60: tokens, then cost are dropped before the time left
    expect(at(60)).toMatch(/^25\/120 done · 4 running, 1 to retry · 19m00s left( · cost \S+)?$/);
    // wide: the whole breakdown and a full bar
    expect(at(200)).toMatch(/^\[[#>.]{30}\] 25\/120 done \(2 finished, 3 failed: 1 agent, 1 guard, 1 infra; 20 from before\) · 4 running, 1 to retry · 19m00s left · [\d.]+k tokens · cost \S+$/);
    // no retries, 80 columns: room for a bar too
    expect(progressLine({ ...p, retrying: 0 }, 60_000, 80)).toMatch(/^\[[#>.]{10,30}\] 25\/120 done · 4 running · 19m00s left · [\d.]+k tok · cost \S+$/);
    // a narrow terminal: fewer parts, never a cut one
    expect(at(30)).toMatch(/^(\[[#>.]{10,}\] )?25\/120 done$/);
  });
});

describe('a task\'s end line', () => {
  it('says "1 step", "2 steps"', () => {
    expect(endLine(result('a', 'finished', { steps: 1 }))).toContain('finished in 1 step,');
    expect(endLine(result('a', 'agent', { steps: 2 }))).toContain('agent after 2 steps,');
  });
});
