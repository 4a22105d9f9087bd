/**
 * Exports of a run, in the panel page (the history's buttons and the headless runner use it):
 * the trace JSON (docs/trace-format.md), the self-contained HTML report, and the zip with a WebVoyager
 * folder. The builders are pure (src/core/export); this adapter fetches the trace from the
 * background and does what needs the browser: decoding the labelled JPEGs to pixels for the
 * zip's PNGs (createImageBitmap + OffscreenCanvas).
 *
 * Safe to share: the background scrubs the API key from the trace; `secrets` scrubs more (the
 * runner passes the key it started the run with); the builders add nothing but the trace.
 */
import { zipSync, zlibSync } from 'fflate';
import type { Trace } from '../src/core/trace';
import { scrub } from '../src/core/trace';
import { base64Decode, base64Encode, dataUrlToBytes, isPng } from '../src/core/export/data-url';
import { buildHtmlReport } from '../src/core/export/html-report';
import { encodePalettePng } from '../src/core/export/png';
import { buildZip } from '../src/core/export/zip';
import { send } from './api';

export type ExportKind = 'json' | 'html' | 'zip';
export interface ExportOptions {
  /** leave every screenshot out */
  excludeScreenshots?: boolean;
  /** more strings to scrub from the trace before building (e.g. the runner's API key) */
  secrets?: string[];
}
/** text for json/html, base64 for the zip */
export type ExportResult = { fileName: string; mime: string } & ({ text: string } | { base64: string });

/** The labelled screenshots as PNG bytes, by step index (PNGs as they are, others converted). */
export async function labelledPngs(trace: Trace): Promise<Map<number, Uint8Array>> {
  const out = new Map<number, Uint8Array>();
  for (const s of trace.steps) {
    const img = dataUrlToBytes(s.screenshot);
    if (!img) continue;
    if (isPng(img.bytes)) { out.set(s.index, img.bytes); continue; }
    const bitmap = await createImageBitmap(new Blob([img.bytes as BlobPart], { type: img.mime }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('No 2D canvas to convert the screenshots to PNG.');
    ctx.drawImage(bitmap, 0, 0);
    bitmap.close();
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    out.set(s.index, encodePalettePng(data, canvas.width, canvas.height, (raw) => zlibSync(raw, { level: 9 })));
  }
  return out;
}

export async function exportRun(runId: string, kind: ExportKind, opts: ExportOptions = {}): Promise<ExportResult> {
  const fetched = await send('run/trace', { runId, excludeScreenshots: !!opts.excludeScreenshots });
  const trace = scrub(fetched, opts.secrets ?? []);
  const base = `webagent-${runId.replace(/[^\w.-]+/g, '_')}`;
  // Indented when it is text only; with screenshots (megabytes of base64) compact, to stay small.
  const indent = trace.steps.some((s) => s.screenshot || s.cleanScreenshot) ? undefined : 2;
  if (kind === 'json') return { fileName: `${base}.json`, mime: 'application/json', text: JSON.stringify(trace, null, indent) };
  if (kind === 'html') return { fileName: `${base}.html`, mime: 'text/html', text: buildHtmlReport(trace) };
  const zip = buildZip(trace, await labelledPngs(trace), zipSync);
  return { fileName: `${base}.zip`, mime: 'application/zip', base64: base64Encode(zip) };
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
