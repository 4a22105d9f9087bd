/**
 * The side panel's pure parts: the run bar's words (status dot state, phase, "Step 3 of 15",
 * elapsed time), the tokens counted from the first reply, a take-over told apart from a rejection,
 * "cost unknown" said once per model, and the settings form against the stored settings.
 */
import { describe, expect, it } from 'vitest';
import { createRun, reduce, type Observation, type RunState } from '../../src/core/run';
import { toRunView, tookOver } from '../../src/core/run/view';
import { DEFAULT_SETTINGS, endpointOf } from '../../src/core/settings';
import { dotState, elapsedOf, formatElapsed, phaseText, stepText } from '../../sidepanel/status';
import { costNoteFor } from '../../sidepanel/cost-note';
import { differsFromSaved, draftOf, restoreDraft } from '../../sidepanel/settings-draft';

const obs: Observation = {
  url: 'https://shop.example/a', title: 'A', viewport: { width: 1280, height: 800, devicePixelRatio: 1 },
  marks: [{ label: 0, tag: 'button', text: 'Go', rect: { x: 10, y: 10, width: 50, height: 30 } }],
  screenshot: { dataUrl: 'data:image/png;base64,AAAA', bytes: 3, width: 1280, height: 800 },
};

function run(approveSteps = true): RunState {
  return createRun({ id: 'r1', task: 'go', startUrl: 'https://shop.example/', tabId: 7, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 15, at: 1000, approveSteps });
}

/** Step 1 observed and answered (with usage), checked: in step mode it waits for approval. */
function waiting(): RunState {
  let s = reduce(run(), { type: 'observed', at: 2000, obs, ms: 10 });
  s = reduce(s, { type: 'replied', at: 3000, raw: 'Thought: t\nAction: Click [0]', reasoning: null, usage: { promptTokens: 1200, completionTokens: 30 }, ms: 5 });
  return reduce(s, { type: 'checked', at: 3001, hit: null });
}

describe('the run bar', () => {
  it('gives each state its own dot and words', () => {
    const s0 = run();
    expect(dotState(toRunView(s0))).toBe('running');
    expect(phaseText(toRunView(s0))).toBe('starting…');
    const observed = reduce(s0, { type: 'observed', at: 2000, obs, ms: 10 });
    expect(phaseText(toRunView(observed))).toBe('waiting for the model…');
    expect(stepText(toRunView(observed))).toBe('Step 1 of 15');
    const w = waiting();
    expect(dotState(toRunView(w))).toBe('waiting');
    expect(phaseText(toRunView(w))).toBe('an action to approve, below');
    const paused = reduce(observed, { type: 'pause', at: 2100, url: obs.url });
    expect(dotState(toRunView(paused))).toBe('paused');
    const took = reduce(w, { type: 'takeover', at: 3500, url: obs.url });
    expect(dotState(toRunView(took))).toBe('waiting');
    expect(phaseText(toRunView(took))).toBe('you have the page');
    const stopped = reduce(w, { type: 'stop', at: 4000, reason: 'Stopped by the user.' });
    expect(dotState(toRunView(stopped))).toBe('stopped');
    expect(phaseText(toRunView(stopped))).toBe('');
    expect(stepText(toRunView(s0))).toBe('No steps yet (at most 15)');
    // an ended run says how many steps it took, not "Step n of 15"
    expect(stepText(toRunView(stopped))).toBe('0 steps');
    expect(stepText({ ...toRunView(stopped), steps: [toRunView(stopped).steps[0] ?? ({} as never)] })).toBe('1 step');
  });

  it('writes the elapsed time as a clock, until the end of an ended run', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(42_900)).toBe('0:42');
    expect(formatElapsed(12 * 60_000 + 5_000)).toBe('12:05');
    expect(formatElapsed(3_723_000)).toBe('1:02:03');
    expect(formatElapsed(-5)).toBe('0:00');
    expect(elapsedOf({ startedAt: 1000, endedAt: null }, 61_000)).toBe(60_000);
    expect(elapsedOf({ startedAt: 1000, endedAt: 5000 }, 61_000)).toBe(4000);
  });
});

describe('tokens and the take-over', () => {
  it('counts the reply waiting for approval (not "0 tokens"), once', () => {
    const w = waiting();
    expect(w.steps).toHaveLength(0);
    expect(toRunView(w).totals).toMatchObject({ promptTokens: 1200, completionTokens: 30 });
    const done = reduce(reduce(w, { type: 'approve', at: 3002 }), { type: 'acted', at: 3100, result: { ok: true }, ms: 50 });
    expect(done.steps).toHaveLength(1);
    expect(toRunView(done).totals).toMatchObject({ promptTokens: 1200, completionTokens: 30 });
  });

  it('tells a take-over from a rejection', () => {
    const took = reduce(waiting(), { type: 'takeover', at: 3500, url: obs.url });
    expect(took.steps[0].approval?.decision).toBe('rejected');
    expect(tookOver(took.steps[0])).toBe(true);
    const rejected = reduce(waiting(), { type: 'reject', at: 3500, feedback: 'not that one' });
    expect(tookOver(rejected.steps[0])).toBe(false);
  });
});

describe('"cost unknown" is said once per model', () => {
  it('by the first run of the model, each time that run is shown, and not by later ones', () => {
    const data = new Map<string, string>();
    const store = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => { data.set(k, v); } };
    expect(costNoteFor('vision-x', 'run-1', store)).toBe(true);
    expect(costNoteFor('vision-x', 'run-1', store)).toBe(true);
    expect(costNoteFor('vision-x', 'run-2', store)).toBe(false);
    expect(costNoteFor('other', 'run-2', store)).toBe(true);
    data.set('webagent.costUnknownTold', 'not json');
    expect(costNoteFor('vision-x', 'run-3', store)).toBe(true);
  });
});

