import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capReply, MAX_MEMORY_CHARS, MAX_MEMORY_DEPTH, MAX_REPLY_CHARS, memoryWithinLimits } from '../../src/core/limits';
import { MEMORY_TOO_BIG_NOTE, parseMemory } from '../../src/core/dialects/glm-web/memory';
import { NOTE_MEMORY_TOO_BIG, parseMemoryList } from '../../src/core/dialects/glm-pc/memory';
import { askModel } from '../../src/background/model';
import { normalizeSettings } from '../../src/core/settings';
import { startFakeModel, type FakeModel, type ModelReply } from '../fixtures/model/server';

const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

describe('reply cap', () => {
  it('keeps a reply within the cap whole and cuts a longer one, reasoning first', () => {
    expect(capReply('abc', 'de', 5)).toEqual({ content: 'abc', reasoning: 'de', cut: false });
    expect(capReply('abcdef', 'de', 5)).toEqual({ content: 'abc', reasoning: 'de', cut: true });
    expect(capReply('abc', 'x'.repeat(9), 5)).toEqual({ content: '', reasoning: 'xxxxx', cut: true });
  });
});

describe('memory limits', () => {
  it('accepts ordinary memory, refuses too deep or too large without overflowing the stack', () => {
    expect(memoryWithinLimits({ a: [1, 2, { b: 'c' }] })).toBe(true);
    expect(memoryWithinLimits(JSON.parse(deep(MAX_MEMORY_DEPTH - 1)))).toBe(true);
    expect(memoryWithinLimits(JSON.parse(deep(MAX_MEMORY_DEPTH + 1)))).toBe(false);
    expect(memoryWithinLimits(JSON.parse(deep(100_000)))).toBe(false);
    expect(memoryWithinLimits({ a: 'x'.repeat(MAX_MEMORY_CHARS) })).toBe(false);
    expect(memoryWithinLimits(Array.from({ length: MAX_MEMORY_CHARS }, () => 1))).toBe(false);
  });

  it('5,000-deep memory keeps the previous memory with a note, in both memory formats', () => {
    expect(parseMemory(deep(5000))).toEqual({ ok: false, note: MEMORY_TOO_BIG_NOTE });
    expect(parseMemoryList(`[${deep(5000)}]`)).toEqual({ ok: false, note: NOTE_MEMORY_TOO_BIG });
    expect(parseMemory(`{"big": "${'y'.repeat(MAX_MEMORY_CHARS)}"}`)).toEqual({ ok: false, note: MEMORY_TOO_BIG_NOTE });
    expect(parseMemory('{"city": "Paris", "n": [1, 2]}')).toEqual({ ok: true, memory: { city: 'Paris', n: [1, 2] } });
  });
});

describe('a misbehaving model server', () => {
  let fake: FakeModel;
  let next: ModelReply = { content: 'ok' };
  beforeAll(async () => {
    fake = await startFakeModel({ policy: () => next });
  });
  afterAll(() => fake.close());
  const settings = (stream: boolean) => normalizeSettings({ baseUrl: fake.baseUrl, model: 'glm-4.5v', apiKey: '', stream, maxRetries: 1, requestTimeoutSec: 5 });
  const ask = (stream: boolean, signal = new AbortController().signal) => askModel(settings(stream), [{ role: 'user', content: 'hi' }], signal);

  it('a 10 MB streamed reply stops being read at the cap and counts as cut at max tokens', async () => {
    next = { content: 'z'.repeat(10_000_000), chunkSize: 65_536 };
    const r = await ask(true);
    expect(r.ok && r.truncated).toBe(true);
    expect(r.ok && r.content.length).toBe(MAX_REPLY_CHARS);
  });

  it('a 10 MB JSON reply is cut to the cap too', async () => {
    next = { content: 'z'.repeat(10_000_000) };
    const r = await ask(false);
    expect(r.ok && r.truncated).toBe(true);
    expect(r.ok && r.content.length).toBe(MAX_REPLY_CHARS);
  });

  it('a stream that goes silent after its headers times out, is retried, then reported', async () => {
    next = { content: 'never', stall: true };
    const before = fake.requests.length;
    const started = Date.now();
    const r = await ask(true);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/sent nothing for 5 s.*gave up after 2 attempts/);
    expect(fake.requests.length - before).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
  }, 60_000);

  it('a JSON reply whose body never comes after its headers times out too', async () => {
    next = { content: 'never', stall: true };
    const s = { ...settings(false), maxRetries: 0 };
    const r = await askModel(s, [{ role: 'user', content: 'hi' }], new AbortController().signal);
    expect(!r.ok && r.error).toMatch(/sent nothing for 5 s/);
  }, 30_000);

  it('a 200 with no choices is a server fault, retried, not a reply', async () => {
    for (const stream of [true, false]) {
      next = { content: '', noChoices: true };
      const before = fake.requests.length;
      const r = await ask(stream);
      expect(!r.ok && r.error).toMatch(/answered with no choices.*server fault.*gave up after 2 attempts/);
      expect(fake.requests.length - before).toBe(2);
    }
  }, 30_000);

  it('an ordinary reply still comes through whole', async () => {
    next = { content: 'Thought: t\nAction: Wait' };
    const r = await ask(true);
    expect(r).toMatchObject({ ok: true, content: 'Thought: t\nAction: Wait', truncated: false });
  });
});

describe('history cap', () => {
  it('a past step carries at most MAX_HISTORY_FIELD_CHARS of each text into later prompts', async () => {
    const { createRun, reduce, historyOf } = await import('../../src/core/run');
    const { MAX_HISTORY_FIELD_CHARS } = await import('../../src/core/limits');
    let s = createRun({ id: 'r', task: 't', startUrl: 'https://a.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 5, at: 0 });
    s = reduce(s, { type: 'observed', at: 1, obs: { url: 'https://a.example/', title: 't', viewport: { width: 100, height: 100, devicePixelRatio: 1 }, marks: [], screenshot: { dataUrl: 'data:image/png;base64,AA', bytes: 1, width: 1, height: 1 } }, ms: 1 });
    s = reduce(s, { type: 'replied', at: 2, raw: `Thought: ${'w'.repeat(50_000)}\nAction: Wait\nMemory_Updated: {}`, reasoning: null, usage: null, ms: 1 });
    if (s.phase === 'act') s = reduce(reduce(s, { type: 'checked', at: 3, hit: null }), { type: 'acted', at: 4, result: { ok: true }, ms: 1 });
    const [h] = historyOf(s);
    expect(s.steps[0].thought.length).toBeGreaterThan(49_000); // the trace keeps it whole
    expect(h.thought).toHaveLength(MAX_HISTORY_FIELD_CHARS + 1);
    expect(h.thought.endsWith('…')).toBe(true);
    expect(h.action).toBe(s.steps[0].actionText);
  });
});
