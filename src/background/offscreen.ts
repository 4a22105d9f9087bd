/**
 * The extension's offscreen document (src/offscreen/): a page without a window, where work that
 * would hold the service worker's one thread runs instead: reading the words in pictures (OCR,
 * ocr.ts) and encoding the history's images (keep-images.ts). Made at the first request, closed
 * IDLE_CLOSE_MS after the last one (it holds the OCR engine's tens of MB).
 */
import type { OffscreenMessages, Reply } from '../core/messages';

const DOCUMENT = 'src/offscreen/ocr.html';
/** the document is closed this long after its last request */
const IDLE_CLOSE_MS = 60_000;

let creating: Promise<void> | null = null;
/** the document being closed: a request that comes meanwhile waits for it, then opens a new one */
let closing: Promise<void> | null = null;
let idle: ReturnType<typeof setTimeout> | undefined;
let busy = 0;

/** Close the offscreen document once nothing has been asked of it for IDLE_CLOSE_MS (a worker stopped before then leaves it to the next request's timer). */
function closeWhenIdle(): void {
  clearTimeout(idle);
  if (busy) return;
  idle = setTimeout(() => {
    if (busy) return;
    closing = chrome.offscreen.closeDocument().catch(() => undefined).finally(() => { closing = null; });
  }, IDLE_CLOSE_MS);
}

async function offscreenReady(): Promise<void> {
  // a document half closed would take the request and close under it
  while (closing) await closing;
  if (await chrome.offscreen.hasDocument()) return;
  creating ??= chrome.offscreen.createDocument({
    url: DOCUMENT,
    reasons: [chrome.offscreen.Reason.WORKERS],
    justification: 'Reads the words drawn in pictures of buttons and pages, and compresses the screenshots a run keeps, on this machine.',
  }).finally(() => { creating = null; });
  await creating;
}

/** One request to the offscreen document; throws its error, or when it does not answer. */
export async function askOffscreen<K extends keyof OffscreenMessages>(type: K, payload: OffscreenMessages[K]['req']): Promise<OffscreenMessages[K]['res']> {
  clearTimeout(idle);
  busy++;
  try {
    await offscreenReady();
    const reply = (await chrome.runtime.sendMessage({ type, payload })) as Reply<OffscreenMessages[K]['res']> | undefined;
    if (!reply?.ok) throw new Error(reply ? reply.error : 'no reply from the offscreen document');
    return reply.value;
  } finally {
    busy--;
    closeWhenIdle();
  }
}
