/**
 * The batch's progress as a person reads it (docs/batch.md): counts, a bar, the time left
 * (from the pace so far), tokens and cost. The same state feeds the live terminal bar and the
 * plain lines written when the output is not a terminal. Pure.
 */
import { asCurrency, DEFAULT_CURRENCY, formatMoney } from '../costs';
import type { StopKind, TaskResult } from './types';

export interface Progress {
  total: number;
  /** tasks that had their end before this start (a resumed batch) */
  before: number;
  running: number;
  /** ended in this start, by kind */
  ended: Record<StopKind, number>;
  /** infrastructure failures waiting to be tried again */
  retrying: number;
  promptTokens: number;
  completionTokens: number;
  /** null: some model had no price */
  cost: number | null;
  /** the costs' currency: the runs' (the settings' default until a result says another) */
  currency: string | null;
  startedAt: number;
  /** interrupted (Ctrl+C): the runs in hand are stopping, so no time is left to estimate */
  stopping?: boolean;
}

export function newProgress(total: number, before: number, startedAt: number, currency: string = DEFAULT_CURRENCY): Progress {
  return {
    total, before, running: 0, retrying: 0, startedAt, promptTokens: 0, completionTokens: 0, cost: 0, currency,
    ended: { finished: 0, agent: 0, guard: 0, infrastructure: 0 },
  };
}

export function endedNow(p: Progress): number {
  return p.ended.finished + p.ended.agent + p.ended.guard + p.ended.infrastructure;
}

/** Counts a task's end into the progress (a new object). */
export function withResult(p: Progress, r: TaskResult): Progress {
  return {
    ...p,
    ended: { ...p.ended, [r.kind]: p.ended[r.kind] + 1 },
    promptTokens: p.promptTokens + r.tokens.prompt,
    completionTokens: p.completionTokens + r.tokens.completion,
    cost: p.cost === null || r.cost === null ? null : p.cost + r.cost,
    currency: asCurrency(r.currency) ?? p.currency,
  };
}

/** Milliseconds left at the pace of this start, or null before the first end (and once it is stopping). */
export function etaMs(p: Progress, now: number): number | null {
  if (p.stopping) return null;
  const n = endedNow(p);
  if (n === 0) return null;
  const left = p.total - p.before - n;
  return Math.max(0, Math.round(((now - p.startedAt) / n) * left));
}

export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

function tokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

function cost(c: number | null, currency: string | null): string {
  return c === null ? 'cost unknown' : `cost ${formatMoney(c, currency)}`;
}

/** "12/40 done (10 finished, 1 agent, 1 guard, 0 infra) · 3 running · ETA 4m10s · 182.3k tokens · cost 0.1200" */
export function progressText(p: Progress, now: number): string {
  const done = p.before + endedNow(p);
  const failed = p.ended.agent + p.ended.guard + p.ended.infrastructure;
  const eta = etaMs(p, now);
  return [
    `${done}/${p.total} done (${p.ended.finished} finished, ${failed} failed: ${p.ended.agent} agent, ${p.ended.guard} guard, ${p.ended.infrastructure} infra${p.before ? `; ${p.before} from before` : ''})`,
    `${p.running} running${p.retrying ? `, ${p.retrying} to retry` : ''}`,
    p.stopping ? 'stopping' : eta === null ? 'ETA …' : `ETA ${duration(eta)}`,
    `${tokens(p.promptTokens + p.completionTokens)} tokens`,
    cost(p.cost, p.currency),
  ].join(' · ');
}

/** A bar of `width` cells: done, running, waiting. */
export function progressBar(p: Progress, width: number): string {
  const done = p.before + endedNow(p);
  const cell = (n: number) => Math.round((n / Math.max(1, p.total)) * width);
  const d = Math.min(width, cell(done));
  const r = Math.min(width - d, cell(p.running));
  return `[${'#'.repeat(d)}${'>'.repeat(r)}${'.'.repeat(width - d - r)}]`;
}

/**
 * The live bar and progress for a terminal `columns` wide (80 when unknown), on one line that
 * fits: the bar narrowed (30 down to 10 cells) or left out before any number, shorter words, then
 * the least useful parts dropped (the failure breakdown, tokens, cost, the time left, the running
 * count). Never cut in the middle of a word.
 * "[####>>....] 4/10 done (1 ok, 1 failed; 2 before) · 3 running · 3m00s left · 2.2k tok · cost 0.0200"
 */
export function progressLine(p: Progress, now: number, columns = 80): string {
  const room = Math.max(20, columns) - 1; // the last column would wrap on some terminals
  const done = p.before + endedNow(p);
  const failed = p.ended.agent + p.ended.guard + p.ended.infrastructure;
  const eta = etaMs(p, now);
  const count = `${done}/${p.total} done`;
  const full = `${count} (${p.ended.finished} finished, ${failed} failed: ${p.ended.agent} agent, ${p.ended.guard} guard, ${p.ended.infrastructure} infra${p.before ? `; ${p.before} from before` : ''})`;
  const short = `${count} (${p.ended.finished} ok, ${failed} failed${p.before ? `; ${p.before} before` : ''})`;
  const running = `${p.running} running${p.retrying ? `, ${p.retrying} to retry` : ''}`;
  const left = p.stopping ? 'stopping' : eta === null ? 'ETA …' : `${duration(eta)} left`;
  const tok = `${tokens(p.promptTokens + p.completionTokens)} tok`;
  const money = cost(p.cost, p.currency);
  const variants = [
    [full, running, left, `${tokens(p.promptTokens + p.completionTokens)} tokens`, money],
    [full, running, left, tok, money],
    [short, running, left, tok, money],
    [count, running, left, tok, money],
    [count, running, left, money],
    [count, running, left],
    [count, running],
    [count],
  ].map((parts) => parts.join(' · '));
  for (const text of variants) {
    const cells = Math.min(30, room - text.length - 3);
    if (cells >= 10) return `${progressBar(p, cells)} ${text}`;
    if (text.length <= room) return text;
  }
  return count.slice(0, room);
}
