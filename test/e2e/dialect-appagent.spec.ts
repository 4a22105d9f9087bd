/**
 * The appagent dialect (AppAgent's task mode, seed 001) end to end; one fixture server, one fake
 * model and one extension browser for the file (the runner launches its own):
 * - through the runner with step approval, the tab a phone: the fake model, given no
 *   documentation, explores the tags in order (tap(1), tap(2), …; test/fixtures/model/
 *   test/fixtures/dialects/appagent/player.ts) and finishes; every request in AppAgent's format (one text, the seed's
 *   template filled in, one PNG, no element list: appagent/request.ts);
 * - with --device desktop the tab keeps the desktop viewport;
 * - the tags the model's screenshot shows are drawn centred on their elements and read label + 1
 *   (found in the picture by their colours: they are drawn on the image, the page has no overlay
 *   while the model thinks; the approval's highlight is drawn in the page).
 */
import { test, expect, useAgent } from './fixtures';
import type { Page } from 'playwright-core';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeModel, type FakeModel, type ModelReply, type RecordedRequest } from '../fixtures/model/server';
import { learnerPlayer } from '../fixtures/dialects/appagent/learner';
import { documentedTag } from '../fixtures/dialects/appagent/player';
import { decodePng } from '../../scripts/png';
import { COLOURS, locate, parseColour } from '../fixtures/model/locate';
import type { Rgba } from '../../scripts/png';
import { labelColour } from '../../src/core/label-layout';
import type { RunView } from '../../src/core/messages';
import type { DocEntry } from '../../src/core/docs/types';
import { appAgentPlayer, type AppGoal } from '../fixtures/dialects/appagent/player';
import { imageSize } from '../../scripts/png';
import { overlayTags, panelSend, shareExtension, waitForRun, type SharedExtension } from './support';
import type { Trace } from '../../src/core/trace';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

const KEY = 'sk-appagent-1a2b3c4d5e';
const MODEL = 'gpt-4-vision-preview';
const APPROVE_PROMPT = 'Approve? [y = run it / n FEEDBACK = reject / e ACTION = edit / q = stop]';
const out = mkdtempSync(path.join(tmpdir(), 'webagent-appagent-'));

type Tag = { x: number; y: number; width: number; height: number };
/** What the one fake model plays now (each test sets it); `inspect`: run while a request is held, before the answer. */
const now: { goals: AppGoal[]; inspect?: () => Promise<void>; policy?: (req: RecordedRequest) => ModelReply } = { goals: [] };
const models: FakeModel[] = [];
let m: FakeModel;
let e: SharedExtension;

shareExtension(async (shared) => {
  e = shared;
  m = await startFakeModel({ apiKey: KEY, dialect: 'appagent', models: [MODEL], policy: async (req) => {
    await now.inspect?.();
    if (now.policy) return now.policy(req);
    return appAgentPlayer(now.goals)(req.appagent ?? null);
  } });
  models.push(m);
}, models);

test.beforeEach(() => {
  now.inspect = undefined;
  now.policy = undefined;
  m.requests.length = 0;
  e.site.events.length = 0;
});

const events = (type: string) => e.site.events.filter((x) => x.type === type).map((x) => x.value);

function cliArgs(task: string, trace: string, extra: string[] = []): string[] {
  return ['--task', task, '--url', `${e.site.url}appagent/basket.html`, '--base-url', m.baseUrl, '--api-key', KEY, '--model', MODEL, '--dialect', 'appagent', '--trace', trace, '--max-steps', '10', ...extra];
}

