/**
 * Settling before an observation (content-scripts/settle.ts, pageReady; docs/labeling.md,
 * "Settling"), measured (numbers reported, never asserted):
 *   npx tsx test/bench/settle-bench.ts
 * 1. The labeling corpus's web-component pages (wc-*.html, their library served 1.5 s late):
 *    pageReady right after the load event, as an agent's first observation would call it: the
 *    whole wait, each part (components defined, then rendered with its quiet window), the tags
 *    given up (undefined at the cap, or still hidden when the wait for rendering stalled), and
 *    how many elements were still undefined at load; then pageReady again on the settled page
 *    (median of BENCH_SETTLE_RUNS): the cost with nothing pending on pages full of components.
 * 2. Heavy real documentation pages (real-pages.ts; skipped when not installed): the cost of
 *    the check when nothing is pending (median of BENCH_SETTLE_RUNS, default 10).
 * pageReady runs here in the page's own world (bundled with esbuild), not in the extension's
 * isolated world, where element access costs somewhat more.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import type { SettleReport } from '../../src/core/settle';
import { READY_CAP_MS } from '../../src/core/settle';
import { DOC, ensureDocs } from './debian-docs';
import { timing, type Timing } from './marks-bench';
import { plainSession, type Session } from './marks-browser';
import { listPages, serveCorpus } from './marks-corpus';
import { REAL_PAGES } from './real-pages';

const RUNS = Number(process.env.BENCH_SETTLE_RUNS ?? 10);
const ENTRY = path.resolve(import.meta.dirname, '..', '..', 'content-scripts', 'settle.ts');

declare global {
  interface Window { __settle: { pageReady(capMs: number): Promise<SettleReport> } }
}

async function bundle(): Promise<string> {
  const r = await build({ entryPoints: [ENTRY], bundle: true, format: 'iife', globalName: '__settle', write: false, target: 'chrome120', logLevel: 'silent' });
  return r.outputFiles[0].text;
}

/** A page at the load event, without waiting for its components (the harness's own open() would). */
async function opened(session: Session, url: string): Promise<Page> {
  const page = await session.open('about:blank', 1);
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

/** pageReady in the page, the script added once per page (what a document gave up is kept, as in the content script) */
async function ready(page: Page, code: string): Promise<SettleReport> {
  if (!(await page.evaluate(() => '__settle' in window))) await page.addScriptTag({ content: code });
  return page.evaluate((cap) => window.__settle.pageReady(cap), READY_CAP_MS);
}

export interface SettleRow { page: string; undefinedAtLoad: number; report: SettleReport; /** pageReady again once settled: the cost with nothing pending */ again: Timing | null }
export interface SettleCostRow { page: string; nodes: number; ms: Timing | null }

export async function settleBench(log: (s: string) => void = console.log): Promise<{ components: SettleRow[]; realPages: SettleCostRow[] }> {
  const code = await bundle();
  const corpus = await serveCorpus();
  const session = await plainSession();
  const components: SettleRow[] = [];
  const realPages: SettleCostRow[] = [];
  try {
    for (const p of listPages('wc-')) {
      const page = await opened(session, corpus.url(p.name));
      const undefinedAtLoad = await page.evaluate(() => document.querySelectorAll(':not(:defined)').length);
      const report = await ready(page, code);
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) ms.push((await ready(page, code)).ms);
      components.push({ page: p.name, undefinedAtLoad, report, again: timing(ms) });
      await session.done(page);
    }
    if (ensureDocs(REAL_PAGES, 'settle', log)) {
      for (const r of REAL_PAGES) {
        const page = await opened(session, pathToFileURL(path.join(DOC, r.file)).href);
        const nodes = await page.evaluate(() => document.querySelectorAll('*').length);
        const ms: number[] = [];
        for (let i = 0; i < RUNS; i++) ms.push((await ready(page, code)).ms);
        realPages.push({ page: r.name, nodes, ms: timing(ms) });
        await session.done(page);
      }
    }
  } finally {
    await session.close();
    await corpus.close();
  }
  log('\nSettling on web-component pages (pageReady right after load; ms)');
  log('page                         undefined@load  total  defined  rendered (quiet)  fonts  network  given up');
  for (const c of components) {
    const r = c.report;
    const rendered = `${r.rendered.ms} (${r.rendered.quietMs})`;
    const gaveUp = [...r.defined.pending, ...r.rendered.pending.map((t) => `${t} (hidden)`)].join(', ') || '-';
    log(`${c.page.padEnd(28)} ${String(c.undefinedAtLoad).padStart(14)} ${String(r.ms).padStart(6)} ${String(r.defined.ms).padStart(8)} ${rendered.padStart(16)} ${String(r.fonts.ms).padStart(6)} ${String(r.network.ms).padStart(8)}  ${gaveUp}`);
    if (r.rendered.waited.length) log(`${''.padEnd(28)} waited to render: ${r.rendered.waited.join(', ')}`);
  }
  log('\nSettling cost with nothing pending, the same pages once settled (what was given up is not waited for; median / p95 ms)');
  for (const c of components) log(`${c.page.padEnd(28)} ${c.again?.median ?? '-'} / ${c.again?.p95 ?? '-'}`);
  if (realPages.length) {
    log('\nSettling cost with nothing pending, heavy real pages (median / p95 ms)');
    for (const r of realPages) log(`${r.page.padEnd(20)} ${String(r.nodes).padStart(7)} elements  ${r.ms?.median ?? '-'} / ${r.ms?.p95 ?? '-'}`);
  }
  return { components, realPages };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await settleBench();
