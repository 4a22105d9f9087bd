/**
 * Observe: wait for the page a person would see (settle.ts settlePage: loaded, custom elements
 * defined, fonts, network quiet; capped, reported as the observation's `settle`), then label the
 * page in all frames (content scripts) without drawing anything in it and, at the same time, take
 * one screenshot by CDP at CSS-pixel size: the clean picture, as the person sees the page. A
 * dialect whose model reads labels gets them drawn onto that picture in the worker
 * (draw-labels.ts) and encoded in its format (PNG, or JPEG); a dialect that acts at points gets the
 * capture as the browser encoded it. The history's two images (KEPT_IMAGE, WebP: the labelled view
 * and the clean one) are made from the same capture off this thread (keep-images.ts), while the
 * model thinks and the action runs (run/commit.ts startKeeping).
 */
import type { Observation } from '../core/run';
import { KEPT_IMAGE } from '../core/trace/history';
import * as cdp from './cdp';
import { CAPTURE_MS, Late, within } from '../core/deadline';
import { PageError } from './content';
import { labelsChanged, labelTab } from './label';
import { FRAME_MOVED, topFrameMarks } from '../core/frames';
import type { LabelStyle, MarksSnapshot, PictureBox } from '../core/marks';
import { settlePage } from './settle';
import type { Observes } from '../core/dialects/types';
import { docOrigin } from '../core/docs/matching';
import { docsForPage } from './doc-store';
import { decodeImage, drawLabels, encodeCanvas } from './draw-labels';
import { keptImages } from './keep-images';

const LOAD_CAP_MS = 15_000;
/** labeling + screenshot attempts while the page keeps scrolling or moving frames */
const SHOT_TRIES = 3;
const RETRY_PAUSE_MS = 150;

/** The model's screenshot format (a dialect's observes.image; absent: PNG). */
export type ShotFormat = { mime: 'image/jpeg'; quality: number } | undefined;

/**
 * What the capture is taken as when labels are drawn on it: PNG (lossless), so the page is
 * compressed once, after the labels are drawn, in the model's format.
 */
const LABELLED_CAPTURE: ShotFormat = undefined;

type Shot = Observation['screenshot'];

/** Each tab's viewport at its last labeling pass: the next capture starts with it, beside the pass. */
const lastViewport = new Map<number, MarksSnapshot['viewport']>();

const sameViewport = (a: MarksSnapshot['viewport'], b: MarksSnapshot['viewport']) =>
  a.width === b.width && a.height === b.height && a.devicePixelRatio === b.devicePixelRatio;

/** A capture (and, for a picture that gets labels drawn on it, its decode), with the time it took. */
interface Capture { shot: Shot; ms: number; bitmap: Promise<ImageBitmap> | null }

function capture(tabId: number, viewport: MarksSnapshot['viewport'], format: ShotFormat, labelled: boolean): Promise<Capture> {
  const t = performance.now();
  // a capture that gets labels drawn on it is decoded at once: encoded for speed (lossless all the same)
  return within(cdp.screenshot(tabId, viewport, format, { fast: labelled }), CAPTURE_MS).then((shot) => {
    const bitmap = labelled ? decodeImage(shot.dataUrl) : null;
    bitmap?.catch(() => undefined); // awaited where it is used
    return { shot, ms: performance.now() - t, bitmap };
  }, (err: unknown) => {
    if (err instanceof Late) throw new PageError(`The page's picture could not be taken within ${CAPTURE_MS / 1000} s (its page seems stuck or very busy), so the run stopped. Reload the page or try another one.`, { key: 'stopNoPicture', args: [CAPTURE_MS / 1000] });
    throw err;
  });
}

/** A capture not used: its decoded picture let go. */
function drop(c: Promise<Capture> | Capture | null): void {
  void Promise.resolve(c).then((x) => x?.bitmap?.then((b) => b.close()), () => undefined).catch(() => undefined);
}

/**
 * Label and screenshot at once, then check that the labels are still where the pass put them: a
 * page that scrolls, or moves or resizes an iframe, during the pass or the capture would give the
 * model a list that does not match its picture. Then label and shoot again. A page that keeps
 * moving its iframes only (an animated banner, a carousel) while its own document holds still
 * goes on without the frames' labels; any other page that keeps doing it ends the run with a
 * message rather than mislead the model.
 *
 * The capture (and its decode) starts with the pass, at the tab's viewport of the last pass: the
 * page renders in its own process while the content scripts label it. A viewport that changed
 * since (a resize, another device pixel ratio) is captured again once the pass has said so. The
 * labeling pass draws nothing in the page, so both see the same page; labelsChanged, asked after
 * both, is the check that nothing moved while they ran.
 */