test('runner, phone: with no documentation the model explores the tags in order and finishes; each step approved; every request in AppAgent\'s format', async () => {
  now.goals = [
    { do: 'tap', words: 'search field' },
    { do: 'text', text: 'kettle' },
    { do: 'tap', words: 'add to basket' },
    { do: 'tap', words: 'checkout' },
    { do: 'finish', answer: 'The kettle is in the basket and checked out.' },
  ];
  const traceFile = path.join(out, 'basket.json');
  const r = await agent.run(cliArgs('Put a kettle in the basket and check out', traceFile, ['--approve', 'step']), {}, 'y\n'.repeat(20));
  expect(r.stderr).not.toContain('Error:');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.trim().split('\n').at(-1)).toBe('ANSWER: The kettle is in the basket and checked out.');
  // tag 1 is the first element (the field), 2 and 3 the buttons: the page saw them in that order
  expect(events('add')).toEqual(['kettle']);
  expect(events('checkout')).toEqual(['yes']);
  // the tab was a phone (412 CSS px, Chrome for Android's user agent)
  expect(events('view').at(-1)).toBe('412 mobile');

  expect(r.stderr.split(APPROVE_PROMPT).length - 1).toBe(5);
  expect(r.stderr).toMatch(/Proposed action: tap\(1\) <input>/);
  expect(r.stderr).toMatch(/Proposed action: text\("kettle"\)/);
  expect(r.stderr).toMatch(/Proposed action: tap\(2\) <button> "Add to basket"/);
  expect(r.stderr).toMatch(/Proposed action: tap\(3\) <button> "Checkout"/);

  expect(m.violations()).toEqual([]);
  expect(m.requests).toHaveLength(5);
  const first = m.requests[0].appagent!;
  expect(first.lastAct).toBe('None');
  expect(first.uiDocument).toBe('');
  expect(first.task).toBe('Put a kettle in the basket and check out');
  expect(imageSize(first.screenshot)).toMatchObject({ format: 'png', width: 412 });
  // <last_act>: the previous step's Summary, as the model wrote it
  expect(m.requests[1].appagent!.lastAct).toMatch(/^Done 1 steps; explored 1 tags\./);
  expect(m.requests[4].appagent!.lastAct).toMatch(/^Done 4 steps; explored 3 tags\./);

  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
  expect(trace.run).toMatchObject({ status: 'finished', answer: 'The kettle is in the basket and checked out.', dialect: 'appagent' });
  expect(trace.steps.map((s) => s.action.type)).toEqual(['click', 'type', 'click', 'click', 'finish']);
  expect(trace.steps.filter((s) => s.action.type === 'click').map((s) => (s.action as { target: { label: number } }).target.label)).toEqual([0, 1, 2]);
  expect(trace.steps[1].action).toMatchObject({ type: 'type', target: { kind: 'none' }, text: 'kettle', clear: false, enter: false });
  expect(JSON.stringify(trace)).not.toContain(KEY);
});

test('runner, --device desktop: the tab keeps the desktop viewport; the model is still told of a smartphone', async () => {
  now.goals = [{ do: 'tap', words: 'add to basket' }, { do: 'finish', answer: 'Done.' }];
  const traceFile = path.join(out, 'desktop.json');
  const r = await agent.run(cliArgs('Press the first element', traceFile, ['--device', 'desktop']), {});
  expect(r.code, r.stderr).toBe(0);
  expect(events('view').at(-1)).toBe('1280 desktop');
  expect(m.violations()).toEqual([]);
  expect(imageSize(m.requests[0].appagent!.screenshot)).toMatchObject({ format: 'png', width: 1280 });
  expect(m.requests[0].appagent!.text).toContain('on a smartphone');
});

/** The page's elements' centres, by id (CSS px of the viewport). */
function centres(page: Page, ids: string[]): Promise<Array<{ x: number; y: number }>> {
  return page.evaluate((list) => list.map((id) => {
    const r = document.getElementById(id)!.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }), ids);
}

function expectCentred(tag: Tag | null | undefined, want: { x: number; y: number }, what: string): void {
  expect(tag, what).toBeTruthy();
  expect(Math.abs(tag!.x + tag!.width / 2 - want.x), `${what}: centred horizontally`).toBeLessThanOrEqual(1);
  expect(Math.abs(tag!.y + tag!.height / 2 - want.y), `${what}: centred vertically`).toBeLessThanOrEqual(1);
}

/**
 * The fill of the tag drawn in `colour` on a picture, in image px: its pixels of that colour in
 * runs no longer than a tag (24 px across, 16 down); the element's box in the same colour is
 * made of longer lines. The fill's box shares the tag's centre.
 */
function tagIn(img: Rgba, colour: string): Tag | null {
  const [r, g, b] = parseColour(colour);
  const is = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return false;
    const o = (y * img.width + x) * 4;
    return Math.abs(img.pixels[o] - r) <= 10 && Math.abs(img.pixels[o + 1] - g) <= 10 && Math.abs(img.pixels[o + 2] - b) <= 10;
  };
  const run = (x: number, y: number, dx: number, dy: number) => {
    let n = 1;
    for (let i = 1; is(x + dx * i, y + dy * i); i++) n++;
    for (let i = 1; is(x - dx * i, y - dy * i); i++) n++;
    return n;
  };
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (!is(x, y) || run(x, y, 1, 0) > 24 || run(x, y, 0, 1) > 16) continue;
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

