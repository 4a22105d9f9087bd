/**
 * Labeling across frames. Every frame's content script labels its own
 * document (cross-origin frames too); each frame has a random id that only our
 * content scripts know, and each parent learns its iframes' ids from our
 * content script in them, so the pieces can be put together (core/frames.ts).
 * We reach all frames with chrome.scripting.executeScript({allFrames}), which
 * runs in the content scripts' isolated world and returns each frame's result
 * with its frameId.
 *
 * 1. prepare: every frame makes a fresh id (frames without our content script
 *    get it injected first);
 * 2. collect: every frame labels itself (no drawing) and links its iframes;
 * 3. merge into one numbered list in top-page coordinates;
 * 4. for a person (Show labels, a demonstration), the top frame draws the
 *    merged overlay; a run draws nothing in the page: its labels are drawn onto
 *    the screenshot (background/draw-labels.ts);
 * 5. after the screenshot, labelsChanged: did the page scroll or move a frame
 *    since (background/observe.ts takes it again then)?
 * A tab whose last pass found no iframe is labelled in one round trip instead of three
 * (labelAlone: steps 1, 2 and 4 in the top frame); when its page now has iframes, it says so
 * and the steps above run.
 */
import { everyChildAnswers, mergeFrames, type FrameResult } from '../core/frames';
import type { FrameMarks, LabelStyle, Mark, MarksSnapshot } from '../core/marks';
import { PageError, sendContent, stuck } from './content';
import { framesBlocked } from './frame-budget';
import { CONTENT_ANSWER_MS, FRAME_ANSWER_MS, FRAME_LOADS, framesToAsk, Late, MAX_FRAMES, SLOW_FRAME_MS, within } from '../core/deadline';

/** Runs in the page (isolated world): calls the content script's API by name. Must be self-contained. */
function callApi(name: string, arg: unknown): unknown {
  const api = (globalThis as unknown as Record<symbol, Record<string, (a: unknown) => unknown> | undefined>)[Symbol.for('webagent.api')];
  return api && typeof api[name] === 'function' ? api[name](arg) : '__missing__';
}

/** A frame's answer to everyFrame; `late`: it did not answer in time (FRAME_ANSWER_MS; the top page CONTENT_ANSWER_MS), or was over the frame budget (MAX_FRAMES). */
export interface FrameAnswer<T> { frameId: number; result: T | '__missing__' | null; late?: 'slow' | 'over' ; url?: string }

/**
 * Calls the content script's `name` in every frame of the tab, each on its own with a deadline:
 * a frame whose page is stuck (a script in a loop) gives `late: 'slow'` instead of holding the
 * whole call; past MAX_FRAMES (the shallowest first) a frame is not asked (`late: 'over'`).
 */
export async function everyFrame<T>(tabId: number, name: string, arg: unknown = null): Promise<FrameAnswer<T>[]> {
  // (no frame list without the webNavigation API: every frame at once, within the top page's deadline)
  const frames = await Promise.resolve().then(() => chrome.webNavigation.getAllFrames({ tabId })).catch(() => null);
  if (!frames) {
    const res = await within(chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: callApi, args: [name, arg] }), CONTENT_ANSWER_MS);
    return res.map((r) => ({ frameId: r.frameId, result: (r.result ?? null) as T | '__missing__' | null }));
  }
  const { ask, left } = framesToAsk(frames.filter((f) => !f.errorOccurred));
  const slow = slowFrames.get(tabId) ?? new Map<number, number>();
  slowFrames.set(tabId, slow);
  const answers = await Promise.all(ask.map(async (f): Promise<FrameAnswer<T>> => {
    // a frame that did not answer lately is not waited for again until SLOW_FRAME_MS have passed
    if ((slow.get(f.frameId) ?? 0) > Date.now()) return { frameId: f.frameId, result: null, url: f.url, late: 'slow' };
    try {
      const [r] = await within(chrome.scripting.executeScript({ target: { tabId, frameIds: [f.frameId] }, func: callApi, args: [name, arg] }), f.frameId === 0 ? CONTENT_ANSWER_MS : FRAME_ANSWER_MS);
      return { frameId: f.frameId, result: (r?.result ?? null) as T | '__missing__' | null, url: f.url };
    } catch (err) {
      if (err instanceof Late) slow.set(f.frameId, Date.now() + SLOW_FRAME_MS);
      return { frameId: f.frameId, result: null, url: f.url, ...(err instanceof Late ? { late: 'slow' as const } : {}) };
    }
  }));
  return [...answers, ...left.map((f) => ({ frameId: f.frameId, result: null, late: 'over' as const, url: f.url }))];
}

