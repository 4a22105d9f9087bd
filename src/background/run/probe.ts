/** What an action at a point (or into the focused field) will act on, looked up on the live page. */
import type { ActedElement, RunState } from '../../core/run';
import { pointOf, type Action } from '../../core/action/action';
import { inspectAt } from '../act/point';
import { sendContent } from '../content';

/**
 * What an action that is not on a label will act on: the element under its point (a hit test in
 * its own frame), or the focused field for typing into no particular element. Looked up before
 * the action is recorded, so guards, masking and the approval card know it.
 */
export async function probe(state: RunState, action: Action): Promise<ActedElement | null> {
  const tabId = state.tabId;
  const point = pointOf(action);
  if (point) {
    const hit = await inspectAt(tabId, point, state.pending?.frameOffsets).catch(() => null);
    return hit ? {
      tag: hit.tag, text: hit.text, rect: hit.rect, inputType: hit.inputType, frameId: hit.frameId, fingerprint: hit.fingerprint, href: hit.href, download: hit.download,
      ...(hit.formAction ? { formAction: hit.formAction } : {}), ...(hit.navigatesTo ? { navigatesTo: hit.navigatesTo } : {}),
    } : null;
  }
  if ((action.type === 'type' && action.target.kind === 'none') || action.type === 'key') {
    const f = await sendContent(tabId, 'point/focused', {}).catch(() => null);
    return f ? { tag: f.tag, text: f.text, inputType: f.inputType, rect: { x: 0, y: 0, width: 0, height: 0 }, ...(f.formAction ? { formAction: f.formAction } : {}) } : null;
  }
  return null;
}