async function labelledShot(tabId: number, format: ShotFormat, labelled: boolean) {
  let why = '';
  const ms = { labelMs: 0, captureMs: 0 };
  let last: { snap: MarksSnapshot; shot: Capture; changes: Array<{ frameId: number; why: string }> } | null = null;
  for (let i = 0; i < SHOT_TRIES; i++) {
    const known = lastViewport.get(tabId);
    const early = known ? capture(tabId, known, format, labelled) : null;
    early?.catch(() => undefined); // awaited below, or dropped
    let t = performance.now();
    let snap: MarksSnapshot;
    try {
      snap = await labelTab(tabId, false);
    } catch (err) {
      drop(early);
      throw err;
    }
    ms.labelMs += performance.now() - t;
    lastViewport.set(tabId, snap.viewport);
    let shot: Capture;
    if (early && known && sameViewport(known, snap.viewport)) {
      shot = await early;
    } else {
      drop(early);
      shot = await capture(tabId, snap.viewport, format, labelled);
    }
    ms.captureMs += shot.ms;
    if (last) drop(last.shot);
    t = performance.now();
    const changes = await labelsChanged(tabId).catch(() => []);
    ms.labelMs += performance.now() - t;
    if (!changes.length) return { snap, shot, ms };
    why = changes[0].why;
    last = { snap, shot, changes };
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * (i + 1))); // a transition may be ending
  }
  // Only frames moved (or scrolled inside): the top document's own marks are right where they are
  // in the last picture.
  const framesOnly = (c: { frameId: number; why: string }) => c.why === FRAME_MOVED || (c.frameId !== 0 && c.why === 'the page scrolled');
  if (last && last.changes.every(framesOnly)) return { snap: { ...last.snap, marks: topFrameMarks(last.snap.marks), pictures: last.snap.pictures?.filter((p) => !p.frame) }, shot: last.shot, ms };
  drop(last?.shot ?? null);
  why = last?.changes.find((c) => !framesOnly(c))?.why ?? why;
  throw new PageError(`The page kept changing under the labels while its screenshot was taken (${why}).`, { key: 'stopLabelsChanged', args: [why] });
}

/**
 * The model's picture: the capture with the labels drawn on it, in the model's format. The
 * decoded capture is let go at once: the history's images are made from the capture elsewhere
 * (keep-images.ts).
 */
async function labelPicture(shot: Capture, snap: MarksSnapshot, format: ShotFormat, style: LabelStyle): Promise<Shot> {
  const clean = await (shot.bitmap ?? decodeImage(shot.shot.dataUrl));
  try {
    const labelled = drawLabels(clean, snap.marks, snap.viewport, style);
    const encoded = format ? await encodeCanvas(labelled, format.mime, format.quality) : await encodeCanvas(labelled, 'image/png');
    return { ...encoded, width: labelled.width, height: labelled.height };
  } finally {
    clean.close();
  }
}

/** An observation, and the history's images still to make (after the request left, before the action). */
export interface Observed {
  obs: Observation;
  /** when the settle wait ended (performance.now()) */
  settledAt: number;
  /** the labelled view as kept and the clean one, both from the observation's one capture */
  keep: () => Promise<{ labelled: string; clean: string }>;
  /** the pictures on screen (top viewport CSS px) and the clean capture they are read from (ocr.ts readPictures) */
  pictures: { boxes: PictureBox[]; shot: Shot; cssWidth: number };
}

/**
 * What the dialect observes (its `observes`): `labels` false (dialects that act at points): the
 * page is still labelled (the trace's element list, replay's fingerprints, select lists), but no
 * labels are drawn: the model sees the page as the person does, and that one picture is also the
 * clean one. `image`: the screenshot's format; `labelStyle`: how labels are drawn; `docs`: the
 * learned documentation of the elements on screen as well.
 *
 * Only what the model needs is done before this returns; the history's images (`keep`) are made
 * by the run while the model thinks (run/commit.ts startKeeping).
 */
