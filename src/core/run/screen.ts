/**
 * The opt-in picture check's result joined to the step in progress (reduce.ts, when the reply
 * comes in): the check is kept on the step, and its finding (image-screen.ts) is added to the
 * step's injection findings, after the page's own, so the action waits for the person. Pure.
 */
import { screenFindings, type ImageScreen } from '../image-screen';
import type { PendingStep } from './state';

export function withScreen(p: PendingStep, screen: ImageScreen): PendingStep {
  const found = screenFindings(screen);
  const injection = [...(p.injection ?? []), ...found];
  return { ...p, imageScreen: screen, ...(injection.length ? { injection } : {}) };
}
