import { describe, expect, it } from 'vitest';
import { createRun, effectOf, reduce, MAX_FORMAT_ERRORS, siteOf, type RunState } from '../../src/core/run';
import type { Mark } from '../../src/core/marks';
import { newRun, observation } from '../fixtures/run';

const marks: Mark[] = [
  { label: 0, tag: 'input', text: 'Search', rect: { x: 10, y: 10, width: 200, height: 30 } },
  { label: 1, tag: 'button', text: 'Go', rect: { x: 220, y: 10, width: 50, height: 30 } },
  { label: 2, tag: 'input', text: 'Password', rect: { x: 10, y: 50, width: 200, height: 30 }, inputType: 'password' },
];

const obs = (url = 'https://example.com/a') => observation({ url, marks });

const fresh = (maxSteps = 15) => newRun({ startUrl: 'https://example.com/start?x=1', model: 'glm-4.5v', maxSteps });

function step(s: RunState, reply: string, result: { ok: true } | { ok: false; error: string } = { ok: true }): RunState {
  s = reduce(s, { type: 'observed', at: 2000, obs: obs(), ms: 100 });
  s = reduce(s, { type: 'replied', at: 3000, raw: reply, reasoning: null, usage: { promptTokens: 10, completionTokens: 5 }, ms: 900 });
  if (s.phase === 'act') s = reduce(s, { type: 'acted', at: 3500, result, ms: 400 });
  return s;
}

