/**
 * Export sizes ("export" in bench-results.json): the JSON trace, the HTML report and the zip of a
 * synthetic 100-step run, against the budget (a 100-step run exports to <= 25 MB; past it the
 * exports leave clean views out, and this says how many).
 *
 * Realistic images: real 1280x800 screenshots of busy labeling-corpus pages, encoded as the history
 * keeps them (core/trace/history.ts KEPT_IMAGE, by Chromium's own encoder), labelled (our labeler drawn,
 * test harness) and clean, reused cyclically (reused pictures are not deduplicated here: each
 * step's copy differs by one byte, so reuse does not flatter the exports that store a picture once).
 * The real-page counterpart is export-real.ts. The labelled JPEGs become the zip's
 * PNGs as the panel does it: decoded on a canvas in Chromium, then the same palette encoder.
 * Prompts and replies are the glm-web dialect's real forms. Numbers are reported, never asserted.
 */
import { KEPT_IMAGE } from '../../src/core/trace/history';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync, zlibSync } from 'fflate';
import type { Page } from 'playwright-core';
import { getDialect } from '../../src/core/dialects/registry';
import { promptTextOf } from '../../src/core/dialects/request';
import type { HistoryEntry } from '../../src/core/dialects/types';
import type { Mark } from '../../src/core/marks';
import type { Trace, TraceStep } from '../../src/core/trace';
import { fitTrace } from '../../src/core/export/fit';
import { htmlReport } from '../../src/core/export/html-report';
import { encodePalettePng } from '../../src/core/export/png';
import { zipContents } from '../../src/core/export/zip';
import { injectLabeler } from '../e2e/inject';
import { plainSession } from './marks-browser';
import { serveCorpus } from './marks-corpus';

const PAGES = ['heavy-catalog.html', 'news-sticky-header.html', 'admin-table.html', 'search-results-long.html', 'product-grid-cards.html', 'forum-long-links.html', 'kanban-board.html', 'docs-tabs-accordion.html'];
const STEPS = 100;
/** 25 MB, read strictly (decimal megabytes) */
const BUDGET = 25_000_000;

interface Shot { labelled: string; clean: string; marks: Mark[]; url: string; title: string; png: Uint8Array }

/** In the page: a data URL's pixels as base64 RGBA (a string, so no helper names reach the page). */
const PIXELS = `async (url) => {
  const bm = await createImageBitmap(await (await fetch(url)).blob());
  const c = new OffscreenCanvas(bm.width, bm.height);
  const x = c.getContext('2d');
  x.drawImage(bm, 0, 0);
  const d = x.getImageData(0, 0, bm.width, bm.height).data;
  let s = '';
  for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000));
  return { width: bm.width, height: bm.height, rgba: btoa(s) };
}`;

/** In the page: a PNG (base64) encoded as the history keeps it, as a data URL. */
const KEEP = `async ([png, mime, quality]) => {
  const bm = await createImageBitmap(await (await fetch('data:image/png;base64,' + png)).blob());
  const c = new OffscreenCanvas(bm.width, bm.height);
  c.getContext('2d').drawImage(bm, 0, 0);
  const b = new Uint8Array(await (await c.convertToBlob({ type: mime, quality: quality / 100 })).arrayBuffer());
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode.apply(null, b.subarray(i, i + 0x8000));
  return 'data:' + mime + ';base64,' + btoa(s);
}`;

async function kept(page: Page): Promise<string> {
  const png = (await page.screenshot({ type: 'png' })).toString('base64');
  return await page.evaluate(`(${KEEP})(${JSON.stringify([png, KEPT_IMAGE.mime, KEPT_IMAGE.quality])})`) as string;
}

/** The same picture with two base64 digits near its end changed by `i`: a distinct copy of the same size (i < 4096). */
function distinct(url: string, i: number): string {
  const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const shift = (c: string, by: number) => ALPHA[(ALPHA.indexOf(c) + by) % 64];
  const at = url.length - 8;
  return url.slice(0, at) + shift(url[at], i % 64) + shift(url[at + 1], Math.floor(i / 64)) + url.slice(at + 2);
}

