/**
 * What changed in the model's memory from one step to the next: the keys added, removed and
 * changed (top-level keys; values compared deeply, key order ignored). Pure: the side panel's
 * run detail shows it under each step's memory.
 */
export type Memory = Record<string, unknown>;

export interface MemoryDiff {
  added: Array<{ key: string; value: unknown }>;
  removed: Array<{ key: string; value: unknown }>;
  changed: Array<{ key: string; before: unknown; after: unknown }>;
}

/** Deep equality of JSON-like values (objects compared by their keys, in any order). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameValue(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && sameValue(ao[k], bo[k]));
}

/**
 * A dialect's memory as keys: an object as it is, a list (glm-pc) by position ("1", "2", …),
 * text (glm-mobile) as one "text" key.
 */
function asMemory(m: unknown): Memory {
  if (Array.isArray(m)) return Object.fromEntries(m.map((x, i) => [String(i + 1), x]));
  if (typeof m === 'string') return m.trim() ? { text: m } : {};
  return m && typeof m === 'object' ? (m as Memory) : {};
}

/**
 * The difference from `before` (the previous step's memory; null or {} for the first step) to
 * `after`. Keys keep the order they have in `after` (added, changed) and `before` (removed).
 * A key whose value is undefined counts as absent.
 */
export function diffMemory(before: unknown, after: unknown): MemoryDiff {
  const b = asMemory(before);
  const a = asMemory(after);
  const has = (o: Memory, k: string) => Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined;
  const diff: MemoryDiff = { added: [], removed: [], changed: [] };
  for (const key of Object.keys(a)) {
    if (!has(a, key)) continue;
    if (!has(b, key)) diff.added.push({ key, value: a[key] });
    else if (!sameValue(b[key], a[key])) diff.changed.push({ key, before: b[key], after: a[key] });
  }
  for (const key of Object.keys(b)) {
    if (has(b, key) && !has(a, key)) diff.removed.push({ key, value: b[key] });
  }
  return diff;
}

export function isEmptyDiff(d: MemoryDiff): boolean {
  return !d.added.length && !d.removed.length && !d.changed.length;
}
