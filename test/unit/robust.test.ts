import { describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, APIError } from 'openai';
import { createRun, MAX_WAITS_IN_A_ROW, reduce, REPEAT_NUDGE, REPEAT_STOP, type RunState } from '../../src/core/run';
import { costOf, normalizePrices, tokensOf } from '../../src/core/costs';
import { PRESETS } from '../../src/core/presets';
import { checkSettings, normalizeSettings } from '../../src/core/settings';
import { toRunView } from '../../src/core/run/view';
import { retryWait, StreamCutError } from '../../src/background/model';
import type { Mark } from '../../src/core/marks';
import { observation } from '../fixtures/run';

const marks: Mark[] = [{ label: 0, tag: 'button', text: 'Next', rect: { x: 0, y: 0, width: 50, height: 20 } }];
const obs = (url = 'https://a.example/') => observation({ url, title: 't', viewport: { width: 100, height: 100, devicePixelRatio: 1 }, marks, screenshot: { dataUrl: 'data:image/png;base64,AA', bytes: 1, width: 1, height: 1 } });

function run(limits?: RunState['limits']): RunState {
  return createRun({ id: 'r', task: 't', startUrl: 'https://a.example/', tabId: 1, dialect: 'glm-web', model: 'glm-4.5v', baseUrl: 'http://h/v1', maxSteps: 50, at: 0, limits });
}

function step(s: RunState, action: string, url = 'https://a.example/', usage = { promptTokens: 1000, completionTokens: 100 }): RunState {
  s = reduce(s, { type: 'observed', at: 1, obs: obs(url), ms: 1 });
  s = reduce(s, { type: 'replied', at: 2, raw: `Thought: t\nAction: ${action}\nMemory_Updated: {}`, reasoning: null, usage, ms: 1 });
  if (s.phase === 'act') s = reduce(reduce(s, { type: 'checked', at: 3, hit: null }), { type: 'acted', at: 4, result: { ok: true }, ms: 1 });
  return s;
}

describe('loop guard', () => {
  it('nudges at the third same action on an unchanged page and stops at the fifth', () => {
    let s = run();
    for (let i = 1; i < REPEAT_NUDGE; i++) s = step(s, 'Click [0]');
    expect(s.steps.at(-1)?.observation).toBe('Success');
    s = step(s, 'Click [0]');
    expect(s.steps.at(-1)?.observation).toContain(`proposed this same action ${REPEAT_NUDGE} times`);
    const next = reduce(s, { type: 'observed', at: 5, obs: obs(), ms: 1 });
    expect(next.pending?.promptText).toContain('try a different approach');
    for (let i = REPEAT_NUDGE; i < REPEAT_STOP - 1; i++) s = step(s, 'Click [0]');
    expect(s.status).toBe('running');
    s = step(s, 'Click [0]');
    expect(s.status).toBe('stopped');
    expect(s.stopReason).toContain(`the same action (Click [0]) ${REPEAT_STOP} times on an unchanged page`);
    expect(s.steps.at(-1)?.result).toMatchObject({ ok: false, error: expect.stringContaining('Not run') });
  });

  it('a changed page (other URL) resets the count', () => {
    let s = run();
    for (let i = 0; i < REPEAT_STOP + 2; i++) s = step(s, 'Click [0]', `https://a.example/p${i}`);
    expect(s.status).toBe('running');
  });

  it('a control whose value keeps changing (a spinner clicked down five times) is progress; the same values again are a loop', () => {
    const at = (values: string) => (s: RunState) => {
      s = reduce(s, { type: 'observed', at: 1, obs: { ...obs(), values }, ms: 1 });
      s = reduce(s, { type: 'replied', at: 2, raw: 'Thought: t\nAction: Click [0]\nMemory_Updated: {}', reasoning: null, usage: null, ms: 1 });
      return s.phase === 'act' ? reduce(reduce(s, { type: 'checked', at: 3, hit: null }), { type: 'acted', at: 4, result: { ok: true }, ms: 1 }) : s;
    };
    let s = run();
    for (let i = 0; i < REPEAT_STOP + 2; i++) s = at(`0:v${i}`)(s);
    expect(s.status).toBe('running');
    for (let i = 0; i < REPEAT_STOP; i++) s = at('0:same')(s);
    expect(s.status).toBe('stopped');
  });

  it('stops after too many Waits in a row', () => {
    let s = run();
    for (let i = 0; i < MAX_WAITS_IN_A_ROW; i++) s = step(s, 'Wait', `https://a.example/w${i}`);
    expect(s.status).toBe('running');
    s = step(s, 'Wait', 'https://a.example/last');
    expect(s.status).toBe('stopped');
    expect(s.stopReason).toContain(`waited ${MAX_WAITS_IN_A_ROW} times in a row`);
  });
});

