/**
 * The labeler's frame and closed-shadow-root side, in real headless Chromium.
 *
 * Frames (harness): the labeler bundle is added to every frame (same- and cross-origin, nested,
 * inside a shadow root, covered); prepareFrames runs in every frame, collectFrame everywhere, and
 * the test merges with src/core/frames.ts as the background does. Merged rects must equal the
 * elements' real rects in top-page coordinates (Playwright's boundingBox) clipped to the frames.
 *
 * Closed shadow roots: in the harness through the test seam (the fixture page records closed
 * roots in globalThis.__webagentClosedRoots), and in the BUILT extension (dist/, `npx vite build`)
 * through chrome.dom.openOrClosedShadowRoot, with a page that records nothing.
 */
import { test, expect } from './fixtures';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { launchWithExtension, type Launched } from '../../scripts/browser';
import type { StaticServer } from '../../scripts/static-server';
import { everyChildAnswers, intersect, mergeFrames } from '../../src/core/frames';
import type { FrameMarks, MarksSnapshot, Rect } from '../../src/core/marks';
import { labelerBundle } from './inject';
import { serveFixtures } from './support';

type LabelerApi = typeof import('../../content-scripts/labeler/index');
declare global {
  interface Window { __labeler: LabelerApi }
}


let a: StaticServer;
let b: StaticServer;
let ha: StaticServer;
let hb: StaticServer;
let browser: Browser | null = null;

test.beforeAll(async () => {
  a = await serveFixtures('labeler');
  b = await serveFixtures('labeler');
  ha = await serveFixtures('hostile');
  hb = await serveFixtures('hostile');
});
test.afterAll(async () => {
  await browser?.close();
  await a.close();
  await b.close();
  await ha.close();
  await hb.close();
});

async function plainPage(): Promise<Page> {
  browser ??= await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--site-per-process', '--no-first-run', '--disable-background-networking'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  return context.newPage();
}

const nameOf = (f: Frame) => (f.parentFrame() ? new URL(f.url()).searchParams.get('name') ?? '?' : 'top');

interface Geometry { origin: { x: number; y: number }; clip: Rect | null }

/**
 * Where each frame's viewport sits in the top page and which part of it is visible, measured in
 * the browser frame by frame (the iframe element's rect in its parent + border + padding).
 * Not Playwright's boundingBox(): for an element in a cross-origin (out-of-process) frame it
 * leaves out the iframe's border and padding (Playwright 1.65, checked against real mouse events).
 */
async function frameGeometry(page: Page, frames: Frame[]): Promise<Map<Frame, Geometry>> {
  const view = page.viewportSize()!;
  const out = new Map<Frame, Geometry>([[page.mainFrame(), { origin: { x: 0, y: 0 }, clip: { x: 0, y: 0, width: view.width, height: view.height } }]]);
  const geometryOf = async (f: Frame): Promise<Geometry> => {
    const known = out.get(f);
    if (known) return known;
    const parent = await geometryOf(f.parentFrame()!);
    const content = await (await f.frameElement()).evaluate((node) => {
      const el = node as Element;
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      const n = (v: string) => parseFloat(v) || 0;
      const l = n(s.borderLeftWidth) + n(s.paddingLeft), t = n(s.borderTopWidth) + n(s.paddingTop);
      return { x: r.x + l, y: r.y + t, width: r.width - l - n(s.borderRightWidth) - n(s.paddingRight), height: r.height - t - n(s.borderBottomWidth) - n(s.paddingBottom) };
    });
    const origin = { x: parent.origin.x + content.x, y: parent.origin.y + content.y };
    const clip = parent.clip ? intersect(parent.clip, { ...content, ...origin }) : null;
    const g = { origin, clip };
    out.set(f, g);
    return g;
  };
  for (const f of frames) await geometryOf(f);
  return out;
}

/** An element's rect in top-page coordinates, clipped to its frames (null when nothing shows). */
async function topRect(f: Frame, id: string, g: Geometry): Promise<Rect | null> {
  const r = await f.evaluate((sel) => {
    const b = document.getElementById(sel)!.getBoundingClientRect();
    return { x: b.x, y: b.y, width: b.width, height: b.height };
  }, id);
  return g.clip ? intersect({ ...r, x: r.x + g.origin.x, y: r.y + g.origin.y }, g.clip) : null;
}

