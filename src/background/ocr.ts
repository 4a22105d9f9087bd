/**
 * The words in a picture, read on this machine (OCR): the background's side of the offscreen
 * document (src/offscreen/ocr.ts), which runs Tesseract from the extension's own files. Used by
 * the gate (gate.ts) for a control whose words are drawn in a picture: an image button, a
 * role=button div whose "Buy now" is a background image (wordsIn: a picture that cannot be read
 * in time gives no words; the second line, the request, still judges what the press sends); and
 * by the run for the pictures on screen at each step, screened for words aimed at the agent
 * (readPictures, core/picture-text.ts).
 */
import type { PictureBox, Rect } from '../core/marks';
import { pictureFindings, pictureRecord, picturesToRead, type PicturesRead } from '../core/picture-text';
import { PICTURE_READ_MS, PICTURE_WAIT_MS, within } from '../core/deadline';
import { capturePart } from './cdp';
import { askOffscreen } from './offscreen';

/** the first read loads the engine and its English data (about 7 MB): seconds on a busy machine */
const READ_TIMEOUT_MS = 15_000;
/** words read with less confidence (0-100) than this are noise from a photo, not a label */
const MIN_CONFIDENCE = 45;
/** the largest box read: a control, not a page */
const MAX_AREA = 600 * 300;

/** The words drawn in `box` of the tab's visible page ('' when there are none, or they cannot be read in time). */
export async function wordsIn(tabId: number, box: Rect): Promise<string> {
  if (box.width < 8 || box.height < 6 || box.width * box.height > MAX_AREA) return '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const image = await capturePart(tabId, box);
    const read = await Promise.race([askOffscreen('ocr/read', { image }), new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), READ_TIMEOUT_MS); })]);
    return read && read.confidence >= MIN_CONFIDENCE ? read.text : '';
  } catch {
    return '';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The words in the pictures on screen (`boxes`, CSS px of the top viewport), read from the step's
 * clean capture (`shot`, `cssWidth` CSS px wide): the largest first, a picture read before in the
 * run not read again, no new read started after PICTURE_READ_MS (said as not read). Never throws:
 * an engine that cannot be started gives a record with its reason and no findings.
 */
export async function readPictures(shot: { dataUrl: string; width: number }, cssWidth: number, boxes: readonly PictureBox[]): Promise<PicturesRead> {
  const started = performance.now();
  const { read, left } = picturesToRead(boxes);
  if (!read.length) return { record: pictureRecord([], left, 0), findings: [] };
  const scale = shot.width / Math.max(1, cssWidth);
  const px = read.map((b) => ({ x: b.rect.x * scale, y: b.rect.y * scale, width: b.rect.width * scale, height: b.rect.height * scale }));
  try {
    const { reads } = await within(askOffscreen('ocr/pictures', { image: shot.dataUrl, boxes: px, budgetMs: PICTURE_READ_MS }), PICTURE_WAIT_MS);
    return { record: pictureRecord(reads, left, performance.now() - started), findings: pictureFindings(read, reads) };
  } catch (err) {
    const record = pictureRecord(read.map(() => null), left, performance.now() - started);
    return { record: { ...record, error: err instanceof Error ? err.message : String(err) }, findings: [] };
  }
}
