/**
 * Run views as broadcast (src/core/run/view.ts): only the steps changed since the last broadcast,
 * found by reference, merged by the receiver onto the view it holds.
 */
import { describe, expect, it } from 'vitest';
import { createRun, reduce, type RunState } from '../../src/core/run';
import { rememberTyped } from '../../src/core/run/secrets';
import { mergeView, stepsChangedFrom, toRunView } from '../../src/core/run/view';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

function step(s: RunState, n: number): RunState {
  const obs = { url: `https://shop.example/${n}`, title: 't', viewport: { width: 10, height: 10, devicePixelRatio: 1 }, marks: [{ label: 0, tag: 'input', text: 'Password', rect: { x: 0, y: 0, width: 5, height: 5 } }], screenshot: { dataUrl: PNG, bytes: 10, width: 10, height: 10 }, kept: { labelled: PNG, clean: PNG } };
  s = reduce(s, { type: 'observed', at: 1000 + n, obs, ms: 5 });
  s = reduce(s, { type: 'replied', at: 1001 + n, raw: `Thought: step ${n} hunter22\nAction: Scroll [WINDOW]; [down]`, reasoning: null, usage: null, ms: 5 });
  s = reduce(s, { type: 'checked', at: 1002 + n, hit: null });
  return reduce(s, { type: 'acted', at: 1003 + n, result: { ok: true }, ms: 5 });
}

function run(steps: number): RunState {
  let s = createRun({ id: 'r', task: 't', startUrl: 'https://shop.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 50, at: 1000 });
  for (let n = 0; n < steps; n++) s = step(s, n);
  return s;
}

describe('run view deltas', () => {
  it('a transition sends only the new step, and the merged view is the whole view', () => {
    const before = run(3);
    const after = step(before, 3);
    expect(after.steps).toHaveLength(4);
    const from = stepsChangedFrom(before.steps, after.steps);
    expect(from).toBe(3);
    const held = toRunView(before, { rev: 1 });
    const part = toRunView(after, { rev: 2, stepsFrom: from });
    expect(part.steps.map((s) => s.index)).toEqual([3]);
    expect(mergeView(held, part)).toEqual(toRunView(after, { rev: 2 }));
    // no step changed (a phase change): no step sent
    const observed = reduce(after, { type: 'observed', at: 2000, obs: { url: 'https://shop.example/x', title: 't', viewport: { width: 10, height: 10, devicePixelRatio: 1 }, marks: [], screenshot: { dataUrl: PNG, bytes: 10, width: 10, height: 10 } }, ms: 5 });
    expect(stepsChangedFrom(after.steps, observed.steps)).toBe(4);
  });

  it('steps changed in place by the core (masked once a password is typed) are sent again', () => {
    const before = run(3);
    const masked = rememberTyped(before, 'hunter22');
    expect(masked.steps[0].thought).not.toContain('hunter22');
    expect(stepsChangedFrom(before.steps, masked.steps)).toBe(0);
  });

  it('a part that cannot be placed asks for the whole view; an older view never replaces a newer one', () => {
    const two = run(2), four = run(4);
    const part = toRunView(four, { rev: 5, stepsFrom: 3 });
    expect(mergeView(toRunView(two, { rev: 4 }), part)).toBeNull(); // steps 2 missing
    expect(mergeView(null, part)).toBeNull();
    expect(mergeView({ ...toRunView(four, { rev: 4 }), id: 'other' }, part)).toBeNull();
    const newer = toRunView(four, { rev: 9 });
    expect(mergeView(newer, toRunView(two, { rev: 3 }))).toBe(newer);
    expect(mergeView(toRunView(two, { rev: 3 }), newer)).toBe(newer);
  });

  it('a step view carries no pictures and no prompt', () => {
    const v = toRunView(run(1));
    expect(v.steps[0]).not.toHaveProperty('screenshot');
    expect(v.steps[0]).not.toHaveProperty('cleanScreenshot');
    expect(v.steps[0]).not.toHaveProperty('promptText');
  });
});

describe('finished steps\' pictures', () => {
  it('leave the run in memory once stored, only the new ones are copied, and nothing is copied when none has any', async () => {
    const { withoutStepPictures } = await import('../../src/core/run/pictures');
    const two = run(2);
    expect(two.steps.every((s) => s.screenshot === PNG && s.cleanScreenshot === PNG)).toBe(true);
    const light = withoutStepPictures(two);
    expect(light.steps.map((s) => [s.screenshot, s.cleanScreenshot])).toEqual([['', ''], ['', '']]);
    expect(withoutStepPictures(light)).toBe(light);
    const three = withoutStepPictures(step(light, 2));
    expect(three.steps[2].screenshot).toBe('');
    // the older steps are the same objects: a broadcast sends only the new one
    expect(stepsChangedFrom(light.steps, three.steps)).toBe(2);
  });
});
