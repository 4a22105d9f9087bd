/**
 * The 'check' effect: every element the input would reach, found on the live page, and the guard
 * it trips, decided in core/run/guard-decision.ts -> 'checked'. The target shown when the person is asked.
 */
import { guardHit, type Effect, type RunEvent } from '../../core/run';
import { dialectOf } from '../../core/dialects/registry';
import { pointOf } from '../../core/action/action';
import { isCardField } from '../../core/guards/fields';
import type { LabelStyle } from '../../core/marks';
import { sendContent } from '../content';
import { reachedBy } from '../gate';
import type { Active } from './active';
import { keepWatched } from '../watch';

/**
 * Shows the target of an action waiting for approval on the live page: a label's box and label,
 * or a crosshair at the point with the box of the element under it.
 */
async function highlight(tabId: number, eff: Extract<Effect, { kind: 'check' }>, style?: LabelStyle): Promise<void> {
  // drawn as the model saw it (appagent: the tag N + 1 at the centre), so it matches the card
  await sendContent(tabId, 'marks/overlay', { marks: eff.mark ? [eff.mark] : [], style }).catch(() => undefined);
  const point = pointOf(eff.action);
  if (point) await sendContent(tabId, 'point/mark', { point, box: eff.target?.rect ?? null }).catch(() => undefined);
}

export async function checkStep(a: Active, eff: Extract<Effect, { kind: 'check' }>): Promise<RunEvent> {
  const tabId = a.state.tabId;
  // Every element the input would reach (the target, the focused element, a drag's release point), judged as what it activates.
  const reached = await reachedBy(tabId, eff.action, eff.mark, a.state.pending?.frameOffsets);
  // A card number typed into a card field: requests that carry it wait for the person (watch.ts).
  const typed = eff.action.type === 'type' ? eff.action.text.trim() : '';
  const into = reached.find((r) => r.how === 'type')?.target;
  if (typed && into && isCardField(into.field ?? { tag: into.tag, type: into.inputType }, into.field?.label ?? into.text) && !a.cards.includes(typed)) {
    a.cards.push(typed);
    await keepWatched(a);
  }
  const hit = guardHit(a.state, eff.action, reached);
  if (hit || a.state.approveSteps) await highlight(tabId, eff, dialectOf(a.state.dialect).observes.labelStyle);
  return { type: 'checked', at: Date.now(), hit };
}
