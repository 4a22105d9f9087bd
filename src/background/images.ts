/**
 * A request's image parts filled in (core/dialects/request.ts): the current screenshot as taken,
 * an earlier step's as kept (loaded from the database after a worker restart) and scaled as the
 * dialect asks (GLM PC: 50 % × 50 %). OffscreenCanvas works in the service worker.
 */
import { bytesToDataUrl, dataUrlToBytes } from '../core/export/data-url';
import { JPEG_QUALITY } from '../core/trace/history';
import type { ImagePart } from '../core/dialects/request';
import type { RunState } from '../core/run';
import { loadShot } from './run-store';
import { paddedSize } from '../core/action/bbox';
import { dialectOf } from '../core/dialects/registry';
import { optionValues } from '../core/dialects/options';

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

/**
 * A PNG data URL padded on the right and bottom to multiples of 28 (black), for models that point
 * in pixels of an image whose sides are such multiples (Qwen2.5-VL, as Midscene sends it): a pixel
 * of the padded image is the same pixel of the screenshot, so the mapping back is unchanged.
 */
export async function padded(dataUrl: string): Promise<string> {
  const img = dataUrlToBytes(dataUrl);
  if (!img) return '';
  const bitmap = await createImageBitmap(new Blob([img.bytes as Uint8Array<ArrayBuffer>], { type: img.mime }));
  const size = paddedSize(bitmap.width, bitmap.height);
  if (size.width === bitmap.width && size.height === bitmap.height) {
    bitmap.close();
    return dataUrl;
  }
  const canvas = new OffscreenCanvas(size.width, size.height);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, size.width, size.height);
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const out = await canvas.convertToBlob({ type: 'image/png' });
  return bytesToDataUrl('image/png', new Uint8Array(await out.arrayBuffer()));
}

/** Every image part of a request as a data URL, in order (by the part's position). */
export async function imagesFor(state: RunState, parts: ImagePart[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of parts) {
    if (p.of === 'current') {
      const shot = state.pending?.screenshot ?? '';
      const d = dialectOf(state.dialect);
      out.push(shot && d.padsScreenshot?.(optionValues(d, state.dialectOptions)) ? await padded(shot).catch(() => '') : shot);
      continue;
    }
    const step = state.steps.find((s) => s.index === p.of);
    const shot = step?.screenshot || (await loadShot(state.id, p.of, 'labelled')) || '';
    // kept as WebP (core/trace/history.ts): sent as a JPEG, which every OpenAI-compatible server reads
    const asKept = shot.startsWith('data:image/png') || shot.startsWith('data:image/jpeg');
    out.push(shot && (p.scale !== 1 || !asKept) ? await scaled(shot, p.scale).catch(() => '') : shot);
  }
  return out;
}
