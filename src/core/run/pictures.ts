/**
 * Finished steps' pictures leave memory once the store has them (background/run-store.ts): a run's
 * heap does not grow with its length. Whoever needs one reads it back (a request's earlier
 * screenshot, background/images.ts; exports, withScreenshots), as after a worker restart. Pure.
 */
import type { RunState } from './state';

/** The run with its finished steps' pictures let go; the same object when none has any. */
export function withoutStepPictures(state: RunState): RunState {
  const steps = state.steps;
  let i = steps.length;
  // only the newest steps can still have them: look back until one has none
  while (i > 0 && (steps[i - 1].screenshot || steps[i - 1].cleanScreenshot)) i--;
  if (i === steps.length) return state;
  return { ...state, steps: [...steps.slice(0, i), ...steps.slice(i).map((s) => ({ ...s, screenshot: '', cleanScreenshot: '' }))] };
}
