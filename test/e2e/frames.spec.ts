/**
 * Frames through the real extension: same- and cross-origin iframes are
 * labelled in one sequence in top-page coordinates, and actions reach the
 * element in its own frame (click, type, native select).
 */
import { test, expect, useAgent } from './fixtures';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import type { StaticServer } from '../../scripts/static-server';
import { serveFixtures } from './support';
import type { Trace } from '../../src/core/trace';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

let a: StaticServer;
let b: StaticServer;
let model: FakeModel | null = null;
const out = mkdtempSync(path.join(tmpdir(), 'webagent-frames-'));

test.beforeAll(async () => {
  a = await serveFixtures();
  b = await serveFixtures();
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
  const r = await agent.run(['--task', 'Use the frames', '--url', `${a.url}frames/outer.html?x=${encodeURIComponent(cross)}`, '--base-url', model.baseUrl, '--trace', traceFile]);
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
  const r = await agent.run(['--task', 'Open message 27', '--url', `${a.url}scroll/box.html`, '--base-url', model.baseUrl, '--max-steps', '20', '--trace', traceFile]);
  expect(r.code).toBe(0);
  expect(a.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'open', value: '27' })]));
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  const scrolls = trace.steps.filter((s) => s.action.type === 'scroll');
  expect(scrolls.length).toBeGreaterThan(1);
  for (const s of scrolls) expect(s.action).toMatchObject({ target: { kind: 'label' } });
  expect(trace.steps.map((s) => s.observation)).toEqual(expect.arrayContaining([expect.stringMatching(/^The element \[\d+\] did not scroll: it is already at the bottom\./)]));
});

// Hostile frame pages (test/fixtures/pages/hostile/frame-*.html) through the real extension: what
// the model reads (the trace's element list) keeps every frame's labels over its own iframe.
const within = (r: { x: number; y: number; width: number; height: number }, left: number, top: number, w: number, h: number) =>
  r.x >= left - 0.5 && r.y >= top - 0.5 && r.x + r.width <= left + w + 0.5 && r.y + r.height <= top + h + 0.5;

async function firstStep(url: string, name: string) {
  model = await startFakeModel({ policy: () => ({ content: 'Thought: seen\nAction: ANSWER; <content>done</content>' }) });
  const traceFile = path.join(out, `${name}.json`);
  const r = await agent.run(['--task', 'Look', '--url', url, '--base-url', model.baseUrl, '--trace', traceFile]);
  expect(r.code, r.stderr).toBe(0);
  const step = (JSON.parse(readFileSync(traceFile, 'utf8')) as Trace).steps[0];
  // printed, so a run where a frame's labels are missing says which frame and why
  if (step.timings.observeStages?.framesLeftOut) console.log(`${name}: ${step.timings.observeStages.framesLeftOut.join('; ')}`);
  return step.elements;
}

for (const steal of ['c', 'a'] as const) {
  test(`a hostile parent and a colluding child: forged ids ignored, frame ${steal}'s stolen id never puts its labels over the thief`, async () => {
    const cross = b.url.replace('127.0.0.1', 'localhost') + 'hostile';
    const seen = b.events.length;
    const els = await firstStep(`${a.url}hostile/frame-forged-links.html?x=${encodeURIComponent(cross)}&steal=${steal}`, `forged-${steal}`);
    // the colluding child really answered our link request with the stolen id
    expect(b.events.slice(seen)).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'claimed', value: 'b' })]));
    const texts = els.map((e) => e.text);
    expect(texts).toEqual(expect.arrayContaining(['Top button', 'Top link', 'a button', 'a other']));
    expect(texts.filter((t) => t.startsWith('b '))).toEqual([]);
    // frame a (same origin, read directly) wins its id back. c's id: when b's stolen answer comes
    // within the link wait (200 ms), it is claimed twice over ports and places nobody (the merge's
    // rule, test/unit/frames.test.ts); on a loaded machine the hostile page's round trip (b asks its
    // parent, which asks c, then tells b) can come after it, and b is then placed nowhere while c is
    // placed over its own frame (checked below). Either way no label is over b: both are accepted.
    const cs = texts.filter((t) => t.startsWith('c '));
    if (steal === 'a') expect(cs).toEqual(['c button', 'c other']);
    else expect([[], ['c button', 'c other']]).toContainEqual(cs);
    for (const e of els) {
      expect(within(e.rect, 360, 100, 300, 150), `${e.text} is not over frame b`).toBe(false);
      if (e.text.startsWith('a ')) expect(within(e.rect, 20, 100, 300, 150), e.text).toBe(true);
      if (e.text.startsWith('c ')) expect(within(e.rect, 700, 100, 300, 150), e.text).toBe(true);
    }
  });
}

test('an iframe moved under its labels: the page is labelled again, so labels sit over the frame where it is now', async () => {
  const seen = a.events.length;
  const els = await firstStep(`${a.url}hostile/frame-moving.html?move=once`, 'moving-once');
  expect(a.events.slice(seen)).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'moved', value: 'once' })]));
  // the frames swapped places right after the first labeling pass: a now at x 400, b at x 20
  const of = (n: string) => els.filter((e) => e.text.startsWith(`${n} `));
  expect(of('a').map((e) => e.text)).toEqual(['a button', 'a other']);
  expect(of('b').map((e) => e.text)).toEqual(['b button', 'b other']);
  for (const e of of('a')) expect(within(e.rect, 400, 120, 300, 120), e.text).toBe(true);
  for (const e of of('b')) expect(within(e.rect, 20, 120, 300, 120), e.text).toBe(true);
});

test('a page that keeps moving its iframes (a carousel, an animated banner): the run goes on with the top document\'s labels only, numbered without gaps', async () => {
  const seen = a.events.length;
  const els = await firstStep(`${a.url}hostile/frame-moving.html?move=always`, 'moving-always');
  // the page really kept moving its frames once the labeler looked at it
  expect(a.events.slice(seen)).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'moved', value: 'always' })]));
  expect(els.map((e) => e.text)).toEqual(['Top button', 'Top other']);
  expect(els.map((e) => e.label)).toEqual([0, 1]);
});

test('a page that goes after our labels finds none during a run (they are drawn on the screenshot): the run goes on and clicks the real button', async () => {
  const policy = scriptedPolicy([{ do: 'click', find: /^Open photo$/ }, { do: 'answer', text: 'done' }], 'glm');
  model = await startFakeModel({ policy: (q) => policy(q.prompt) });
  const traceFile = path.join(out, 'tamper.json');
  const seen = a.events.length; // the server is shared by the file's tests
  const r = await agent.run(['--task', 'Open the photo', '--url', `${a.url}hostile/frame-overlay-tamper.html?do=remove&from=child`, '--base-url', model.baseUrl, '--trace', traceFile]);
  expect(r.code, r.stderr).toBe(0);
  const events = a.events.slice(seen).map((e) => `${e.type}:${e.value}`);
  expect(events.filter((e) => e.startsWith('tamper:'))).toEqual([]);
  expect(events).toContain('click:Open photo');
  const step0 = (JSON.parse(readFileSync(traceFile, 'utf8')) as Trace).steps[0];
  const first = step0.elements.map((e) => e.text);
  // the page's own numbered boxes are not elements; its button with our attribute is one
  expect(first, `frames left out: ${step0.timings.observeStages?.framesLeftOut?.join('; ') ?? 'none'}`).toEqual(['Open photo', 'Show details', 'Marked like an overlay', 'Child button', 'Child other']);
});
