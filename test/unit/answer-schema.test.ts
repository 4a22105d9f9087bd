/**
 * Structured answers (docs/answer-schema.md): a schema checked before a run, an answer read as
 * JSON and validated, a refused answer sent back to the model with the validator's message until
 * the tries run out, every dialect telling its model the schema in its own words, and the JSON
 * answer kept in the trace, the view and the batch's records.
 */
import { describe, expect, it } from 'vitest';
import { checkAnswer, checkSchema, MAX_ANSWER_TRIES, MAX_SCHEMA_CHARS, readSchemaText, schemaText } from '../../src/core/answer-schema';
import { reduce, type RunState } from '../../src/core/run';
import { toTrace } from '../../src/core/trace';
import { fromTrace, parseTrace } from '../../src/core/trace/import';
import { DIALECTS, dialectOf } from '../../src/core/dialects/registry';
import { promptTextOf } from '../../src/core/dialects/request';
import { taskOf } from '../../src/core/batch/tasks';
import { checkWorkerResult } from '../../src/core/batch/job';
import { checkTemplate } from '../../src/core/templates';
import { newRun, observation, reply } from '../fixtures/run';

const PRICE = { type: 'object', properties: { title: { type: 'string' }, price: { type: 'number' } }, required: ['title', 'price'], additionalProperties: false };

describe('a schema', () => {
  it('is a JSON object the validator can use, or refused with where it is wrong', () => {
    expect(checkSchema(PRICE)).toEqual({ ok: true, schema: PRICE });
    expect(checkSchema(true)).toMatchObject({ ok: false, problem: expect.stringContaining('must be a JSON object') });
    expect(checkSchema([PRICE])).toMatchObject({ ok: false });
    expect(checkSchema({ type: 'obj' })).toMatchObject({ ok: false, problem: expect.stringContaining('/type must be one of') });
    expect(checkSchema({ type: 'object', properties: { a: { type: 5 } } })).toMatchObject({ ok: false, problem: expect.stringContaining('/properties/a/type') });
    expect(checkSchema({ type: 'object', required: 'a' })).toMatchObject({ ok: false, problem: expect.stringContaining('/required') });
    expect(checkSchema({ anyOf: { type: 'string' } })).toMatchObject({ ok: false, problem: expect.stringContaining('/anyOf must be a list') });
    expect(checkSchema({ type: 'string', pattern: '(' })).toMatchObject({ ok: false, problem: expect.stringContaining('/pattern') });
    // a $ref to nowhere: the validator's own first line, not its list of known schemas
    const ref = checkSchema({ $ref: '#/$defs/nope' });
    expect(ref).toMatchObject({ ok: false, problem: expect.stringContaining('the validator cannot use it: Unresolved $ref') });
    expect(ref.ok ? '' : ref.problem).not.toContain('\n');
    expect(checkSchema({ description: 'x'.repeat(MAX_SCHEMA_CHARS) })).toMatchObject({ ok: false, problem: expect.stringContaining(`at most ${MAX_SCHEMA_CHARS}`) });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'array', items: deep };
    expect(checkSchema(deep)).toMatchObject({ ok: false, problem: expect.stringContaining('deeper') });
  });

  it('given as text is parsed first', () => {
    expect(readSchemaText(' {"type": "number"} ')).toEqual({ ok: true, schema: { type: 'number' } });
    expect(readSchemaText('{type: number}')).toMatchObject({ ok: false, problem: expect.stringContaining('it is not JSON') });
  });
});

