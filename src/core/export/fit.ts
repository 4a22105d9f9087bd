/**
 * The size budget of an export: a run exports to at most 25 MB (decimal) as JSON, HTML or zip.
 * Screenshots are the bulk; when an export would pass the budget, clean views are left out
 * (their field becomes ''), largest first, only as many as needed. The labelled screenshots, what
 * the model saw, are always kept. The exports say how many were left out.
 */
import type { Trace } from '../trace';

/** Under 25 MB with room for the zip's directory and the report's page. */
export const EXPORT_MAX_BYTES = 24_500_000;

/**
 * Clean views to leave out so that `size` drops by `excess`: given each candidate's key and size,
 * the largest first until the excess is covered (all of them when it cannot be).
 */
export function largestFirst<K>(candidates: Array<{ key: K; size: number }>, excess: number): Set<K> {
  const out = new Set<K>();
  let left = excess;
  for (const c of [...candidates].sort((a, b) => b.size - a.size)) {
    if (left <= 0) break;
    out.add(c.key);
    left -= c.size;
  }
  return out;
}

/** The trace with clean views left out until its compact JSON fits `max` characters. */
export function fitTrace(trace: Trace, max = EXPORT_MAX_BYTES): { trace: Trace; cleanLeftOut: number } {
  const excess = JSON.stringify(trace).length - max;
  if (excess <= 0) return { trace, cleanLeftOut: 0 };
  const drop = largestFirst(trace.steps.filter((s) => s.cleanScreenshot).map((s) => ({ key: s.index, size: s.cleanScreenshot.length })), excess);
  return {
    trace: { ...trace, steps: trace.steps.map((s) => (drop.has(s.index) ? { ...s, cleanScreenshot: '' } : s)) },
    cleanLeftOut: drop.size,
  };
}
