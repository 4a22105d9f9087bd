/**
 * The offscreen document's one job: read the words in pictures with Tesseract (tesseract.js), on
 * this machine: a control drawn as an image, for the guards (docs/guards.md), and the pictures on
 * screen at each step, for the injection screen (docs/labeling.md, "Words in pictures"). Every file it
 * needs ships in the extension (dist/ocr/: the worker, the WebAssembly core, the English trained
 * data, copied by vite.config.ts), so no picture and no request leaves the browser for this.
 * One Tesseract worker, made at the first request and kept while the document lives.
 */
import { createWorker, type Worker } from 'tesseract.js';
import type { OffscreenMessages } from '../core/messages';
import type { Rect } from '../core/marks';
import { readWithin } from '../core/picture-text';
import { sha256Hex } from '../core/secrets/encodings';

type Req = OffscreenMessages['ocr/read']['req'];
type Res = OffscreenMessages['ocr/read']['res'];
type PicturesReq = OffscreenMessages['ocr/pictures']['req'];
type PicturesRes = OffscreenMessages['ocr/pictures']['res'];

/** a line read with less confidence (0-100) than this is noise from a photo, not words */
const MIN_LINE_CONFIDENCE = 50;
/** crops up to this many pixels are read at twice their size (small words read better enlarged) */
const ENLARGE_UP_TO = 250_000;
/** pictures read in this document's life, by the SHA-256 of their pixels */
const known = new Map<string, string>();

let worker: Promise<Worker> | null = null;

function tesseract(): Promise<Worker> {
  worker ??= createWorker('eng', 1 /* LSTM only */, {
    workerPath: chrome.runtime.getURL('ocr/worker.min.js'),
    corePath: chrome.runtime.getURL('ocr/tesseract-core-simd-lstm.wasm.js'),
    langPath: chrome.runtime.getURL('ocr'),
    workerBlobURL: false,
    cacheMethod: 'none',
    gzip: true,
  }).catch((e: unknown) => {
    worker = null;
    throw e;
  });
  return worker;
}

async function read({ image }: Req): Promise<Res> {
  const w = await tesseract();
  const { data } = await w.recognize(image);
  return { text: data.text.replace(/\s+/g, ' ').trim(), confidence: Math.round(data.confidence) };
}

/**
 * A canvas's pixels as an uncompressed BMP file (32 bits a pixel, top-down rows), made at once:
 * the engine reads it as it reads a PNG. The browser's own encoders (convertToBlob, toBlob) and
 * FileReader answer at most about once a second in a hidden document such as this one: about 2 s
 * a picture, measured.
 */
function bmpOf(c: OffscreenCanvas): Uint8Array {
  const { width, height } = c;
  const px = c.getContext('2d', { willReadFrequently: true })!.getImageData(0, 0, width, height).data;
  const head = 14 + 40;
  const out = new Uint8Array(head + px.length);
  const v = new DataView(out.buffer);
  out[0] = 0x42; out[1] = 0x4d; // 'BM'
  v.setUint32(2, out.length, true);
  v.setUint32(10, head, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, width, true);
  v.setInt32(22, -height, true); // top-down
  v.setUint16(26, 1, true);
  v.setUint16(28, 32, true);
  v.setUint32(34, px.length, true);
  for (let i = 0, o = head; i < px.length; i += 4, o += 4) {
    out[o] = px[i + 2]; out[o + 1] = px[i + 1]; out[o + 2] = px[i]; out[o + 3] = 255; // BGRA
  }
  return out;
}

/** The lines read with confidence, joined (a photo's noise left out). */
async function linesOf(image: OffscreenCanvas): Promise<string> {
  const w = await tesseract();
  const { data } = await w.recognize(bmpOf(image) as unknown as Parameters<Worker['recognize']>[0], {}, { text: true, blocks: true });
  if (!data.blocks) return data.confidence >= MIN_LINE_CONFIDENCE ? data.text : '';
  const lines = data.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines));
  return lines.filter((l) => l.confidence >= MIN_LINE_CONFIDENCE).map((l) => l.text).join(' ').replace(/\s+/g, ' ').trim();
}

function pixelHash(c: OffscreenCanvas): Promise<string> {
  return sha256Hex(c.getContext('2d', { willReadFrequently: true })!.getImageData(0, 0, c.width, c.height).data);
}

/** The part `b` (image px) of the capture, as a canvas (null: an empty box). */
function cropOf(bitmap: ImageBitmap, b: Rect): OffscreenCanvas | null {
  const x = Math.max(0, Math.floor(b.x));
  const y = Math.max(0, Math.floor(b.y));
  const width = Math.min(bitmap.width - x, Math.ceil(b.width));
  const height = Math.min(bitmap.height - y, Math.ceil(b.height));
  if (width < 1 || height < 1) return null;
  const crop = new OffscreenCanvas(width, height);
  crop.getContext('2d')!.drawImage(bitmap, x, y, width, height, 0, 0, width, height);
  return crop;
}

/** A crop as Tesseract reads it best: twice its size when small. */
function enlarged(crop: OffscreenCanvas): OffscreenCanvas {
  if (crop.width * crop.height > ENLARGE_UP_TO) return crop;
  const page = new OffscreenCanvas(crop.width * 2, crop.height * 2);
  const ctx = page.getContext('2d')!;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(crop, 0, 0, page.width, page.height);
  return page;
}

/**
 * The words in each box of one capture (boxes in the image's pixels), in order
 * (core/picture-text.ts readWithin): pixels read before in this document's life are not read
 * again; once `budgetMs` has passed, no new read starts.
 */
async function readPictures({ image, boxes, budgetMs }: PicturesReq): Promise<PicturesRes> {
  const bitmap = await createImageBitmap(await (await fetch(image)).blob());
  try {
    const crops = boxes.map((b) => cropOf(bitmap, b));
    const reads = await readWithin(crops, {
      key: (c) => (c ? pixelHash(c) : Promise.resolve('')), read: (c) => (c ? linesOf(enlarged(c)) : Promise.resolve('')),
      known, budgetMs, now: () => performance.now(),
    });
    return { reads };
  } finally {
    bitmap.close();
  }
}

chrome.runtime.onMessage.addListener((msg: { type?: unknown; payload?: unknown }, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id) return undefined;
  const job = msg?.type === 'ocr/read' ? read(msg.payload as Req) : msg?.type === 'ocr/pictures' ? readPictures(msg.payload as PicturesReq) : null;
  if (!job) return undefined;
  job.then((value) => sendResponse({ ok: true, value }), (e: unknown) => sendResponse({ ok: false, error: e instanceof Error ? e.message : String(e) }));
  return true;
});
