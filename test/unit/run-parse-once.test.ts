/** The model's reply is parsed once: the background's 'replied' event carries the parse (parseModelReply), the reducer uses it. */
import { describe, expect, it, vi } from 'vitest';
import { createRun, parseModelReply, reduce, type Observation } from '../../src/core/run';
import { dialectOf } from '../../src/core/dialects/registry';

const obs: Observation = {
  url: 'https://shop.example/a', title: 'A', viewport: { width: 1280, height: 800, devicePixelRatio: 1 },
  marks: [{ label: 0, tag: 'button', text: 'Next', rect: { x: 10, y: 10, width: 50, height: 30 } }],
  screenshot: { dataUrl: 'data:image/png;base64,AAAA', bytes: 3, width: 1280, height: 800 },
};

describe('one parse of a reply', () => {
  it('a replied event with its parse is not parsed again', () => {
    let s = createRun({ id: 'r', task: 't', startUrl: 'https://shop.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 9, at: 1 });
    s = reduce(s, { type: 'observed', at: 2, obs, ms: 1 });
    const raw = 'Thought: go\nAction: Click [0]\nMemory_Updated: {}';
    const parsed = parseModelReply(s, raw, null);
    const spy = vi.spyOn(dialectOf('glm-web'), 'parseReply');
    const withParse = reduce(s, { type: 'replied', at: 3, raw, reasoning: null, usage: null, ms: 1, parsed });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    expect(withParse.pending?.reply?.actionText).toBe('Click [0]');
    expect(withParse).toEqual(reduce(s, { type: 'replied', at: 3, raw, reasoning: null, usage: null, ms: 1 }));
  });
});
