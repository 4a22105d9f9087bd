/**
 * The labeling bench's summary: per page and in total, ours next to the baseline
 * (bench-results.json's "labeling" section) and the printed tables.
 */
import { addScores, type PageScore } from './marks-score';
import type { PageRun, Shot, Timing } from './marks-bench';

export interface Side {
  /** gold elements labelled / gold elements */
  recall: number | null;
  gold: number;
  found: number;
  decoys: number;
  decoysLabelled: number;
  /** gold texts matched / gold texts checked */
  textAccuracy: number | null;
  overlaps: number;
  gaps: number;
  marks: number;
  timing: Timing | null;
  screenshot: Shot | null;
  outOfScope: number;
  missed: string[];
  decoyList: string[];
  textWrong: PageScore['textWrong'];
  error?: string;
}

export interface PageRow { page: string; dpr: number; ours: Side; baseline: Side; timeRatio: number | null; corpusProblems: string[] }

const ratio = (a: number, b: number) => (b ? a / b : null);

function side(r: PageRun | undefined): Side {
  const s = r?.score;
  return {
    recall: s ? ratio(s.found, s.gold) : null,
    gold: s?.gold ?? 0, found: s?.found ?? 0, decoys: s?.decoys ?? 0, decoysLabelled: s?.decoysLabelled.length ?? 0,
    textAccuracy: s ? ratio(s.textOk, s.textChecked) : null,
    overlaps: s?.overlaps ?? 0, gaps: s?.gaps ?? 0, marks: s?.marks ?? 0,
    timing: r?.timing ?? null, screenshot: r?.screenshot ?? null, outOfScope: r?.outOfScope ?? 0,
    missed: s?.missed ?? [], decoyList: s?.decoysLabelled ?? [], textWrong: s?.textWrong ?? [],
    ...(r?.error ? { error: r.error } : {}),
  };
}

export function pageRows(ours: PageRun[], baseline: PageRun[]): PageRow[] {
  return ours.map((o) => {
    const b = baseline.find((x) => x.page === o.page);
    const om = o.timing?.median, bm = b?.timing?.median;
    return {
      page: o.page, dpr: o.dpr, ours: side(o), baseline: side(b),
      timeRatio: om !== undefined && bm ? Math.round((om / bm) * 100) / 100 : null,
      corpusProblems: o.corpusProblems,
    };
  });
}

function medianOf(xs: number[]): number | null {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
}

export function totals(runs: PageRun[]) {
  const scored = runs.filter((r) => r.score).map((r) => ({ page: r.page, score: r.score! }));
  const t = addScores(scored);
  const medians = runs.map((r) => r.timing?.median ?? NaN);
  return {
    pages: runs.length,
    failedPages: runs.filter((r) => r.error).map((r) => `${r.page}: ${r.error}`),
    gold: t.gold, found: t.found, recall: ratio(t.found, t.gold),
    decoys: t.decoys, decoysLabelled: t.decoysLabelled.length,
    textChecked: t.textChecked, textOk: t.textOk, textAccuracy: ratio(t.textOk, t.textChecked),
    overlaps: t.overlaps, gaps: t.gaps, marks: t.marks,
    medianOfPageMedianMs: medianOf(medians),
    sumOfPageMedianMs: Math.round(medians.filter(Number.isFinite).reduce((a, b) => a + b, 0) * 100) / 100,
    screenshotBytes: runs.reduce((a, r) => a + (r.screenshot?.bytes ?? 0), 0),
    glmTokens: runs.reduce((a, r) => a + (r.screenshot?.glmTokens ?? 0), 0),
    missed: t.missed, decoyList: t.decoysLabelled, textWrong: t.textWrong,
  };
}

const pct = (x: number | null) => (x === null ? '   -  ' : `${(x * 100).toFixed(1).padStart(5)}%`);
const num = (x: number | null | undefined, w = 6) => (x === null || x === undefined ? '-' : String(x)).padStart(w);
const pair = (a: string, b: string) => `${a} ${b}`;

