/**
 * The words in a picture, read on this machine (OCR): the background's side of the offscreen
 * document (src/offscreen/ocr.ts), which runs Tesseract from the extension's own files. Used by
 * the gate (gate.ts) for a control whose words are drawn in a picture: an image button, a
 * role=button div whose "Buy now" is a background image. Never throws: a picture that cannot be
 * read in time gives no words (the second line, the request, still judges what the press sends).
 */
import type { OffscreenMessages, Reply } from '../core/messages';
import type { Rect } from '../core/marks';
import { capturePart } from './cdp';

const DOCUMENT = 'src/offscreen/ocr.html';
/** the first read loads the engine and its English data (about 7 MB): seconds on a busy machine */
const READ_TIMEOUT_MS = 15_000;
/** words read with less confidence (0-100) than this are noise from a photo, not a label */
const MIN_CONFIDENCE = 45;
/** the largest box read: a control, not a page */
const MAX_AREA = 600 * 300;
/** the engine holds tens of MB: the document is closed this long after its last read */
const IDLE_CLOSE_MS = 60_000;

let creating: Promise<void> | null = null;
let idle: ReturnType<typeof setTimeout> | undefined;

/** Close the offscreen document once nothing has been read for IDLE_CLOSE_MS (a worker stopped before then leaves it to the next read's timer). */
function closeWhenIdle(): void {
  clearTimeout(idle);
  idle = setTimeout(() => { void chrome.offscreen.closeDocument().catch(() => undefined); }, IDLE_CLOSE_MS);
}

async function offscreenReady(): Promise<void> {
  if (await chrome.offscreen.hasDocument()) return;
  creating ??= chrome.offscreen.createDocument({
    url: DOCUMENT,
    reasons: [chrome.offscreen.Reason.WORKERS],
    justification: 'Reads the words drawn in pictures of buttons, on this machine, before the agent presses them.',
  }).finally(() => { creating = null; });
  await creating;
}

async function ask(image: string): Promise<OffscreenMessages['ocr/read']['res']> {
  clearTimeout(idle);
  await offscreenReady();
  const reply = (await chrome.runtime.sendMessage({ type: 'ocr/read', payload: { image } })) as Reply<OffscreenMessages['ocr/read']['res']> | undefined;
  if (!reply?.ok) throw new Error(reply ? reply.error : 'no reply from the offscreen document');
  return reply.value;
}

/** The words drawn in `box` of the tab's visible page ('' when there are none, or they cannot be read in time). */
export async function wordsIn(tabId: number, box: Rect): Promise<string> {
  if (box.width < 8 || box.height < 6 || box.width * box.height > MAX_AREA) return '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const image = await capturePart(tabId, box);
    const read = await Promise.race([ask(image), new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), READ_TIMEOUT_MS); })]);
    return read && read.confidence >= MIN_CONFIDENCE ? read.text : '';
  } catch {
    return '';
  } finally {
    clearTimeout(timer);
    closeWhenIdle();
  }
}
