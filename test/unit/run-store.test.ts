/**
 * The run database (src/background/run-store.ts) in node with fake-indexeddb: a database written
 * by schema version 1 (whole runs with PNG data URLs inside) is opened by version 2 and read back;
 * new runs keep steps and screenshots in their own stores; deleting removes all three.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createRun, reduce, type RunState } from '../../src/core/run';
import { fromTrace, parseTrace } from '../../src/core/trace/import';
import { toTrace } from '../../src/core/trace';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const JPEG = 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=';

function finishedRun(id: string, shot: string, clean: string): RunState {
  let s = createRun({ id, task: `task ${id}`, startUrl: 'https://shop.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 5, at: 1000 });
  const obs = { url: 'https://shop.example/', title: 't', viewport: { width: 10, height: 10, devicePixelRatio: 1 }, marks: [{ label: 0, tag: 'button', text: 'Go', rect: { x: 0, y: 0, width: 5, height: 5 }, fingerprint: { tag: 'button', text: 'Go', path: 'html>body>button' } }], screenshot: { dataUrl: PNG, bytes: 70, width: 10, height: 10 }, kept: { labelled: shot, clean } };
  s = reduce(s, { type: 'observed', at: 1100, obs, ms: 5 });
  s = reduce(s, { type: 'replied', at: 1200, raw: 'Thought: go\nAction: Click [0]', reasoning: null, usage: { promptTokens: 100, completionTokens: 7 }, ms: 5 });
  s = reduce(s, { type: 'checked', at: 1201, hit: null });
  s = reduce(s, { type: 'acted', at: 1300, result: { ok: true }, ms: 5 });
  s = reduce(s, { type: 'observed', at: 1400, obs, ms: 5 });
  s = reduce(s, { type: 'replied', at: 1500, raw: 'Thought: done\nAction: ANSWER; <content>42</content>', reasoning: null, usage: { promptTokens: 120, completionTokens: 9 }, ms: 5 });
  return s;
}

async function writeVersion1(run: RunState): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const req = indexedDB.open('webagent', 1);
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore('runs', { keyPath: 'id' });
      store.createIndex('startedAt', 'startedAt');
      store.put(run);
    };
    req.onsuccess = () => { req.result.close(); resolve(); };
    req.onerror = () => reject(req.error);
  });
}

describe('run database', () => {
  it('opens a version-1 database and reads its runs, steps and screenshots', async () => {
    // Version 1 kept the PNG the model saw inside each step.
    const old = finishedRun('old-run', PNG, '');
    const v1 = { ...old, steps: old.steps.map((s) => ({ ...s, screenshot: PNG })) } as Partial<RunState>;
    delete (v1 as Record<string, unknown>).guards;
    await writeVersion1(v1 as RunState);

    const store = await import('../../src/background/run-store');
    const run = await store.loadRun('old-run');
    expect(run?.status).toBe('finished');
    expect(run?.steps.map((s) => s.actionText)).toEqual(['Click [0]', 'ANSWER; <content>42</content>']);
    expect(run?.steps[0].screenshot).toBe(''); // loaded on demand
    expect(await store.loadShot('old-run', 0, 'labelled')).toBe(PNG);
    expect(await store.loadShot('old-run', 0, 'clean')).toBeNull();
    const list = await store.listRuns();
    expect(list.map((r) => r.id)).toEqual(['old-run']);
    expect(list[0].summary).toMatchObject({ task: 'task old-run', site: 'shop.example', steps: 2, promptTokens: 220, completionTokens: 16, status: 'finished' });

    // Version 2 writes: steps and JPEG screenshots in their own stores; the trace gets them back.
    const now = finishedRun('new-run', JPEG, JPEG);
    await store.saveRun(now);
    const back = await store.loadRun('new-run');
    expect(back?.steps).toHaveLength(2);
    const full = await store.withScreenshots(back!);
    expect(toTrace(full, [])).toEqual(toTrace(now, []));
    expect((await store.listRuns()).map((r) => r.id).sort()).toEqual(['new-run', 'old-run']);

    // An imported trace round-trips: export -> import -> export is the same JSON.
    const trace = toTrace(full, []);
    const parsed = parseTrace(JSON.parse(JSON.stringify({ ...trace, run: { ...trace.run, id: 'imported' } })));
    if (!parsed.ok) throw new Error(parsed.error);
    await store.saveRun(fromTrace(parsed.trace));
    const again = toTrace(await store.withScreenshots((await store.loadRun('imported'))!), []);
    expect(again).toEqual(parsed.trace);

    await store.deleteRun('new-run');
    expect(await store.loadRun('new-run')).toBeUndefined();
    expect(await store.loadShot('new-run', 0, 'labelled')).toBeNull();
    expect(await store.loadShot('old-run', 0, 'labelled')).toBe(PNG);
  });

  it('refuses files that are not traces, with the reason', () => {
    expect(parseTrace([])).toMatchObject({ ok: false });
    expect(parseTrace({ format: 'other' })).toMatchObject({ ok: false, error: expect.stringContaining('not a webagent trace') });
    expect(parseTrace({ format: 'webagent-trace', version: 9 })).toMatchObject({ ok: false, error: expect.stringContaining('version 9') });
    expect(parseTrace({ format: 'webagent-trace', version: 1, run: { id: 'x', task: 't', startedAt: '2026-01-01T00:00:00Z' }, steps: [{}] }))
      .toMatchObject({ ok: false, error: expect.stringContaining('Step 1') });
  });
});

describe('a full quota', () => {
  it('fails the save with a clear message and writes nothing of the step that did not fit', async () => {
    const store = await import('../../src/background/run-store');
    const first = finishedRun('quota-run', JPEG, JPEG);
    const oneStep = { ...first, steps: first.steps.slice(0, 1), status: 'running' as const, phase: 'observe' as const, pending: null, endedAt: null };
    await store.saveRun(oneStep);
    // The next write of a screenshot hits the quota.
    const proto = Object.getPrototypeOf((await store.db()).transaction('shots', 'readwrite').objectStore('shots')) as { put: (...a: unknown[]) => unknown };
    const put = proto.put;
    proto.put = function () { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };
    try {
      await expect(store.saveRun(first)).rejects.toThrow(/storage for this extension is full.*Delete old runs in History/);
    } finally {
      proto.put = put;
    }
    const kept = await store.loadRun('quota-run');
    expect(kept?.steps).toHaveLength(1);
    expect(kept?.status).toBe('running');
    expect(await store.loadShot('quota-run', 1, 'labelled')).toBeNull();
    await store.markEnded({ ...oneStep, status: 'failed', phase: 'done', endedAt: 2000, stopReason: 'full' });
    expect((await store.loadRun('quota-run'))?.status).toBe('failed');
    expect((await store.listRuns()).find((r) => r.id === 'quota-run')?.summary.stopReason).toBe('full');
  });

  it('makes room by removing the oldest finished run\'s screenshots and keeps its steps, answer and trace', async () => {
    const store = await import('../../src/background/run-store');
    const old = { ...finishedRun('prune-old', JPEG, JPEG), startedAt: 10 };
    await store.saveRun(old);
    const next = { ...finishedRun('prune-new', JPEG, JPEG), startedAt: 5000 };
    // The first screenshot write of the new run hits the quota; after room is made it fits.
    const proto = Object.getPrototypeOf((await store.db()).transaction('shots', 'readwrite').objectStore('shots')) as { put: (...a: unknown[]) => unknown };
    const put = proto.put;
    let refused = 0;
    proto.put = function (this: unknown, ...a: unknown[]) {
      if (!refused++) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, a);
    };
    try {
      await store.saveRun(next);
    } finally {
      proto.put = put;
    }
    expect(refused).toBeGreaterThan(1);
    expect(await store.loadShot('prune-new', 0, 'labelled')).toBe(JPEG);
    // the oldest run lost its pictures only
    expect(await store.loadShot('prune-old', 0, 'labelled')).toBeNull();
    const kept = await store.loadRun('prune-old');
    expect(kept?.steps).toHaveLength(old.steps.length);
    expect(kept?.answer).toBe(old.answer);
    expect(kept?.shotsRemoved).toBe(old.steps.length * 2);
    expect((await store.listRuns()).find((r) => r.id === 'prune-old')?.summary.shotsRemoved).toBe(old.steps.length * 2);
    // a run that failed earlier in this file (started later) kept its pictures: oldest first
    expect(await store.loadShot('quota-run', 0, 'labelled')).toBe(JPEG);
    const trace = toTrace(await store.withScreenshots(kept!), []);
    expect(trace.steps.map((st) => st.action.type)).toEqual(old.steps.map((st) => st.action?.type));
  });
});

describe('pictures of the step in progress', () => {
  it('are written once, kept out of the run record, read back by loadRun and dropped from the model kind when the step is done', async () => {
    const store = await import('../../src/background/run-store');
    const done = finishedRun('pending-run', JPEG, JPEG);
    // The second step observed and kept, asked, not answered yet.
    let s = createRun({ id: 'pending-run', task: 't', startUrl: 'https://shop.example/', tabId: 1, dialect: 'glm-web', model: 'm', baseUrl: 'http://h/v1', maxSteps: 5, at: 1000 });
    s = { ...s, steps: done.steps.slice(0, 1) };
    const obs = { url: 'https://shop.example/', title: 't', viewport: { width: 10, height: 10, devicePixelRatio: 1 }, marks: [], screenshot: { dataUrl: PNG, bytes: 70, width: 10, height: 10 }, kept: { labelled: JPEG, clean: JPEG } };
    s = reduce(s, { type: 'observed', at: 1400, obs, ms: 5 });
    expect(s.pending?.screenshot).toBe(PNG);

    const proto = Object.getPrototypeOf((await store.db()).transaction('shots', 'readwrite').objectStore('shots')) as { put: (...a: unknown[]) => unknown };
    const put = proto.put;
    const puts: unknown[] = [];
    proto.put = function (this: unknown, ...a: unknown[]) { if (a[0] instanceof Blob) puts.push(a[1]); return put.apply(this, a); };
    try {
      await store.saveRun(s);
      const first = puts.length;
      // step 0's two pictures, step 1's model picture and its two kept ones
      expect(first).toBe(5);
      // more transitions of the same step: no picture written again
      await store.saveRun({ ...s, memory: { seen: 1 } });
      await store.saveRun({ ...s, memory: {} });
      expect(puts.length).toBe(first);
    } finally {
      proto.put = put;
    }
    const rec = await (await store.db()).get('runs', 'pending-run');
    expect(rec?.pending?.screenshot).toBe('');
    expect(rec?.pending?.kept).toEqual({ labelled: '', clean: '' });
    expect(JSON.stringify(rec).length).toBeLessThan(JSON.stringify({ ...s, steps: [] }).length - PNG.length);

    const back = await store.loadRun('pending-run');
    expect(back?.pending?.screenshot).toBe(PNG);
    expect(back?.pending?.kept).toEqual({ labelled: JPEG, clean: JPEG });

    // The step finishes: its pictures are the kept ones; the model's picture is gone.
    const replied = reduce(back!, { type: 'replied', at: 1500, raw: 'Thought: done\nAction: ANSWER; <content>42</content>', reasoning: null, usage: { promptTokens: 120, completionTokens: 9 }, ms: 5 });
    await store.saveRun(replied);
    expect(await store.loadShot('pending-run', 1, 'labelled')).toBe(JPEG);
    expect(await (await store.db()).get('shots', ['pending-run', 1, 'model'])).toBeUndefined();
    expect((await store.loadRun('pending-run'))?.steps).toHaveLength(2);
  });
});
