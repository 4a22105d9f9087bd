/** What the history list shows of a run, computed when the run is saved. */
import type { RunState } from './run/state';
import { hostKey } from './guards';
import { tokensOf } from './costs';

/**
 * JPEG quality (0-100) of the screenshots the history keeps. 70 keeps labels and text readable
 * and a 100-step trace with both images per step under 25 MB (npm run bench, part export).
 */
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
  answer: string | null;
  stopReason: string | null;
  /** brought in from a trace file, not run here */
  imported: boolean;
}

export function runSummary(s: RunState): RunSummary {
  const { promptTokens, completionTokens } = tokensOf(s.steps.map((st) => st.usage));
  return {
    task: s.task, site: hostKey(s.site), startedAt: s.startedAt, endedAt: s.endedAt, status: s.status,
    steps: s.steps.length, durationMs: s.endedAt === null ? null : Math.max(0, s.endedAt - s.startedAt),
    promptTokens, completionTokens, model: s.model, answer: s.answer, stopReason: s.stopReason,
    imported: !!s.imported,
  };
}

/** Runs whose task, site, answer or model contains every word of the query (case-insensitive). */
export function searchRuns<T extends { summary: RunSummary }>(runs: T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return runs;
  return runs.filter(({ summary: r }) => {
    const hay = `${r.task}\n${r.site}\n${r.answer ?? ''}\n${r.model}\n${r.status}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}
