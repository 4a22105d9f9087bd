import { describe, expect, it } from 'vitest';
import { createRun, reduce } from '../../src/core/run';
import { REDACTED, scrub, toTrace } from '../../src/core/trace';

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
});
