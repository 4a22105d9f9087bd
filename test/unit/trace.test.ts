import { describe, expect, it } from 'vitest';
import { createRun, reduce } from '../../src/core/run';
import { REDACTED, scrub, toTrace } from '../../src/core/trace';
import { fromTrace, parseTrace } from '../../src/core/trace/import';
import type { RunState } from '../../src/core/run/state';

describe('trace export', () => {
  it('has the docs/trace-format.md shape and scrubs secrets from every string', () => {
    const key = 'sk-secret-abcdef';
    let s = createRun({ id: 'r', task: `use ${key}`, startUrl: 'https://a.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 5, at: 0 });
    s = reduce(s, { type: 'observed', at: 10, ms: 5, obs: { url: 'https://a.example/', title: 't', viewport: { width: 10, height: 10, devicePixelRatio: 1 }, marks: [], screenshot: { dataUrl: 'data:image/png;base64,AA', bytes: 1, width: 10, height: 10 } } });
    s = reduce(s, { type: 'replied', at: 20, ms: 5, raw: `Thought: ${key}\nAction: ANSWER; <content>ok</content>`, reasoning: null, usage: { promptTokens: 3, completionTokens: 2 } });
    const t = toTrace(s, [key]);
    expect(JSON.stringify(t)).not.toContain(key);
    expect(t.run.task).toBe(`use ${REDACTED}`);
    expect(t).toMatchObject({ format: 'webagent-trace', version: 2, run: { status: 'finished', answer: 'ok', stopReason: null, startedAt: '1970-01-01T00:00:00.000Z' } });
    const step = t.steps[0];
    for (const k of ['index', 'url', 'title', 'viewport', 'elements', 'request', 'reply', 'thought', 'action', 'memory', 'approval', 'result', 'timings', 'usage', 'screenshot']) expect(step).toHaveProperty(k);
    expect(step.request).toEqual({ promptText: expect.any(String), imageBytes: 1, imageWidth: 10, imageHeight: 10 });
  });

  it('ignores empty or very short secrets instead of scrubbing every letter', () => {
    expect(scrub({ a: 'abc' }, ['', 'a'])).toEqual({ a: 'abc' });
  });

  /** A one-step run in `dialect` whose kept views are `labelled` and `clean`, at `price`. */
  function oneStep(dialect: string, labelled: string, clean: string, price: RunState['limits'] = undefined): RunState {
    let s = createRun({ id: 'r', task: 't', startUrl: 'https://a.example/', tabId: 1, dialect, model: 'm', baseUrl: 'http://h/v1', maxSteps: 5, at: 0, limits: price });
    s = reduce(s, { type: 'observed', at: 10, ms: 5, obs: { url: 'https://a.example/', title: 't', viewport: { width: 10, height: 10, devicePixelRatio: 1 }, marks: [], screenshot: { dataUrl: 'data:image/png;base64,AA', bytes: 1, width: 10, height: 10 }, kept: { labelled, clean } } });
    const answer = dialect === 'glm-pc' ? "DONE(explanation='ok')" : 'Thought: ok\nAction: ANSWER; <content>ok</content>';
    return reduce(s, { type: 'replied', at: 20, ms: 5, raw: answer, reasoning: null, usage: { promptTokens: 3000, completionTokens: 200 } });
  }

  it('stores a clean view that is the labelled picture once, and an import shows it again', () => {
    const pic = 'data:image/webp;base64,UklGRg==';
    const pc = toTrace(oneStep('glm-pc', pic, pic), []);
    expect(pc.steps[0].screenshot).toBe(pic);
    expect(pc.steps[0].cleanScreenshot).toBe('');
    const back = parseTrace(JSON.parse(JSON.stringify(pc)));
    if (!back.ok) throw new Error(back.error);
    const run = fromTrace(back.trace);
    expect(run.steps[0].cleanScreenshot).toBe(pic); // the model saw the clean view: it is the same picture
    expect(toTrace(run, [])).toEqual(back.trace);
    // a labelled dialect keeps both; a missing clean view stays missing
    const web = toTrace(oneStep('glm-web', pic, 'data:image/webp;base64,AAAA'), []);
    expect(web.steps[0].cleanScreenshot).toBe('data:image/webp;base64,AAAA');
    const none = parseTrace(JSON.parse(JSON.stringify({ ...web, steps: [{ ...web.steps[0], cleanScreenshot: '' }] })));
    if (!none.ok) throw new Error(none.error);
    expect(fromTrace(none.trace).steps[0].cleanScreenshot).toBe('');
  });

  it('carries the price the run was made with, so its cost survives an export and an import', () => {
    const price = { inputPerMillion: 0.6, outputPerMillion: 1.8 };
    const t = toTrace(oneStep('glm-web', '', '', { maxTokens: 0, maxCost: 0, price }), []);
    expect(t.run.price).toEqual(price);
    const back = parseTrace(JSON.parse(JSON.stringify(t)));
    if (!back.ok) throw new Error(back.error);
    expect(fromTrace(back.trace).limits?.price).toEqual(price);
    expect(toTrace(fromTrace(back.trace), [])).toEqual(back.trace);
    expect(toTrace(oneStep('glm-web', '', ''), []).run.price).toBeNull();
    // the currency next to the price, read back; a trace made before it was kept has none (costs show without a unit)
    const eur = toTrace(oneStep('glm-web', '', '', { maxTokens: 0, maxCost: 0, price, currency: 'EUR' }), []);
    expect(eur.run.currency).toBe('EUR');
    const eurBack = parseTrace(JSON.parse(JSON.stringify(eur)));
    if (!eurBack.ok) throw new Error(eurBack.error);
    expect(fromTrace(eurBack.trace).limits?.currency).toBe('EUR');
    const { currency: _c, ...oldRun } = eur.run;
    const old = parseTrace(JSON.parse(JSON.stringify({ ...eur, run: oldRun })));
    if (!old.ok) throw new Error(old.error);
    expect(fromTrace(old.trace).limits).toMatchObject({ price, currency: null });
    // a price that is not one is not taken
    const odd = parseTrace(JSON.parse(JSON.stringify({ ...t, run: { ...t.run, price: { inputPerMillion: 'free', outputPerMillion: 1 } } })));
    if (!odd.ok) throw new Error(odd.error);
    expect(fromTrace(odd.trace).limits).toBeUndefined();
  });
});
