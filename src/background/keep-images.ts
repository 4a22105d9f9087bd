/**
 * A step's history images (core/trace/history.ts KEPT_IMAGE: the clean view and the labelled one) made
 * from its clean capture. Encoding them holds a thread for 50–150 ms each (WebP), and a service
 * worker's encode holds its only thread: the model's reply and the action would wait behind it. So
 * they are made in a worker of the offscreen document (src/offscreen/keep-worker.ts), here only
 * when that cannot be had (the service worker's own encoders then).
 */
import type { KeepImagesRequest } from '../core/messages';
import { KEEP_OFFSCREEN_MS, within } from '../core/deadline';
import { askOffscreen } from './offscreen';
import { makeKeptImages } from './draw-labels';

/** The step's history images, made off this thread when the offscreen document can be had (and answers in time). */
export async function keptImages(req: KeepImagesRequest): Promise<{ labelled: string; clean: string }> {
  try {
    return await within(askOffscreen('keep/images', req), KEEP_OFFSCREEN_MS);
  } catch {
    return makeKeptImages(req);
  }
}
