/**
 * The zip export: the trace with its screenshots as files, plus a WebVoyager run folder.
 *
 *   trace.json                        the trace; `screenshot` / `cleanScreenshot` name files below ('' stays '')
 *   webvoyager/interact_messages.json toInteractMessages(trace)
 *   webvoyager/screenshotN.png        the labelled screenshot of step N-1 (N = index + 1), a real PNG
 *   screenshots/clean-N.webp          the clean view of step N-1 (extension from its type; one file
 *                                     for a picture that several steps share)
 *
 * WebVoyager names its screenshots .png, so the labelled ones must be PNG files. Converting a JPEG
 * needs a canvas, so the caller passes the PNG bytes per step index (`pngs`); a labelled image
 * that already is PNG is used as it is. A labelled JPEG without a PNG in `pngs` is kept as
 * screenshots/labelled-N.jpg (and is missing from the WebVoyager folder).
 *
 * Images are stored (level 0: already compressed), JSON is deflated. Over the size budget
 * (fit.ts), clean views are left out, largest first. The zip function is passed
 * in (fflate's zipSync) because src/core imports no packages.
 */
import type { Trace } from '../trace';
import { dataUrlToBytes, extensionOf, isPng } from './data-url';
import { toInteractMessages } from './webvoyager';
import { dialectOf } from '../dialects/registry';
import { EXPORT_MAX_BYTES, largestFirst } from './fit';

export type ZipFiles = Record<string, [Uint8Array, { level: 0 | 6 }]>;
export type ZipFn = (files: ZipFiles) => Uint8Array;

const utf8 = (s: string) => new TextEncoder().encode(s);

/**
 * The files of the zip, by path, and how many steps' clean views were left out to keep it under
 * `max` bytes (fit.ts; the JSON counted uncompressed, so the estimate errs high). A clean view
 * that is the same picture as an earlier one is one file that both steps name.
 */
export function zipContents(trace: Trace, pngs: ReadonlyMap<number, Uint8Array> = new Map(), max = EXPORT_MAX_BYTES): { files: ZipFiles; cleanLeftOut: number } {
  const files: ZipFiles = {};
  // Every dialect keeps the WebVoyager folder today (messages and screenshots whatever the grammar).
  const wv = dialectOf(trace.run.dialect).exports.webvoyager;
  const cleanFiles = new Map<string, string>();
  let steps = trace.steps.map((s) => {
    const n = s.index + 1;
    let screenshot = '';
    const labelled = dataUrlToBytes(s.screenshot);
    const png = labelled ? pngs.get(s.index) ?? (isPng(labelled.bytes) ? labelled.bytes : null) : null;
    if (png) screenshot = wv ? `webvoyager/screenshot${n}.png` : `screenshots/labelled-${n}.png`;
    else if (labelled) screenshot = `screenshots/labelled-${n}.${extensionOf(labelled.mime)}`;
    if (screenshot) files[screenshot] = [png ?? labelled!.bytes, { level: 0 }];
    let cleanScreenshot = cleanFiles.get(s.cleanScreenshot) ?? '';
    const clean = cleanScreenshot ? null : dataUrlToBytes(s.cleanScreenshot);
    if (clean) {
      cleanScreenshot = `screenshots/clean-${n}.${extensionOf(clean.mime)}`;
      files[cleanScreenshot] = [clean.bytes, { level: 0 }];
      cleanFiles.set(s.cleanScreenshot, cleanScreenshot);
    }
    return { ...s, screenshot, cleanScreenshot };
  });
  const messages = wv ? JSON.stringify(toInteractMessages(trace), null, 2) : '';
  const traceJson = () => JSON.stringify({ ...trace, steps }, null, 2);
  const size = Object.values(files).reduce((a, [b]) => a + b.length, 0) + traceJson().length + messages.length;
  const drop = largestFirst([...cleanFiles.values()].map((name) => ({ key: name, size: files[name][0].length })), size - max);
  for (const name of drop) delete files[name];
  const cleanLeftOut = steps.filter((s) => drop.has(s.cleanScreenshot)).length;
  steps = steps.map((s) => (drop.has(s.cleanScreenshot) ? { ...s, cleanScreenshot: '' } : s));
  files['trace.json'] = [utf8(traceJson()), { level: 6 }];
  if (wv) files['webvoyager/interact_messages.json'] = [utf8(messages), { level: 6 }];
  return { files, cleanLeftOut };
}

/** The files of the zip, by path. */
export function zipFiles(trace: Trace, pngs: ReadonlyMap<number, Uint8Array> = new Map(), max = EXPORT_MAX_BYTES): ZipFiles {
  return zipContents(trace, pngs, max).files;
}

export function buildZip(trace: Trace, pngs: ReadonlyMap<number, Uint8Array>, zip: ZipFn): Uint8Array {
  return zip(zipFiles(trace, pngs));
}
