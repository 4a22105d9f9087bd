/**
 * Deadlines for what a page can keep from answering (docs/labeling.md, "Pages that do not
 * answer"): a frame whose script is stuck in a loop never answers a message or an injected call,
 * so every wait on a page has an end. Pure.
 */

/**
 * A frame (not the top page) that has not answered a labeling call by then is left out of the
 * pass, and said: more than a parent's wait for its iframes' ids (3 s, content-scripts/labeler/frames.ts)
 * and a heavy page's pass under load.
 */
export const FRAME_ANSWER_MS = 6000;
/** A frame that did not answer in time is not asked again for this long (each pass would wait for it again otherwise). */
export const SLOW_FRAME_MS = 30_000;
/** The top page, or a message to it, that has not answered by then: the run stops with that reason. */
export const CONTENT_ANSWER_MS = 20_000;
/**
 * A top page that has just not answered in time is given this long (not CONTENT_ANSWER_MS again)
 * by the next call, until it answers: a page whose script is stuck is not waited on twice in full.
 */
export const STUCK_AGAIN_MS = 8000;
/** A run's tab that has loaded this many frames in one document loads no more (background/frame-budget.ts): a page whose frames load more of themselves. */
export const FRAME_LOADS = 120;
/** At most this many frames of a tab are asked in one pass (the shallowest first); the rest are left out, and said. */
export const MAX_FRAMES = 60;

/**
 * A step's pictures (core/picture-text.ts) are read by OCR beside the model's request: no new read
 * starts after this long; the pictures left are said as not read, and read at the next step.
 * The engine's first start in a browser's life (its data loaded) is part of it.
 */
export const PICTURE_READ_MS = 10_000;
/** …and the step waits for the reads in progress at most this long after that. */
export const PICTURE_WAIT_MS = PICTURE_READ_MS + 8_000;

/**
 * A page that has not answered the run's first command by then when the run attaches is held by
 * something: a dialog it opened before the run could see it (the debugger is told only of dialogs
 * that open after it listens), or a script busy that long. It is loaded again
 * (background/dialogs.ts), which loses what the page held (a form half filled), so the wait is
 * long enough for a busy page to answer first.
 */
export const START_ANSWER_MS = 8000;

/** The page's picture (Page.captureScreenshot) not taken by then: the run stops with that reason (a page whose renderer is stuck draws no frame). */
export const CAPTURE_MS = 20_000;
/**
 * An action's input (the pointer, the keys, a whole text typed) not taken by the page by then:
 * the step fails with that reason, the action perhaps done in part, and the page is looked at again
 * (a page that still does not answer stops the run there). A text typed has 40 ms more a character.
 */
export const ACT_INPUT_MS = 10_000;
export const TYPE_CHAR_MS = 40;

/** The time an action's input has (ACT_INPUT_MS, and TYPE_CHAR_MS a character of the text it types). */
export function inputDeadline(action: { type: string; text?: unknown }): number {
  return ACT_INPUT_MS + (typeof action.text === 'string' ? action.text.length * TYPE_CHAR_MS : 0);
}

/**
 * A step's history images (background/keep-images.ts) not made by the offscreen document by then
 * are made by the service worker's own encoders; a step whose images are still not made after
 * KEEP_ALL_MS is recorded with the model's picture: a run never waits on its pictures for ever.
 */
export const KEEP_OFFSCREEN_MS = 10_000;
export const KEEP_ALL_MS = 20_000;

export class Late extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/** `p`, or a Late error after `ms` (the timer is cleared either way). */
export function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Late(ms)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** The frames to ask, shallowest first (by how many parents each has), at most `max`; and how many were left. */
export function framesToAsk<F extends { frameId: number; parentFrameId: number }>(frames: readonly F[], max = MAX_FRAMES): { ask: F[]; left: F[] } {
  const byId = new Map(frames.map((f) => [f.frameId, f]));
  const depth = (f: F) => {
    let d = 0;
    for (let p = byId.get(f.parentFrameId); p && d < frames.length; p = byId.get(p.parentFrameId)) d++;
    return d;
  };
  const sorted = frames.map((f) => ({ f, d: f.frameId === 0 ? -1 : depth(f) })).sort((a, b) => a.d - b.d || a.f.frameId - b.f.frameId).map((x) => x.f);
  return { ask: sorted.slice(0, max), left: sorted.slice(max) };
}
