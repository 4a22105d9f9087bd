/**
 * What the last labeling pass in this frame remembers: label N → element, plus what it looked like
 * (fingerprint), so actions on local label N can re-resolve it. Kept on globalThis under one
 * symbol, shared by every copy of the module (the labeler may be injected twice).
 */
import type { Fingerprint } from '../../src/core/marks';

export interface Entry {
  /** the element with the box (hit-tested, focused, clicked) */
  el: Element;
  /** the element the rules chose (itself, or a display:contents ancestor) */
  owner: Element;
  tag: string;
  fingerprint: Fingerprint;
  /** text.stableText at labeling time (what "changed" compares) */
  stable: string;
  /** a scroll container only: its stable text is its name (its content is what scrolls) */
  scrollOnly: boolean;
}

interface LabelerState { entries: Entry[] }
const KEY = Symbol.for('webagent.labeler.v2');

export function state(): LabelerState {
  const g = globalThis as unknown as Record<symbol, LabelerState | undefined>;
  return (g[KEY] ??= { entries: [] });
}