describe('an answer', () => {
  it('is JSON the schema accepts: whole, fenced, or inside prose', () => {
    expect(checkAnswer(PRICE, '{"title": "Dune", "price": 9.5}')).toEqual({ ok: true, value: { title: 'Dune', price: 9.5 } });
    expect(checkAnswer(PRICE, '```json\n{"title": "Dune", "price": 9.5}\n```')).toEqual({ ok: true, value: { title: 'Dune', price: 9.5 } });
    expect(checkAnswer(PRICE, 'Found it: {"title": "Dune", "price": 9.5}. Done.')).toEqual({ ok: true, value: { title: 'Dune', price: 9.5 } });
    expect(checkAnswer({ type: 'array', items: { type: 'integer' } }, 'The ids are [1, 2, 3]')).toEqual({ ok: true, value: [1, 2, 3] });
  });

  it('that does not match says where and what, as the model will read it', () => {
    expect(checkAnswer(PRICE, '{"title": "Dune", "price": "9.50"}')).toEqual({ ok: false, error: 'at /price: Instance type "string" is invalid. Expected "number".' });
    expect(checkAnswer(PRICE, '{"title": "Dune"}')).toEqual({ ok: false, error: 'at /: Instance does not have required property "price".' });
    expect(checkAnswer(PRICE, '{"title": "Dune", "price": 1, "isbn": "x"}')).toEqual({ ok: false, error: 'at /isbn: the schema does not allow this here' });
    expect(checkAnswer(PRICE, 'nine fifty')).toMatchObject({ ok: false, error: expect.stringMatching(/^the answer is not JSON \(/) });
    expect(checkAnswer(PRICE, '  ')).toEqual({ ok: false, error: 'no answer was given' });
    expect(checkAnswer(PRICE, null)).toEqual({ ok: false, error: 'no answer was given' });
  });
});

const glmAnswer = (content: string) => `Thought: I have it.\nAction: ANSWER; <content>${content}</content>\nMemory_Updated: {}`;

/** One step: observed, then the model's reply (an answer ends the step at once). */
function answerWith(s: RunState, content: string, at: number): RunState {
  s = reduce(s, { type: 'observed', at, obs: observation(), ms: 5 });
  return reduce(s, reply(glmAnswer(content), { at: at + 1 }));
}

describe('a run with an answer schema', () => {
  it('tells the model the schema, takes a matching answer, and keeps its JSON in the trace', () => {
    let s = newRun({ answerSchema: PRICE });
    s = reduce(s, { type: 'observed', at: 2000, obs: observation(), ms: 5 });
    expect(s.pending?.promptText).toContain(`must be one JSON value, and nothing else, that matches this JSON Schema: ${schemaText(PRICE)}`);
    s = reduce(s, reply(glmAnswer('{"title": "Dune", "price": 9.5}')));
    expect(s.status).toBe('finished');
    expect(s.answer).toBe('{"title": "Dune", "price": 9.5}');
    expect(s.answerJson).toEqual({ title: 'Dune', price: 9.5 });
    const trace = toTrace(s, []);
    expect(trace.run).toMatchObject({ answerSchema: PRICE, answerJson: { title: 'Dune', price: 9.5 } });
    expect(trace.run.answersRefused).toBeUndefined();
    // an imported trace keeps them
    const read = parseTrace(JSON.parse(JSON.stringify(trace)));
    expect(read.ok && fromTrace(read.trace)).toMatchObject({ answerSchema: PRICE, answerJson: { title: 'Dune', price: 9.5 } });
  });

  it('sends a refused answer back with the validator\'s message, and takes a later one that matches', () => {
    let s = answerWith(newRun({ answerSchema: PRICE }), '{"title": "Dune", "price": "9.50"}', 2000);
    expect(s.status).toBe('running');
    expect(s.steps[0].result).toEqual({ ok: false, error: 'The answer does not match the JSON Schema the task gave: at /price: Instance type "string" is invalid. Expected "number". Give the answer again as JSON that matches the schema (2 more tries).' });
    expect(s.answersRefused).toBe(1);
    // the model reads it as the step's observation
    s = reduce(s, { type: 'observed', at: 4000, obs: observation(), ms: 5 });
    expect(s.pending?.promptText).toContain('Instance type "string" is invalid');
    s = reduce(s, reply(glmAnswer('{"title": "Dune", "price": 9.5}'), { at: 4001 }));
    expect(s).toMatchObject({ status: 'finished', answerJson: { title: 'Dune', price: 9.5 }, answersRefused: 1 });
    expect(toTrace(s, []).run.answersRefused).toBe(1);
  });

  it(`stops after ${MAX_ANSWER_TRIES} refused answers, saying why in the person's words`, () => {
    let s = newRun({ answerSchema: PRICE });
    for (let i = 0; i < MAX_ANSWER_TRIES; i++) s = answerWith(s, 'about nine dollars', 2000 + i * 1000);
    expect(s.status).toBe('failed');
    expect(s.answersRefused).toBe(MAX_ANSWER_TRIES);
    expect(s.answerJson).toBeUndefined();
    expect(s.stopReason).toMatch(/^The model's answer did not match the task's answer schema 3 times, so the run stopped\. The last problem: the answer is not JSON/);
    expect(s.steps.at(-1)?.result).toMatchObject({ ok: false, error: expect.stringContaining('No more answers are taken.') });
    const zh = answerWith(answerWith(answerWith(newRun({ answerSchema: PRICE, locale: 'zh_CN' }), 'x', 2000), 'x', 3000), 'x', 4000);
    expect(zh.stopReason).toMatch(/^模型的答案 3 次不符合任务的答案格式/);
  });

  it('without a schema, any answer finishes as before and nothing JSON is kept', () => {
    const s = answerWith(newRun(), 'about nine dollars', 2000);
    expect(s).toMatchObject({ status: 'finished', answer: 'about nine dollars' });
    expect(s.answerJson).toBeUndefined();
    expect(toTrace(s, []).run.answerSchema).toBeUndefined();
  });
});

describe('every dialect tells its model the schema in its own words', () => {
  for (const d of Object.values(DIALECTS)) {
    it(d.id, () => {
      const ctx = { task: 'Find the price of Dune.', site: 'https://shop.example/', now: new Date(0), history: [], memory: d.emptyMemory(), marks: [], shot: { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } }, apps: [] };
      const plain = promptTextOf(d.buildRequest(ctx));
      const told = promptTextOf(d.buildRequest({ ...ctx, answerSchema: schemaText(PRICE) }));
      expect(plain).not.toContain('JSON Schema');
      expect(told).toContain(d.answerFormat(schemaText(PRICE)));
      expect(told).toContain('Find the price of Dune.');
      expect(dialectOf(d.id).answerFormat).toBe(d.answerFormat);
    });
  }
});

