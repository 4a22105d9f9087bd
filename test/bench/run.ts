/**
 * npm run bench, fifteen parts (numbers are reported, never asserted):
 *
 * 1. End-to-end ("endToEnd" in bench-results.json): step timings of the built
 *    extension on the demo site with the scripted demo model (so the model's own
 *    time is ~0 and what is measured is ours): observe (label + screenshot), act
 *    (incl. settle), and the screenshot's size in bytes and in GLM image tokens
 *    (one per 28x28 px). BENCH_RUNS runs (default 3).
 * 2. Labeling ("labeling"): ours and the WebVoyager baseline on the labeling
 *    corpus (test/fixtures/pages/marks/), side by side: recall, decoys labelled,
 *    text accuracy, label overlaps, numbering gaps, one pass's median/p95 time
 *    (BENCH_LABEL_RUNS timed passes after a warm-up, default 20), the labelled
 *    screenshot's size. BENCH_PAGES=a,b picks pages by name; OURS=harness|extension
 *    picks our path (default: the extension once it is built with marks/label).
 *
 * 3. Exports ("export"): sizes of the JSON trace, HTML report and zip of a synthetic 100-step run
 *    with real screenshots (export-bench.ts), and ("exportReal") of a real 100-step run of the
 *    built extension on Debian's documentation pages (export-real.ts, about 5 minutes);
 *    BENCH_EXPORT_DIR=dir keeps the files.
 *
 * 4. Background ("background"): step times of a run scrolling a long documentation page with its
 *    tab in front and behind another, side by side, in headed Chromium started as a person's
 *    (background-bench.ts; Xvfb, or $DISPLAY). BENCH_BACKGROUND_RUNS runs of each (default 2).
 *
 * 5. Parsing ("parse"): per dialect, the worst parseReply / parseAction time for 100 kB and 1 MB
 *    hostile replies and their ratio (~10x is linear), and base64Decode of 20 MB (parse-bench.ts).
 *
 * 6. Real pages ("realPages"): labeling passes on heavy real documentation pages installed from
 *    Debian's packages (Node.js API, PostgreSQL manual), end to end and in the page, ours beside the
 *    baseline, with each page's node count (real-pages.ts). Two modes (BENCH_REAL_MODE=warm|fresh|both,
 *    default both): warm, BENCH_REAL_RUNS passes (default 15) on one page after scrolls and pauses, where
 *    our page index may answer; fresh ("fresh" in each row), BENCH_REAL_FRESH_RUNS passes (default 10),
 *    each on the page reloaded (never seen by the labeler: no page index, no kept text screen) with a
 *    forced GC (CDP HeapProfiler.collectGarbage) before it, ours' in-page time split into the labeling
 *    pass and the page text screen. Median and p95. BENCH_REAL_PAGES=a,b picks pages by name.
 *
 * 7. Heap ("heap"): detached DOM nodes still reachable after 10 and BENCH_HEAP_STEPS (default 50)
 *    labeling steps on a changing page, and after the run's end (heap-bench.ts).
 *
 * 8. Settling ("settle"): the wait before an observation on the corpus's web-component pages (their
 *    library served late) and its cost on the heavy real pages when nothing is pending (settle-bench.ts).
 *
 * 9. Observe ("observe"): the observe step's stages (settle wait apart, label, capture, request out)
 *    of the built extension through the runner on the same real pages, median and p95 per page
 *    (observe-bench.ts), a bare capture of each page in the same run and each stage beside its
 *    budget (a share of that capture: observe in all 1.3x). BENCH_OBSERVE_STEPS steps a page (default 16).
 *
 * 10. Batch ("batch"): tasks per minute of the local batch runner at concurrency 1, 2 and 4 on the
 *    recipe fixture site with a zero-latency fake model, and each task's overhead (browser start
 *    with a fresh profile, exports) beside it, and the core-seconds a task by process (cpu.ts) (batch-bench.ts).
 *
 * 11. Request hold ("hold"): page loads of the real pages and of a page sending 40 API requests with no
 *    run and in a run's tab with the request hold on, side by side (hold-bench.ts).
 *
 * 12. Picture check ("screen"): the demo task with Settings → "Check pictures for instructions aimed at
 *    the agent" off and on: step times, the check's time, requests and checks (screen-bench.ts).
 *
 * 13. Long run ("longRun"): 100 steps scrolling the PostgreSQL manual's index (about 35k DOM nodes)
 *    with a model that answers at once: per step observe, act, model, the rest and the model-side
 *    gap, the first 10 steps beside the last 10, each step's size in the trace, the worker's heap,
 *    the core-seconds a step by process (cpu.ts) and observe ÷ a bare capture of the page
 *    (long-run.ts). BENCH_LONG_STEPS steps (default 100).
 *
 * 14. Gate ("gate"): the time a step spends finding and judging its element on the names fixture: a
 *    button whose words are a picture (read by OCR, its first read apart), one drawn by a bidi
 *    override, one with plain words (gate-bench.ts).
 *
 * 15. Ordinary tasks ("ordinary"): false alarms with nobody approving: the bookshop's and the recipe
 *    site's ordinary tasks through the local batch, with the default guards and with the payment,
 *    delete and send rules off: finished, stopped by a guard, other ends (ordinary-bench.ts).
 *
 * 16. Words in pictures ("pictures"): what reading the pictures on screen by OCR costs a step, on
 *    real pages with screenshots in them (the Debian Administrator's Handbook) and on two without
 *    any, reading on and off (picture-bench.ts).
 *
 * BENCH_PART=e2e|labeling|export|export-real|background|parse|real|heap|settle|observe|batch|hold|screen|gate|pictures|ordinary|long runs one part only (export-real: the real run alone); BENCH_SHOTS=dir saves the labelled screenshots. Prints tables, writes bench-results.json (a part run alone replaces only its own results).
 */
