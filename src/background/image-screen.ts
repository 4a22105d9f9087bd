/**
 * The opt-in picture check's request (core/image-screen.ts says what it asks and how the answer is
 * read). Made by the run loop beside the step's model request, so it adds no wait unless it takes
 * longer than the reply: the run's own endpoint, key and model (the model that reads the
 * screenshot anyway), the screenshot the model gets and the fixed question; no streaming, at most
 * one retry. The same picture as the last one checked in the run (SHA-256 of its bytes) is not
 * sent again: the last verdict stands. Never throws: a request that fails is a 'failed' check,
 * which the step records and the panel shows; the run goes on.
 */
import { IMAGE_SCREEN_PROMPT, reusable, screenFailed, screenFromReply, screenReused, type ImageScreen } from '../core/image-screen';
import type { Settings } from '../core/settings';
import type { ChatMessage } from '../core/dialects/request';
import { askModel } from './model';
import { sha256Hex } from '../core/secrets/encodings';

/** The replies to the check are one line: a reasoning model may think first, so room for that. */
const SCREEN_MAX_TOKENS = 1024;

/** SHA-256 (hex) of a data URL's bytes. */
export async function pictureHash(dataUrl: string): Promise<string> {
  const comma = dataUrl.indexOf(',');
  const b64 = comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const bin = atob(b64);
    bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  } catch {
    bytes = new Uint8Array(new TextEncoder().encode(dataUrl));
  }
  return sha256Hex(bytes);
}

/** The settings the check is asked with: the run's endpoint and model, a short reply, no stream, one retry. */
export function screenSettings(s: Settings): Settings {
  return { ...s, stream: false, maxTokens: Math.min(s.maxTokens, SCREEN_MAX_TOKENS), maxRetries: Math.min(s.maxRetries, 1) };
}

/**
 * Checks the screenshot (a data URL as the model gets it), or reuses `last` when it was the same
 * picture. `signal`: the step's request's (Stop and take-over abort both).
 */
export async function screenPicture(s: Settings, screenshot: string, last: ImageScreen | null, signal: AbortSignal): Promise<ImageScreen> {
  const started = Date.now();
  let hash = '';
  try {
    hash = await pictureHash(screenshot);
    if (last && last.hash === hash && reusable(last)) return screenReused(last);
    const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'image_url', image_url: { url: screenshot } }, { type: 'text', text: IMAGE_SCREEN_PROMPT }] }];
    const r = await askModel(screenSettings(s), messages, signal);
    if (!r.ok) return screenFailed(hash, r.error, Date.now() - started);
    return screenFromReply(hash, r.content, r.reasoning, r.usage, r.ms);
  } catch (err) {
    return screenFailed(hash, err instanceof Error ? err.message : String(err), Date.now() - started);
  }
}