describe('run state machine', () => {
  it('starts by observing and uses the site as {Web}', () => {
    const s = fresh();
    expect(s.site).toBe('https://example.com/');
    expect(effectOf(s)).toEqual({ kind: 'observe' });
    expect(siteOf('not a url')).toBe('not a url');
  });

  it('observe -> ask with one user message, image first -> act -> next step', () => {
    let s = reduce(fresh(), { type: 'observed', at: 2000, obs: obs(), ms: 100 });
    const ask = effectOf(s);
    expect(ask.kind).toBe('ask');
    if (ask.kind !== 'ask') return;
    expect(ask.request.map((p) => p.type)).toEqual(['image', 'text']);
    expect(ask.request[0]).toEqual({ type: 'image', of: 'current' });
    expect(s.pending?.promptText).toContain('find it, Please interact with https://example.com/ and get the answer.');
    s = reduce(s, { type: 'replied', at: 3000, raw: 'Thought: go\nAction: Click [1]\nMemory_Updated: {"k": 1}', reasoning: null, usage: null, ms: 900 });
    expect(effectOf(s)).toEqual({ kind: 'check', action: { type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 }, mark: marks[1], target: { tag: marks[1].tag, text: marks[1].text, rect: marks[1].rect } });
    s = reduce(s, { type: 'checked', at: 3000, hit: null });
    expect(effectOf(s)).toEqual({ kind: 'act', action: { type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 }, mark: marks[1] });
    s = reduce(s, { type: 'acted', at: 3500, result: { ok: true }, ms: 400 });
    expect(s.phase).toBe('observe');
    expect(s.steps).toHaveLength(1);
    expect(s.steps[0]).toMatchObject({ index: 0, thought: 'go', actionText: 'Click [1]', observation: 'Success', memory: { k: 1 } });
    expect(s.steps[0].timings).toEqual({ observeMs: 100, modelMs: 900, modelFirstTokenMs: null, actMs: 400, totalMs: 1600 });
    expect(s.memory).toEqual({ k: 1 });
  });

  it('the next prompt carries the history and the memory', () => {
    const s = reduce(step(fresh(), 'Thought: go\nAction: Click [1]\nMemory_Updated: {"k": 1}', { ok: false, error: 'The element [1] is covered.' }), { type: 'observed', at: 4000, obs: obs(), ms: 10 });
    expect(s.pending?.promptText).toContain('0.Thought:go\tAction:Click [1]\tObservation:The element [1] is covered.');
    expect(s.pending?.promptText).toContain('Memory:{"k":1}');
  });

  it('ANSWER finishes the run with the answer', () => {
    const s = step(fresh(), 'Thought: done\nAction: ANSWER; <content>42</content>\nMemory_Updated: {}');
    expect(s.status).toBe('finished');
    expect(s.answer).toBe('42');
    expect(s.steps).toHaveLength(1);
    expect(effectOf(s)).toEqual({ kind: 'none' });
  });

  it('an unknown label is an observation naming the labels that exist, not an action', () => {
    const s = step(fresh(), 'Thought: t\nAction: Click [9]');
    expect(s.steps[0].result).toEqual({ ok: false, error: 'There is no element with label [9]; labels on this page are 0 to 2.' });
    expect(s.phase).toBe('observe');
  });

  it('unreadable replies become format-error observations; three in a row fail the run', () => {
    let s = fresh();
    for (let i = 0; i < MAX_FORMAT_ERRORS - 1; i++) s = step(s, 'I think I should click something');
    expect(s.status).toBe('running');
    expect(s.steps.at(-1)?.observation).toMatch(/^Format error/);
    expect(s.steps.at(-1)?.action).toBeNull();
    s = step(s, '???');
    expect(s.status).toBe('failed');
    expect(s.stopReason).toContain(`could not be read ${MAX_FORMAT_ERRORS} times in a row`);
  });

  it('a good reply resets the format-error count', () => {
    let s = step(fresh(), 'garbage');
    s = step(s, 'garbage');
    s = step(s, 'Action: Click [0]');
    s = step(s, 'garbage');
    s = step(s, 'garbage');
    expect(s.status).toBe('running');
  });

  it('stops at max steps', () => {
    let s = fresh(2);
    s = step(s, 'Action: Click [0]');
    s = step(s, 'Action: Click [1]');
    expect(s.status).toBe('stopped');
    expect(s.stopReason).toBe('Reached the maximum of 2 steps without an answer.');
  });

  it('tells the person why it stopped in the language they had at the start; the model still reads English', () => {
    let s = createRun({ ...fresh(2), at: 1000, locale: 'zh_CN' });
    s = step(s, 'Action: Click [0]');
    s = step(s, 'Action: Click [1]');
    expect(s.stopReason).toBe('已达到最多 2 步，仍没有得到答案。');
    let g = createRun({ ...fresh(), at: 1000, locale: 'zh_CN' });
    for (let i = 0; i < MAX_FORMAT_ERRORS; i++) g = step(g, '???');
    expect(g.stopReason).toMatch(/^连续 \d+ 次无法读懂模型的回复/);
    expect(g.steps[0].observation).toMatch(/[a-z]{3}/);
    expect(g.steps[0].observation).not.toMatch(/\p{Script=Han}/u);
  });

  it('masks what is typed into a password field everywhere it is kept, but types the real text', () => {
    let s = reduce(fresh(), { type: 'observed', at: 2000, obs: obs(), ms: 1 });
    s = reduce(s, { type: 'replied', at: 3000, raw: 'Thought: log in with hunter2\nAction: Type [2]; [hunter2]', reasoning: 'the password is hunter2', usage: null, ms: 1 });
    s = reduce(s, { type: 'checked', at: 3000, hit: null });
    const eff = effectOf(s);
    expect(eff).toMatchObject({ kind: 'act', action: { type: 'type', target: { kind: 'label', label: 2 }, text: 'hunter2', clear: true, enter: true } });
    s = reduce(s, { type: 'acted', at: 3100, result: { ok: true }, ms: 1 });
    const kept = JSON.stringify(s.steps);
    expect(kept).not.toContain('hunter2');
    expect(s.steps[0].actionText).toBe('Type [2]; [{{password:1}}]'); // its placeholder: the model can type it again
  });

  it('stop and fail end the run and ignore later events', () => {
    let s = reduce(fresh(), { type: 'observed', at: 2000, obs: obs(), ms: 1 });
    s = reduce(s, { type: 'stop', at: 2500, reason: 'Stopped by the user.' });
    expect(s).toMatchObject({ status: 'stopped', stopReason: 'Stopped by the user.', endedAt: 2500, pending: null });
    const after = reduce(s, { type: 'replied', at: 3000, raw: 'Action: Wait', reasoning: null, usage: null, ms: 1 });
    expect(after).toBe(s);
  });
});
