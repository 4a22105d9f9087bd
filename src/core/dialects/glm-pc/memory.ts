/**
 * The computer dialect's memory: the list of dicts after "Memory:" (seed: "The content in this
 * part should be a dict list"), read as JSON, else repaired from a Python repr (glm-web's
 * repairJson), and written back for the prompt as Python's json.dumps writes it (", " and ": ",
 * non-ASCII kept), the form the prompt's own example shows: [{"key": "value"}, ...].
 */
import type { Memory } from '../../action/action';

import { balancedSpan, tryJson } from '../shared/reply-text';
import { MAX_MEMORY_CHARS, MAX_MEMORY_DEPTH, memoryWithinLimits } from '../../limits';
import { repairJson } from '../shared/json';
import { trimChars } from '../shared/text';

export type MemoryListResult = { ok: true; memory: unknown[] } | { ok: false; note: string };

export const NOTE_MEMORY_INVALID = 'The Memory part was not a valid JSON list; the previous memory was kept.';

export const NOTE_MEMORY_TOO_BIG = `The Memory part was too large (at most ${MAX_MEMORY_CHARS} characters and ${MAX_MEMORY_DEPTH} levels of nesting); the previous memory was kept.`;

const EMPTY = /^(?:|\[\s*\]|\{\s*\}|none|null|nil|n\/a|empty|无)$/i;

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The text after "Memory:" to the list it holds. A lone dict counts as a list of one. */
export function parseMemoryList(section: string): MemoryListResult {
  const unfenced = String(section ?? '').replace(/^[ \t]*```[\w-]*[ \t]*$/gm, '');
  const s = trimChars(trimChars(unfenced, '`*').replace(/^json\s+/i, ''), '.。', 'end');
  if (EMPTY.test(s)) return { ok: true, memory: [] };
  let value: unknown;
  const strict = tryJson(s);
  if (strict.ok) value = strict.value;
  else {
    const open = s.search(/[[{]/);
    const span = open >= 0 ? balancedSpan(s, open) : null;
    if (span === null) return { ok: false, note: NOTE_MEMORY_INVALID };
    const direct = tryJson(span);
    const repaired = direct.ok ? direct : tryJson(repairJson(span));
    if (!repaired.ok) return { ok: false, note: NOTE_MEMORY_INVALID };
    value = repaired.value;
  }
  if (value === null) return { ok: true, memory: [] };
  if (!memoryWithinLimits(value)) return { ok: false, note: NOTE_MEMORY_TOO_BIG };
  if (Array.isArray(value)) return { ok: true, memory: value };
  if (isPlainObject(value)) return { ok: true, memory: Object.keys(value).length ? [value] : [] };
  return { ok: false, note: NOTE_MEMORY_INVALID };
}

/** JSON as Python's json.dumps(value, ensure_ascii=False) writes it. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => pythonJson(v === undefined ? null : v)).join(', ')}]`;
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(', ')}}`;
  }
  const j = JSON.stringify(value);
  return j === undefined ? 'null' : j;
}

/** The `{memory}` of the prompt: the list (another dialect's dict as a list of one, text as it is). */
export function formatMemory(memory: Memory | null | undefined): string {
  if (memory === null || memory === undefined) return '[]';
  if (typeof memory === 'string') return memory.trim() || '[]';
  if (Array.isArray(memory)) return pythonJson(memory);
  return Object.keys(memory).length ? pythonJson([memory]) : '[]';
}
