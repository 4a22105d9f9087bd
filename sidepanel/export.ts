/**
 * Exports of a run, in the panel page (the history's buttons and the headless runner use it):
 * the trace JSON (docs/trace-format.md), the self-contained HTML report, and the zip with a WebVoyager
 * folder, named site-date-task words (core/export/file-name.ts) and kept under 25 MB (fit.ts). The
 * builders are pure (src/core/export); this adapter fetches the trace from the background and
 * does what needs the browser: decoding the labelled screenshots (WebP; JPEG in older runs) to
 * pixels for the zip's PNGs (createImageBitmap + OffscreenCanvas), telling its progress.
 *
 * The report opens outside the extension, so its words are written into it at export, in the panel's
 * language (core/export/report-text.ts).
 *
 * Safe to share: the background scrubs the API key from the trace; `secrets` scrubs more (the
 * runner passes the key it started the run with); the builders add nothing but the trace.
 */
import { zipSync, zlibSync } from 'fflate';
import type { Trace } from '../src/core/trace';
import { scrub } from '../src/core/trace';
import { base64Decode, base64Encode, dataUrlToBytes, isPng } from '../src/core/export/data-url';
import { exportFileName } from '../src/core/export/file-name';
import { fitTrace } from '../src/core/export/fit';
import { playwrightScript, scriptFileName } from '../src/core/export/playwright';
import { htmlReport } from '../src/core/export/html-report';
import { encodePalettePng } from '../src/core/export/png';
import { reportText } from '../src/core/export/report-text';
import { zipContents } from '../src/core/export/zip';
import type { Locale } from '../src/core/i18n';
import { translatorFor } from '../src/core/locales';
import { send } from './api';
import { currentLocale, t } from './i18n';

export type ExportKind = 'json' | 'html' | 'zip' | 'playwright';
export interface ExportOptions {
  /** leave every screenshot out */
  excludeScreenshots?: boolean;
  /** more strings to scrub from the trace before building (e.g. the runner's API key) */
  secrets?: string[];
  /** how far it is (the zip converts every labelled screenshot to PNG, which takes a while) */
  onProgress?: (p: ExportProgress) => void;
  /** the HTML report's language: the panel's unless given (the runner asks for English) */
  locale?: Locale;
}
/** 'fetch': getting the run; 'images': `done` of `total` screenshots converted; 'pack': building the file */
export interface ExportProgress { stage: 'fetch' | 'images' | 'pack'; done: number; total: number }
/**
 * text for json/html, base64 for the zip. `fileName`: site-date-task words (file-name.ts);
 * `cleanLeftOut`: steps whose clean view was left out to stay under 25 MB (fit.ts).
 */
export type ExportResult = { fileName: string; mime: string; cleanLeftOut: number } & ({ text: string } | { base64: string });

/** Lets the page draw (a progress line) between two pieces of heavy work. */
const breathe = () => new Promise<void>((r) => { setTimeout(r, 0); });

/**
 * zlib level of the zip's PNGs: 6, not 9. On a 1280x800 documentation page level 9 took 106–168 ms
 * a screenshot for PNGs 0–10 % smaller than level 6's 26–55 ms; a batch exports every task's zip
 * on the same cores as the next task's run.
 */
const PNG_LEVEL = 6;

