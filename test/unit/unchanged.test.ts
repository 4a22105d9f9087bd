/** core/run/unchanged.ts through the reducer: an action that changed nothing is not reported as Success. */
import { describe, expect, it } from 'vitest';
import { createRun, reduce, type Observation, type RunState } from '../../src/core/run';
import type { Mark } from '../../src/core/marks';

const marks: Mark[] = [
  { label: 0, tag: 'button', text: 'Reply', rect: { x: 10, y: 10, width: 60, height: 30 } },
  { label: 1, tag: 'input', text: 'Quantity', rect: { x: 80, y: 10, width: 120, height: 30 } },
];
const SAID = 'Done, but nothing on the page changed';

function seen(over: Partial<Observation> = {}, shot = 'AAAA'): Observation {
  return {
    url: 'https://mail.example/inbox', title: 'Inbox', viewport: { width: 1280, height: 800, devicePixelRatio: 1 }, marks, values: 'v1',
    screenshot: { dataUrl: `data:image/png;base64,${shot}`, bytes: 3, width: 1280, height: 800 }, ...over,
  };
}

/** One step done with `reply` on `before`, then the next observation `after`. */
function stepThen(reply: string, before: Observation, after: Observation, result: { ok: true; note?: string } | { ok: false; error: string } = { ok: true }): RunState {
  let s = createRun({ id: 'r1', task: 'reply to the mail', startUrl: 'https://mail.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 10, at: 0 });
  s = reduce(s, { type: 'observed', at: 100, obs: before, ms: 10 });
  s = reduce(s, { type: 'replied', at: 200, raw: `Thought: t\nAction: ${reply}\nMemory_Updated: {}`, reasoning: null, usage: null, ms: 10 });
  s = reduce(s, { type: 'checked', at: 250, hit: null });
  s = reduce(s, { type: 'acted', at: 300, result, ms: 10 });
  return reduce(s, { type: 'observed', at: 400, obs: after, ms: 10 });
}

describe('an action that changed nothing', () => {
  it('is told as such to the model and kept so in the step, never as Success', () => {
    const s = stepThen('Click [0]', seen(), seen());
    expect(s.steps[0].observation.startsWith(SAID)).toBe(true);
    expect(s.pending?.promptText).toContain(`Observation:${SAID}`);
    expect(s.pending?.promptText).not.toContain('Observation:Success');
  });

  it('is Success when anything the model sees changed: the picture, a value, the list, the address', () => {
    expect(stepThen('Click [0]', seen(), seen({}, 'BBBB')).steps[0].observation).toBe('Success');
    expect(stepThen('Click [0]', seen(), seen({ values: 'v2' })).steps[0].observation).toBe('Success');
    expect(stepThen('Click [0]', seen(), seen({ marks: [marks[0]] })).steps[0].observation).toBe('Success');
    expect(stepThen('Click [0]', seen(), seen({ url: 'https://mail.example/reply' })).steps[0].observation).toBe('Success');
  });

  it('leaves a failure, a Wait and an action that said what else it did (files chosen, a download) as they were', () => {
    expect(stepThen('Click [0]', seen(), seen(), { ok: false, error: 'The element [0] is covered.' }).steps[0].observation).toBe('The element [0] is covered.');
    expect(stepThen('Wait', seen(), seen()).steps[0].observation).toBe('Success');
    const chose = stepThen('Click [0]', seen(), seen(), { ok: true, note: 'The file chooser got the attached file "cat.png".' });
    expect(chose.steps[0].observation).toBe('Success. The file chooser got the attached file "cat.png".');
    const typed = stepThen('Type [1]; 5', seen(), seen());
    expect(typed.steps[0].observation.startsWith(SAID)).toBe(true);
  });

  it('is said once, however often the page is observed again', () => {
    let s = stepThen('Click [0]', seen(), seen());
    const once = s.steps[0].observation;
    s = reduce(s, { type: 'replied', at: 500, raw: 'Thought: t\nAction: Wait\nMemory_Updated: {}', reasoning: null, usage: null, ms: 10 });
    s = reduce(s, { type: 'acted', at: 600, result: { ok: true }, ms: 10 });
    s = reduce(s, { type: 'observed', at: 700, obs: seen(), ms: 10 });
    expect(s.steps[0].observation).toBe(once);
    expect(s.steps[1].observation).toBe('Success');
  });
});
