/**
 * The run core with a dialect that acts at points (glm-mobile): the request carries no element
 * list, points are CSS px through the shared mapper, the element under a point is what the step
 * records and guards see, a password typed at a point is masked before anything is kept, and the
 * dialect's own ways to end a run (answer + status complete, status infeasible).
 */
import { describe, expect, it } from 'vitest';
import { createRun, effectOf, reduce, splitSecret, toRunView, type Observation, type RunState } from '../../src/core/run';
import { promptTextOf } from '../../src/core/dialects/request';
import { toTrace } from '../../src/core/trace';
import type { Mark } from '../../src/core/marks';
import { newRun, observation } from '../fixtures/run';

const marks: Mark[] = [{ label: 0, tag: 'input', text: 'Search recipes', rect: { x: 10, y: 80, width: 390, height: 40 } }];
const PW = { tag: 'input', text: 'Password', inputType: 'password', rect: { x: 10, y: 200, width: 390, height: 40 } };

const obs = () => observation({ url: 'https://m.shop.example/', title: 'Shop', viewport: { width: 412, height: 915, devicePixelRatio: 2.625 }, marks, screenshot: { dataUrl: 'data:image/png;base64,AAAA', bytes: 3, width: 412, height: 915 } });

const fresh = () => newRun({ id: 'm1', task: 'find pasta', startUrl: 'https://m.shop.example/', tabId: 3, dialect: 'glm-mobile', model: 'glm-4.5v', maxSteps: 9, at: 0, apps: [{ name: 'Mail', url: 'https://mail.example/' }] });

const reply = (action: string, reason = 'r') => `Memory: None\nReason: ${reason}\nAction: ${action}`;

describe('a run in a point dialect', () => {
  it('asks with the clean screenshot and no element list; acts at the mapped point; records the element under it', () => {
    let s = fresh();
    expect(s.memory).toBe('');
    s = reduce(s, { type: 'observed', at: 10, obs: obs(), ms: 5 });
    const ask = effectOf(s);
    if (ask.kind !== 'ask') throw new Error(ask.kind);
    expect(ask.request.map((p) => p.type)).toEqual(['text', 'image']);
    const text = promptTextOf(ask.request);
    expect(text).toContain('# Task Platform\nMobile');
    expect(text).toContain('Supported apps: Mail.');
    expect(text).not.toContain('Search recipes'); // the labeller's list stays out of this dialect's prompt
    const found = { tag: 'input', text: 'Search recipes', rect: marks[0].rect };
    s = reduce(s, { type: 'replied', at: 20, raw: reply('{"action_type": "click", "box_2d": [[100,100,300,120]]}'), reasoning: null, usage: null, ms: 9, target: found });
    const check = effectOf(s);
    expect(check).toMatchObject({ kind: 'check', mark: null, target: found });
    if (check.kind !== 'check' || check.action.type !== 'click' || check.action.target.kind !== 'point') throw new Error('not a point click');
    expect(check.action.target.x).toBeCloseTo(0.2 * 412, 6);
    expect(check.action.target.y).toBeCloseTo(0.11 * 915, 6);
    s = reduce(s, { type: 'checked', at: 21, hit: null });
    s = reduce(s, { type: 'acted', at: 30, result: { ok: true }, ms: 3 });
    expect(s.steps[0].target).toEqual(found);
    expect(s.steps[0].actionText).toBe('{"action_type": "click", "box_2d": [[200,110,200,110]]}');
    expect(toTrace(s, []).steps[0]).toMatchObject({ action: { type: 'click', target: { kind: 'point' } }, target: found });
    // the next request shows the step in the dialect's history form
    s = reduce(s, { type: 'observed', at: 40, obs: obs(), ms: 5 });
    expect(s.pending?.promptText).toContain("Step 0:\nMemory: None\nReason: r\nAction: {'action_type': 'click', 'box_2d': [[200, 110, 200, 110]]}");
  });

  it('masks a password typed at a point before the reply is kept', () => {
    let s = reduce(fresh(), { type: 'observed', at: 10, obs: obs(), ms: 5 });
    s = reduce(s, { type: 'replied', at: 20, raw: reply('{"action_type": "input_text", "text": "hunter22", "box_2d": [[50,220,950,250]], "override": true}', 'Type hunter22 into it'), reasoning: null, usage: null, ms: 9, target: PW });
    const r = s.pending!.reply!;
    expect(r.secret).toBe(true);
    expect(r.raw).not.toContain('hunter22');
    expect(r.thought).not.toContain('hunter22');
    expect(r.actionText).toContain('{{password:1}}'); // the password's placeholder: the model can type it again
    const { state, secret } = splitSecret(s);
    expect(secret).toBe('hunter22');
    expect(JSON.stringify(state)).not.toContain('hunter22');
    expect(toRunView(s).pending?.actionText).not.toContain('hunter22');
  });

  it('answer tells the person and goes on; status complete finishes with that answer', () => {
    let s = reduce(fresh(), { type: 'observed', at: 10, obs: obs(), ms: 5 });
    s = reduce(s, { type: 'replied', at: 20, raw: reply('{"action_type": "answer", "text": "Pasta costs $4"}'), reasoning: null, usage: null, ms: 9 });
    s = reduce(reduce(s, { type: 'checked', at: 21, hit: null }), { type: 'acted', at: 22, result: { ok: true }, ms: 1 });
    expect(s.status).toBe('running');
    s = reduce(s, { type: 'observed', at: 30, obs: obs(), ms: 5 });
    s = reduce(s, { type: 'replied', at: 40, raw: reply('{"action_type": "status", "goal_status": "complete"}'), reasoning: null, usage: null, ms: 9 });
    expect(s).toMatchObject({ status: 'finished', answer: 'Pasta costs $4', stopReason: null });
  });

  it('status infeasible ends the run as failed with the model\'s reason', () => {
    let s = reduce(fresh(), { type: 'observed', at: 10, obs: obs(), ms: 5 });
    s = reduce(s, { type: 'replied', at: 20, raw: reply('{"action_type": "status", "goal_status": "infeasible"}', 'The shop has no pasta.'), reasoning: null, usage: null, ms: 9 });
    expect(s.status).toBe('failed');
    expect(s.stopReason).toContain('The shop has no pasta.');
    expect(s.steps).toHaveLength(1);
  });

  it('an approval shows the point and the element under it', () => {
    let s = createRun({ ...fresh(), id: 'm2', tabId: 3, dialect: 'glm-mobile', model: 'm', baseUrl: 'b', maxSteps: 5, at: 0, approveSteps: true });
    s = reduce(s, { type: 'observed', at: 10, obs: obs(), ms: 5 });
    s = reduce(s, { type: 'replied', at: 20, raw: reply('{"action_type": "long_press", "box_2d": [[500,500,500,500]]}'), reasoning: null, usage: null, ms: 9, target: PW });
    s = reduce(s, { type: 'checked', at: 21, hit: null });
    const a = toRunView(s).pending?.approval;
    expect(a?.target).toEqual(PW);
    expect(a?.point?.x).toBeCloseTo(206, 6);
  });
});