import { Readable } from 'node:stream';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveDir } from '../../scripts/static-server';
import { runAgent } from '../../scripts/run-agent';
import { DEMO_TASK, startDemoModel } from '../../scripts/demo-model';
import type { Trace } from '../../src/core/trace';
import { backgroundBench } from './background-bench';
import { exportBench } from './export-bench';
import { exportRealBench } from './export-real';
import { settleBench } from './settle-bench';
import { observeBench } from './observe-bench';
import { holdBench } from './hold-bench';
import { batchBench } from './batch-bench';
import { screenBench } from './screen-bench';
import { gateBench } from './gate-bench';
import { pictureBench } from './picture-bench';
import { ordinaryBench } from './ordinary-bench';
import { parseBench } from './parse-bench';
import { realPagesBench } from './real-pages';
import { heapBench } from './heap-bench';
import { longRunBench } from './long-run';
import { baselineUnderTest, benchLabeler, oursUnderTest } from './marks-bench';
import { plainSession } from './marks-browser';
import { listPages, serveCorpus, VIEWPORT } from './marks-corpus';
import { startOurs } from './marks-ours';
import { pageRows, printTables, totals } from './marks-report';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LABEL_RUNS = Number(process.env.BENCH_LABEL_RUNS ?? 20);
const PART = process.env.BENCH_PART ?? 'all';

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, median: at(0.5), p95: at(0.95), max: s[s.length - 1] };
}

async function endToEnd() {
  const site = await serveDir(path.join(import.meta.dirname, '..', '..', 'scripts', 'demo-site'));
  const model = await startDemoModel();
  const dir = mkdtempSync(path.join(tmpdir(), 'webagent-bench-'));
  const observe: number[] = [], act: number[] = [], bytes: number[] = [], tokens: number[] = [], runMs: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const traceFile = path.join(dir, `run-${i}.json`);
      const r = await runAgent(null, { task: DEMO_TASK, url: site.url, config: { baseUrl: model.baseUrl, model: 'demo-scripted', apiKey: '' }, traceFile, width: 1280, height: 800, headed: false }, { out: () => undefined, err: () => undefined, input: Readable.from([]) });
      if (r.status !== 'finished') throw new Error(`bench run ${i} did not finish: ${r.stopReason}`);
      const t = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
      runMs.push(Date.parse(t.run.endedAt!) - Date.parse(t.run.startedAt));
      for (const s of t.steps) {
        observe.push(s.timings.observeMs);
        if (s.action.type !== 'answer') act.push(s.timings.actMs);
        bytes.push(s.request.imageBytes);
        tokens.push(Math.ceil(s.request.imageWidth / 28) * Math.ceil(s.request.imageHeight / 28));
      }
    }
  } finally {
    await model.close();
    await site.close();
  }
  const results = {
    date: new Date().toISOString(),
    runs: RUNS,
    task: DEMO_TASK,
    observeMs: stats(observe),
    actMs: stats(act),
    runMs: stats(runMs),
    screenshotBytes: stats(bytes),
    glmImageTokens: stats(tokens),
  };
  console.log('metric               n   median      p95      max');
  for (const [k, v] of Object.entries(results)) {
    if (typeof v === 'object' && v && 'median' in v) console.log(`${k.padEnd(18)} ${String(v.n).padStart(3)} ${String(v.median).padStart(8)} ${String(v.p95).padStart(8)} ${String(v.max).padStart(8)}`);
  }
  return results;
}

