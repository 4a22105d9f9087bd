/**
 * Limits on what a model server can make the extension hold: the reply's length, how long a
 * stream may stay silent, and the size and depth of the memory a reply writes. Pure.
 */

/** A reply longer than this (content + reasoning, in characters) is cut there, like max tokens. */
export const MAX_REPLY_CHARS = 100_000;

/** Memory deeper than this (nested objects/arrays) is refused; the previous memory is kept. */
export const MAX_MEMORY_DEPTH = 32;

/** Memory larger than this (characters of JSON) is refused; the previous memory is kept. */
export const MAX_MEMORY_CHARS = 20_000;

/** The reply so far, cut to `max` characters between content and reasoning; `cut` when anything was dropped. */
export function capReply(content: string, reasoning: string, max = MAX_REPLY_CHARS): { content: string; reasoning: string; cut: boolean } {
  if (content.length + reasoning.length <= max) return { content, reasoning, cut: false };
  const r = reasoning.slice(0, max);
  return { content: content.slice(0, Math.max(0, max - r.length)), reasoning: r, cut: true };
}

/**
 * Whether a parsed memory value is within the limits, measured without recursion (so 5,000-deep
 * nesting cannot overflow the stack) and stopping as soon as a limit is passed.
 */
export function memoryWithinLimits(value: unknown, maxDepth = MAX_MEMORY_DEPTH, maxChars = MAX_MEMORY_CHARS): boolean {
  let chars = 0;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') chars += v.length + 2;
    else if (v === null || typeof v !== 'object') chars += String(v).length;
    else {
      if (depth >= maxDepth) return false;
      chars += 2;
      for (const [k, child] of Object.entries(v)) {
        if (!Array.isArray(v)) chars += k.length + 3;
        chars += 1;
        stack.push({ v: child, depth: depth + 1 });
      }
    }
    if (chars > maxChars) return false;
  }
  return true;
}

/** What each past step carries into later prompts: its thought, action, observation and text memory, at most this many characters each. */
export const MAX_HISTORY_FIELD_CHARS = 2_000;

/** A text cut to `max` characters, an ellipsis marking the cut. */
export function capText(s: string, max = MAX_HISTORY_FIELD_CHARS): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
