/**
 * Memory_Updated parsing: strict JSON first, then a repair pass for what
 * models really write (Python dict reprs, single quotes, None/True/False,
 * trailing commas, code fences, trailing prose).
 */

import { balancedSpan, tryJson } from '../shared/reply-text';
import { MAX_MEMORY_CHARS, MAX_MEMORY_DEPTH, memoryWithinLimits } from '../../limits';
import { trimChars } from '../shared/text';
import { repairJson } from '../shared/json';

export type MemoryResult =
  | { ok: true; memory: Record<string, unknown> }
  | { ok: false; note: string };

export const MEMORY_INVALID_NOTE = 'Memory_Updated was not valid JSON; the previous memory was kept.';
export const MEMORY_TOO_BIG_NOTE = `Memory_Updated was too large (at most ${MAX_MEMORY_CHARS} characters and ${MAX_MEMORY_DEPTH} levels of nesting); the previous memory was kept.`;
export const MEMORY_NOT_OBJECT_NOTE = 'Memory_Updated was not a JSON object; the previous memory was kept.';

/** Values that mean "nothing remembered yet". */
const EMPTY = /^(?:|\{\s*\}|\[\s*\]|none|null|nil|n\/a|empty|无)$/i;

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Parse the text after "Memory_Updated:". */
export function parseMemory(section: string): MemoryResult {
  const unfenced = section.replace(/^[ \t]*```[\w-]*[ \t]*$/gm, '');
  const s = trimChars(trimChars(unfenced, '`*').replace(/^json\s+/i, ''), '.。', 'end');
  if (EMPTY.test(s)) return { ok: true, memory: {} };

  const strict = tryJson(s);
  let value: unknown;
  if (strict.ok) value = strict.value;
  else {
    const open = s.search(/[{[]/);
    const span = open >= 0 ? balancedSpan(s, open) : null;
    if (span === null) return { ok: false, note: MEMORY_INVALID_NOTE };
    const direct = tryJson(span);
    const repaired = direct.ok ? direct : tryJson(repairJson(span));
    if (!repaired.ok) return { ok: false, note: MEMORY_INVALID_NOTE };
    value = repaired.value;
  }
  if (Array.isArray(value) && value.length === 0) return { ok: true, memory: {} };
  if (value === null) return { ok: true, memory: {} };
  if (!isPlainObject(value)) return { ok: false, note: MEMORY_NOT_OBJECT_NOTE };
  if (!memoryWithinLimits(value)) return { ok: false, note: MEMORY_TOO_BIG_NOTE };
  return { ok: true, memory: value };
}
