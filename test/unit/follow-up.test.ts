/**
 * Follow-ups (docs/follow-ups.md): an ended run goes on with the person's next task as its next
 * turn, keeping its history and memory; every dialect tells its model what the follow-up is and how
 * the turn before ended, in its own grammar's words; the turns are kept in the trace (and read
 * back), shown in the report, and searched in History.
 */
import { describe, expect, it } from 'vitest';
import { continueRun, followUpsOf, MAX_TURNS, reduce, turnOfStep, whyNoFollowUp, type RunState } from '../../src/core/run';
import { toTrace } from '../../src/core/trace';
import { fromTrace, parseTrace } from '../../src/core/trace/import';
import { runSummary, searchRuns } from '../../src/core/trace/history';
import { htmlReport } from '../../src/core/export/html-report';
import { DIALECTS } from '../../src/core/dialects/registry';
import { promptTextOf } from '../../src/core/dialects/request';
import { newRun, observation, reply } from '../fixtures/run';

const glm = (action: string, memory = '{}') => `Thought: ok.\nAction: ${action}\nMemory_Updated: ${memory}`;

/** A glm-web run that clicked once, then answered "Dune, 9.50". */
function answered(over: Parameters<typeof newRun>[0] = {}): RunState {
  let s = newRun({ task: 'Find the price of Dune', ...over });
  s = reduce(s, { type: 'observed', at: 2000, obs: observation(), ms: 5 });
  s = reduce(s, reply(glm('Scroll [WINDOW]; [down]', '{"seen": "list"}')));
  s = reduce(s, { type: 'acted', at: 3500, result: { ok: true }, ms: 10 });
  s = reduce(s, { type: 'observed', at: 4000, obs: observation(), ms: 5 });
  return reduce(s, reply(glm('ANSWER; <content>Dune, 9.50</content>', '{"seen": "list", "price": "9.50"}'), { at: 4001 }));
}

describe('a follow-up', () => {
  it('goes on from the ended run as its next turn, with its history and memory', () => {
    const done = answered();
    expect(done.status).toBe('finished');
    const next = continueRun(done, { task: ' now add it to the cart ', at: 9000, tabId: 8, maxSteps: 10 });
    expect(next).toMatchObject({ status: 'running', phase: 'observe', answer: null, stopReason: null, endedAt: null, pending: null, tabId: 8, maxSteps: done.steps.length + 10 });
    expect(next.steps).toBe(done.steps);
    expect(next.memory).toEqual(done.memory);
    expect(next.turns).toEqual([
      { task: 'Find the price of Dune', at: 1000, fromStep: 0, status: 'finished', answer: 'Dune, 9.50', stopReason: null },
      { task: 'now add it to the cart', at: 9000, fromStep: 2 },
    ]);
    expect(turnOfStep(next, 1)).toBe(0);
    expect(turnOfStep(next, 2)).toBe(1);

    // the model reads the first task, how it ended, and the follow-up to do now
    const obs = reduce(next, { type: 'observed', at: 9100, obs: observation(), ms: 5 });
    expect(obs.pending?.promptText).toContain('Find the price of Dune\n\nThe task above is done (it ended with ANSWER, answer: Dune, 9.50).\nFollow-up 1 from the user, the task to do now, going on in the same browser from the current screen: now add it to the cart');
    // with its past steps
    expect(obs.pending?.promptText).toContain('ANSWER; <content>Dune, 9.50</content>');

    // its own answer ends the run again; a third turn records the second's end
    const second = reduce(obs, reply(glm('ANSWER; <content>Added.</content>'), { at: 9200 }));
    expect(second).toMatchObject({ status: 'finished', answer: 'Added.' });
    const third = continueRun(second, { task: 'and check out', at: 9900, tabId: 8, maxSteps: 10 });
    expect(third.turns?.map((x) => [x.task, x.fromStep, x.status, x.answer])).toEqual([
      ['Find the price of Dune', 0, 'finished', 'Dune, 9.50'], ['now add it to the cart', 2, 'finished', 'Added.'], ['and check out', 3, undefined, undefined],
    ]);
    expect(followUpsOf(third)).toEqual([
      { task: 'now add it to the cart', before: { done: true, answer: 'Dune, 9.50' } },
      { task: 'and check out', before: { done: true, answer: 'Added.' } },
    ]);
  });

  it('after a stopped run says it was stopped; what belonged to the ended turn goes', () => {
    let s = newRun({ task: 'Find it', answerSchema: { type: 'string' } });
    s = reduce(s, { type: 'stop', at: 1500, reason: 'Stopped by the user.' });
    expect(s.status).toBe('stopped');
    const next = continueRun(s, { task: 'try the other shop', at: 2000, tabId: 7, maxSteps: 5 });
    expect(next.answerSchema).toBeUndefined();
    expect(next.turns?.[0]).toMatchObject({ status: 'stopped', stopReason: 'Stopped by the user.' });
    expect(followUpsOf(next)).toEqual([{ task: 'try the other shop', before: { done: false, answer: null } }]);
    const obs = reduce(next, { type: 'observed', at: 2100, obs: observation(), ms: 5 });
    expect(obs.pending?.promptText).toContain('The task above was stopped before it was done.\nFollow-up 1 from the user');
  });

  it('is refused while the run goes, for a replay, empty, too long, or past the turns a run may have', () => {
    const done = answered();
    expect(whyNoFollowUp(done, 'next')).toBeNull();
    expect(whyNoFollowUp(newRun(), 'next')).toBe('followUpRunning');
    expect(whyNoFollowUp(done, '  ')).toBe('followUpEmpty');
    expect(whyNoFollowUp(done, 'x'.repeat(20_001))).toBe('followUpLong');
    expect(whyNoFollowUp({ ...done, replay: { runId: 'r0', steps: [] } as unknown as RunState['replay'] }, 'next')).toBe('followUpReplay');
    let s = done;
    for (let i = 1; i < MAX_TURNS; i++) s = { ...continueRun(s, { task: `t${i}`, at: i, tabId: 7, maxSteps: 1 }), status: 'finished' };
    expect(s.turns).toHaveLength(MAX_TURNS);
    expect(whyNoFollowUp(s, 'one more')).toBe('followUpTurns');
  });

  it('hides the person\'s secrets in what it keeps and sends', () => {
    const secret = { name: 'card', value: '4242424242424242' };
    const done = answered({ secrets: [secret] });
    const next = continueRun(done, { task: 'pay with 4242424242424242', at: 9000, tabId: 7, maxSteps: 5 });
    expect(next.turns?.[1].task).not.toContain('4242424242424242');
    expect(JSON.stringify(followUpsOf(next))).not.toContain('4242424242424242');
  });
});

