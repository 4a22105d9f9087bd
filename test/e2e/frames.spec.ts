/**
 * Frames through the real extension: same- and cross-origin iframes are
 * labelled in one sequence in top-page coordinates, and actions reach the
 * element in its own frame (click, type, native select).
 */
import { test, expect } from '@playwright/test';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { scriptedPolicy } from '../fixtures/model/scripted';
import { serveDir, type StaticServer } from '../../scripts/static-server';
import { PAGES, runAgentCli } from './support';
import type { Trace } from '../../src/core/trace';

let a: StaticServer;
let b: StaticServer;
let model: FakeModel | null = null;
const out = mkdtempSync(path.join(tmpdir(), 'webagent-frames-'));

test.beforeAll(async () => {
  a = await serveDir(PAGES);
  b = await serveDir(PAGES);
});
test.afterAll(async () => { await a.close(); await b.close(); });
test.afterEach(async () => { await model?.close(); model = null; });

test('labels in every frame, one sequence; click, type and select inside a cross-origin frame', async () => {
  const policy = scriptedPolicy([
    { do: 'click', find: /^cross button$/ },
    { do: 'type', find: /^cross note$/, text: 'hello from the top' },
    { do: 'type', find: /^cross size/, tag: 'select', text: 'Large' },
    { do: 'click', find: /^same button$/ },
    { do: 'answer', text: 'done' },
  ], 'glm');
  model = await startFakeModel({ policy: (q) => policy(q.prompt) });
  const cross = b.url.replace('127.0.0.1', 'localhost').replace(/\/$/, '');
  const traceFile = path.join(out, 'frames.json');
  const r = await runAgentCli(['--task', 'Use the frames', '--url', `${a.url}frames/outer.html?x=${encodeURIComponent(cross)}`, '--base-url', model.baseUrl, '--trace', traceFile]);
  expect(r.stderr).not.toContain('Error');
  expect(r.code).toBe(0);
  expect(b.events).toEqual(expect.arrayContaining([
    expect.objectContaining({ type: 'click', value: 'cross:button' }),
    expect.objectContaining({ type: 'typed', value: 'cross:hello from the top' }),
    expect.objectContaining({ type: 'change', value: 'cross:l' }),
  ]));
  expect(a.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'click', value: 'same:button' })]));
  expect(model.violations()).toEqual([]);
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  const first = trace.steps[0].elements;
  const texts = first.map((e) => e.text);
  expect(texts).toEqual(expect.arrayContaining(['Outer button', 'same button', 'cross button', 'same note', 'cross note']));
  expect(first.map((e) => e.label)).toEqual(first.map((_, i) => i));
  // The cross-origin frame is the second iframe: its marks sit to the right of the first frame, inside the page.
  const same = first.find((e) => e.text === 'same button')!;
  const crossBtn = first.find((e) => e.text === 'cross button')!;
  expect(crossBtn.rect.x).toBeGreaterThan(same.rect.x + 400);
  expect(crossBtn.rect.y).toBeCloseTo(same.rect.y, 0);
});

test('Scroll [N] scrolls a scroll container until the target shows, and says when it cannot move further', async () => {
  model = await startFakeModel({
    policy: (q) => {
      const els = q.prompt?.elements ?? [];
      const hist = q.prompt?.history ?? [];
      const box = els.find((e) => /Message list/.test(e.text));
      const target = els.find((e) => e.text === 'Message 27');
      if (hist.some((h) => h.includes('did not scroll'))) return { content: 'Thought: end of the list\nAction: ANSWER; <content>opened 27</content>' };
      if (target && !hist.some((h) => h.includes('Action:Click'))) return { content: `Thought: found it\nAction: Click [${target.label}]` };
      return { content: `Thought: scroll the list\nAction: Scroll [${box ? box.label : 'WINDOW'}]; [down]` };
    },
  });
  const traceFile = path.join(out, 'scroll.json');
  const r = await runAgentCli(['--task', 'Open message 27', '--url', `${a.url}scroll/box.html`, '--base-url', model.baseUrl, '--max-steps', '20', '--trace', traceFile]);
  expect(r.code).toBe(0);
  expect(a.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'open', value: '27' })]));
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  const scrolls = trace.steps.filter((s) => s.action.type === 'scroll');
  expect(scrolls.length).toBeGreaterThan(1);
  for (const s of scrolls) expect(s.action).toMatchObject({ target: { kind: 'label' } });
  expect(trace.steps.map((s) => s.observation)).toEqual(expect.arrayContaining([expect.stringMatching(/^The element \[\d+\] did not scroll: it is already at the bottom\./)]));
});
