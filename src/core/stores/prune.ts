/**
 * Room in the browser's storage (docs/storage.md, "When storage is full"): what goes first.
 *
 * Only screenshots are ever removed to make room, the oldest runs' first; a run's record, steps,
 * answer and trace stay. A run going on keeps its pictures. What the person chose to clear (older
 * than some days) follows the same order and the same rule.
 */

/** One run as the planner sees it: when it started, whether it is going on, the bytes of its kept screenshots. */
export interface RunRoom {
  id: string;
  startedAt: number;
  active: boolean;
  shotBytes: number;
}

/** Before usage reaches this share of the quota, screenshots are removed (when the browser says its quota). */
export const PRUNE_AT = 0.9;
/** ... down to this share. */
export const PRUNE_TO = 0.75;

/** The bytes to free now so usage falls to PRUNE_TO, or 0 (below PRUNE_AT, or quota unknown). */
export function bytesToFree(usage: number | null, quota: number | null): number {
  if (usage === null || quota === null || quota <= 0 || usage < quota * PRUNE_AT) return 0;
  return Math.ceil(usage - quota * PRUNE_TO);
}

/**
 * The runs whose screenshots go, oldest first, until `need` bytes are freed (at least one run
 * with screenshots when need > 0); never an active run, never one with none left.
 */
export function runsToPrune(runs: RunRoom[], need: number): string[] {
  if (need <= 0) return [];
  const out: string[] = [];
  let freed = 0;
  for (const r of [...runs].sort((a, b) => a.startedAt - b.startedAt)) {
    if (freed >= need) break;
    if (r.active || r.shotBytes <= 0) continue;
    out.push(r.id);
    freed += r.shotBytes;
  }
  return out;
}

/** What the person asked to clear: finished runs that started before `before` (ms), oldest first. */
export function runsBefore(runs: RunRoom[], before: number): string[] {
  return [...runs].sort((a, b) => a.startedAt - b.startedAt).filter((r) => !r.active && r.startedAt < before).map((r) => r.id);
}

/** What the last removal to make room did, kept for the person (History says it). */
export interface Pruned {
  at: number;
  runs: number;
  shots: number;
  bytes: number;
}
