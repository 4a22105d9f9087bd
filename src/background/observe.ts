/**
 * Observe: wait for the page a person would see (settle.ts settlePage: loaded, custom elements
 * defined, fonts, network quiet; capped, reported as the observation's `settle`), label the page
 * in all frames (content scripts), then screenshot it by CDP at CSS-pixel size: a PNG for the model, and for the history two images as KEPT_IMAGE says (WebP): the same
 * labelled view (converted, so it is exactly what the model saw) and a clean one with our overlay
 * and select lists hidden.
 */
import type { Observation } from '../core/run';
import { bytesToDataUrl, dataUrlToBytes } from '../core/export/data-url';
import { KEPT_IMAGE } from '../core/history';
import * as cdp from './cdp';
import { PageError, sendContent } from './content';
import { everyFrame, labelsChanged, labelTab } from './label';
import { settlePage } from './settle';

const LOAD_CAP_MS = 15_000;
/** labeling + screenshot attempts while the page keeps moving frames or touching the labels */
const SHOT_TRIES = 3;
const RETRY_PAUSE_MS = 150;

/** The PNG data URL as the history keeps it (KEPT_IMAGE; OffscreenCanvas: available in the service worker). */
async function toKept(pngDataUrl: string): Promise<string> {
  const png = dataUrlToBytes(pngDataUrl);
  if (!png) return '';
  const bitmap = await createImageBitmap(new Blob([png.bytes as Uint8Array<ArrayBuffer>], { type: png.mime }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  bitmap.close();
  const kept = await canvas.convertToBlob({ type: KEPT_IMAGE.mime, quality: KEPT_IMAGE.quality / 100 });
  return bytesToDataUrl(kept.type, new Uint8Array(await kept.arrayBuffer()));
}

/** The page as the person sees it: overlay and in-page select lists hidden for one capture. */
async function cleanShot(tabId: number, snap: { viewport: Observation['viewport']; marks: Observation['marks'] }): Promise<string> {
  await everyFrame(tabId, 'hideUi').catch(() => undefined);
  try {
    return (await cdp.screenshot(tabId, snap.viewport, KEPT_IMAGE)).dataUrl;
  } finally {
    await everyFrame(tabId, 'showUi').catch(() => undefined);
    await sendContent(tabId, 'marks/overlay', { marks: snap.marks }).catch(() => undefined);
  }
}

/**
 * Label, screenshot, then check that the labels are still where the pass put them: a page that
 * scrolls, moves or resizes an iframe, or removes, moves, restyles or covers our overlay between
 * the two would give the model a list that does not match its picture. Then label and shoot again;
 * a page that keeps doing it ends the run with a message rather than mislead the model.
 */
async function labelledShot(tabId: number, labels: boolean) {
  let why = '';
  for (let i = 0; i < SHOT_TRIES; i++) {
    const snap = await labelTab(tabId, labels);
    const shot = await cdp.screenshot(tabId, snap.viewport);
    const changed = await labelsChanged(tabId).catch(() => null);
    if (!changed) return { snap, shot };
    why = changed;
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * (i + 1))); // a transition may be ending
  }
  throw new PageError(`The page kept changing under the labels while its screenshot was taken (${why}).`, { key: 'stopLabelsChanged', args: [why] });
}

/**
 * `labels` false (dialects that act at points): the page is still labelled (the trace's element
 * list, replay's fingerprints, select lists), but no labels are drawn: the model sees the page
 * as the person does, and that one picture is also the clean one.
 */
export async function observe(tabId: number, labels = true): Promise<Observation> {
  const settle = await settlePage(tabId, LOAD_CAP_MS);
  const { snap, shot } = await labelledShot(tabId, labels);
  if (!labels) {
    const kept = await toKept(shot.dataUrl).catch(() => '');
    return {
      url: snap.url, title: snap.title, viewport: snap.viewport, marks: snap.marks, frameOffsets: snap.frameOffsets,
      screenshot: shot, kept: { labelled: kept, clean: kept }, settle,
    };
  }
  const labelled = await toKept(shot.dataUrl).catch(() => '');
  const clean = await cleanShot(tabId, snap).catch(() => '');
  return {
    url: snap.url, title: snap.title, viewport: snap.viewport, marks: snap.marks, frameOffsets: snap.frameOffsets,
    screenshot: shot, kept: { labelled, clean }, settle,
  };
}
