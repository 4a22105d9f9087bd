/**
 * Labeling on real heavy pages ("realPages" in bench-results.json): Debian's documentation
 * packages (debian-docs.ts), pages of 10k–40k DOM nodes, at 1280x800, ours beside the
 * WebVoyager-algorithm baseline in the same run. Numbers are reported, never asserted.
 *
 * Per page: the node count (every DOM node, text nodes included, shadow roots not entered), then
 * a first pass on the freshly loaded page ("first", what a run's first look at a page costs), then
 * BENCH_REAL_RUNS (default 15) passes, each after scrolling to the next of five places down the
 * page (top, ¼, ½, ¾, bottom) and a pause of PAUSE ms (neither timed), as a run reading the page
 * does (it settles after a scroll, and the model thinks between passes: our page index is built
 * in that time, content-scripts/labeler/page-index.ts; "indexed" counts the passes that read it):
 * - ours, through the built extension, `marks/label` sent from the side panel: "end to end" is
 *   message in → overlay drawn → list out as the panel sees it; "in page" is the labeler's own
 *   time (labelMs, slowest frame);
 * - the baseline (baseline/webvoyager.ts) in a plain browser: "in page" is its own time, "end to
 *   end" the round trip of the evaluate call that runs it (what a Selenium-driven marker pays).
 * Each: median and p95; and the number of marks.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { serveDir } from '../../scripts/static-server';
import type { MarksSnapshot } from '../../src/core/marks';
import { DOC, ensureDocs, type DocPage } from './debian-docs';
import { timing, type Timing } from './marks-bench';
import { clearBaseline, injectBaseline } from './marks-baseline';
import { extensionSession, plainSession } from './marks-browser';

export const REAL_PAGES: Array<DocPage & { name: string }> = [
  { name: 'node n-api', pkg: 'nodejs-doc', file: 'nodejs/api/n-api.html' },
  { name: 'node crypto', pkg: 'nodejs-doc', file: 'nodejs/api/crypto.html' },
  { name: 'node fs', pkg: 'nodejs-doc', file: 'nodejs/api/fs.html' },
  { name: 'pg app-psql', pkg: 'postgresql-doc-15', file: 'postgresql-doc-15/html/app-psql.html' },
  { name: 'pg sql-keywords', pkg: 'postgresql-doc-15', file: 'postgresql-doc-15/html/sql-keywords-appendix.html' },
  { name: 'pg bookindex', pkg: 'postgresql-doc-15', file: 'postgresql-doc-15/html/bookindex.html' },
];

const RUNS = Number(process.env.BENCH_REAL_RUNS ?? 15);
const PAUSE = 500;

interface Measured { marks: number; first: { endToEnd: number; inPage: number }; endToEnd: Timing | null; inPage: Timing | null; indexed?: number }

export interface RealPageRow {
  page: string;
  nodes: number;
  ours: Measured | { error: string };
  baseline: Measured | { error: string };
}

/** Every node of the page's document (elements, text, comments). */
function countNodes(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    let n = 0;
    while (w.nextNode()) n++;
    return n;
  });
}

/** Scroll the page's window to the i-th of five places, top to bottom, then pause. */
async function scrollTo(page: Page, i: number): Promise<void> {
  await page.evaluate((k) => {
    const max = document.scrollingElement!.scrollHeight - innerHeight;
    window.scrollTo(0, Math.round((max * (k % 5)) / 4));
  }, i);
  await page.waitForTimeout(PAUSE);
}

type Api = { webagent: { send(t: string, p: unknown): Promise<unknown> } };

async function ours(urls: string[]): Promise<Array<{ nodes: number; row: RealPageRow['ours'] }>> {
  const s = await extensionSession();
  const out: Array<{ nodes: number; row: RealPageRow['ours'] }> = [];
  try {
    for (const url of urls) {
      const page = await s.open(url, 1);
      try {
        const nodes = await countNodes(page);
        const tabId = await s.tabId(page);
        const pass = () => s.panel.evaluate(async (id) => {
          const t0 = performance.now();
          const snap = await (window as unknown as Api).webagent.send('marks/label', { tabId: id }) as MarksSnapshot;
          return { e2e: performance.now() - t0, inPage: snap.labelMs ?? NaN, marks: snap.marks.length, indexed: snap.indexed === true };
        }, tabId);
        const first = await pass();
        const passes = [];
        for (let i = 1; i <= RUNS; i++) {
          await scrollTo(page, i);
          passes.push(await pass());
        }
        await s.panel.evaluate((id) => (window as unknown as Api).webagent.send('marks/clear', { tabId: id }), tabId);
        out.push({ nodes, row: { marks: first.marks, first: { endToEnd: first.e2e, inPage: first.inPage }, endToEnd: timing(passes.map((p) => p.e2e)), inPage: timing(passes.map((p) => p.inPage)), indexed: passes.filter((p) => p.indexed).length } });
      } catch (e) {
        out.push({ nodes: 0, row: { error: e instanceof Error ? e.message.split('\n')[0] : String(e) } });
      } finally {
        await s.done(page);
      }
    }
  } finally {
    await s.close();
  }
  return out;
}