export async function observe(tabId: number, observes: Pick<Observes, 'labels' | 'image' | 'labelStyle' | 'docs'>): Promise<Observed> {
  const { labels, image: format, labelStyle: style = 'corner', docs = false } = observes;
  const t0 = performance.now();
  const settle = await settlePage(tabId, LOAD_CAP_MS);
  const settledAt = performance.now();
  const { snap, shot: captured, ms } = await labelledShot(tabId, labels ? LABELLED_CAPTURE : format, labels);
  const shot = captured.shot;
  const t = performance.now();
  const drawn = labels ? await labelPicture(captured, snap, format, style) : null;
  const drawMs = performance.now() - t;
  const stages = { settleMs: Math.round(settledAt - t0), labelMs: Math.round(ms.labelMs), ...(snap.screenMs !== undefined ? { screenMs: Math.round(snap.screenMs) } : {}), captureMs: Math.round(ms.captureMs + drawMs), ...(drawn ? { drawMs: Math.round(drawMs) } : {}), ...(snap.framesLeftOut ? { framesLeftOut: snap.framesLeftOut } : {}) };
  const obs: Observation = {
    url: snap.url, title: snap.title, viewport: snap.viewport, marks: snap.marks, frameOffsets: snap.frameOffsets,
    screenshot: drawn ?? shot, stages, settle,
    ...(snap.findings?.length ? { findings: snap.findings } : {}), ...(snap.values ? { values: snap.values } : {}),
  };
  // A dialect that reads learned documentation (observes.docs) gets the site's entries for the
  // elements on screen. A store that cannot be read costs the step its notes, not the run.
  const origin = docs ? docOrigin(snap.url) : null;
  const found = origin ? await docsForPage(origin, snap.marks).catch(() => []) : [];
  if (found.length) obs.docs = found;
  const keep = () => keptImages({
    image: shot.dataUrl, kept: KEPT_IMAGE,
    labels: labels ? { marks: snap.marks, viewport: snap.viewport, style } : null,
  }).catch(() => ({ labelled: '', clean: '' }));
  return { obs, settledAt, keep, pictures: { boxes: snap.pictures ?? [], shot, cssWidth: snap.viewport.width } };
}

/** What a page that navigated while it was being looked at makes the extension APIs say. */
const NAVIGATED = /frame with id \d+ was removed|receiving end does not exist|message port closed|no frame with id|frame (?:was )?removed|document was unloaded|execution context was destroyed|did not answer|back\/forward cache|is showing error page/i;
/** A page that keeps navigating this long by itself stops the run. */
const RESTLESS_MS = 12_000;
/** …counted as restless when it started loading this often in the last RESTLESS_WINDOW_MS */
const RESTLESS_LOADS = 4;
const RESTLESS_WINDOW_MS = 4_000;
const RESTLESS_PAUSE_MS = 250;

/**
 * observe, again when the page navigated under it (a page that reloads itself, a redirect chain):
 * as soon as the page holds still long enough to be looked at, the run goes on. A page that keeps
 * starting new loads for RESTLESS_MS (its loads counted from the tab's updates) stops the run with
 * that reason, never an "unexpected error" and never a wait without end: an observe that a page
 * navigating under it leaves unanswered is given up.
 */
export async function observeSteady(tabId: number, observes: Parameters<typeof observe>[1]): Promise<Observed> {
  const started = Date.now();
  const loads: number[] = [];
  const onUpdated = (id: number, info: { status?: string }) => { if (id === tabId && info.status === 'loading') loads.push(Date.now()); };
  chrome.tabs.onUpdated.addListener(onUpdated);
  const restless = () => {
    const now = Date.now();
    return now - started > RESTLESS_MS && loads.filter((t) => now - t < RESTLESS_WINDOW_MS).length >= RESTLESS_LOADS;
  };
  const giveUp = () => {
    const s = Math.round((Date.now() - started) / 1000);
    return new PageError(`The page kept reloading or navigating by itself (${loads.length} times in ${s} s), so it could not be looked at.`, { key: 'stopPageRestless', args: [loads.length, s] });
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    timer = setInterval(() => { if (restless()) reject(giveUp()); }, RESTLESS_PAUSE_MS);
  });
  try {
    for (;;) {
      try {
        return await Promise.race([observe(tabId, observes), watchdog]);
      } catch (err) {
        if (err instanceof PageError && err.person?.key === 'stopPageRestless') throw err;
        const person = err instanceof PageError ? err.person : undefined;
        const message = err instanceof Error ? err.message : String(err);
        if (person || !NAVIGATED.test(message)) throw err;
        if (restless()) throw giveUp();
        await new Promise((resolve) => setTimeout(resolve, RESTLESS_PAUSE_MS));
      }
    }
  } finally {
    clearInterval(timer);
    chrome.tabs.onUpdated.removeListener(onUpdated);
  }
}
