/**
 * The coordinate check (Settings → Check coordinates): draws the picture of core/calibrate.ts
 * (OffscreenCanvas works in the service worker), asks the model where its targets are, and says
 * which bounding-box convention its answers fit.
 */
import { bytesToDataUrl } from '../core/export/data-url';
import { CALIBRATION_SIZE, CALIBRATION_TARGETS, decide, type CalibrationResult } from '../core/calibrate';
import type { ChatMessage } from '../core/dialects/request';
import type { Settings } from '../core/settings';
import { askModel } from './model';
import { dialectOf } from '../core/dialects/registry';

/** The picture: white, each target a filled square with its letter in black beside it. */
export async function calibrationImage(): Promise<string> {
  const canvas = new OffscreenCanvas(CALIBRATION_SIZE.width, CALIBRATION_SIZE.height);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, CALIBRATION_SIZE.width, CALIBRATION_SIZE.height);
  ctx.font = 'bold 32px sans-serif';
  ctx.textBaseline = 'middle';
  for (const t of CALIBRATION_TARGETS) {
    const h = t.size / 2;
    ctx.fillStyle = t.colour;
    ctx.fillRect(t.x - h, t.y - h, t.size, t.size);
    ctx.fillStyle = '#000000';
    ctx.fillText(t.name, t.x + h + 10, t.y);
  }
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  return bytesToDataUrl('image/png', new Uint8Array(await blob.arrayBuffer()));
}

/**
 * Asks the model where the targets are, in its dialect's grammar (Dialect.coordinateCheck, the
 * conventions being its option's choices): the choice that puts every answer on its target fits.
 */
export async function calibrate(s: Settings): Promise<CalibrationResult> {
  const check = dialectOf(s.dialect).coordinateCheck;
  const option = check && dialectOf(s.dialect).options?.find((o) => o.name === check.option);
  if (!check || !option) throw new Error(`${s.dialect} has no coordinate check`);
  const messages: ChatMessage[] = [{ role: 'user', content: [
    { type: 'image_url', image_url: { url: await calibrationImage() } },
    { type: 'text', text: check.prompt(CALIBRATION_TARGETS) },
  ] }];
  const r = await askModel({ ...s, maxRetries: 0, stream: false }, messages, AbortSignal.timeout(s.requestTimeoutSec * 1000));
  if (!r.ok) throw new Error(r.error);
  const answers = check.read(r.content, CALIBRATION_TARGETS.map((t) => t.name));
  return decide(answers, r.content, CALIBRATION_TARGETS, option.choices.map((c) => ({ name: c, space: check.spaceOf(c) })), option.name);
}