async function shoot(page: Page): Promise<Shot> {
  const snap = await page.evaluate('window.__labeler.drawMarks()') as { marks: Mark[] };
  const labelled = await kept(page);
  await page.evaluate('window.__labeler.resetMarks()');
  const clean = await kept(page);
  const px = await page.evaluate(`(${PIXELS})(${JSON.stringify(labelled)})`) as { width: number; height: number; rgba: string };
  const png = encodePalettePng(Buffer.from(px.rgba, 'base64'), px.width, px.height, (d) => zlibSync(d, { level: 9 }));
  return { labelled, clean, marks: snap.marks, url: page.url(), title: await page.title(), png };
}

function syntheticTrace(shots: Shot[]): Trace {
  const dialect = getDialect('glm-web');
  const task = 'Find the cheapest item with at least 4 stars and tell me its price and seller.';
  const history: HistoryEntry[] = [];
  const steps: TraceStep[] = [];
  for (let i = 0; i < STEPS; i++) {
    const shot = shots[i % shots.length];
    const last = i === STEPS - 1;
    const label = shot.marks[(i * 7) % Math.max(1, shot.marks.length)]?.label ?? 0;
    const thought = last ? 'The cheapest 4-star item is listed; I have the answer.' : `Step ${i + 1}: looking at "${shot.title}"; element [${label}] seems the way forward.`;
    const actionText = last ? 'ANSWER; <content>$12.99 from Acme Store</content>' : i % 4 === 3 ? 'Scroll [WINDOW]; [down]' : `Click [${label}]`;
    const memory = { visited: i + 1, candidates: [{ name: `item ${i % 9}`, price: `$${(10 + (i % 13)).toFixed(2)}` }] };
    const raw = `<think>${thought} I should check the filters and compare prices before answering.</think><answer>Thought: ${thought}\nAction: <|begin_of_box|>${actionText}<|end_of_box|>\nMemory_Updated: ${JSON.stringify(memory)}</answer>`;
    const promptText = promptTextOf(dialect.buildRequest({ task, site: 'https://shop.example/', now: new Date(0), history, memory, marks: shot.marks, shot: { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } }, apps: [] }));
    steps.push({
      index: i, url: shot.url, title: shot.title, viewport: { width: 1280, height: 800, devicePixelRatio: 1 },
      elements: shot.marks.map((m) => ({ label: m.label, tag: m.tag, text: m.text, rect: m.rect })),
      request: { promptText, imageBytes: shot.png.length, imageWidth: 1280, imageHeight: 800 },
      reply: { raw, reasoning: `${thought} I should check the filters and compare prices before answering.` },
      thought, action: last ? { type: 'answer', text: '$12.99 from Acme Store' } : i % 4 === 3 ? { type: 'scroll', target: { kind: 'window' }, direction: 'down' } as TraceStep['action'] : { type: 'click', target: { kind: 'label', label }, button: 'left', count: 1 } as TraceStep['action'],
      actionText, target: null, memory, approval: { decision: 'auto', feedback: null }, result: { ok: true }, observation: 'Success',
      timings: { observeMs: 420, modelMs: 5200, actMs: 800, totalMs: 6420 }, usage: { promptTokens: 2600, completionTokens: 180 },
      screenshot: distinct(shot.labelled, i), cleanScreenshot: distinct(shot.clean, i),
    });
    history.push({ index: i, hasScreenshot: true, thought, action: actionText, observation: 'Success' });
  }
  return {
    format: 'webagent-trace', version: 2,
    run: { id: 'bench-export', task, startUrl: 'https://shop.example/', dialect: 'glm-web', model: 'glm-4.5v', baseUrl: 'http://127.0.0.1:8000/v1', startedAt: new Date(0).toISOString(), endedAt: new Date(STEPS * 6420).toISOString(), status: 'finished', answer: '$12.99 from Acme Store', stopReason: null },
    steps,
  };
}