test('side panel: the tags of the model\'s screenshot are drawn on the picture centred on their elements, numbered from 1, none in the page; the approval shows the target\'s tag in the page', async () => {
  now.goals = [{ do: 'tap', words: 'search field' }, { do: 'finish', answer: 'Done.' }];
  const page = () => e.browser.context.pages().find((p) => p.url().includes('appagent/basket.html'))!;
  // While the first request is held, the page shows nothing of ours: the labels are on the picture.
  let inPage: Tag[] | null = null;
  let first = true; // the model's counter runs on across the file's tests
  now.inspect = async () => {
    if (!first) return;
    first = false;
    inPage = await overlayTags(page());
  };
  const { runId } = await panelSend<{ runId: string }>(e.panel, 'run/start', {
    task: 'Open the search field', url: `${e.site.url}appagent/basket.html`,
    config: { baseUrl: m.baseUrl, apiKey: KEY, model: MODEL, dialect: 'appagent', approveSteps: true, language: 'en' },
  });
  try {
    const run = await waitForRun(e.panel, runId, (r) => !!r.pending?.approval, 'the first action waits for approval');
    expect(inPage).toEqual([]);
    const [q, add, checkout] = await centres(page(), ['q', 'add', 'checkout']);
    // labels 0, 1, 2 drawn as tags 1, 2, 3, each in its label's colour, on the phone's picture
    // (device pixel ratio 2.625, captured at CSS-pixel size: one image px per CSS px)
    const shot = decodePng(m.requests[0].appagent!.screenshot);
    expect(shot.width).toBe(412);
    expectCentred(tagIn(shot, labelColour(0)), q, 'tag 1 on the search field');
    expectCentred(tagIn(shot, labelColour(1)), add, 'tag 2 on "Add to basket"');
    expectCentred(tagIn(shot, labelColour(2)), checkout, 'tag 3 on "Checkout"');
    expect(tagIn(shot, labelColour(3))).toBeNull();
    // the approval highlights tap(1)'s target with its tag in the page, as the model saw it
    expect(run.pending!.approval).toBeTruthy();
    const shown = await overlayTags(page());
    expect(shown.map((t) => t.text)).toEqual(['1']);
    expectCentred(shown[0], q, 'the target\'s tag');
    // phone-emulated by default (the setting was not changed)
    expect(events('view').at(-1)).toBe('412 mobile');
    // in a 360 × 800 panel the card shows the action and Approve together: the phone's tall
    // picture comes last, around the target first (the whole page a click away)
    await e.panel.setViewportSize({ width: 360, height: 800 });
    const card = e.panel.getByTestId('approval');
    await expect(card.getByTestId('approval-whole')).toBeVisible();
    expect((await card.boundingBox())!.height).toBeLessThan(800);
    const [action, approve] = [(await card.getByTestId('approval-action').boundingBox())!, (await card.getByTestId('approve').boundingBox())!];
    expect(approve.y + approve.height - action.y).toBeLessThan(400);
    expect(m.violations()).toEqual([]);
  } finally {
    await panelSend(e.panel, 'run/stop', { runId }).catch(() => undefined);
  }
});

/**
 * The task side of the learning test: finish when the goal's colour shows; else tap the tag whose
 * documentation names the goal's words; else try the tags in order (its own Summary counts them).
 */
function seekingPlayer(words: string): (req: RecordedRequest) => ModelReply {
  return (req) => {
    const p = req.appagent;
    if (!p) return { content: 'I cannot read this request.' };
    const tried = Number(/Tried (\d+) tags?\./.exec(p.lastAct)?.[1] ?? 0);
    if (locate(decodePng(p.screenshot), COLOURS.green)) return { content: `Observation: The item is in the basket.\nThought: The kettle was added to the basket.\nAction: FINISH\nSummary: Tried ${tried} tags. Done.` };
    const documented = documentedTag(p, words);
    const tag = documented ?? tried + 1;
    return { content: `Observation: A shop page.\nThought: ${documented ? 'The documentation says which element does it.' : 'Nothing is documented; I try the next element.'}\nAction: tap(${tag})\nSummary: Tried ${tried + 1} tags. I tapped an element.` };
  };
}

