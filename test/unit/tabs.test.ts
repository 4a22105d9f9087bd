/** The run moving between tabs (reduce 'tab'): the stack of openers, what the model is told, the trace. */
import { describe, expect, it } from 'vitest';
import { effectOf, reduce, type RunState } from '../../src/core/run';
import { toTrace } from '../../src/core/trace';
import { fromTrace, parseTrace } from '../../src/core/trace/import';
import type { Mark } from '../../src/core/marks';
import { newRun, observation } from '../fixtures/run';

const marks: Mark[] = [{ label: 0, tag: 'a', text: 'Open', rect: { x: 10, y: 10, width: 200, height: 30 } }];
const DESK = 'https://example.com/desk';
const NEW = 'https://example.com/new';

const obs = (url = DESK) => observation({ url, title: 'T', marks });

const fresh = () => newRun({ task: 'do it', startUrl: DESK });

/** Observed, replied "Click [0]", checked, the input started: an action under way. */
function acting(s: RunState, url = DESK): RunState {
  s = reduce(s, { type: 'observed', at: 2000, obs: obs(url), ms: 10 });
  s = reduce(s, { type: 'replied', at: 2100, raw: 'Thought: t\nAction: Click [0]\nMemory_Updated: {}', reasoning: null, usage: null, ms: 10 });
  s = reduce(s, { type: 'checked', at: 2100, hit: null });
  return reduce(s, { type: 'acting', at: 2200 });
}

describe('tabs', () => {
  it('a tab the action opened: the step records it, the model is told, the opener goes on the stack', () => {
    let s = acting(fresh());
    s = reduce(s, { type: 'tab', at: 2300, change: 'opened', tabId: 9, url: NEW });
    expect(s).toMatchObject({ tabId: 9, tabStack: [7], phase: 'act' });
    s = reduce(s, { type: 'acted', at: 2400, result: { ok: true }, ms: 200 });
    expect(s.steps[0].tabs).toEqual([{ change: 'opened', url: NEW }]);
    expect(s.steps[0].observation).toBe(`Success. A new tab opened: ${NEW}; you are now in it.`);
    expect(s.tabChanges).toEqual([]);
    // The next prompt's history says it.
    s = reduce(s, { type: 'observed', at: 3000, obs: obs(NEW), ms: 10 });
    expect(s.pending?.promptText).toContain(`Observation:Success. A new tab opened: ${NEW}; you are now in it.`);
  });

  it('the tab closes: back to the latest opener, the stack shrinks; an error outcome keeps its own full stop', () => {
    let s = reduce(acting(fresh()), { type: 'tab', at: 2300, change: 'opened', tabId: 9, url: NEW });
    s = reduce(s, { type: 'acted', at: 2400, result: { ok: true }, ms: 1 });
    s = reduce(acting(s, NEW), { type: 'tab', at: 2500, change: 'opened', tabId: 11, url: `${NEW}/2` });
    s = reduce(s, { type: 'acted', at: 2600, result: { ok: true }, ms: 1 });
    expect(s.tabStack).toEqual([7, 9]);
    s = acting(s, `${NEW}/2`);
    s = reduce(s, { type: 'tab', at: 2700, change: 'closed', tabId: 9, url: NEW });
    s = reduce(s, { type: 'acted', at: 2800, result: { ok: false, error: 'The page did not answer.' }, ms: 1 });
    expect(s).toMatchObject({ tabId: 9, tabStack: [7] });
    expect(s.steps[2].observation).toBe(`The page did not answer. The tab closed; back in the previous tab: ${NEW}.`);
    // Two tabs closed at once: back to the first opener still open.
    s = reduce(s, { type: 'tab', at: 2900, change: 'closed', tabId: 7, url: DESK });
    expect(s).toMatchObject({ tabId: 7, tabStack: [] });
  });

  it('outside an action: a step being observed or asked is dropped and observed again; the next step tells the model', () => {
    let s = reduce(fresh(), { type: 'observed', at: 2000, obs: obs(), ms: 10 });
    expect(s.phase).toBe('model');
    s = reduce(s, { type: 'tab', at: 2100, change: 'opened', tabId: 9, url: NEW });
    expect(s).toMatchObject({ phase: 'observe', pending: null, tabId: 9, steps: [] });
    expect(effectOf(s)).toEqual({ kind: 'observe' });
    s = reduce(acting(s, NEW), { type: 'acted', at: 2400, result: { ok: true }, ms: 1 });
    expect(s.steps[0].tabs).toEqual([{ change: 'opened', url: NEW }]);
    expect(s.steps[0].observation).toBe(`Success. A new tab opened: ${NEW}; you are now in it.`);
  });

  it('a proposed action that has not started when the tab changes is recorded as not run', () => {
    let s = fresh();
    s = { ...s, approveSteps: true };
    s = reduce(s, { type: 'observed', at: 2000, obs: obs(), ms: 10 });
    s = reduce(s, { type: 'replied', at: 2100, raw: 'Thought: t\nAction: Click [0]\nMemory_Updated: {}', reasoning: null, usage: null, ms: 10 });
    s = reduce(s, { type: 'checked', at: 2100, hit: null });
    expect(s.phase).toBe('approve');
    s = reduce(s, { type: 'tab', at: 2200, change: 'opened', tabId: 9, url: NEW });
    expect(s.phase).toBe('observe');
    expect(s.steps[0]).toMatchObject({ actionText: 'Click [0]', approval: null, result: { ok: false, error: 'Not run: the tab changed before this action ran.' } });
    expect(s.steps[0].observation).toBe(`Not run: the tab changed before this action ran. A new tab opened: ${NEW}; you are now in it.`);
  });

  it('the trace carries `tabs` only on steps that moved, and imports it back unchanged', () => {
    let s = reduce(acting(fresh()), { type: 'tab', at: 2300, change: 'opened', tabId: 9, url: NEW });
    s = reduce(s, { type: 'acted', at: 2400, result: { ok: true }, ms: 1 });
    s = reduce(acting(s, NEW), { type: 'acted', at: 2600, result: { ok: true }, ms: 1 });
    const t = toTrace(s, []);
    expect(t.steps[0].tabs).toEqual([{ change: 'opened', url: NEW }]);
    expect('tabs' in t.steps[1]).toBe(false);
    const back = parseTrace(JSON.parse(JSON.stringify(t)));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(JSON.parse(JSON.stringify(toTrace(fromTrace(back.trace), []).steps))).toEqual(JSON.parse(JSON.stringify(t.steps)));
  });
});
