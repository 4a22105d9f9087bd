/**
 * A dedicated worker of the offscreen document: encodes a step's history images
 * (background/keep-images.ts), so neither the service worker's thread nor the document's holds
 * while they are made. The browser's encoders answer at full speed here, where in the hidden
 * document itself they may be held back (ocr.ts, bmpOf).
 */
import type { KeepImagesRequest } from '../core/messages';
import { makeKeptImages } from '../background/draw-labels';

self.onmessage = (e: MessageEvent<{ id: number; req: KeepImagesRequest }>) => {
  const { id, req } = e.data;
  makeKeptImages(req).then(
    (value) => postMessage({ id, ok: true, value }),
    (err: unknown) => postMessage({ id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
};
