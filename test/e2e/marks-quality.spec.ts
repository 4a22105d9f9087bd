/**
 * Labeling quality of ours on the whole corpus (test/fixtures/pages/marks/, rules in its README), in
 * the default suite (`npm run test:e2e`): every page is labelled and ours must reach recall >= 99.5 %,
 * label no decoy, label no control twice, get >= 98 % of gold texts exactly right, draw no
 * overlapping label tags and leave no numbering gaps (expectOurs, test/e2e/marks-checks.ts). Ours'
 * figures are printed. Timings are never asserted.
 *
 * What runs where (issue 39: the default suite must stay fast): the WebVoyager baseline, which only
 * gives numbers to compare with (never asserted), runs beside ours in
 * test/corpus/marks-baseline.spec.ts (`npm run test:corpus`), which prints the comparison table;
 * `npm run bench` adds the cost tables.
 *
 * Ours runs in the built extension (view message `marks/label`, all frames merged). With OURS=harness
 * (or before the extension had `marks/label`) it runs through the single-frame harness instead,
 * which cannot be held to the checks that NEED THE EXTENSION: gold/decoy elements inside iframes
 * (iframe-same-origin, iframe-cross-origin) and inside closed shadow roots (shadow-closed) are then
 * left out of the score (marks-bench.ts, oursUnderTest's scope) and reported as "out of scope".
 * BENCH_PAGES=part,part labels only the pages whose names hold one of the parts.
 */
import { test, expect } from './fixtures';
import { listPages, serveCorpus, type Corpus } from '../bench/marks-corpus';
import { benchPages, expectOurs, labelOurs } from './marks-checks';
import { extensionSession } from '../bench/marks-browser';
import type { MarksSnapshot } from '../../src/core/marks';

const pages = benchPages();
let corpus: Corpus;

test.beforeAll(async () => {
  corpus = await serveCorpus();
});

test.afterAll(async () => {
  await corpus?.close();
});

test('the corpus has at least 30 pages', () => {
  expect(listPages().length).toBeGreaterThanOrEqual(30);
});

test('ours on the corpus: recall, no decoys, texts, no overlapping tags, no numbering gaps', async () => {
  test.setTimeout(15 * 60_000);
  expectOurs(await labelOurs(corpus, pages));
});

/**
 * The quick pass (content-scripts/labeler/quick-walk.ts) reads a page it has not seen from
 * selectors; the walk reads a style per element. On every corpus page both must give the same
 * element list: same labels, tags, texts and boxes. The walk is forced by the content scripts'
 * `webagent.labeler.walkOnly` switch, set in every frame between the two passes.
 */
test('the quick pass on a page not seen finds what the walk finds, on every corpus page', async () => {
  test.setTimeout(10 * 60_000);
  const s = await extensionSession();
  type Api = { webagent: { send(t: string, p: unknown): Promise<unknown> } };
  const send = (type: string, payload: unknown) => s.panel.evaluate(([t, p]) => (window as unknown as Api).webagent.send(t, p), [type, payload] as const) as Promise<MarksSnapshot>;
  const walkOnly = (tabId: number, on: boolean) => s.panel.evaluate(async ([id, v]) => {
    await chrome.scripting.executeScript({ target: { tabId: id, allFrames: true }, func: (x: boolean) => { (globalThis as unknown as Record<symbol, unknown>)[Symbol.for('webagent.labeler.walkOnly')] = x; }, args: [v] });
  }, [tabId, on] as const);
  const brief = (snap: MarksSnapshot) => snap.marks.map((m) => `${m.label} <${m.tag}> ${JSON.stringify(m.text)}`);
  // boxes within 4 px: a web-component page's late font may move a box by a pixel or two between the passes
  const near = (a: MarksSnapshot, b: MarksSnapshot) => a.marks.every((m, i) => {
    const r = b.marks[i]?.rect;
    return !!r && Math.abs(m.rect.x - r.x) <= 4 && Math.abs(m.rect.y - r.y) <= 4 && Math.abs(m.rect.width - r.width) <= 4 && Math.abs(m.rect.height - r.height) <= 4;
  });
  const passes: Record<string, string[]> = {};
  try {
    for (const p of pages) {
      const page = await s.open(corpus.url(p.name), p.dpr);
      const tabId = await s.tabId(page);
      const quick = await send('marks/label', { tabId });
      (passes[quick.pass ?? 'none'] ??= []).push(p.name);
      // the application-shaped pages were made for it: a cross-origin sheet read from its fetched text, adopted sheets, :host rules
      if (p.name.startsWith('app-')) expect.soft(quick.pass, `${p.name}: the first pass`).toBe('quick');
      await send('marks/clear', { tabId });
      await walkOnly(tabId, true);
      const walk = await send('marks/label', { tabId });
      await walkOnly(tabId, false);
      expect.soft(walk.pass, p.name).toBe('walk');
      expect.soft(brief(quick), `${p.name}: the quick pass's list against the walk's`).toEqual(brief(walk));
      expect.soft(near(quick, walk), `${p.name}: the quick pass's boxes against the walk's`).toBe(true);
      await s.done(page);
    }
  } finally {
    await s.close();
  }
  console.log(Object.entries(passes).map(([k, v]) => `${k}: ${v.length} pages${k === 'quick' ? '' : ` (${v.join(', ')})`}`).join('; '));
  // the walk stands in only where a style sheet cannot be read or a rule gives every element a cursor
  expect(passes.quick?.length ?? 0).toBeGreaterThanOrEqual(pages.length - (passes.walk?.length ?? 0));
  expect(passes.quick?.length ?? 0).toBeGreaterThan(pages.length * 0.8);
});
