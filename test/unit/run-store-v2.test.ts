/**
 * Schema upgrade 2 -> 3 (src/background/run-store.ts): a database written before dialects, whose
 * actions were GLM-web-only (`{type:'click', label}` …), opens with every stored action — finished
 * steps, a pending reply, a replay plan — in the shared Action model. And a version-1 trace file
 * (same old actions) imports and exports as version 2.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fromTrace, parseTrace } from '../../src/core/trace/import';
import { toTrace } from '../../src/core/trace';

const rect = { x: 0, y: 0, width: 5, height: 5 };
const oldStep = (index: number, action: unknown, actionText: string) => ({
  runId: 'old', index, url: 'https://shop.example/', title: 't', viewport: { width: 10, height: 10, devicePixelRatio: 1 },
  elements: [{ label: 0, tag: 'input', text: 'Search', rect }, { label: 1, tag: 'button', text: 'Go', rect }],
  promptText: 'p', imageBytes: 3, imageWidth: 10, imageHeight: 10, screenshot: '', cleanScreenshot: '', raw: `Action: ${actionText}`, reasoning: null,
  thought: 't', action, actionText, memory: {}, result: { ok: true }, observation: 'Success',
  timings: { observeMs: 1, modelMs: 1, actMs: 1, totalMs: 3 }, usage: null, approval: { decision: 'auto', feedback: null },
});

async function writeVersion2(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const req = indexedDB.open('webagent', 2);
    req.onupgradeneeded = () => {
      const d = req.result;
      d.createObjectStore('runs', { keyPath: 'id' }).createIndex('startedAt', 'startedAt');
      const steps = d.createObjectStore('steps');
      d.createObjectStore('shots');
      steps.put(oldStep(0, { type: 'type', label: 0, text: 'lamp' }, 'Type [0]; [lamp]'), ['old', 0]);
      steps.put(oldStep(1, { type: 'scroll', target: { kind: 'element', label: 1 }, direction: 'down' }, 'Scroll [1]; [down]'), ['old', 1]);
      steps.put(oldStep(2, { type: 'key', key: 'Enter' }, 'Key; [Return]'), ['old', 2]);
      req.transaction!.objectStore('runs').put({
        id: 'old', task: 'find it', startUrl: 'https://shop.example/', site: 'https://shop.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'b',
        maxSteps: 9, startedAt: 1, endedAt: null, status: 'running', phase: 'act', answer: null, stopReason: null, memory: {}, steps: [],
        pending: { ...oldStep(3, null, ''), reply: { raw: 'r', reasoning: null, thought: 't', action: { type: 'click', label: 1 }, actionText: 'Click [1]', memory: {}, notes: [], usage: null, modelMs: 1 }, observeMs: 1, startedAt: 1 },
        formatErrorsInARow: 0, approveSteps: false, paused: null,
        replay: { of: 'x', steps: [{ from: 0, action: { type: 'click', label: 0 }, target: null, memory: {} }] },
        summary: { task: 'find it', site: 'shop.example', startedAt: 1, status: 'running', steps: 3 },
      });
    };
    req.onsuccess = () => { req.result.close(); resolve(); };
    req.onerror = () => reject(req.error);
  });
}

describe('run database version 2 -> 3', () => {
  it('rewrites every stored action into the shared model', async () => {
    await writeVersion2();
    const store = await import('../../src/background/run-store');
    const run = await store.loadRun('old');
    expect(run?.steps.map((s) => s.action)).toEqual([
      { type: 'type', target: { kind: 'label', label: 0 }, text: 'lamp', clear: true, enter: true },
      { type: 'scroll', target: { kind: 'label', label: 1 }, direction: 'down' },
      { type: 'key', keys: 'Enter' },
    ]);
    expect(run?.pending?.reply?.action).toEqual({ type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 });
    expect(run?.replay?.steps[0].action).toEqual({ type: 'click', target: { kind: 'label', label: 0 }, button: 'left', count: 1 });
  });
});

describe('a version-1 trace', () => {
  it('imports with its actions in the shared model and exports as version 2', () => {
    const v1 = {
      format: 'webagent-trace', version: 1,
      run: { id: 'v1', task: 't', startUrl: 'https://a.example/', dialect: 'glm-web', model: 'm', baseUrl: 'b', startedAt: '2025-01-01T00:00:00.000Z', endedAt: '2025-01-01T00:01:00.000Z', status: 'finished', answer: '42', stopReason: null },
      steps: [
        { ...oldStep(0, { type: 'click', label: 1 }, 'Click [1]'), request: { promptText: 'p', imageBytes: 3, imageWidth: 10, imageHeight: 10 }, reply: { raw: 'r', reasoning: null } },
        { ...oldStep(1, { type: 'scroll', target: { kind: 'window' }, direction: 'up' }, 'Scroll [WINDOW]; [up]'), request: { promptText: 'p', imageBytes: 3, imageWidth: 10, imageHeight: 10 }, reply: { raw: 'r', reasoning: null } },
        { ...oldStep(2, { type: 'none', reason: 'the reply could not be read' }, '(unreadable reply)'), request: { promptText: 'p', imageBytes: 3, imageWidth: 10, imageHeight: 10 }, reply: { raw: 'r', reasoning: null } },
      ],
    };
    const parsed = parseTrace(JSON.parse(JSON.stringify(v1)));
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.trace.version).toBe(2);
    expect(parsed.trace.steps.map((s) => s.action)).toEqual([
      { type: 'click', target: { kind: 'label', label: 1 }, button: 'left', count: 1 },
      { type: 'scroll', target: { kind: 'window' }, direction: 'up' },
      { type: 'none', reason: 'the reply could not be read' },
    ]);
    const back = toTrace(fromTrace(parsed.trace), []);
    expect(back.version).toBe(2);
    expect(back.steps[0]).toMatchObject({ action: { type: 'click', target: { kind: 'label', label: 1 } }, target: null, actionText: 'Click [1]' });
  });
});
