import { describe, expect, it } from 'vitest';
import { createRun, effectOf, reduce, type RunState } from '../../src/core/run';
import { findTarget, replayPlan, nextReplayed } from '../../src/core/trace/replay';
import type { Mark } from '../../src/core/marks';
import { observation } from '../fixtures/run';

const fp = (tag: string, text: string, path: string) => ({ tag, text, path });
const recorded: Mark[] = [
  { label: 0, tag: 'input', text: 'Search', rect: { x: 10, y: 10, width: 200, height: 30 }, fingerprint: fp('input', 'Search', 'html>body>input') },
  { label: 1, tag: 'button', text: 'Go', rect: { x: 220, y: 10, width: 50, height: 30 }, fingerprint: fp('button', 'Go', 'html>body>button') },
];

const obs = (marks: Mark[], url = 'https://shop.example/') => observation({ url, title: 't', marks, screenshot: { dataUrl: 'data:image/png;base64,AA', bytes: 1, width: 1, height: 1 } });

function recordedRun(): RunState {
  let s = createRun({ id: 'orig', task: 't', startUrl: 'https://shop.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 9, at: 0 });
  const step = (raw: string) => {
    s = reduce(s, { type: 'observed', at: 1, obs: obs(recorded), ms: 1 });
    s = reduce(s, { type: 'replied', at: 2, raw, reasoning: null, usage: null, ms: 1 });
    if (s.phase === 'act') s = reduce(reduce(s, { type: 'checked', at: 3, hit: null }), { type: 'acted', at: 4, result: { ok: true }, ms: 1 });
  };
  step('Thought: a\nAction: Type [0]; [lamp]\nMemory_Updated: {"q": "lamp"}');
  step('this is not a reply');
  step('Thought: b\nAction: Click [1]\nMemory_Updated: {"q": "lamp", "searched": true}');
  step('Thought: c\nAction: ANSWER; <content>found</content>');
  return s;
}

describe('replay', () => {
  it('plans the actions that ran, skipping unreadable replies', () => {
    const plan = replayPlan('orig', recordedRun().steps);
    expect(plan.steps.map((p) => p.action.type)).toEqual(['type', 'click', 'answer']);
    expect(plan.steps.map((p) => p.from)).toEqual([0, 2, 3]);
    expect(plan.steps[1].target).toMatchObject({ tag: 'button', text: 'Go' });
  });

  it('finds targets by fingerprint, not by the old label', () => {
    const now: Mark[] = [
      { label: 0, tag: 'a', text: 'Home', rect: { x: 0, y: 0, width: 10, height: 10 }, fingerprint: fp('a', 'Home', 'html>body>a') },
      { label: 1, tag: 'button', text: 'Go', rect: { x: 220, y: 10, width: 50, height: 30 }, fingerprint: fp('button', 'Go', 'html>body>div>button') },
      { label: 2, tag: 'input', text: 'Search', rect: { x: 10, y: 10, width: 200, height: 30 }, fingerprint: fp('input', 'Search', 'html>body>input') },
    ];
    const plan = replayPlan('orig', recordedRun().steps);
    expect(nextReplayed(plan, 0, now, 'u')).toMatchObject({ ok: true, action: { type: 'type', target: { kind: 'label', label: 2 }, text: 'lamp' } });
    expect(nextReplayed(plan, 1, now, 'u')).toMatchObject({ ok: true, action: { type: 'click', target: { kind: 'label', label: 1 } } });
    expect(nextReplayed(plan, 2, now, 'u')).toMatchObject({ ok: true, action: { type: 'answer', text: 'found' } });
    // Text changed but same place: still found; same text twice: the nearest one.
    const cart = { tag: 'a', text: 'Cart (1)', fingerprint: fp('a', 'Cart (1)', 'html>body>a'), rect: recorded[1].rect };
    expect(findTarget([{ ...recorded[1], label: 4, tag: 'a', text: 'Cart (2)', fingerprint: fp('a', 'Cart (2)', 'html>body>a') }], cart)?.label).toBe(4);
    // Another text in the same place is another element.
    expect(findTarget([{ ...recorded[1], label: 4, text: 'Stop' }], plan.steps[1].target!)).toBeNull();
    expect(findTarget([{ ...now[1], text: 'Go!' }], plan.steps[1].target!)).toBeNull();
    const twins = [{ ...now[1], label: 5, rect: { x: 900, y: 700, width: 50, height: 30 }, fingerprint: fp('button', 'Go', 'x') }, { ...now[1], label: 6, fingerprint: fp('button', 'Go', 'y') }];
    expect(findTarget(twins, plan.steps[1].target!)?.label).toBe(6);
  });

  it('stops at the first target that cannot be found, saying which and why', () => {
    const plan = replayPlan('orig', recordedRun().steps);
    const r = nextReplayed(plan, 1, [recorded[0]], 'https://shop.example/results');
    expect(r).toEqual({ ok: false, reason: expect.stringContaining('recorded step 3: its target <button> "Go" was not found on https://shop.example/results') });
  });

  it('drives a run: replies come from the plan, and the run stops when a target is missing', () => {
    const plan = replayPlan('orig', recordedRun().steps);
    let s = createRun({ id: 'r', task: 'Replay: t', startUrl: 'https://shop.example/', tabId: 2, dialect: 'glm-web', model: 'replay', baseUrl: '', maxSteps: 9, at: 0, replay: plan });
    s = reduce(s, { type: 'observed', at: 1, obs: obs(recorded), ms: 1 });
    const eff = effectOf(s);
    expect(eff).toMatchObject({ kind: 'replay', next: { ok: true } });
    if (eff.kind !== 'replay' || !eff.next.ok) return;
    s = reduce(s, { type: 'replayed', at: 2, action: eff.next.action, memory: eff.next.memory, from: eff.next.from });
    s = reduce(reduce(s, { type: 'checked', at: 3, hit: null }), { type: 'acted', at: 4, result: { ok: true }, ms: 1 });
    s = reduce(s, { type: 'observed', at: 5, obs: obs([]), ms: 1 });
    expect(effectOf(s)).toMatchObject({ kind: 'replay', next: { ok: false, reason: expect.stringContaining('<button> "Go"') } });
  });

  it('a typed password cannot be replayed (traces never keep it), typed as the mask or again as its placeholder', () => {
    for (const text of ['••••', '{{password:1}}']) {
      const steps = recordedRun().steps.map((st) => (st.action?.type === 'type' ? { ...st, action: { ...st.action, text } } : st));
      expect(nextReplayed(replayPlan('orig', steps), 0, recorded, 'u'), text).toMatchObject({ ok: false, reason: expect.stringContaining('password') });
    }
  });
});

describe('replaying actions at a point', () => {
  const fp = { tag: 'button', text: 'Buy', path: 'html>body>main>button' };
  const then = { label: 0, tag: 'button', text: 'Buy', rect: { x: 100, y: 100, width: 40, height: 20 }, fingerprint: fp };
  const step = (target: typeof then | null): import('../../src/core/run').StepRecord => ({
    index: 0, url: 'u', title: '', viewport: { width: 412, height: 915, devicePixelRatio: 1 }, elements: [then],
    promptText: '', imageBytes: 1, imageWidth: 412, imageHeight: 915, screenshot: '', cleanScreenshot: '', raw: '', reasoning: null,
    thought: '', action: { type: 'click', target: { kind: 'point', x: 118, y: 109 }, button: 'left', count: 1 }, actionText: 'x',
    target, memory: '', result: { ok: true }, observation: 'Success', timings: { observeMs: 0, modelMs: 0, actMs: 0, totalMs: 0 }, usage: null,
    approval: { decision: 'auto', feedback: null },
  });

  it('acts at the centre of the element that was under the point, found again by its fingerprint', () => {
    const plan = replayPlan('r', [step({ ...then })], 'glm-mobile');
    expect(plan.dialect).toBe('glm-mobile');
    const moved = { ...then, label: 3, rect: { x: 10, y: 300, width: 40, height: 20 } };
    expect(nextReplayed(plan, 0, [moved], 'u')).toMatchObject({ ok: true, action: { type: 'click', target: { kind: 'point', x: 30, y: 310 } } });
  });

  it('acts at the recorded point when the element is gone or was never known', () => {
    const recordedPoint = { ok: true, action: { type: 'click', target: { kind: 'point', x: 118, y: 109 } } };
    expect(nextReplayed(replayPlan('r', [step({ ...then })]), 0, [], 'u')).toMatchObject(recordedPoint);
    expect(nextReplayed(replayPlan('r', [step(null)]), 0, [then], 'u')).toMatchObject(recordedPoint);
  });
});
