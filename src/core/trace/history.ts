/** What the history list shows of a run, computed when the run is saved. */
import type { RunState } from '../run/state';
import { hostKey } from '../guards';
import { runTotals } from '../run/budget';

/**
 * How the history keeps its screenshots (the labelled view and the clean one): WebP at quality
 * 70 (0-100). Labels and small text stay readable, and on text-heavy pages WebP is about 40 %
 * smaller than JPEG at the same quality: a real 100-step run on documentation pages exports to
 * about 21 MB instead of 34 (npm run bench, part export). Chromium encodes WebP both in
 * Page.captureScreenshot and in OffscreenCanvas.convertToBlob, so both views go one way.
 */
export const KEPT_IMAGE = { mime: 'image/webp', quality: 70 } as const;

/** JPEG quality (0-100) of earlier screenshots scaled for the model (glm-pc's history images). */
export const JPEG_QUALITY = 70;

export interface RunSummary {
  task: string;
  /** the task's site, e.g. "shop.example" */
  site: string;
  startedAt: number;
  endedAt: number | null;
  status: RunState['status'];
  /** steps taken (the person's take-overs included) */
  steps: number;
  durationMs: number | null;
  promptTokens: number;
  completionTokens: number;
  model: string;
  /**
   * what the run's tokens cost at its price table, in `currency`; null: no price for its model.
   * Absent in runs saved before costs were kept (unknown).
   */
  cost?: number | null;
  currency?: string | null;
  answer: string | null;
  stopReason: string | null;
  /** brought in from a trace file, not run here */
  imported: boolean;
  /** the follow-ups' tasks, oldest first (absent: none; docs/follow-ups.md) */
  followUps?: string[];
  /** screenshots removed to make room (absent: none; docs/storage.md) */
  shotsRemoved?: number;
}

export function runSummary(s: RunState): RunSummary {
  const { tokens: { promptTokens, completionTokens }, cost } = runTotals(s);
  return {
    task: s.task, site: hostKey(s.site), startedAt: s.startedAt, endedAt: s.endedAt, status: s.status,
    steps: s.steps.length, durationMs: s.endedAt === null ? null : Math.max(0, s.endedAt - s.startedAt),
    promptTokens, completionTokens, model: s.model, cost, currency: s.limits?.currency ?? null, answer: s.answer, stopReason: s.stopReason,
    imported: !!s.imported,
    ...(s.turns && s.turns.length > 1 ? { followUps: s.turns.slice(1).map((x) => x.task) } : {}),
    ...(s.shotsRemoved ? { shotsRemoved: s.shotsRemoved } : {}),
  };
}

/** Runs whose task (a follow-up's too), site, answer or model contains every word of the query (case-insensitive). */
export function searchRuns<T extends { summary: RunSummary }>(runs: T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return runs;
  return runs.filter(({ summary: r }) => {
    const hay = `${r.task}\n${(r.followUps ?? []).join('\n')}\n${r.site}\n${r.answer ?? ''}\n${r.model}\n${r.status}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}