/** tab -> frame -> until when a frame that did not answer in time is not asked again (its page's script is likely still stuck) */
const slowFrames = new Map<number, Map<number, number>>();

/** What the record says of frames that were not read (framesLeftOut). */
function lateFrames(answers: ReadonlyArray<FrameAnswer<unknown>>): string[] {
  const slow = answers.filter((a) => a.late === 'slow');
  const over = answers.filter((a) => a.late === 'over');
  return [
    ...slow.map((a) => `frame ${a.frameId} (${(a.url ?? '').slice(0, 120)}): did not answer within ${FRAME_ANSWER_MS / 1000} s (its page's script may be stuck or busy)`),
    ...(over.length ? [`${over.length} more frames not read: a page is read in at most ${MAX_FRAMES} frames`] : []),
  ];
}

async function injectInto(tabId: number, frameIds: number[]): Promise<void> {
  const files = chrome.runtime.getManifest().content_scripts?.[0]?.js ?? [];
  await within(chrome.scripting.executeScript({ target: { tabId, frameIds }, files }), FRAME_ANSWER_MS).catch(() => undefined);
}


/** Tabs whose last pass found no iframe (labelled with labelAlone). */
const alone = new Set<number>();

/** `draw`: show the labels in the page (for a person: Show labels, a demonstration); `style`: how labels are drawn. */
export async function labelTab(tabId: number, draw = true, style: LabelStyle = 'corner'): Promise<MarksSnapshot> {
  if (alone.has(tabId)) {
    alone.delete(tabId);
    const [top] = await within(chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: callApi, args: ['labelAlone', draw ? style : false] }), CONTENT_ANSWER_MS)
      .catch((err: unknown) => { throw err instanceof Late ? stuck() : err; });
    const result = top?.result as FrameMarks | 'frames' | '__missing__' | null | undefined;
    if (result && typeof result === 'object') {
      const snap = mergeFrames([{ frameId: 0, result }]);
      if (snap) { alone.add(tabId); return snap; }
    }
  }
  let prepared = await everyFrame<number>(tabId, 'prepareFrames');
  const missing = prepared.filter((p) => p.result === '__missing__').map((p) => p.frameId);
  if (missing.length) {
    await injectInto(tabId, missing);
    prepared = await everyFrame<number>(tabId, 'prepareFrames');
  }
  const collected = await everyFrame<FrameMarks>(tabId, 'collectFrame', { everyChildAnswers: everyChildAnswers(prepared.map((p) => p.result)) });
  const frames: FrameResult[] = collected
    .filter((c): c is { frameId: number; result: FrameMarks } => !!c.result && c.result !== '__missing__')
    .map((c) => ({ frameId: c.frameId, result: c.result }));
  if (collected.some((c) => c.frameId === 0 && c.late)) throw stuck();
  const merged = mergeFrames(frames);
  if (!merged) throw new PageError('The page did not answer the labeler (top frame missing).');
  const late = [...lateFrames(collected), ...(framesBlocked(tabId) ? [`the page loaded more than ${FRAME_LOADS} frames: its further frame loads are blocked while the run is in this tab`] : [])];
  const snap = late.length ? { ...merged, framesLeftOut: [...(merged.framesLeftOut ?? []), ...late] } : merged;
  if (draw) await sendContent(tabId, 'marks/overlay', { marks: snap.marks, style });
  if (frames.length === 1 && !frames[0].result.frames.length) alone.add(tabId);
  return snap;
}

/** What each frame's page did since the last pass (nothing listed: the labels still sit where it put them). */
export async function labelsChanged(tabId: number): Promise<Array<{ frameId: number; why: string }>> {
  const res = await everyFrame<string | null>(tabId, 'labelsChanged');
  return res.flatMap((r) => (typeof r.result === 'string' && r.result !== '__missing__' ? [{ frameId: r.frameId, why: r.result }] : []));
}

/** Removes our overlay, labels and select lists from every frame (run end). */
export async function resetTab(tabId: number): Promise<void> {
  await everyFrame(tabId, 'resetMarks').catch(() => undefined);
}

/** Where to click for a mark right now: its frame's fresh local centre plus the frame's offset. */
export function toTop(mark: Mark, offsets: Record<number, { x: number; y: number }> | undefined, local: { x: number; y: number }) {
  const o = offsets?.[mark.frameId ?? 0] ?? { x: 0, y: 0 };
  return { x: local.x + o.x, y: local.y + o.y };
}
