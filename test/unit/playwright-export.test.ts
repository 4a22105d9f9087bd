/**
 * A run as a Playwright script (docs/playwright-export.md): which recorded steps it does again and
 * with what (the replay plan's steps, variables filled, targets by fingerprint), which it cannot
 * (a password, a secret), and which ask before they are done (what the person was asked about).
 */
import { describe, expect, it } from 'vitest';
import { playwrightScript, scriptFileName, scriptRun } from '../../src/core/export/playwright';
import { reduce, type RunState } from '../../src/core/run';
import { toTrace } from '../../src/core/trace';
import type { Mark } from '../../src/core/marks';
import { newRun, observation, reply } from '../fixtures/run';

const marks: Mark[] = [
  { label: 0, tag: 'button', text: 'Delete project', rect: { x: 10, y: 10, width: 100, height: 30 }, fingerprint: { tag: 'button', text: 'Delete project', path: 'html:1>body:1>button:1' } },
  { label: 1, tag: 'input', text: 'Search', rect: { x: 10, y: 50, width: 200, height: 30 }, fingerprint: { tag: 'input', text: 'Search', path: 'html:1>body:1>input:1' } },
];

function step(s: RunState, action: string, at: number, hit: Parameters<typeof reduce>[1] | null = null): RunState {
  s = reduce(s, { type: 'observed', at, obs: observation({ url: 'https://shop.example/a', marks }), ms: 5 });
  s = reduce(s, reply(`Thought: next\nAction: ${action}\nMemory_Updated: {}`, { at: at + 1 }));
  if (s.phase !== 'act') return s;
  s = reduce(s, hit ?? { type: 'checked', at: at + 2, hit: null });
  if (s.phase === 'approve') s = reduce(s, { type: 'approve', at: at + 3 });
  return reduce(s, { type: 'acted', at: at + 4, result: { ok: true }, ms: 5 });
}

describe('a run as a Playwright script', () => {
  it('does the recorded actions with their targets, asks where the person was asked, and ends with the answer', () => {
    let s = newRun({ task: 'Delete the old project' });
    s = step(s, 'Type [1]; [old project]', 1000);
    s = step(s, 'Click [0]', 2000, { type: 'checked', at: 2002, hit: { id: 'delete', reason: 'this clicks "Delete project"' } });
    s = reduce(reduce(s, { type: 'observed', at: 3000, obs: observation({ marks }), ms: 5 }), reply('Thought: done\nAction: ANSWER; <content>deleted</content>\nMemory_Updated: {}', { at: 3001 }));
    const trace = toTrace(s, []);
    const run = scriptRun(trace);
    expect(run).toMatchObject({ id: 'r1', task: 'Delete the old project', startUrl: 'https://shop.example/', viewport: { width: 1280, height: 800 }, answer: 'deleted' });
    expect(run.steps.map((x) => [x.n, (x.action as { type: string }).type, x.target?.path ?? null, x.guard?.rule ?? null])).toEqual([
      [1, 'type', 'html:1>body:1>input:1', null],
      [2, 'click', 'html:1>body:1>button:1', 'delete'],
      [3, 'answer', null, null],
    ]);
    expect(run.steps[1].guard).toEqual({ rule: 'delete', reason: 'this clicks "Delete project"' });
    const text = playwrightScript(trace);
    expect(text.startsWith('#!/usr/bin/env node\n// webagent: run r1, exported as a Playwright script')).toBe(true);
    expect(text).toContain('process.exitCode = await main();');
    // the data is the run's, as JSON
    expect(JSON.parse(text.slice(text.indexOf('const RUN = ') + 12, text.indexOf(';\n\n// (process')))).toEqual(run);
    expect(scriptFileName(trace)).toBe('webagent-run-r1.playwright.mjs');
  });

  it('a typed password or secret is a step it cannot do; a rejected action is not done at all', () => {
    let s = newRun({ secrets: [{ name: 'pin', value: '4242-secret' }] });
    s = step(s, 'Type [1]; [{{secret:pin}}]', 1000);
    s = step(s, 'Click [0]', 2000, { type: 'checked', at: 2002, hit: { id: 'delete', reason: 'this clicks "Delete project"' } });
    const run = scriptRun(toTrace(s, ['4242-secret']));
    expect(run.steps[0].cannot).toMatch(/^it typed a password or one of your secrets/);
    expect(JSON.stringify(run)).not.toContain('4242-secret');
    let r = newRun();
    r = reduce(r, { type: 'observed', at: 10, obs: observation({ marks }), ms: 5 });
    r = reduce(r, reply('Thought: x\nAction: Click [0]\nMemory_Updated: {}', { at: 11 }));
    r = reduce(r, { type: 'checked', at: 12, hit: { id: 'delete', reason: 'this clicks "Delete project"' } });
    r = reduce(r, { type: 'reject', at: 13, feedback: null });
    expect(scriptRun(toTrace(r, [])).steps).toEqual([]);
  });
});