test('frames (harness): every frame labelled once, in frame order, rects in top-page coordinates', async () => {
  const page = await plainPage();
  const cross = b.url.replace('127.0.0.1', 'localhost').replace(/\/$/, '');
  await page.goto(`${a.url}frames-top.html?x=${encodeURIComponent(cross)}`);
  await expect.poll(() => page.frames().length).toBe(6);
  const frames = page.frames();
  for (const f of frames) await f.waitForLoadState('load');
  const js = await labelerBundle();
  for (const f of frames) await f.addScriptTag({ content: js });

  // prepare twice (as the background does when it had to inject late): the ids of the second count.
  // prepareFrames counts the iframes of the document's own tree (no walk); the one in the top
  // page's shadow root is found by the pass's walk and still linked, in order (below).
  let sent: number[] = [];
  for (let i = 0; i < 2; i++) {
    sent = await Promise.all(frames.map((f) => f.evaluate(() => window.__labeler.prepareFrames())));
    expect(Object.fromEntries(frames.map((f, j) => [nameOf(f), sent[j]]))).toEqual({ top: 3, same: 1, nested: 0, cross: 0, shadow: 0, covered: 0 });
  }
  // as the background decides (core/frames.ts): the shadow root's iframe is not counted, but it
  // answered step 1 as well, so more frames answered than were counted: every parent waits for
  // its children's answers (a fixed short wait missed the cross-origin answer on a loaded machine)
  const every = everyChildAnswers(sent);
  expect(every).toBe(true);
  expect(everyChildAnswers(sent.slice(0, -2)), 'two iframes counted that gave no answer to step 1').toBe(false);
  const results: FrameMarks[] = await Promise.all(frames.map((f) => f.evaluate((o) => window.__labeler.collectFrame(o), { everyChildAnswers: every })));
  const top = results[0];
  expect(top.token).toBeNull();
  expect(top.frames.map((c) => c.visible === null)).toEqual([false, false, false, true]);
  for (const r of results.slice(1)) expect(typeof r.token).toBe('string');
  // each iframe's id is the one its own frame reports (same-origin read directly, cross-origin over a port)
  const linked = (r: FrameMarks) => r.frames.map((c) => c.token);
  expect(linked(top)).toEqual(['same', 'cross', 'shadow', 'covered'].map((n) => results[frames.findIndex((f) => nameOf(f) === n)].token));
  expect(linked(results[frames.findIndex((f) => nameOf(f) === 'same')])).toEqual([results[frames.findIndex((f) => nameOf(f) === 'nested')].token]);
  expect(top.viewport).toEqual({ width: 1280, height: 720, devicePixelRatio: 1 });
  for (const r of results) expect(r.marks.map((m) => m.label)).toEqual(r.marks.map((_, i) => i));

  const snap = mergeFrames(results.map((result, frameId) => ({ frameId, result })))!;
  expect(snap.marks.map((m) => m.label)).toEqual(snap.marks.map((_, i) => i));
  const order = snap.marks.map((m) => nameOf(frames[m.frameId!])).filter((n, i, all) => all[i - 1] !== n);
  expect(order).toEqual(['top', 'same', 'nested', 'cross', 'shadow']);

  // every merged rect is the element's real rect, clipped to its frames and the top viewport,
  // and the mouse at its centre really is over that element (the browser's own hit-testing)
  const ids = await Promise.all(frames.map((f) => f.evaluate(() => window.__labeler.debugElements().map((e) => e.id))));
  const geo = await frameGeometry(page, frames);
  const mismatches: unknown[] = [];
  for (const m of snap.marks) {
    const f = frames[m.frameId!];
    const id = ids[m.frameId!][m.localLabel!];
    const want = await topRect(f, id, geo.get(f)!);
    const close = want && (['x', 'y', 'width', 'height'] as const).every((k) => Math.abs(want[k] - m.rect[k]) < 0.5);
    await page.mouse.move(m.rect.x + m.rect.width / 2, m.rect.y + m.rect.height / 2);
    const hovered = await f.evaluate((sel) => document.getElementById(sel)!.matches(':hover'), id);
    if (!close || !hovered) mismatches.push({ frame: nameOf(f), id, want, got: m.rect, hovered });
  }
  expect(mismatches).toEqual([]);

  // and nothing usable is missing: each control whose clipped rect is big enough has a mark
  const labelled = new Set(snap.marks.map((m) => `${nameOf(frames[m.frameId!])}#${ids[m.frameId!][m.localLabel!]}`));
  const expected: string[] = [];
  for (const f of frames) {
    for (const id of f === page.mainFrame() ? ['top-btn'] : ['btn', 'link', 'note']) {
      const vis = await topRect(f, id, geo.get(f)!);
      if (vis && vis.width >= 4 && vis.height >= 4 && nameOf(f) !== 'covered') expected.push(`${nameOf(f)}#${id}`);
    }
  }
  expect(expected).toContain('cross#btn');
  expect([...labelled].sort()).toEqual(expected.sort());
  expect(snap.marks.some((m) => m.tag === 'iframe')).toBe(false);
  await page.context().close();
});

