/**
 * An action that changed nothing is not reported as Success (docs/trace-format.md, `observation`).
 * When the next observation shows the same page as the one the action was done on (the same
 * address, element list and control values: pageKeyOf; and the same screenshot, byte for byte),
 * the step's observation says so instead of "Success". Only actions meant to change the page
 * are judged (not Wait, not answers, not the actions that store a value: quote, llm, clipboard),
 * and only when the action reported nothing else it did (a note: files chosen, a download, a
 * value read back; a tab followed).
 * A page whose picture never stands still (an animation, a blinking caret) is never called
 * unchanged: the claim is made only when it is certain.
 */
import { modelText } from './model-text';
import type { StepRecord } from './state';

const CHANGES_THE_PAGE = new Set(['click', 'hover', 'press', 'drag', 'type', 'scroll', 'key', 'goBack', 'goHome', 'search', 'navigate', 'openApp']);

/** `steps` with the last one's observation saying nothing changed, when so (else `steps` itself). */
export function markUnchanged(steps: StepRecord[], pageKey: string, shotKey: string): StepRecord[] {
  const last = steps.at(-1);
  if (!last || last.kind === 'person' || !last.result.ok || !last.action || !CHANGES_THE_PAGE.has(last.action.type)) return steps;
  // the action said what it did besides the page (files chosen, a value stored, a download, a tab): not judged
  if (last.result.note || last.tabs?.length || last.afterAction) return steps;
  if (last.pageKey !== pageKey || last.shotKey !== shotKey) return steps;
  const obs = last.observation;
  if (obs.startsWith(modelText.nothingChanged)) return steps;
  // "Success" and the parser's bracketed notes, if any
  const observation = obs.startsWith(modelText.success) ? modelText.nothingChanged + obs.slice(modelText.success.length) : `${modelText.nothingChanged} ${obs}`;
  return [...steps.slice(0, -1), { ...last, observation }];
}
