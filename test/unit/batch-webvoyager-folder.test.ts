/**
 * Reading a WebVoyager task folder as auto_eval.py does: our own export read back, a published
 * run, and the folders auto_eval.py scores as failures without asking its model.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_JUDGE_SCREENSHOTS, lastScreenshots, readInteractMessages } from '../../src/core/batch/webvoyager-folder';
import { toInteractMessages } from '../../src/core/export/webvoyager';
import type { Trace, TraceStep } from '../../src/core/trace';

function step(index: number, over: Partial<TraceStep> = {}): TraceStep {
  return {
    index, url: `https://shop.example/p${index}`, title: `Page ${index}`, viewport: { width: 1280, height: 800, devicePixelRatio: 1 },
    elements: [{ label: 0, tag: 'input', text: 'Search', rect: { x: 1, y: 2, width: 3, height: 4 } }],
    request: { promptText: 'prompt', imageBytes: 10, imageWidth: 1280, imageHeight: 800 },
    reply: { raw: `Thought: step ${index}\nAction: Click [0]`, reasoning: null },
    thought: `step ${index}`, action: { type: 'click', target: { kind: 'label', label: 0 }, button: 'left', count: 1 } as TraceStep['action'], actionText: 'Click [0]', target: null, memory: {},
    approval: { decision: 'auto', feedback: null }, result: { ok: true }, observation: 'Success',
    timings: { observeMs: 1, modelMs: 2, actMs: 3, totalMs: 6 }, usage: { promptTokens: 100, completionTokens: 20 },
    screenshot: '', cleanScreenshot: '',
    ...over,
  };
}

const trace = (task: string, steps: TraceStep[]): Trace => ({
  format: 'webagent-trace', version: 2,
  run: { id: 'r', task, startUrl: 'https://shop.example/', dialect: 'glm-web', model: 'glm-4.5v', baseUrl: 'http://h/v1', startedAt: '2025-01-01T00:00:00.000Z', endedAt: '2025-01-01T00:01:00.000Z', status: 'finished', answer: null, stopReason: null },
  steps,
});

const answerStep = (i: number, answer: string) => step(i, {
  action: { type: 'answer', text: answer }, actionText: `ANSWER; <content>${answer}</content>`, thought: 'Found it.',
  reply: { raw: `<answer>Thought: Found it.\nAction: <|begin_of_box|>ANSWER; <content>${answer}</content><|end_of_box|>\nMemory_Updated: {}</answer>`, reasoning: null },
});

describe('readInteractMessages', () => {
  it('reads back the task and the answer of a trace exported by toInteractMessages', () => {
    for (const n of [1, 2, 5]) {
      const steps = [...Array.from({ length: n - 1 }, (_, i) => step(i)), answerStep(n - 1, '610 kcal')];
      const json = JSON.stringify(toInteractMessages(trace('Find the\ncalories of miso ramen', steps)));
      expect(readInteractMessages(json)).toEqual({ ok: true, task: 'Find the calories of miso ramen', answer: '610 kcal' });
    }
  });

  it('reads a published WebVoyager run (content lists, a string answer)', () => {
    const text = readFileSync(path.resolve(import.meta.dirname, '..', 'fixtures', 'webvoyager', 'Amazon--0.json'), 'utf8');
    const r = readInteractMessages(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.task).toBe('Search an Xbox Wireless controller with green color and rated above 4 stars.');
    expect(r.answer.startsWith('The green Xbox Wire')).toBe(true);
  });

  it('says why there is nothing to judge: only the system message, no answer, no task, not JSON', () => {
    const noAnswer = JSON.stringify(toInteractMessages(trace('Find the calories', [step(0), step(1)])));
    const r = readInteractMessages(noAnswer);
    expect(r).toMatchObject({ ok: false, task: 'Find the calories' });
    expect(!r.ok && r.reason).toMatch(/no "Action: ANSWER"/);
    const only = readInteractMessages(JSON.stringify([{ role: 'system', content: 'x' }]));
    expect(only).toMatchObject({ ok: false, task: null });
    expect(!only.ok && only.reason).toMatch(/only the system message/);
    const noTask = readInteractMessages(JSON.stringify([{ role: 'system', content: 'x' }, { role: 'user', content: 'Hello' }, { role: 'assistant', content: 'Action: ANSWER; 3' }]));
    expect(noTask).toMatchObject({ ok: false, task: null });
    expect(readInteractMessages('{not json')).toMatchObject({ ok: false, broken: true, reason: expect.stringMatching(/not JSON/) });
    expect(readInteractMessages('[]')).toMatchObject({ ok: false, broken: true });
    expect(only).not.toHaveProperty('broken');
  });

  it('takes the task from the first text part only and does not cross lines', () => {
    const msgs = [
      { role: 'system', content: 's' },
      { role: 'user', content: [{ type: 'text', text: 'Now given a task: Buy milk  Please interact with https://a/ and get the answer.' }, { type: 'image_url', image_url: { url: 'x' } }] },
      { role: 'assistant', content: 'Thought: ok\n\nAction: ANSWER; [done]' },
    ];
    expect(readInteractMessages(JSON.stringify(msgs))).toEqual({ ok: true, task: 'Buy milk', answer: 'done' });
    msgs[1].content = [{ type: 'text', text: 'Now given a task: Buy\nmilk  Please interact with https://a/' }];
    expect(readInteractMessages(JSON.stringify(msgs))).toMatchObject({ ok: false, task: null });
  });
});

describe('lastScreenshots', () => {
  const names = ['screenshot10.png', 'interact_messages.json', 'screenshot2.png', 'screenshot1.png', 'screenshot10_no_box.png', 'screenshot9.png', 'trace.json', 'report.html', 'screenshot3.PNG'];

  it('sorts screenshot{N}.png by N (not by name) and keeps the last k', () => {
    expect(lastScreenshots(names, 2)).toEqual(['screenshot9.png', 'screenshot10.png']);
    expect(lastScreenshots(names, 15)).toEqual(['screenshot1.png', 'screenshot2.png', 'screenshot9.png', 'screenshot10.png']);
    expect(lastScreenshots(names)).toHaveLength(DEFAULT_JUDGE_SCREENSHOTS);
    expect(lastScreenshots(names)).toEqual(['screenshot2.png', 'screenshot9.png', 'screenshot10.png']);
    expect(lastScreenshots(names, 0)).toEqual([]);
    expect(lastScreenshots([], 3)).toEqual([]);
  });
});