test('learning a site: exploring writes documentation; a later task reads it in <ui_document> and needs fewer steps than without it', async () => {
  const url = `${e.site.url}appagent/learn.html`;
  const start = async (task: string, explore: boolean): Promise<RunView> => {
    const { runId } = await panelSend<{ runId: string }>(e.panel, 'run/start', {
      task, url, explore, config: { baseUrl: m.baseUrl, apiKey: KEY, model: MODEL, dialect: 'appagent', approveSteps: false, maxSteps: 10 },
    });
    return waitForRun(e.panel, runId, (r) => r.status !== 'running', 'the run ends');
  };
  const TASK = 'add the kettle to the basket';
  const origin = new URL(url).origin;
  const entries = async () => (await panelSend<{ entries: DocEntry[] }>(e.panel, 'docs/list', { origin })).entries;
  expect(await entries()).toEqual([]);

  // 1. a task with nothing learned: every element is tried in turn
  now.policy = seekingPlayer('basket');
  const blind = await start(TASK, false);
  expect(blind, blind.stopReason ?? '').toMatchObject({ status: 'finished' });
  expect(events('basket')).toEqual(['kettle']);

  // 2. exploring with the goal: each action judged from the labelled pictures before and after it, documented
  e.site.events.length = 0;
  const learner = learnerPlayer(COLOURS.green, [
    { colour: COLOURS.yellow, doc: 'Tapping this UI element shows help about the shop.' },
    { colour: COLOURS.orange, doc: 'Tapping this UI element opens a comparison with other products.' },
    { colour: COLOURS.green, doc: 'Tapping this UI element adds the product to the basket.' },
  ]);
  m.requests.length = 0;
  now.policy = (req) => learner(req.learn ?? null) ?? { content: 'not a learning request' };
  const explored = await start(TASK, true);
  expect(explored, explored.stopReason ?? '').toMatchObject({ status: 'finished', explore: true });
  expect(m.violations()).toEqual([]);
  expect(explored.steps.map((s) => s.reflection?.decision ?? null)).toEqual(['CONTINUE', 'INEFFECTIVE', 'CONTINUE', 'SUCCESS', null]);
  // the reflection saw the step's labelled screenshot and the page after it (two pictures), then the documentation prompt
  const kinds = m.requests.map((q) => q.learn?.kind);
  expect(kinds.filter((k) => k === 'reflect')).toHaveLength(4);
  expect(kinds.filter((k) => k === 'doc')).toHaveLength(3);
  const learned = await entries();
  expect(learned.map((x) => [x.fingerprint.text, x.docs.tap, x.source]).sort()).toEqual([
    ['Add to basket', 'Tapping this UI element adds the product to the basket.', 'explore'],
    ['Compare', 'Tapping this UI element opens a comparison with other products.', 'explore'],
    ['Help', 'Tapping this UI element shows help about the shop.', 'explore'],
  ]);

  // 3. the same task again: the documentation is in the prompt, and the model goes straight to it
  e.site.events.length = 0;
  m.requests.length = 0;
  now.policy = seekingPlayer('basket');
  const informed = await start(TASK, false);
  expect(informed, informed.stopReason ?? '').toMatchObject({ status: 'finished' });
  expect(events('basket')).toEqual(['kettle']);
  const first = m.requests[0].appagent!;
  expect(first.docs.map((d) => d.text).join(' ')).toContain('adds the product to the basket');
  expect(m.violations()).toEqual([]);
  expect(informed.steps.length).toBeLessThan(blind.steps.length);
  expect([blind.steps.length, informed.steps.length]).toEqual([5, 2]);
});