describe('every dialect tells its model about a follow-up in its own words', () => {
  for (const d of Object.values(DIALECTS)) {
    it(d.id, () => {
      const ctx = { task: 'Find the price of Dune.', site: 'https://shop.example/', now: new Date(0), history: [], memory: d.emptyMemory(), marks: [], shot: { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } }, apps: [] };
      const text = promptTextOf(d.buildRequest({ ...ctx, followUps: [{ task: 'Now add it to the cart.', before: { done: true, answer: 'Dune, 9.50' } }] }));
      expect(text).toContain(`The task above is done (it ended with ${d.endAction}, answer: Dune, 9.50).`);
      expect(text).toContain('the task to do now, going on in the same browser from the current screen: Now add it to the cart.');
      expect(promptTextOf(d.buildRequest(ctx))).not.toContain('Follow-up');
    });
  }
});

describe('the turns are kept', () => {
  const run = () => {
    const next = continueRun(answered(), { task: 'now add it to the cart', at: 9000, tabId: 8, maxSteps: 10 });
    const obs = reduce(next, { type: 'observed', at: 9100, obs: observation(), ms: 5 });
    return reduce(obs, reply(glm('ANSWER; <content>Added.</content>'), { at: 9200 }));
  };

  it('in the trace, and read back from it; turns that do not fit the steps are dropped', () => {
    const trace = toTrace(run(), []);
    expect(trace.run.turns).toEqual([
      { task: 'Find the price of Dune', startedAt: new Date(1000).toISOString(), fromStep: 0, status: 'finished', answer: 'Dune, 9.50', stopReason: null },
      { task: 'now add it to the cart', startedAt: new Date(9000).toISOString(), fromStep: 2 },
    ]);
    const read = parseTrace(JSON.parse(JSON.stringify(trace)));
    expect(read.ok && fromTrace(read.trace).turns).toEqual(run().turns);
    const bad = JSON.parse(JSON.stringify(trace));
    bad.run.turns[1].fromStep = 99;
    const r2 = parseTrace(bad);
    expect(r2.ok && fromTrace(r2.trace).turns).toBeUndefined();
  });

  it('in the report: where each follow-up begins, and each turn\'s ending', () => {
    const { html } = htmlReport(toTrace(run(), []));
    expect(html).toContain('<li class="turn-start" data-turn="1">Follow-up 1: now add it to the cart</li><li class="step" id="step-3"');
    expect(html).toContain('<section class="turns" id="turns"><h2>Turns</h2>');
    expect(html).toMatch(/<li data-turn="0"><b>Task<\/b> Find the price of Dune <span class="status finished">[^<]+<\/span> <span class="muted">Answer: Dune, 9.50<\/span><\/li>/);
  });

  it('in History: the follow-ups are counted and searched', () => {
    const summary = runSummary(run());
    expect(summary.followUps).toEqual(['now add it to the cart']);
    expect(searchRuns([{ summary }], 'cart')).toHaveLength(1);
    expect(searchRuns([{ summary }], 'checkout')).toHaveLength(0);
    expect(runSummary(answered()).followUps).toBeUndefined();
  });
});
