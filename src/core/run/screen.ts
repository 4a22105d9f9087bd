/**
 * What was read in the step's pictures joined to the step in progress (reduce.ts, when the reply
 * comes in): the opt-in picture check through the model (image-screen.ts) and the pictures on
 * screen read by OCR (picture-text.ts). Each is kept on the step, and its findings are added to
 * the step's injection findings, after the page's own, so the action waits for the person. Pure.
 */
import { screenFindings, type ImageScreen } from '../image-screen';
import type { PicturesRead } from '../picture-text';
import type { PendingStep } from './state';

export function withScreen(p: PendingStep, screen: ImageScreen): PendingStep {
  const found = screenFindings(screen);
  const injection = [...(p.injection ?? []), ...found];
  return { ...p, imageScreen: screen, ...(injection.length ? { injection } : {}) };
}

export function withPictures(p: PendingStep, read: PicturesRead): PendingStep {
  const known = new Set((p.injection ?? []).map((h) => h.phrase));
  const found = read.findings.filter((h) => !known.has(h.phrase));
  const injection = [...(p.injection ?? []), ...found];
  return { ...p, pictureText: read.record, ...(injection.length ? { injection } : {}) };
}
