/**
 * Runs one labeler over the corpus and scores it (used by `npm run bench` and the quality spec).
 *
 * Per page: 1. open it (fresh tab, 1280x800, the page's device pixel ratio); 2. measure the truth
 * (gold/decoy rects) before anything is drawn; 3. one labeling pass, scored (also the warm-up);
 * 4. `runs` more passes, timed in the page; 5. a PNG screenshot of the labelled viewport;
 * 6. clear and close. A page that fails is reported with its error and the run goes on.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { clearBaseline, labelBaseline } from './marks-baseline';
import type { Session } from './marks-browser';
import type { Corpus, CorpusPage } from './marks-corpus';
import type { Ours } from './marks-ours';
import { corpusProblems, scorePage, type LabelResult, type PageScore, type TruthItem } from './marks-score';
import { collectTruth } from './marks-truth';

export interface LabelerUnderTest {
  name: string;
  open(url: string, dpr: number): Promise<Page>;
  label(page: Page, withBoxes: boolean): Promise<LabelResult>;
  clear(page: Page): Promise<void>;
  done(page: Page): Promise<void>;
  /** 'css' = a CSS-pixel image (what our extension sends); 'device' = device pixels */
  screenshotScale: 'css' | 'device';
  /** which truth items this labeler can be held to (e.g. the harness cannot enter frames) */
  scope?: (t: TruthItem) => boolean;
}

export interface Timing { n: number; median: number; p95: number }
export interface Shot { bytes: number; width: number; height: number; glmTokens: number }

export interface PageRun {
  page: string;
  dpr: number;
  score: PageScore | null;
  /** gold/decoy items left out of this labeler's score (out of its scope) */
  outOfScope: number;
  corpusProblems: string[];
  timing: Timing | null;
  screenshot: Shot | null;
  error?: string;
}

export interface BenchOptions {
  corpus: Corpus;
  pages: CorpusPage[];
  /** timed passes after the scored one (0: none) */
  runs: number;
  screenshot: boolean;
  /** also save each labelled screenshot there as <labeler>-<page>.png */
  shotsDir?: string;
  log?: (line: string) => void;
}

export function timing(xs: number[]): Timing | null {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  const round = (x: number) => Math.round(x * 100) / 100;
  return { n: s.length, median: round(at(0.5)), p95: round(at(0.95)) };
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export const glmTokens = (w: number, h: number) => Math.ceil(w / 28) * Math.ceil(h / 28);

export async function benchLabeler(l: LabelerUnderTest, o: BenchOptions): Promise<PageRun[]> {
  const out: PageRun[] = [];
  for (const p of o.pages) {
    const run: PageRun = { page: p.name, dpr: p.dpr, score: null, outOfScope: 0, corpusProblems: [], timing: null, screenshot: null };
    let page: Page | null = null;
    try {
      page = await l.open(o.corpus.url(p.name), p.dpr);
      const all = await collectTruth(page);
      run.corpusProblems = corpusProblems(all);
      const truth = l.scope ? all.filter(l.scope) : all;
      run.outOfScope = all.length - truth.length;
      const first = await l.label(page, true);
      run.score = scorePage(truth, first);
      const ms: number[] = [];
      for (let i = 0; i < o.runs; i++) ms.push((await l.label(page, false)).ms);
      run.timing = timing(o.runs ? ms : [first.ms]);
      if (o.screenshot) {
        const png = await page.screenshot({ scale: l.screenshotScale });
        const { width, height } = pngSize(png);
        run.screenshot = { bytes: png.length, width, height, glmTokens: glmTokens(width, height) };
        if (o.shotsDir) writeFileSync(path.join(o.shotsDir, `${l.name}-${p.name.replace(/\.html$/, '')}.png`), png);
      }
      await l.clear(page);
    } catch (err) {
      run.error = err instanceof Error ? err.message.split('\n')[0] : String(err);
    } finally {
      if (page) await l.done(page).catch(() => undefined);
    }
    const s = run.score;
    o.log?.(`${l.name.padEnd(8)} ${p.name.padEnd(28)} ${run.error ? `ERROR ${run.error}` : `gold ${s!.found}/${s!.gold} decoys ${s!.decoysLabelled.length} text ${s!.textOk}/${s!.textChecked} overlaps ${s!.overlaps} gaps ${s!.gaps} ${run.timing?.median ?? '-'} ms`}`);
    out.push(run);
  }
  return out;
}

/** Ours under test: the harness path cannot enter frames or closed shadow roots, so those are out of its scope. */
export function oursUnderTest(ours: Ours): LabelerUnderTest {
  return {
    name: 'ours',
    open: (url, dpr) => ours.open(url, dpr),
    label: (page, withBoxes) => ours.label(page, withBoxes),
    clear: (page) => ours.clear(page),
    done: (page) => ours.session.done(page),
    screenshotScale: 'css',
    ...(ours.mode === 'harness' ? { scope: (t: TruthItem) => !t.inFrame && !t.inClosedShadow } : {}),
  };
}

/** The baseline in a plain browser; screenshots in device pixels, as WebVoyager's Selenium takes them. */
export function baselineUnderTest(session: Session): LabelerUnderTest {
  return {
    name: 'baseline',
    open: (url, dpr) => session.open(url, dpr),
    label: (page) => labelBaseline(page),
    clear: (page) => clearBaseline(page),
    done: (page) => session.done(page),
    screenshotScale: 'device',
  };
}