async function baseline(urls: string[]): Promise<Array<RealPageRow['baseline']>> {
  const s = await plainSession();
  const out: Array<RealPageRow['baseline']> = [];
  try {
    for (const url of urls) {
      const page = await s.open(url, 1);
      try {
        await injectBaseline(page);
        const pass = async () => {
          const t0 = performance.now();
          const r = await page.evaluate(() => { const x = window.__webvoyager!.label(); return { ms: x.ms, marks: x.marks.length }; });
          const e2e = performance.now() - t0;
          await clearBaseline(page);
          return { e2e, inPage: r.ms, marks: r.marks };
        };
        const first = await pass();
        const passes = [];
        for (let i = 1; i <= RUNS; i++) {
          await scrollTo(page, i);
          passes.push(await pass());
        }
        out.push({ marks: first.marks, first: { endToEnd: first.e2e, inPage: first.inPage }, endToEnd: timing(passes.map((p) => p.e2e)), inPage: timing(passes.map((p) => p.inPage)) });
      } catch (e) {
        out.push({ error: e instanceof Error ? e.message.split('\n')[0] : String(e) });
      } finally {
        await s.done(page);
      }
    }
  } finally {
    await s.close();
  }
  return out;
}

export async function realPagesBench(log: (s: string) => void = console.log) {
  if (!ensureDocs(REAL_PAGES, 'realPages', log)) return { skipped: true };
  const docs = await serveDir(DOC);
  try {
    const urls = REAL_PAGES.map((p) => `${docs.url}${p.file.split(path.sep).join('/')}`);
    log(`\nreal pages: ${REAL_PAGES.length} documentation pages at 1280x800, ${RUNS} timed passes each (median / p95 ms)`);
    const o = await ours(urls);
    const b = await baseline(urls);
    const rows: RealPageRow[] = REAL_PAGES.map((p, i) => ({ page: p.name, nodes: o[i].nodes, ours: o[i].row, baseline: b[i] }));
    const cell = (r: RealPageRow['ours']) => 'error' in r
      ? `ERROR ${r.error}`.slice(0, 40).padEnd(40)
      : `${String(r.marks).padStart(5)} ${r.first.endToEnd.toFixed(1).padStart(7)}  ${fmt(r.endToEnd)}  ${fmt(r.inPage)}`;
    const head = 'marks   first  end-to-end     in page     ';
    log(`                         | ours: ${head}| baseline: ${head}`);
    log('page              nodes  |');
    for (const r of rows) log(`${r.page.padEnd(16)} ${String(r.nodes).padStart(6)}   |  ${cell(r.ours)}  |  ${cell(r.baseline)}`);
    log(`ours: passes read from the page index: ${rows.map((r) => ('error' in r.ours ? '-' : `${r.ours.indexed}/${RUNS}`)).join(', ')}`);
    for (const r of rows) {
      if ('error' in r.ours || 'error' in r.baseline || !r.ours.endToEnd || !r.baseline.endToEnd) continue;
      log(`  ${r.page.padEnd(16)} baseline / ours, median end to end: ${(r.baseline.endToEnd.median / r.ours.endToEnd.median).toFixed(2)}x, in page: ${(r.baseline.inPage!.median / r.ours.inPage!.median).toFixed(2)}x`);
    }
    return { date: new Date().toISOString(), runs: RUNS, viewport: { width: 1280, height: 800 }, pages: rows };
  } finally {
    await docs.close();
  }
}

function fmt(t: Timing | null): string {
  return t ? `${t.median.toFixed(1).padStart(6)} /${t.p95.toFixed(1).padStart(6)}` : '     -        ';
}