test('exploring an action that leaves the page: judged BACK from the picture taken before it, the browser goes back, the element is still documented', async () => {
  const url = `${e.site.url}appagent/nav.html`;
  const learner = learnerPlayer(COLOURS.green, [
    { colour: COLOURS.yellow, doc: 'Tapping this UI element opens the story of the shop.' },
    { colour: COLOURS.green, doc: 'Tapping this UI element adds the product to the basket.' },
  ], COLOURS.blue);
  now.policy = (req) => learner(req.learn ?? null) ?? { content: 'not a learning request' };
  const { runId } = await panelSend<{ runId: string }>(e.panel, 'run/start', {
    task: 'add the kettle to the basket', url, explore: true, config: { baseUrl: m.baseUrl, apiKey: KEY, model: MODEL, dialect: 'appagent', maxSteps: 10 },
  });
  const run = await waitForRun(e.panel, runId, (r) => r.status !== 'running', 'the run ends');
  expect(run, run.stopReason ?? '').toMatchObject({ status: 'finished' });
  expect(m.violations()).toEqual([]);
  expect(run.steps.map((s) => s.reflection?.decision ?? null)).toEqual(['BACK', 'SUCCESS', null]);
  expect(run.steps[0].observation).toContain('The browser went back to the page before it.');
  // the next step saw the shop again, not the story
  expect(run.steps[1].url).toBe(url);
  // the reflection's first picture is the step's own (taken before the page went away): it shows the shop's strip
  const reflect = m.requests.find((q) => q.learn?.kind === 'reflect')!.learn as { before: string; after: string };
  expect(locate(decodePng(reflect.before), COLOURS.blue)).not.toBeNull();
  expect(locate(decodePng(reflect.after), COLOURS.blue)).toBeNull();
  const entries = (await panelSend<{ entries: DocEntry[] }>(e.panel, 'docs/list', { origin: new URL(url).origin })).entries;
  expect(entries.find((x) => x.fingerprint.text === 'Our story')?.docs.tap).toBe('Tapping this UI element opens the story of the shop.');
});

test('recording a demonstration: the person uses elements themselves; each is documented from the pictures before and after it', async () => {
  const url = `${e.site.url}appagent/learn.html?demo=1`;
  const learner = learnerPlayer(COLOURS.green, [
    { colour: COLOURS.orange, doc: 'Tapping this UI element compares the product with others.' },
    { colour: COLOURS.green, doc: 'Tapping this UI element puts the product in the basket.' },
  ]);
  m.requests.length = 0;
  now.policy = (req) => learner(req.learn ?? null) ?? { content: 'not a learning request' };
  // the documentation is written with the stored settings' endpoint
  await panelSend(e.panel, 'settings/patch', { set: { baseUrl: m.baseUrl, apiKey: KEY, model: MODEL, dialect: 'appagent' } });
  const page = await e.browser.context.newPage();
  await page.goto(url);
  const tabId = await e.panel.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id ?? -1, url);
  expect(tabId).toBeGreaterThan(0);

  // the panel offers the recording for this dialect
  await e.panel.bringToFront();
  await e.panel.getByTestId('task').fill('add the kettle to the basket');
  await expect(e.panel.getByTestId('demo-start')).toBeVisible();
  expect(await panelSend(e.panel, 'demo/start', { tabId, task: 'add the kettle to the basket' })).toEqual({ recording: true });
  // no run starts in the tab while the person records there (the two would mix)
  await expect(panelSend(e.panel, 'run/start', { task: 'add the kettle to the basket', tabId })).rejects.toThrow(/demonstration is being recorded/);
  // the person acts (trusted clicks); each is recorded once the page settled after it
  await page.bringToFront();
  await page.click('#b-compare');
  const state = () => panelSend<{ actions: number; ready: boolean }>(e.panel, 'demo/state', { tabId });
  // a person acts at a person's pace: the next action once the page was pictured after this one
  await expect.poll(state).toEqual({ recording: true, actions: 1, ready: true });
  await page.click('#b-add');
  await expect.poll(state).toEqual({ recording: true, actions: 2, ready: true });
  const done = await panelSend<{ actions: number; documented: number; refused: string[] }>(e.panel, 'demo/stop', { tabId });
  expect(done).toEqual({ actions: 2, documented: 2, refused: [] });
  expect(m.violations()).toEqual([]);
  // two documentation prompts, each with the labelled pictures before and after the person's action
  const docs = m.requests.filter((q) => q.learn?.kind === 'doc').map((q) => q.learn as { tag: number; before: string; after: string });
  expect(docs.map((d) => d.tag)).toEqual([3, 4]);
  expect(locate(decodePng(docs[1].before), COLOURS.green)).toBeNull();
  expect(locate(decodePng(docs[1].after), COLOURS.green)).not.toBeNull();
  const entries = (await panelSend<{ entries: DocEntry[] }>(e.panel, 'docs/list', { origin: new URL(url).origin })).entries;
  const demoNotes = entries.filter((x) => x.source === 'demo').map((x) => [x.fingerprint.text, x.docs.tap]).sort();
  expect(demoNotes).toEqual([
    ['Add to basket', expect.stringContaining('Tapping this UI element puts the product in the basket.')],
    ['Compare', expect.stringContaining('Tapping this UI element compares the product with others.')],
  ]);
  await page.close();
});
