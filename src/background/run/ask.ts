/**
 * The 'ask' effect: the model request (streamed to the views), the opt-in picture check beside it,
 * the pictures on screen read by OCR since the observation (joined to the reply),
 * and the reply parsed once (parseModelReply) so an action at a point is probed before it is recorded -> 'replied'.
 */
import { parseModelReply, type Effect, type RunEvent } from '../../core/run';
import { isParseError } from '../../core/action/action';
import { imagePartsOf, toMessages } from '../../core/dialects/request';
import type { ImageScreen } from '../../core/image-screen';
import { imagesFor } from '../images';
import { screenPicture } from '../image-screen';
import type { PicturesRead } from '../../core/picture-text';
import { askModel } from '../model';
import type { Active } from './active';
import { startKeeping } from './commit';
import { probe } from './probe';
import { streamTo } from './stream';

/** The step's picture check when the person opted in (null: off, or no screenshot to check). */
async function screenStep(a: Active, signal: AbortSignal): Promise<ImageScreen | null> {
  const shot = a.state.pending?.screenshot;
  if (!a.settings.screenImages || !shot) return null;
  const screen = await screenPicture(a.settings, shot, a.lastScreen ?? null, signal);
  a.lastScreen = screen;
  return screen;
}

/** The step's pictures read (option readPictures), when they were read for the step in progress. */
async function picturesOf(a: Active): Promise<PicturesRead | null> {
  const job = a.pictures;
  if (!job || a.state.pending?.index !== job.index || a.state.pending.screenshot !== job.shot) return null;
  return job.read;
}

export async function askStep(a: Active, eff: Extract<Effect, { kind: 'ask' }>): Promise<RunEvent | null> {
  const request = new AbortController();
  a.request = request;
  try {
    const index = a.state.pending?.index ?? a.state.steps.length;
    const t = performance.now();
    const messages = toMessages(eff.request, await imagesFor(a.state, imagePartsOf(eff.request)));
    const encodeMs = Math.round(performance.now() - t);
    const settledAt = a.keep?.settledAt;
    // The history's images and the store write start once the request has left (not before it).
    const onSent = () => void startKeeping(a, settledAt === undefined ? undefined : { encodeMs, requestMs: Math.round(performance.now() - settledAt) });
    // The opt-in picture check (image-screen.ts), beside the request: it never throws.
    const screening = screenStep(a, request.signal);
    const r = await askModel(a.settings, messages, request.signal, { ...streamTo(a, index), onSent });
    const screen = await screening;
    // the pictures on screen, read by OCR since the observation: the action waits for them
    const pictures = await picturesOf(a);
    // Aborted by Stop or a take-over: that already changed the state; the reply is not used.
    if (request.signal.aborted) return null;
    if (!r.ok) return { type: 'fail', at: Date.now(), reason: r.error, cause: 'endpoint' };
    // The reply parsed once: what an action at a point (or into the focused field) would act on is
    // looked up before the reply is recorded, and the reducer takes the same parse from the event.
    const parsed = a.state.pending ? parseModelReply(a.state, r.content, r.reasoning) : undefined;
    const target = parsed && !isParseError(parsed) ? await probe(a.state, parsed.action) : null;
    return {
      type: 'replied', at: Date.now(), raw: r.content, reasoning: r.reasoning, usage: r.usage, ms: r.ms, firstTokenMs: r.firstTokenMs, truncated: r.truncated, target,
      ...(parsed ? { parsed } : {}), ...(screen ? { screen } : {}), ...(pictures ? { pictures } : {}),
    };
  } finally {
    if (a.request === request) a.request = null;
  }
}