async function labeling() {
  const pages = listPages(process.env.BENCH_PAGES);
  const corpus = await serveCorpus();
  const log = (line: string) => console.log(line);
  const shotsDir = process.env.BENCH_SHOTS;
  if (shotsDir) mkdirSync(shotsDir, { recursive: true });
  try {
    const ours = await startOurs();
    console.log(`\nlabeling corpus: ${pages.length} pages, ours via ${ours.mode}, ${LABEL_RUNS} timed passes per page`);
    let oursRuns;
    try {
      oursRuns = await benchLabeler(oursUnderTest(ours), { corpus, pages, runs: LABEL_RUNS, screenshot: true, shotsDir, log });
    } finally {
      await ours.close();
    }
    const plain = await plainSession();
    let baseRuns;
    try {
      baseRuns = await benchLabeler(baselineUnderTest(plain), { corpus, pages, runs: LABEL_RUNS, screenshot: true, shotsDir, log });
    } finally {
      await plain.close();
    }
    const rows = pageRows(oursRuns, baseRuns);
    const tOurs = totals(oursRuns), tBase = totals(baseRuns);
    printTables(rows, tOurs, tBase, ours.mode);
    return { date: new Date().toISOString(), oursMode: ours.mode, runs: LABEL_RUNS, viewport: VIEWPORT, pages: rows, total: { ours: tOurs, baseline: tBase } };
  } finally {
    await corpus.close();
  }
}

async function main() {
  const out: Record<string, unknown> = {};
  if (PART === 'all' || PART === 'e2e') out.endToEnd = await endToEnd();
  if (PART === 'all' || PART === 'labeling') out.labeling = await labeling();
  if (PART === 'all' || PART === 'export') out.export = await exportBench();
  if (PART === 'all' || PART === 'export' || PART === 'export-real') out.exportReal = await exportRealBench();
  if (PART === 'all' || PART === 'background') out.background = await backgroundBench();
  if (PART === 'all' || PART === 'parse') out.parse = await parseBench();
  if (PART === 'all' || PART === 'real') out.realPages = await realPagesBench();
  if (PART === 'all' || PART === 'heap') out.heap = await heapBench();
  if (PART === 'all' || PART === 'settle') out.settle = await settleBench();
  if (PART === 'all' || PART === 'observe') out.observe = await observeBench();
  if (PART === 'all' || PART === 'batch') out.batch = await batchBench();
  if (PART === 'all' || PART === 'hold') out.hold = await holdBench();
  if (PART === 'all' || PART === 'screen') out.screen = await screenBench();
  if (PART === 'all' || PART === 'gate') out.gate = await gateBench();
  if (PART === 'all' || PART === 'pictures') out.pictures = await pictureBench();
  if (PART === 'all' || PART === 'ordinary') out.ordinary = await ordinaryBench();
  if (PART === 'all' || PART === 'long') out.longRun = await longRunBench();
  // one part run alone replaces its own results and keeps the others'
  let before: Record<string, unknown> = {};
  try {
    before = PART === 'all' ? {} : JSON.parse(readFileSync('bench-results.json', 'utf8')) as Record<string, unknown>;
  } catch {
    before = {};
  }
  writeFileSync('bench-results.json', JSON.stringify({ ...before, ...out }, null, 2));
  console.log('\nwrote bench-results.json');
}

main().catch((e) => { console.error(e); process.exit(1); });