/** Labels every frame as the background does: prepare everywhere, then collect everywhere; frameId = index. */
async function labelAllFrames(page: Page): Promise<{ frames: Frame[]; results: FrameMarks[] }> {
  const frames = page.frames();
  for (const f of frames) await f.waitForLoadState('load');
  const js = await labelerBundle();
  for (const f of frames) await f.addScriptTag({ content: js });
  const sent = await Promise.all(frames.map((f) => f.evaluate(() => window.__labeler.prepareFrames())));
  // as the background decides (core/frames.ts): every iframe has the labeler, so each parent waits for its children's answers
  const every = everyChildAnswers(sent);
  const results: FrameMarks[] = await Promise.all(frames.map((f) => f.evaluate((o) => window.__labeler.collectFrame(o), { everyChildAnswers: every })));
  return { frames, results };
}

/** An iframe's content box in the top page. */
async function boxOf(page: Page, id: string): Promise<Rect> {
  return page.evaluate((sel) => {
    const r = document.getElementById(sel)!.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  }, id);
}

const inside = (r: Rect, box: Rect) => r.x >= box.x - 0.5 && r.y >= box.y - 0.5 && r.x + r.width <= box.x + box.width + 0.5 && r.y + r.height <= box.y + box.height + 0.5;

for (const steal of ['c', 'a'] as const) {
  test(`hostile frames (harness): forged ids ignored; a child claiming frame ${steal}'s stolen id places neither over the other`, async () => {
    const page = await plainPage();
    const cross = hb.url.replace('127.0.0.1', 'localhost').replace(/\/$/, '');
    await page.goto(`${ha.url}frame-forged-links.html?x=${encodeURIComponent(cross)}&steal=${steal}`);
    await expect.poll(() => page.frames().length).toBe(4);
    await page.waitForTimeout(300); // the page's forged messages have been arriving meanwhile
    const { frames, results } = await labelAllFrames(page);
    const byName = (n: string) => frames.findIndex((f) => nameOf(f) === n);
    const top = results[0];
    // what reached the merge: the iframes in page order a, b, c; b answered with the stolen id
    expect(top.frames.map((c) => c.token)).toEqual([results[byName('a')].token, results[byName(steal)].token, results[byName('c')].token]);
    expect(top.frames.map((c) => !!c.sure)).toEqual([true, false, false]);
    for (const r of results) expect(r.token ?? '').not.toMatch(/forged/);

    const snap = mergeFrames(results.map((result, frameId) => ({ frameId, result })))!;
    const placed = (n: string) => snap.marks.filter((m) => m.frameId === byName(n));
    const boxes = { a: await boxOf(page, 'a'), b: await boxOf(page, 'b'), c: await boxOf(page, 'c') };
    expect(placed('b')).toEqual([]);
    // a was read straight from its isolated world: its claim wins over b's; c's id is disputed
    expect(placed('a').map((m) => m.text)).toEqual(['a button', 'a other']);
    for (const m of placed('a')) expect(inside(m.rect, boxes.a)).toBe(true);
    if (steal === 'c') expect(placed('c')).toEqual([]);
    else {
      expect(placed('c').map((m) => m.text)).toEqual(['c button', 'c other']);
      for (const m of placed('c')) expect(inside(m.rect, boxes.c)).toBe(true);
    }
    for (const m of snap.marks) expect(inside(m.rect, boxes.b), `${m.text} is not over frame b`).toBe(false);
    await page.context().close();
  });
}

