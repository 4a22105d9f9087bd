/**
 * Boxes and directions the dialects share: a box or point value read leniently, the scroll a
 * swipe makes.
 */
import type { Direction } from '../../action/action';

/**
 * A swipe's direction (the finger's) and the scroll it makes (the content's) are opposite, both
 * ways: a finger moving up scrolls the content down (the seed: "`up` means the finger moves up
 * the screen, the content scrolls down"), a finger moving left reveals what is to the right.
 */
export const OPPOSITE: Record<Direction, Direction> = { up: 'down', down: 'up', left: 'right', right: 'left' };

export function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\s*-?\d+(?:\.\d+)?\s*$/.test(v)) return Number(v);
  return NaN;
}

/**
 * A box or point value: its numbers, `null` when absent or empty (`[]`, `[[]]`, `""`, None),
 * `'bad'` when unreadable.
 */
export function boxNumbers(v: unknown): number[] | null | 'bad' {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') {
    if (v.trim() === '' || /^[\s[\]]*$/.test(v)) return null;
    const parsed = tryParse(v.trim());
    if (parsed !== undefined && typeof parsed !== 'string') return boxNumbers(parsed);
    const m = v.match(/-?\d+(?:\.\d+)?/g);
    return m && (m.length === 2 || m.length === 4) ? m.map(Number) : 'bad';
  }
  if (!Array.isArray(v)) return 'bad';
  if (v.length === 0) return null;
  const inner: unknown[] = Array.isArray(v[0]) ? (v[0] as unknown[]) : v; // [[x1,y1,x2,y2]] (the first box)
  if (inner.length === 0) return null;
  const nums = inner.map(num);
  if ((nums.length !== 2 && nums.length !== 4) || nums.some((n) => !Number.isFinite(n))) return 'bad';
  return nums;
}

