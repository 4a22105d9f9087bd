/**
 * The gate's background side: every element an action's input would reach (core/guards/gate.ts's
 * activations: the target, the focused element, a drag's release point), found in the page before
 * the guards judge the action (core/guards/index.ts guardCheckReached). Whatever the dialect and the
 * action's form, the guards see the element that would be activated, its other names and the
 * form it belongs to (content-scripts/details.ts).
 */
import { activations, type Where } from '../core/guards/gate';
import type { GuardTarget, Reached } from '../core/guards';
import type { Action } from '../core/action/action';
import type { HitElement, Mark, Rect } from '../core/marks';
import { sendContent } from './content';
import { inspectAt } from './act/point';
import { wordsIn } from './ocr';
import { focusedField } from './act/type';
import type { FrameOffsets } from './act/types';

type Details = NonNullable<Awaited<ReturnType<typeof labelDetails>>>;

function labelDetails(tabId: number, m: Mark) {
  return sendContent(tabId, 'marks/details', { label: m.localLabel ?? m.label }, m.frameId ?? 0).catch(() => null);
}

/** A label's element: the mark's tag and text with what the content script adds. */
function fromMark(m: Mark, d: Details | null): GuardTarget {
  const field = d?.field;
  // a field that is none of input/textarea/select is contenteditable; no field at all takes no text
  const editable = !field ? false : ['input', 'textarea', 'select'].includes(field.tag ?? '') ? undefined : true;
  return {
    tag: m.tag, text: m.text, inputType: m.inputType, href: d?.href ?? null, download: d?.download ?? false,
    formAction: d?.formAction ?? null, navigatesTo: d?.navigatesTo ?? null,
    ...(editable !== undefined ? { editable } : {}),
    ...(d?.names ? { names: d.names } : {}), ...(d?.buttonOf ? { buttonOf: d.buttonOf } : {}),
    ...(field ? { field } : {}), ...(d?.form ? { form: d.form } : {}), ...(d?.options ? { options: d.options } : {}),
  };
}

/** An element found at a point or by the focus. */
function fromHit(h: Omit<HitElement, 'frameId'> & { formAction?: string | null }): GuardTarget {
  return {
    tag: h.tag, text: h.text, inputType: h.inputType, href: h.href ?? null, download: h.download ?? false,
    formAction: h.formAction ?? null, navigatesTo: h.navigatesTo ?? null, editable: h.editable,
    ...(h.names ? { names: h.names } : {}), ...(h.buttonOf ? { buttonOf: h.buttonOf } : {}),
    ...(h.field ? { field: h.field } : {}), ...(h.form ? { form: h.form } : {}), ...(h.options ? { options: h.options } : {}),
  };
}

/**
 * The focused element: the top frame sees through shadow roots and same-origin frames; focus in
 * a cross-origin frame is found by asking every frame for its focused field (act/type.ts).
 */
async function focused(tabId: number): Promise<GuardTarget | null> {
  const top = await sendContent(tabId, 'point/active', {}).catch(() => null);
  if (top && top.tag !== 'iframe' && top.tag !== 'frame') return fromHit(top);
  const field = await focusedField(tabId).catch(() => null);
  return field ? fromHit({ ...field, rect: { x: 0, y: 0, width: 0, height: 0 }, href: null, download: false }) : top ? fromHit(top) : null;
}

/**
 * Every element the action's input would reach, each with how it is reached. `mark`: the label's
 * mark, when the action targets a label; `frameOffsets`: the step's frames (for points).
 */
export async function reachedBy(tabId: number, action: Action, mark: Mark | null, frameOffsets: FrameOffsets | undefined): Promise<Reached[]> {
  const found = new Map<string, Promise<GuardTarget | null>>();
  const find = (where: Where): Promise<GuardTarget | null> => {
    const key = where.at === 'point' ? `${where.point.x},${where.point.y}` : where.at;
    let p = found.get(key);
    if (!p) {
      p = locate(tabId, action, where, mark, frameOffsets);
      found.set(key, p);
    }
    return p;
  };
  const out: Reached[] = [];
  for (const x of activations(action)) out.push({ how: x.how, target: await find(x.where) });
  return out;
}

/**
 * The words of a control drawn in a picture (an image button, a "Buy now" background image), read
 * by OCR on this machine (ocr.ts), as one more of its names.
 */
async function withPictureWords(tabId: number, target: GuardTarget, picture: boolean | undefined, box: Rect): Promise<GuardTarget> {
  if (!picture) return target;
  const words = await wordsIn(tabId, box);
  return words ? { ...target, names: [...(target.names ?? []), words] } : target;
}

async function locate(tabId: number, action: Action, where: Where, mark: Mark | null, frameOffsets: FrameOffsets | undefined): Promise<GuardTarget | null> {
  if (where.at === 'focused') return focused(tabId);
  const point = where.at === 'point' ? where.point : 'target' in action && action.target.kind === 'point' ? action.target : null;
  if (point) {
    const hit = await inspectAt(tabId, { x: point.x, y: point.y }, frameOffsets).catch(() => null);
    return hit ? withPictureWords(tabId, fromHit(hit), hit.picture, hit.rect) : null;
  }
  if (mark) {
    const d = await labelDetails(tabId, mark);
    return withPictureWords(tabId, fromMark(mark, d), d?.picture, mark.rect);
  }
  // typing into no particular element: the focused one
  if ('target' in action && (action.target.kind === 'none' || action.target.kind === 'window')) return focused(tabId);
  return null;
}