describe('the schema travels with a task', () => {
  it('in a batch task entry, checked there', () => {
    expect(taskOf({ task: 'price?', url: 'https://a.example/', answerSchema: PRICE }, 't1')).toMatchObject({ answerSchema: PRICE });
    expect(taskOf({ task: 'price?', url: 'https://a.example/', answerSchema: { type: 'money' } }, 't1')).toMatch(/^its answer schema cannot be used: \/type/);
  });

  it('in a saved task, checked there', () => {
    expect(checkTemplate({ name: 'p', task: 'price?', answerSchema: PRICE })).toMatchObject({ ok: true, template: { answerSchema: PRICE } });
    expect(checkTemplate({ name: 'p', task: 'price?', answerSchema: 'object' })).toMatchObject({ ok: false, problem: expect.stringContaining('answer schema cannot be used') });
  });

  it('in a worker\'s result: the JSON answer is checked again against the submitted task\'s schema', () => {
    const t = { id: 't1', site: 'a', task: 'price?', url: 'https://a.example/', answerSchema: PRICE };
    const result = {
      id: 't1', status: 'finished', kind: 'finished', answer: '{"title":"Dune","price":9.5}', answerJson: { title: 'Dune', price: 9.5 }, stopReason: null, guard: null,
      steps: 2, tokens: { prompt: 1, completion: 1 }, cost: null, durations: { totalMs: 1, startMs: 1, runMs: 1, exportMs: 1 },
      attempts: 1, startedAt: '2026-01-01T00:00:00Z', endedAt: '2026-01-01T00:00:01Z', worker: 'w:1', model: 'glm-4.5v',
    };
    expect(checkWorkerResult(result, t)).toMatchObject({ ok: true, result: { answerJson: { title: 'Dune', price: 9.5 }, model: 'glm-4.5v' } });
    expect(checkWorkerResult({ ...result, answerJson: { title: 'Dune', price: 'free' } }, t)).toMatchObject({ ok: false, problem: expect.stringContaining('does not match the task\'s answer schema: at /price') });
    const { answerSchema: _, ...noSchema } = t;
    expect(checkWorkerResult(result, noSchema)).toMatchObject({ ok: false, problem: expect.stringContaining('the task has no answer schema') });
  });
});
