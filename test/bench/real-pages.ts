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
 *
 * Fresh ("fresh" in each row; BENCH_REAL_MODE=warm|fresh|both, default both): what a step costs on a
 * page the labeler has not seen, which is what most of a run's steps meet (a click navigates or
 * changes the page). BENCH_REAL_FRESH_RUNS (default 10) timed passes, each on the page reloaded
 * (a new document: no page index, no kept text screen, no remembered answers), scrolled to the
 * next of the five places, PAUSE ms, then a forced garbage collection (CDP
 * HeapProfiler.collectGarbage) right before the pass, for ours and for the baseline alike. Ours
 * reports "in page" as the labeling pass plus the page text screen (labelMs + screenMs, both also
 * kept apart: "label", "screen"), "end to end" as above, how each pass found its candidates
 * ("quick", or "walk" where the quick pass could not be used: docs/labeling.md), and the label
 * time of the walk on the same page reloaded once more with the quick pass off; the baseline as above.
 * BENCH_REAL_PAGES=a,b picks pages by name (substring).
 */
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
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
const FRESH_RUNS = Number(process.env.BENCH_REAL_FRESH_RUNS ?? 10);
const MODE = process.env.BENCH_REAL_MODE ?? 'both';
const WARM = MODE === 'warm' || MODE === 'both';
const FRESH = MODE === 'fresh' || MODE === 'both';
const PAUSE = 500;

/** Fresh passes (see the header): median / p95 of each; for ours the in-page time split into label and screen. */
export interface Fresh {
  marks: number; endToEnd: Timing | null; inPage: Timing | null; label?: Timing | null; screen?: Timing | null;
  /** ours: how the passes found their candidates ("quick 10/10"), and the label time of the walk on the same pages */
  passes?: string; walkLabel?: Timing | null;
}

interface Measured { marks: number; first: { endToEnd: number; inPage: number }; endToEnd: Timing | null; inPage: Timing | null; indexed?: number }

