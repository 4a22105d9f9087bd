/** The offscreen document's side of the history images: each request handed to its worker (keep-worker.ts). */
import type { KeepImagesRequest, Reply } from '../core/messages';

type Answer = { id: number } & Reply<{ labelled: string; clean: string }>;

let worker: Worker | null = null;
let next = 0;
const waiting = new Map<number, (a: Answer) => void>();

function encoder(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./keep-worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (e: MessageEvent<Answer>) => {
    waiting.get(e.data.id)?.(e.data);
    waiting.delete(e.data.id);
  };
  worker.onerror = (e) => {
    // a worker that failed to start or crashed: every request waiting is answered with that
    for (const [id, done] of waiting) done({ id, ok: false, error: e.message || 'the image encoder stopped' });
    waiting.clear();
    worker = null;
  };
  return worker;
}

chrome.runtime.onMessage.addListener((msg: { type?: unknown; payload?: unknown }, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || msg?.type !== 'keep/images') return undefined;
  const id = ++next;
  waiting.set(id, ({ id: _id, ...reply }) => sendResponse(reply));
  encoder().postMessage({ id, req: msg.payload as KeepImagesRequest });
  return true;
});
