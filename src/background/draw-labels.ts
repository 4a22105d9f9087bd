/**
 * The set-of-marks labels drawn onto the model's screenshot in the service worker (OffscreenCanvas),
 * never into the page: a page can neither see the labels nor move, hide or cover them. Placed and
 * coloured by src/core/label-layout.ts like the in-page overlay a person sees
 * (content-scripts/labeler/draw.ts), and drawn to look the same: a 2 px box in the label's colour
 * with a white line outside and a dark one inside; a tag in that colour with a black border and
 * white bold digits with a dark shadow. Boxes first, then tags.
 *
 * Marks are in CSS px of the viewport; the capture is at CSS-pixel size at any device pixel ratio
 * (cdp.screenshot), and smaller on a zoomed-out phone page: drawing is scaled by image size /
 * viewport size.
 */
import { bytesToDataUrl } from '../core/export/data-url';
import { layoutLabels } from '../core/label-layout';
import type { LabelStyle, Mark, Viewport } from '../core/marks';
import type { KeepImagesRequest } from '../core/messages';

type Ctx = OffscreenCanvasRenderingContext2D;

const FONT = "bold 12px Arial, 'Liberation Sans', Helvetica, sans-serif";

/** The engine's own base64 (Chrome 140+; absent before): several times faster than a fetch of the data URL or script. */
const native = Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array };

/**
 * A screenshot's data URL decoded: its base64 read by the engine (Uint8Array.fromBase64; before
 * Chrome 140, by a fetch of the data URL), then the image.
 */
export async function decodeImage(dataUrl: string): Promise<ImageBitmap> {
  const comma = dataUrl.indexOf(',');
  if (!dataUrl.startsWith('data:image/') || comma < 0) throw new Error('The screenshot could not be read.');
  if (native.fromBase64 && dataUrl.slice(comma - 7, comma) === ';base64') {
    const bytes = native.fromBase64(dataUrl.slice(comma + 1));
    return createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: dataUrl.slice(5, comma - 7) }));
  }
  return createImageBitmap(await (await fetch(dataUrl)).blob());
}

/** A canvas holding the picture `bitmap` with the marks' labels drawn on it. */
export function drawLabels(bitmap: ImageBitmap, marks: Mark[], viewport: Viewport, style: LabelStyle): OffscreenCanvas {
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(bitmap, 0, 0);
  ctx.setTransform(bitmap.width / (viewport.width || bitmap.width), 0, 0, bitmap.height / (viewport.height || bitmap.height), 0, 0);
  const drawn = layoutLabels(marks, viewport.width, viewport.height, style);
  for (const d of drawn) drawBox(ctx, d.box, d.colour);
  for (const d of drawn) drawTag(ctx, d.tag, d.colour, d.text);
  return canvas;
}

function drawBox(ctx: Ctx, r: { x: number; y: number; width: number; height: number }, colour: string): void {
  ctx.lineWidth = 1;
  ctx.strokeStyle = 'rgba(255,255,255,.95)';
  ctx.strokeRect(r.x - 0.5, r.y - 0.5, r.width + 1, r.height + 1);
  ctx.lineWidth = 2;
  ctx.strokeStyle = colour;
  ctx.strokeRect(r.x + 1, r.y + 1, Math.max(0, r.width - 2), Math.max(0, r.height - 2));
  if (r.width > 5 && r.height > 5) {
    ctx.lineWidth = 1;
    ctx.strokeStyle = 'rgba(0,0,0,.55)';
    ctx.strokeRect(r.x + 2.5, r.y + 2.5, r.width - 5, r.height - 5);
  }
}

function drawTag(ctx: Ctx, b: { x: number; y: number; w: number; h: number }, colour: string, text: string): void {
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.roundRect(b.x, b.y, b.w, b.h, 2);
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = '#000';
  ctx.beginPath();
  ctx.roundRect(b.x + 0.5, b.y + 0.5, b.w - 1, b.h - 1, 1.5);
  ctx.stroke();
  ctx.save();
  ctx.beginPath();
  ctx.rect(b.x + 1, b.y + 1, b.w - 2, b.h - 2);
  ctx.clip();
  ctx.font = FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#fff';
  ctx.shadowColor = '#000';
  const x = b.x + b.w / 2, y = b.y + b.h / 2 + 0.5;
  for (const blur of [2, 1]) {
    ctx.shadowBlur = blur;
    ctx.fillText(text, x, y);
  }
  ctx.restore();
}

/** The canvas encoded as `mime` (quality 0–100 for the lossy ones), as a data URL with its byte count. */
export async function encodeCanvas(canvas: OffscreenCanvas, mime: string, quality?: number): Promise<{ dataUrl: string; bytes: number }> {
  const blob = await canvas.convertToBlob(quality === undefined ? { type: mime } : { type: mime, quality: quality / 100 });
  const bytes = new Uint8Array(await blob.arrayBuffer());
  // the engine's base64 (Chrome 140+), else script's
  const toBase64 = (bytes as unknown as { toBase64?: () => string }).toBase64;
  return { dataUrl: toBase64 ? `data:${blob.type};base64,${toBase64.call(bytes)}` : bytesToDataUrl(blob.type, bytes), bytes: bytes.length };
}

/** A picture on a canvas of its own (to encode the clean capture apart from the labelled one). */
export function canvasOf(bitmap: ImageBitmap): OffscreenCanvas {
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  return canvas;
}

/**
 * A step's history images from its clean capture (keep-images.ts): the clean view and, when the
 * dialect draws labels, the labelled one, made on whatever thread calls it (the offscreen
 * document's worker, or the service worker when that cannot be had).
 */
export async function makeKeptImages(req: KeepImagesRequest): Promise<{ labelled: string; clean: string }> {
  const bitmap = await decodeImage(req.image);
  try {
    const clean = (await encodeCanvas(canvasOf(bitmap), req.kept.mime, req.kept.quality)).dataUrl;
    if (!req.labels) return { labelled: clean, clean };
    const labelled = drawLabels(bitmap, req.labels.marks, req.labels.viewport, req.labels.style);
    return { labelled: (await encodeCanvas(labelled, req.kept.mime, req.kept.quality)).dataUrl, clean };
  } finally {
    bitmap.close();
  }
}