export interface RealPageRow {
  page: string;
  nodes: number;
  ours: Measured | { error: string };
  baseline: Measured | { error: string };
  fresh?: { ours: Fresh | { error: string }; baseline: Fresh | { error: string } };
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

const error = (e: unknown) => ({ error: e instanceof Error ? e.message.split('\n')[0] : String(e) });

/** Reload the page (a document the labeler has not seen), scroll to place i; then collect garbage. */
async function reloadAt(page: Page, i: number, ready: () => Promise<void>): Promise<void> {
  await page.reload({ waitUntil: 'load' });
  await ready();
  await scrollTo(page, i);
}

async function collectGarbage(cdp: CDPSession): Promise<void> {
  await cdp.send('HeapProfiler.collectGarbage');
}

async function ours(urls: string[]): Promise<Array<{ nodes: number; row: RealPageRow['ours']; fresh: Fresh | { error: string } }>> {
  const s = await extensionSession();
  const out: Array<{ nodes: number; row: RealPageRow['ours']; fresh: Fresh | { error: string } }> = [];
  try {
    for (const url of urls) {
      const page = await s.open(url, 1);
      let nodes = 0;
      let row: RealPageRow['ours'] = { error: 'not run' };
      let fresh: Fresh | { error: string } = { error: 'not run' };
      try {
        nodes = await countNodes(page);
        const tabId = await s.tabId(page);
        const pass = () => s.panel.evaluate(async (id) => {
          const t0 = performance.now();
          const snap = await (window as unknown as Api).webagent.send('marks/label', { tabId: id }) as MarksSnapshot;
          return { e2e: performance.now() - t0, inPage: snap.labelMs ?? NaN, screen: snap.screenMs ?? 0, marks: snap.marks.length, indexed: snap.indexed === true, pass: snap.pass };
        }, tabId);
        if (WARM) {
          try {
            row = await warm(page, pass);
            await s.panel.evaluate((id) => (window as unknown as Api).webagent.send('marks/clear', { tabId: id }), tabId);
          } catch (e) { row = error(e); }
        }
        if (FRESH) {
          try {
            const cdp = await s.launched.context.newCDPSession(page);
            // the content script is in the reloaded document (document_idle): what a step after a navigation finds
            const ready = () => page.waitForFunction(() => document.readyState === 'complete').then(() => s.panel.evaluate(async (id) => {
              for (let k = 0; k < 100; k++) {
                const pong = await chrome.tabs.sendMessage(id, { type: 'content/ping' }, { frameId: 0 }).catch(() => null) as { ok?: boolean } | null;
                if (pong?.ok) return;
                await new Promise((f) => setTimeout(f, 20));
              }
              throw new Error('the content script did not load');
            }, tabId));
            // the walk beside the quick pass: the content scripts' walkOnly switch, set in each new document
            // (a string: tsx names the functions it compiles, and the page has no `__name`)
            const walkOnly = () => s.panel.evaluate(`chrome.scripting.executeScript({ target: { tabId: ${tabId}, allFrames: true }, func: () => { globalThis[Symbol.for('webagent.labeler.walkOnly')] = true; } })`);
            const passes = [];
            const walks = [];
            for (let i = 0; i < FRESH_RUNS; i++) {
              await reloadAt(page, i, ready);
              await collectGarbage(cdp);
              passes.push(await pass());
              await reloadAt(page, i, ready);
              await walkOnly();
              await collectGarbage(cdp);
              walks.push(await pass());
            }
            await s.panel.evaluate((id) => (window as unknown as Api).webagent.send('marks/clear', { tabId: id }), tabId);
            await cdp.detach();
            const kinds = new Map<string, number>();
            for (const p of passes) kinds.set(p.pass ?? '?', (kinds.get(p.pass ?? '?') ?? 0) + 1);
            fresh = {
              marks: passes[0].marks, endToEnd: timing(passes.map((p) => p.e2e)), inPage: timing(passes.map((p) => p.inPage + p.screen)), label: timing(passes.map((p) => p.inPage)), screen: timing(passes.map((p) => p.screen)),
              passes: [...kinds].map(([k, n]) => `${k} ${n}/${passes.length}`).join(', '), walkLabel: timing(walks.map((p) => p.inPage)),
            };
          } catch (e) { fresh = error(e); }
        }
      } catch (e) {
        row = error(e);
      } finally {
        out.push({ nodes, row, fresh });
        await s.done(page);
      }
    }
  } finally {
    await s.close();
  }
  return out;
}

type Pass = () => Promise<{ e2e: number; inPage: number; marks: number; indexed?: boolean; pass?: string }>;

/** The warm passes (see the header): a first pass, then RUNS passes after scrolling. */
async function warm(page: Page, pass: Pass): Promise<Measured> {
  const first = await pass();
  const passes = [];
  for (let i = 1; i <= RUNS; i++) {
    await scrollTo(page, i);
    passes.push(await pass());
  }
  const indexed = passes.some((p) => p.indexed !== undefined) ? { indexed: passes.filter((p) => p.indexed).length } : {};
  return { marks: first.marks, first: { endToEnd: first.e2e, inPage: first.inPage }, endToEnd: timing(passes.map((p) => p.e2e)), inPage: timing(passes.map((p) => p.inPage)), ...indexed };
}

async function baseline(urls: string[]): Promise<Array<{ row: RealPageRow['baseline']; fresh: Fresh | { error: string } }>> {
  const s = await plainSession();
  const out: Array<{ row: RealPageRow['baseline']; fresh: Fresh | { error: string } }> = [];
  try {
    for (const url of urls) {
      const page = await s.open(url, 1);
      let row: RealPageRow['baseline'] = { error: 'not run' };
      let fresh: Fresh | { error: string } = { error: 'not run' };
      const pass = async () => {
        const t0 = performance.now();
        const r = await page.evaluate(() => { const x = window.__webvoyager!.label(); return { ms: x.ms, marks: x.marks.length }; });
        const e2e = performance.now() - t0;
        await clearBaseline(page);
        return { e2e, inPage: r.ms, marks: r.marks };
      };
      try {
        if (WARM) {
          try {
            await injectBaseline(page);
            row = await warm(page, pass);
          } catch (e) { row = error(e); }
        }
        if (FRESH) {
          try {
            const cdp = await page.context().newCDPSession(page);
            const passes = [];
            for (let i = 0; i < FRESH_RUNS; i++) {
              await reloadAt(page, i, () => injectBaseline(page));
              await collectGarbage(cdp);
              passes.push(await pass());
            }
            await cdp.detach();
            fresh = { marks: passes[0].marks, endToEnd: timing(passes.map((p) => p.e2e)), inPage: timing(passes.map((p) => p.inPage)) };
          } catch (e) { fresh = error(e); }
        }
      } finally {
        out.push({ row, fresh });
        await s.done(page);
      }
    }
  } finally {
    await s.close();
  }
  return out;
}

const PICK = (process.env.BENCH_REAL_PAGES ?? '').split(',').map((x) => x.trim()).filter(Boolean);

export async function realPagesBench(log: (s: string) => void = console.log) {
  const pages = PICK.length ? REAL_PAGES.filter((p) => PICK.some((x) => p.name.includes(x))) : REAL_PAGES;
  if (!ensureDocs(pages, 'realPages', log)) return { skipped: true };
  const docs = await serveDir(DOC);
  try {
    const urls = pages.map((p) => `${docs.url}${p.file.split(path.sep).join('/')}`);
    log(`\nreal pages: ${pages.length} documentation pages at 1280x800 (median / p95 ms)`);
    const o = await ours(urls);
    const b = await baseline(urls);
    const rows: RealPageRow[] = pages.map((p, i) => ({
      page: p.name, nodes: o[i].nodes, ours: o[i].row, baseline: b[i].row,
      ...(FRESH ? { fresh: { ours: o[i].fresh, baseline: b[i].fresh } } : {}),
    }));
    if (WARM) {
      log(`warm: ${RUNS} timed passes each after a scroll and a pause (the page index may answer)`);
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
    }
    if (FRESH) {
      log(`fresh: ${FRESH_RUNS} timed passes each on the page reloaded (never seen by the labeler), a forced GC before each`);
      const cell = (r: Fresh | { error: string }, split: boolean) => 'error' in r
        ? `ERROR ${r.error}`.slice(0, split ? 76 : 40).padEnd(split ? 76 : 40)
        : `${String(r.marks).padStart(5)}  ${fmt(r.endToEnd)}  ${fmt(r.inPage)}${split ? `  ${fmt(r.label ?? null)}  ${fmt(r.screen ?? null)}` : ''}`;
      log(`                         | ours: marks  end-to-end     in page       (label          screen)        | baseline: marks  end-to-end     in page`);
      log('page              nodes  |');
      for (const r of rows) if (r.fresh) log(`${r.page.padEnd(16)} ${String(r.nodes).padStart(6)}   |  ${cell(r.fresh.ours, true)}  |  ${cell(r.fresh.baseline, false)}`);
      log('ours: how the fresh passes found their candidates, and the label time of the walk on the same pages (the quick pass off):');
      for (const r of rows) if (r.fresh && !('error' in r.fresh.ours)) log(`  ${r.page.padEnd(16)} ${r.fresh.ours.passes ?? '-'}; walk label ${fmt(r.fresh.ours.walkLabel ?? null)}`);
    }
    return { date: new Date().toISOString(), runs: RUNS, freshRuns: FRESH_RUNS, mode: MODE, viewport: { width: 1280, height: 800 }, pages: rows };
  } finally {
    await docs.close();
  }
}

function fmt(t: Timing | null): string {
  return t ? `${t.median.toFixed(1).padStart(6)} /${t.p95.toFixed(1).padStart(6)}` : '     -        ';
}