describe('a run in glm-pc', () => {
  const desk = (): Observation => ({ ...obs(), viewport: { width: 1280, height: 800, devicePixelRatio: 1 }, screenshot: { dataUrl: 'data:image/png;base64,AAAA', bytes: 3, width: 1280, height: 800 } });
  const pc = () => createRun({ id: 'p1', task: 'open the docs', startUrl: 'https://a.example/', tabId: 4, dialect: 'glm-pc', model: 'm', baseUrl: 'b', maxSteps: 9, at: 0 });
  const step = (s: RunState, raw: string, at: number): RunState => {
    s = reduce(s, { type: 'observed', at, obs: desk(), ms: 1 });
    s = reduce(s, { type: 'replied', at: at + 1, raw, reasoning: null, usage: null, ms: 1 });
    if (s.status !== 'running') return s;
    return reduce(reduce(s, { type: 'checked', at: at + 2, hit: null }), { type: 'acted', at: at + 3, result: { ok: true }, ms: 1 });
  };

  it('after an address-bar shortcut the typed text opens as an address, and the model is told', () => {
    let s = step(pc(), "I will focus the address bar.\nkey(keys='ctrl+l')\nMemory:\n[]", 10);
    expect(s.steps[0].action).toEqual({ type: 'key', keys: 'Control+l' });
    s = reduce(s, { type: 'observed', at: 20, obs: desk(), ms: 1 });
    s = reduce(s, { type: 'replied', at: 21, raw: "Type the address.\ntype(content='docs.example.org/start')\nMemory:\n[]", reasoning: null, usage: null, ms: 1 });
    const eff = effectOf(s);
    expect(eff).toMatchObject({ kind: 'check', action: { type: 'navigate', url: 'https://docs.example.org/start' } });
    s = reduce(reduce(s, { type: 'checked', at: 22, hit: null }), { type: 'acted', at: 23, result: { ok: true }, ms: 1 });
    expect(s.steps[1].observation).toContain('The text was opened as an address: https://docs.example.org/start');
    // typing elsewhere is typing
    s = step(s, "Type into the box.\ntype(content='hello world')\nMemory:\n[]", 30);
    expect(s.steps[2].action).toMatchObject({ type: 'type', target: { kind: 'none' }, text: 'hello world' });
  });

  it('DONE finishes with the explanation as the answer; FAIL ends as failed with it', () => {
    const done = step(pc(), 'The page shows the price: $12.\nDONE()\nMemory:\n[]', 10);
    expect(done).toMatchObject({ status: 'finished' });
    expect(done.answer).toContain('$12');
    const failed = step(pc(), 'The site needs a login I do not have.\nFAIL()\nMemory:\n[]', 10);
    expect(failed.status).toBe('failed');
    expect(failed.stopReason).toContain('needs a login');
    expect(failed.answer).toBeNull();
  });

  it('sends earlier screenshots as references the background fills in, at half size', () => {
    let s = pc();
    for (let i = 0; i < 6; i++) s = step(s, `Click it.\nleft_click(start_box='[${100 + i},200]')\nMemory:\n[]`, 10 * (i + 1));
    s = reduce(s, { type: 'observed', at: 100, obs: desk(), ms: 1 });
    const ask = effectOf(s);
    if (ask.kind !== 'ask') throw new Error(ask.kind);
    const images = ask.request.filter((p) => p.type === 'image');
    expect(images).toEqual([
      { type: 'image', of: 2, scale: 0.5 }, { type: 'image', of: 3, scale: 0.5 }, { type: 'image', of: 4, scale: 0.5 }, { type: 'image', of: 5, scale: 0.5 },
      { type: 'image', of: 'current' },
    ]);
    expect(promptTextOf(ask.request)).toContain('step 1: Screenshot:(Omitted in context.) Thought: Click it.');
  });
});