describe('the settings form against what is stored', () => {
  const saved = { ...DEFAULT_SETTINGS, apiKey: 'sk-1' };
  it('is unchanged when it says what storage keeps', () => {
    expect(differsFromSaved(saved, saved.prices, saved)).toBe(false);
    // As storage would keep it: a trailing slash and spaces go.
    expect(differsFromSaved({ ...saved, baseUrl: `${saved.baseUrl}/`, model: ` ${saved.model} ` }, saved.prices, saved)).toBe(false);
    // What is saved on its own does not count.
    expect(differsFromSaved({ ...saved, approveSteps: !saved.approveSteps, profiles: { a: { ...endpointOf(saved), apiKey: 'x' } } }, saved.prices, saved)).toBe(false);
    expect(differsFromSaved({ ...saved, guards: { ...saved.guards, allow: { 'a.example': ['payment'] } } }, saved.prices, saved)).toBe(false);
  });

  it('differs when a field, a guard rule or a price differs', () => {
    expect(differsFromSaved({ ...saved, baseUrl: 'http://10.0.0.1:8000/v1' }, saved.prices, saved)).toBe(true);
    expect(differsFromSaved({ ...saved, maxSteps: 16 }, saved.prices, saved)).toBe(true);
    const rules = saved.guards.rules.map((r, i) => (i === 0 ? { ...r, on: !r.on } : r));
    expect(differsFromSaved({ ...saved, guards: { ...saved.guards, rules } }, saved.prices, saved)).toBe(true);
    expect(differsFromSaved(saved, { ...saved.prices, 'vision-x': { inputPerMillion: 1, outputPerMillion: 2 } }, saved)).toBe(true);
    // The same prices in another order are the same table.
    const reversed = Object.fromEntries(Object.entries(saved.prices).reverse());
    expect(differsFromSaved(saved, reversed, saved)).toBe(false);
  });
});

describe('the unsaved form, kept over a closed panel', () => {
  const saved = { ...DEFAULT_SETTINGS, apiKey: 'sk-1' };
  const rowsOf = (p: typeof saved.prices) => Object.entries(p).map(([model, q]) => ({ model, input: String(q.inputPerMillion), output: String(q.outputPerMillion) }));
  // the form's own reading of the rows (price-table.tsx), reduced: a blank price is a problem
  const table = (rows: Array<{ model: string; input: string; output: string }>) => {
    const out: typeof saved.prices = {};
    for (const r of rows) {
      if (!r.input.trim() || !r.output.trim()) return { table: out, problem: 'half typed' };
      out[r.model] = { inputPerMillion: Number(r.input), outputPerMillion: Number(r.output) };
    }
    return { table: out, problem: null };
  };
  const roundTrip = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

  it('comes back as typed, over what is saved on its own now', () => {
    const edited = { ...saved, model: 'qwen2.5-vl', maxSteps: 30, currency: 'EUR' };
    const now = { ...saved, approveSteps: true, language: 'zh_CN' as const, guards: { ...saved.guards, allow: { 'a.example': ['payment' as const] } } };
    const back = restoreDraft(roundTrip(draftOf(edited, rowsOf(saved.prices))), now, table);
    expect(back?.settings).toMatchObject({ model: 'qwen2.5-vl', maxSteps: 30, currency: 'EUR', apiKey: 'sk-1', approveSteps: true, language: 'zh_CN' });
    expect(back?.settings.guards.allow).toEqual({ 'a.example': ['payment'] });
    expect(back?.rows).toEqual(rowsOf(saved.prices));
  });

  it('keeps no API key: an unsaved key is not kept, the saved one comes back from storage', () => {
    const typed = { ...saved, apiKey: 'sk-typed-not-saved', textApiKey: 'sk-text', model: 'm3' };
    const draft = draftOf(typed, rowsOf(saved.prices));
    expect(JSON.stringify(draft)).not.toMatch(/sk-/);
    expect(restoreDraft(roundTrip(draft), saved, table)?.settings).toMatchObject({ apiKey: 'sk-1', model: 'm3' });
    // only a key typed: nothing to bring back
    expect(restoreDraft(roundTrip(draftOf({ ...saved, apiKey: 'sk-2' }, rowsOf(saved.prices))), saved, table)).toBeNull();
  });

  it('a half-typed price row is a change; a draft that says what is saved, or cannot be read, is none', () => {
    const half = [...rowsOf(saved.prices), { model: 'new-model', input: '1', output: '' }];
    expect(restoreDraft(roundTrip(draftOf(saved, half)), saved, table)?.rows.at(-1)).toEqual({ model: 'new-model', input: '1', output: '' });
    expect(restoreDraft(roundTrip(draftOf(saved, rowsOf(saved.prices))), saved, table)).toBeNull();
    expect(restoreDraft(undefined, saved, table)).toBeNull();
    expect(restoreDraft({ settings: 'x', rows: [] }, saved, table)).toBeNull();
    // a number field left empty (NaN, null in JSON) falls back to the saved value
    expect(restoreDraft(roundTrip(draftOf({ ...saved, maxSteps: Number.NaN, model: 'm2' }, rowsOf(saved.prices))), saved, table)?.settings.maxSteps).toBe(saved.maxSteps);
  });
});