/** The labelled screenshots as PNG bytes, by step index (PNGs as they are, others converted). */
export async function labelledPngs(trace: Trace, onDone?: (done: number, total: number) => void): Promise<Map<number, Uint8Array>> {
  const out = new Map<number, Uint8Array>();
  const total = trace.steps.filter((s) => dataUrlToBytes(s.screenshot)).length;
  for (const s of trace.steps) {
    const img = dataUrlToBytes(s.screenshot);
    if (!img) continue;
    if (isPng(img.bytes)) { out.set(s.index, img.bytes); onDone?.(out.size, total); continue; }
    const bitmap = await createImageBitmap(new Blob([img.bytes as BlobPart], { type: img.mime }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error(t('exportNoCanvas'));
    ctx.drawImage(bitmap, 0, 0);
    bitmap.close();
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    out.set(s.index, encodePalettePng(data, canvas.width, canvas.height, (raw) => zlibSync(raw, { level: PNG_LEVEL })));
    onDone?.(out.size, total);
    await breathe();
  }
  return out;
}

/** Steps per message: one with its screenshots (megabytes each), more without. */
const STEPS_PER_PIECE = { withScreenshots: 1, textOnly: 10 };

/**
 * The run's trace, fetched from the background in pieces (run/trace-part) and put back together, so a
 * long run with big replies or screenshots never needs one message near Chrome's 64 MiB limit.
 */
export async function fetchTrace(runId: string, excludeScreenshots: boolean, onPiece?: (done: number, total: number) => void): Promise<Trace> {
  const count = excludeScreenshots ? STEPS_PER_PIECE.textOnly : STEPS_PER_PIECE.withScreenshots;
  const first = await send('run/trace-part', { runId, from: 0, count, excludeScreenshots });
  const steps = [...first.trace.steps];
  let run = first.trace.run;
  let total = first.stepCount;
  onPiece?.(Math.min(steps.length, total), total);
  while (steps.length < total) {
    const next = await send('run/trace-part', { runId, from: steps.length, count, excludeScreenshots });
    if (!next.trace.steps.length) break;
    steps.push(...next.trace.steps);
    run = next.trace.run;
    total = next.stepCount;
    onPiece?.(Math.min(steps.length, total), total);
  }
  // The run's own fields from the last piece: a live run may have ended meanwhile.
  return { ...first.trace, run, steps };
}

export async function exportRun(runId: string, kind: ExportKind, opts: ExportOptions = {}): Promise<ExportResult> {
  return (await exportRuns(runId, [kind], opts))[0];
}

/**
 * Several exports of one run from one read of it (the runner and the batch write the trace, the
 * report and the zip of every task: one fetch and one scrub of its screenshots instead of three).
 */
export async function exportRuns(runId: string, kinds: readonly ExportKind[], opts: ExportOptions = {}): Promise<ExportResult[]> {
  const progress = opts.onProgress ?? (() => undefined);
  progress({ stage: 'fetch', done: 0, total: 1 });
  const fetched = await fetchTrace(runId, !!opts.excludeScreenshots, (done, total) => progress({ stage: 'fetch', done, total }));
  const trace = scrub(fetched, opts.secrets ?? []);
  const out: ExportResult[] = [];
  for (const kind of kinds) out.push(await build(trace, kind, opts, progress));
  return out;
}

async function build(trace: Trace, kind: ExportKind, opts: ExportOptions, progress: (p: ExportProgress) => void): Promise<ExportResult> {
  const fileName = exportFileName({ startUrl: trace.run.startUrl, startedAt: Date.parse(trace.run.startedAt), task: trace.run.task }, kind);
  if (kind === 'json') {
    const fit = fitTrace(trace);
    return { fileName, mime: 'application/json', cleanLeftOut: fit.cleanLeftOut, text: traceJson(fit.trace) };
  }
  if (kind === 'playwright') {
    // docs/playwright-export.md: the actions and their targets' fingerprints, no screenshots
    return { fileName: scriptFileName(trace), mime: 'text/javascript', cleanLeftOut: 0, text: playwrightScript(trace) };
  }
  if (kind === 'html') {
    const text = reportText(translatorFor(opts.locale ?? currentLocale()));
    const { html, cleanLeftOut } = htmlReport(trace, { text });
    return { fileName, mime: 'text/html', cleanLeftOut, text: html };
  }
  const pngs = await labelledPngs(trace, (done, total) => progress({ stage: 'images', done, total }));
  progress({ stage: 'pack', done: 0, total: 1 });
  await breathe();
  const { files, cleanLeftOut } = zipContents(trace, pngs);
  return { fileName, mime: 'application/zip', cleanLeftOut, base64: base64Encode(zipSync(files)) };
}

/** The trace as JSON text: indented when it is text only; with screenshots (megabytes of base64) compact, to stay small. */
export function traceJson(trace: Trace): string {
  return JSON.stringify(trace, null, trace.steps.some((s) => s.screenshot || s.cleanScreenshot) ? undefined : 2);
}

/** Saves an export as a file through the browser's download (a blob URL and <a download>). */
export function download(result: ExportResult): void {
  const body = 'text' in result ? result.text : base64Decode(result.base64);
  const blob = new Blob([body as BlobPart], { type: result.mime });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = result.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
