import { describe, expect, it } from 'vitest';
import { createRun, reduce, type Observation, type RunState } from '../../src/core/run';
import { checkDecision, guardHit, guardsInForce, NEVER_WHILE_EXPLORING } from '../../src/core/run/guard-decision';
import { DEFAULT_GUARDS, type Reached } from '../../src/core/guards';
import type { Mark } from '../../src/core/marks';

const marks: Mark[] = [
  { label: 0, tag: 'button', text: 'Pay now', rect: { x: 10, y: 10, width: 200, height: 30 } },
  { label: 1, tag: 'button', text: 'Next page', rect: { x: 220, y: 10, width: 50, height: 30 } },
];
const obs: Observation = { url: 'https://shop.example/a', title: 'A', viewport: { width: 1280, height: 800, devicePixelRatio: 1 }, marks, screenshot: { dataUrl: 'data:image/png;base64,AAAA', bytes: 3, width: 1280, height: 800 } };
const allOff = { ...DEFAULT_GUARDS, rules: DEFAULT_GUARDS.rules.map((r) => ({ ...r, on: false })), allow: { 'shop.example': ['payment' as const] } };

function proposed(opts: { explore?: boolean; approveSteps?: boolean; guards?: typeof DEFAULT_GUARDS }, label: number): RunState {
  const { explore, ...rest } = opts;
  let s = createRun({ id: 'r', task: 't', startUrl: 'https://shop.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 9, at: 1, ...rest });
  // exploring is kept for a dialect that reads learned docs; the decision looks at the flag only
  if (explore) s = { ...s, explore: true };
  s = reduce(s, { type: 'observed', at: 2, obs, ms: 1 });
  return reduce(s, { type: 'replied', at: 3, raw: `Thought: t\nAction: Click [${label}]\nMemory_Updated: {}`, reasoning: null, usage: null, ms: 1 });
}
const reached = (s: RunState): Reached[] => [{ how: 'press', target: { tag: 'button', text: s.pending!.target!.text, editable: false } }];

describe('guard decision (one pure place)', () => {
  it('exploring turns the pay, delete and send rules on and allows nothing, whatever the settings', () => {
    const g = guardsInForce({ explore: true, guards: allOff });
    expect(g.rules.filter((r) => r.on).map((r) => r.id).sort()).toEqual([...NEVER_WHILE_EXPLORING].sort());
    expect(g.allow).toEqual({});
    expect(guardsInForce({ explore: false, guards: allOff })).toBe(allOff);
  });

  it('a paying click trips the payment rule while exploring even with the rule off, and is refused without asking', () => {
    const s = proposed({ explore: true, guards: allOff }, 0);
    const hit = guardHit(s, s.pending!.reply!.action, reached(s));
    expect(hit?.id).toBe('payment');
    expect(checkDecision(s, s.pending!, hit)).toEqual({ kind: 'refused', rule: 'payment' });
    const off = proposed({ guards: allOff }, 0);
    expect(guardHit(off, off.pending!.reply!.action, reached(off))).toBeNull();
  });

  it('no hit goes on without asking; step approval or a hit asks the person', () => {
    const s = proposed({}, 1);
    expect(checkDecision(s, s.pending!, null)).toEqual({ kind: 'auto' });
    const step = proposed({ approveSteps: true }, 1);
    expect(checkDecision(step, step.pending!, null)).toEqual({ kind: 'ask', rule: null, reason: null });
    const pay = proposed({}, 0);
    const hit = guardHit(pay, pay.pending!.reply!.action, reached(pay));
    expect(checkDecision(pay, pay.pending!, hit)).toMatchObject({ kind: 'ask', rule: 'payment' });
  });
});