describe('usage, cost and caps', () => {
  it('adds up tokens and prices them per million', () => {
    expect(tokensOf([{ promptTokens: 10, completionTokens: 2 }, null, { promptTokens: 5, completionTokens: 1 }])).toEqual({ promptTokens: 15, completionTokens: 3 });
    expect(costOf({ promptTokens: 1_000_000, completionTokens: 500_000 }, { inputPerMillion: 0.6, outputPerMillion: 1.8 })).toBeCloseTo(1.5);
    expect(costOf({ promptTokens: 1, completionTokens: 1 }, null)).toBeNull();
    expect(normalizePrices({ m: { inputPerMillion: '1', outputPerMillion: 2 }, bad: { inputPerMillion: -1, outputPerMillion: 1 } })).toEqual({ m: { inputPerMillion: 1, outputPerMillion: 2 } });
  });

  it('the run view carries the totals and the cost', () => {
    const s = step(step(run({ maxTokens: 0, maxCost: 0, price: { inputPerMillion: 1, outputPerMillion: 10 } }), 'Click [0]', 'https://a.example/1'), 'Click [0]', 'https://a.example/2');
    expect(toRunView(s).totals).toEqual({ promptTokens: 2000, completionTokens: 200, cost: (2000 * 1 + 200 * 10) / 1e6, currency: null });
    // the price's currency, when the run kept it
    const eur = step(run({ maxTokens: 0, maxCost: 0, price: { inputPerMillion: 1, outputPerMillion: 10 }, currency: 'EUR' }), 'Click [0]', 'https://a.example/1');
    expect(toRunView(eur).totals.currency).toBe('EUR');
  });

  it('a token cap stops the run before the action that passes it', () => {
    let s = run({ maxTokens: 2500, maxCost: 0, price: null });
    s = step(s, 'Click [0]', 'https://a.example/1');
    s = step(s, 'Click [0]', 'https://a.example/2');
    expect(s.status).toBe('running');
    s = step(s, 'Click [0]', 'https://a.example/3');
    expect(s.status).toBe('stopped');
    expect(s.stopReason).toContain('used 3300 tokens, over the cap of 2500');
  });

  it('a cost cap stops the run; an answer still finishes it', () => {
    const price = { inputPerMillion: 1000, outputPerMillion: 1000 };
    const capped = step(run({ maxTokens: 0, maxCost: 1, price }), 'Click [0]');
    expect(capped.stopReason).toContain('over the cap of 1');
    const answered = step(run({ maxTokens: 0, maxCost: 1, price }), 'ANSWER; <content>x</content>');
    expect(answered.status).toBe('finished');
  });
});

describe('settings, presets, retries', () => {
  it('every preset fills valid settings', () => {
    expect(PRESETS.map((p) => p.id)).toEqual(['zhipu', 'vllm', 'openai', 'openrouter', 'ollama', 'lmstudio']);
    for (const p of PRESETS) expect(checkSettings(normalizeSettings({ ...p.fields }))).toEqual({});
  });

  it('keeps saved profiles and drops broken ones', () => {
    const s = normalizeSettings({ profiles: { 'Home vLLM': { baseUrl: 'http://10.0.0.2:8000/v1/', model: 'glm-4.5v', apiKey: ' k ' } as never, '': { baseUrl: 'x' } as never, bad: null as never } });
    expect(Object.keys(s.profiles)).toEqual(['Home vLLM']);
    expect(s.profiles['Home vLLM']).toMatchObject({ baseUrl: 'http://10.0.0.2:8000/v1', apiKey: 'k' });
    expect(checkSettings({ ...s, requestTimeoutSec: 1 }).requestTimeoutSec).toBeDefined();
  });

  it('retries 429 (after Retry-After), 5xx, timeouts and network errors; not 4xx', () => {
    const h = (v?: string) => new Headers(v ? { 'retry-after': v } : {});
    expect(retryWait(new APIError(429, undefined, 'slow down', h('3')), 0)).toBe(3000);
    expect(retryWait(new APIError(429, undefined, 'slow down', h()), 2)).toBe(4000);
    expect(retryWait(new APIError(503, undefined, 'busy', h()), 0)).toBe(1000);
    expect(retryWait(new APIConnectionTimeoutError(), 1)).toBe(2000);
    expect(retryWait(new TypeError('Failed to fetch'), 0)).toBe(1000);
    expect(retryWait(new StreamCutError(), 0)).toBe(1000);
    expect(retryWait(new APIError(401, undefined, 'no', h()), 0)).toBeNull();
    expect(retryWait(new APIError(400, undefined, 'bad', h()), 0)).toBeNull();
    expect(retryWait(new APIError(429, undefined, 'x', h('600')), 0)).toBe(60_000);
  });
});
