/**
 * The offscreen document's one job: read the words in a picture (a control drawn as an image,
 * for the guards: docs/guards.md) with Tesseract (tesseract.js), on this machine. Every file it
 * needs ships in the extension (dist/ocr/: the worker, the WebAssembly core, the English trained
 * data, copied by vite.config.ts), so no picture and no request leaves the browser for this.
 * One Tesseract worker, made at the first request and kept while the document lives.
 */
import { createWorker, type Worker } from 'tesseract.js';
import type { OffscreenMessages } from '../core/messages';

type Req = OffscreenMessages['ocr/read']['req'];
type Res = OffscreenMessages['ocr/read']['res'];

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

chrome.runtime.onMessage.addListener((msg: { type?: unknown; payload?: unknown }, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || msg?.type !== 'ocr/read') return undefined;
  read(msg.payload as Req).then((value) => sendResponse({ ok: true, value }), (e: unknown) => sendResponse({ ok: false, error: e instanceof Error ? e.message : String(e) }));
  return true;
});
