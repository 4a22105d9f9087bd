/**
 * A request's image parts filled in (core/dialects/request.ts): the current screenshot as taken,
 * an earlier step's as kept (loaded from the database after a worker restart) and scaled as the
 * dialect asks (GLM PC: 50 % × 50 %). OffscreenCanvas works in the service worker.
 */
import { bytesToDataUrl, dataUrlToBytes } from '../core/export/data-url';
import { JPEG_QUALITY } from '../core/history';
import type { ImagePart } from '../core/dialects/request';
import type { RunState } from '../core/run';
import { loadShot } from './run-store';

/** A data URL scaled by `scale` as a JPEG ('' when it cannot be read). */
export async function scaled(dataUrl: string, scale: number): Promise<string> {
  const img = dataUrlToBytes(dataUrl);
  if (!img) return '';
  const bitmap = await createImageBitmap(new Blob([img.bytes as Uint8Array<ArrayBuffer>], { type: img.mime }));
  const w = Math.max(1, Math.round(bitmap.width * scale));
  const h = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(w, h);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, w, h);
  bitmap.close();
  const out = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY / 100 });
  return bytesToDataUrl('image/jpeg', new Uint8Array(await out.arrayBuffer()));
}

/** Every image part of a request as a data URL, in order (by the part's position). */
export async function imagesFor(state: RunState, parts: ImagePart[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of parts) {
    if (p.of === 'current') {
      out.push(state.pending?.screenshot ?? '');
      continue;
    }
    const step = state.steps.find((s) => s.index === p.of);
    const shot = step?.screenshot || (await loadShot(state.id, p.of, 'labelled')) || '';
    out.push(shot && p.scale !== 1 ? await scaled(shot, p.scale).catch(() => '') : shot);
  }
  return out;
}