export function printTables(rows: PageRow[], tOurs: ReturnType<typeof totals>, tBase: ReturnType<typeof totals>, oursMode: string, cost = true, log = console.log): void {
  log(`\nLabeling quality — ours (${oursMode}) | baseline (WebVoyager as described), 1280x800`);
  log(`${'page'.padEnd(30)} ${'gold'.padStart(4)}  ${'recall o | b'.padEnd(15)}  ${'decoys o|b'.padEnd(10)}  ${'text o | b'.padEnd(15)}  ${'overlap o|b'.padEnd(11)}  gaps o|b`);
  for (const r of rows) {
    const o = r.ours, b = r.baseline;
    const err = o.error || b.error ? `  ERROR ${o.error ?? ''} ${b.error ?? ''}` : '';
    log(`${r.page.padEnd(30)} ${num(b.gold || o.gold, 4)}  ${pair(pct(o.recall), pct(b.recall)).padEnd(15)}  ${pair(num(o.decoysLabelled, 4), num(b.decoysLabelled, 4)).padEnd(10)}  ${pair(pct(o.textAccuracy), pct(b.textAccuracy)).padEnd(15)}  ${pair(num(o.overlaps, 4), num(b.overlaps, 4)).padEnd(11)}  ${pair(num(o.gaps, 3), num(b.gaps, 3))}${err}`);
  }
  log(`${'TOTAL'.padEnd(30)} ${num(tBase.gold || tOurs.gold, 4)}  ${pair(pct(tOurs.recall), pct(tBase.recall)).padEnd(15)}  ${pair(num(tOurs.decoysLabelled, 4), num(tBase.decoysLabelled, 4)).padEnd(10)}  ${pair(pct(tOurs.textAccuracy), pct(tBase.textAccuracy)).padEnd(15)}  ${pair(num(tOurs.overlaps, 4), num(tBase.overlaps, 4)).padEnd(11)}  ${pair(num(tOurs.gaps, 3), num(tBase.gaps, 3))}`);

  if (cost) printCost(rows, tOurs, tBase, log);
  const problems = rows.flatMap((r) => r.corpusProblems.map((p) => `${r.page}: ${p}`));
  if (problems.length) log(`\nCorpus problems:\n  ${problems.join('\n  ')}`);
  const details = (name: string, t: ReturnType<typeof totals>) => {
    const lines = [...t.failedPages.map((x) => `page failed: ${x}`), ...t.missed.map((x) => `missed: ${x}`), ...t.decoyList.map((x) => `decoy labelled: ${x}`), ...t.textWrong.map((x) => `text: ${x.desc}: want "${x.want.slice(0, 80)}" got "${x.got.slice(0, 80)}"`)];
    if (lines.length) log(`\n${name} — what went wrong (${lines.length}):\n  ${lines.slice(0, 60).join('\n  ')}${lines.length > 60 ? `\n  … ${lines.length - 60} more in bench-results.json` : ''}`);
  };
  details(`ours (${oursMode})`, tOurs);
}

function printCost(rows: PageRow[], tOurs: ReturnType<typeof totals>, tBase: ReturnType<typeof totals>, log: (line: string) => void): void {
  log(`\nLabeling cost — one pass in the page (median, p95 ms), ratio ours/baseline, labelled screenshot (PNG KB, GLM tokens)`);
  log(`${'page'.padEnd(30)} ${'median o | b'.padEnd(17)} ${'p95 o | b'.padEnd(17)} ${'ratio'.padStart(6)}  ${'PNG KB o | b'.padEnd(13)} tokens o | b`);
  const kb = (s: Shot | null) => (s ? (s.bytes / 1024).toFixed(0) : '-').padStart(5);
  for (const r of rows) {
    const o = r.ours, b = r.baseline;
    log(`${r.page.padEnd(30)} ${pair(num(o.timing?.median, 8), num(b.timing?.median, 8))} ${pair(num(o.timing?.p95, 8), num(b.timing?.p95, 8))} ${num(r.timeRatio, 6)}  ${pair(kb(o.screenshot), kb(b.screenshot)).padEnd(13)} ${pair(num(o.screenshot?.glmTokens, 5), num(b.screenshot?.glmTokens, 5))}`);
  }
  const ratioAll = tBase.sumOfPageMedianMs ? Math.round((tOurs.sumOfPageMedianMs / tBase.sumOfPageMedianMs) * 100) / 100 : null;
  log(`${'TOTAL (sum of medians)'.padEnd(30)} ${pair(num(tOurs.sumOfPageMedianMs, 8), num(tBase.sumOfPageMedianMs, 8))} ${''.padEnd(17)} ${num(ratioAll, 6)}  ${pair(((tOurs.screenshotBytes / 1024).toFixed(0)).padStart(5), ((tBase.screenshotBytes / 1024).toFixed(0)).padStart(5)).padEnd(13)} ${pair(num(tOurs.glmTokens, 5), num(tBase.glmTokens, 5))}`);
}