test('hostile overlay (harness): closed root, page style rules cannot move or hide it, a copied attribute hides nothing', async () => {
  const page = await plainPage();
  await page.goto(`${ha.url}frame-overlay-tamper.html?do=sheet`);
  await page.addScriptTag({ content: await labelerBundle() });
  const snap: MarksSnapshot = await page.evaluate(() => window.__labeler.drawMarks());
  expect(snap.marks.map((m) => m.text)).toEqual(['Open photo', 'Show details', 'Marked like an overlay']);
  const host = await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(r));
    const hosts = Array.from(document.querySelectorAll('webagent-marks'));
    const el = hosts[0] as HTMLElement;
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return { n: hosts.length, shadow: el.shadowRoot, translate: s.translate, display: s.display, opacity: s.opacity, rect: [r.x, r.y, r.width, r.height], boxes: window.__labeler.labelBoxes().length };
  });
  // the page's `[data-wa-ui] { translate; opacity: 0; display: none }` rules lose to the host's inline !important
  expect(host).toEqual({ n: 1, shadow: null, translate: 'none', display: 'block', opacity: '1', rect: [0, 0, 1280, 720], boxes: 3 });
  // the page's button with our attribute is still there after the overlay is removed
  await page.evaluate(() => window.__labeler.hideMarks());
  expect(await page.locator('button[data-wa-ui]').count()).toBe(1);
  await page.context().close();
});

test('closed shadow roots (harness, test seam): controls inside nested closed roots are labelled', async () => {
  const page = await plainPage();
  await page.goto(`${a.url}closed-shadow.html`);
  await page.addScriptTag({ content: await labelerBundle() });
  const snap: MarksSnapshot = await page.evaluate(() => window.__labeler.drawMarks());
  expect(snap.marks.map((m) => `${m.tag}:${m.text}`)).toEqual(['button:Closed save', 'input:Closed input', 'a:Closed deep link', 'button:Light button']);
  expect(snap.marks[2].fingerprint?.path).toBe('html:1>body:1>x-closed:1>#shadow>x-closed-inner:1>#shadow>a:1');
  const deep = await page.evaluate(() => window.__labeler.resolveMark(2));
  expect(deep).toMatchObject({ ok: true, tag: 'a' });
  await page.context().close();
});

test('closed shadow roots (built extension): chrome.dom.openOrClosedShadowRoot reaches them', async () => {
  let l: Launched | null = null;
  try {
    l = await launchWithExtension({ width: 1280, height: 720 });
    const page = await l.context.newPage();
    const url = `${a.url}closed-shadow.html?seam=0`;
    await page.goto(url);
    expect(await page.evaluate(() => 'chrome' in window && '__webagentClosedRoots' in window)).toBe(false);
    const worker = l.context.serviceWorkers()[0];
    // the content script's existing "marks/draw" message, sent from the extension's own worker
    // (polled: the content script starts at document_idle)
    const draw = () => worker.evaluate(async (u) => {
      const tab = (await chrome.tabs.query({})).find((t) => t.url === u);
      if (!tab?.id) return null;
      return chrome.tabs.sendMessage(tab.id, { type: 'marks/draw', payload: {} }, { frameId: 0 }).catch(() => null) as Promise<{ ok: boolean; value: MarksSnapshot } | null>;
    }, url);
    const got: { reply: { ok: boolean; value: MarksSnapshot } | null } = { reply: null };
    await expect.poll(async () => (got.reply = await draw()), { timeout: 20_000 }).not.toBeNull();
    const reply = got.reply!;
    expect(reply.ok).toBe(true);
    expect(reply.value.marks.map((m) => `${m.tag}:${m.text}`)).toEqual(['button:Closed save', 'input:Closed input', 'a:Closed deep link', 'button:Light button']);
    // the overlay the content script drew is in the page, with one label per mark
    expect(await page.locator('[data-wa-ui="overlay"]').count()).toBe(1);
  } finally {
    await l?.close();
  }
});