function sizes(trace: Trace, pngs: Map<number, Uint8Array>, dir?: string, suffix = '') {
  const t0 = performance.now();
  // as exportRun makes it (sidepanel/export.ts): compact when it carries screenshots
  // as exportRun makes them (sidepanel/export.ts): each kept under the budget (core/export/fit.ts)
  const fit = fitTrace(trace);
  const json = Buffer.from(JSON.stringify(fit.trace, null, trace.steps.some((s) => s.screenshot) ? undefined : 2));
  const t1 = performance.now();
  const report = htmlReport(trace);
  const html = Buffer.from(report.html);
  const t2 = performance.now();
  const zipped = zipContents(trace, pngs);
  const zip = zipSync(zipped.files);
  const t3 = performance.now();
  if (dir) {
    writeFileSync(path.join(dir, `trace${suffix}.json`), json);
    writeFileSync(path.join(dir, `report${suffix}.html`), html);
    writeFileSync(path.join(dir, `run${suffix}.zip`), zip);
  }
  return {
    jsonBytes: json.length, htmlBytes: html.length, zipBytes: zip.length,
    cleanViewsLeftOut: { json: fit.cleanLeftOut, html: report.cleanLeftOut, zip: zipped.cleanLeftOut },
    buildMs: { json: Math.round(t1 - t0), html: Math.round(t2 - t1), zip: Math.round(t3 - t2) },
  };
}

export async function exportBench() {
  const corpus = await serveCorpus();
  const session = await plainSession();
  const shots: Shot[] = [];
  try {
    for (const name of PAGES) {
      const page = await session.open(corpus.url(name), 1);
      await injectLabeler(page);
      shots.push(await shoot(page));
      await session.done(page);
    }
  } finally {
    await session.close();
    await corpus.close();
  }
  const trace = syntheticTrace(shots);
  const pngs = new Map(trace.steps.map((s) => [s.index, shots[s.index % shots.length].png]));
  const dir = process.env.BENCH_EXPORT_DIR;
  if (dir) mkdirSync(dir, { recursive: true });
  const full = sizes(trace, pngs, dir);
  const bare = sizes({ ...trace, steps: trace.steps.map((s) => ({ ...s, screenshot: '', cleanScreenshot: '' })) }, new Map(), dir, '-no-screenshots');
  const avg = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  const b64 = (u: string) => Math.round(((u.length - u.indexOf(',') - 1) * 3) / 4);
  const results = {
    date: new Date().toISOString(), steps: STEPS, pages: PAGES, budgetBytes: BUDGET,
    imageBytesAvg: { labelled: avg(shots.map((s) => b64(s.labelled))), clean: avg(shots.map((s) => b64(s.clean))), labelledPng: avg(shots.map((s) => s.png.length)), kept: KEPT_IMAGE },
    withScreenshots: { ...full, withinBudget: Math.max(full.jsonBytes, full.htmlBytes, full.zipBytes) <= BUDGET },
    excludeScreenshots: bare,
  };
  const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`.padStart(10);
  console.log(`\nexport sizes, synthetic ${STEPS}-step run (budget ${mb(BUDGET).trim()} each)`);
  console.log('                        json        html         zip');
  const left = Object.entries(full.cleanViewsLeftOut).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`with screenshots  ${mb(full.jsonBytes)}  ${mb(full.htmlBytes)}  ${mb(full.zipBytes)}${left ? `  (clean views left out: ${left})` : ''}`);
  console.log(`without           ${mb(bare.jsonBytes)}  ${mb(bare.htmlBytes)}  ${mb(bare.zipBytes)}`);
  console.log(`images (avg, ${KEPT_IMAGE.mime} q${KEPT_IMAGE.quality}): labelled ${results.imageBytesAvg.labelled} B, clean ${results.imageBytesAvg.clean} B, labelled PNG ${results.imageBytesAvg.labelledPng} B`);
  return results;
}
