/**
 * The batch's progress display (docs/batch.md): on a terminal, a live bar on stderr redrawn each
 * second with each task's end printed above it; elsewhere (a pipe, a log file, CI) plain lines,
 * one as each task ends and a progress line each 30 seconds.
 */
import { duration, progressLine, progressText, type Progress } from '../../src/core/batch/progress';
import type { TaskResult } from '../../src/core/batch/types';
import { oneLine } from '../../src/core/run/person-text';
import { count } from '../../src/core/i18n';

export interface Display {
  /** the progress changed (a task started, ended or waits for a retry) */
  update(p: Progress): void;
  /** a line to keep above the bar (a task's end, a warning); control and bidi characters are shown escaped */
  line(text: string): void;
  /** the last progress, and no more redraws */
  close(p: Progress): void;
}

/** "✓ taskAllrecipes--0  finished in 3 steps, 41s: <answer>" */
export function endLine(r: TaskResult): string {
  const mark = r.kind === 'finished' ? 'ok  ' : 'FAIL';
  const what = r.kind === 'finished'
    ? `finished in ${count(r.steps, 'step')}, ${duration(r.durations.totalMs)}${r.answer ? `: ${oneLine(r.answer).slice(0, 120)}` : ''}`
    : `${r.kind} after ${count(r.steps, 'step')}, ${duration(r.durations.totalMs)}: ${oneLine(r.kind === 'guard' && r.guard ? `a guard asked: ${r.guard.question}` : r.stopReason ?? 'no reason given').slice(0, 160)}`;
  const verdict = r.verdict ? ` [judge: ${r.verdict.success ? 'SUCCESS' : 'NOT SUCCESS'}]` : '';
  return `${mark} ${r.id}  ${what}${verdict}${r.attempts > 1 ? ` (attempt ${r.attempts})` : ''}`;
}

export function makeDisplay(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): Display {
  let last: Progress | null = null;
  if (!stream.isTTY) {
    let lastAt = 0;
    const timer = setInterval(() => { if (last) { stream.write(`progress: ${progressText(last, now())}\n`); lastAt = now(); } }, 30_000);
    timer.unref();
    return {
      update(p) { last = p; if (now() - lastAt > 30_000) { lastAt = now(); stream.write(`progress: ${progressText(p, now())}\n`); } },
      line(text) { stream.write(`${oneLine(text)}\n`); },
      close(p) { clearInterval(timer); stream.write(`progress: ${progressText(p, now())}\n`); },
    };
  }
  const draw = () => {
    if (!last) return;
    // the terminal's width now (a resized window is followed at the next redraw)
    stream.write(`\r\x1b[K${progressLine(last, now(), stream.columns || 80)}`);
  };
  const timer = setInterval(draw, 1000);
  timer.unref();
  return {
    update(p) { last = p; draw(); },
    line(text) { stream.write(`\r\x1b[K${oneLine(text)}\n`); draw(); },
    close(p) { clearInterval(timer); last = p; draw(); stream.write('\n'); },
  };
}
