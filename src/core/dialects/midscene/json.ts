/**
 * The planner's JSON reply read tolerantly: code fences and prose around it, // and /* *\/
 * comments (models copy the seed's commented schema), trailing commas, single quotes, Python
 * literals and bare keys. Reuses the shared helpers (reply-text.ts, glm-web's repairJson,
 * glm-mobile's quoteBareKeys) rather than a JSON parser of its own.
 */
import { repairJson } from '../glm-web/memory';
import { quoteBareKeys } from '../glm-mobile/action';
import { balancedSpan, tryJson } from '../reply-text';

/** `text` without comments outside strings (both quote kinds are strings, as in the seed's schema). */
export function stripComments(text: string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      out += c;
      if (c === '\\' && i + 1 < text.length) out += text[++i];
      else if (c === quote || c === '\n') quote = null; // a string does not span lines: an apostrophe in prose ends at the line
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    out += c;
  }
  return out;
}

export type JsonRead = { ok: true; value: unknown; end: number } | { ok: false; error: string };

/** The value of one JSON text (an object, array, null...), repaired if need be; undefined when unreadable. */
export function readLoose(text: string): unknown {
  for (const candidate of [text, repairJson(text), quoteBareKeys(repairJson(text))]) {
    const r = tryJson(candidate);
    if (r.ok) return r.value;
  }
  return undefined;
}

/**
 * The first JSON object in `text` (after comments are removed), read loosely. A reply cut off
 * before its last brace is read up to the last `}` there is.
 */
export function firstObject(text: string): JsonRead {
  const open = text.indexOf('{');
  if (open < 0) return { ok: false, error: 'no JSON object' };
  const body = stripComments(text.slice(open));
  let span = balancedSpan(body, 0);
  if (span === null) {
    const close = body.lastIndexOf('}');
    if (close < 0) return { ok: false, error: 'the JSON object is not closed' };
    span = body.slice(0, close + 1);
  }
  const value = readLoose(span);
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'the JSON object could not be read' };
  }
  return { ok: true, value, end: open + span.length };
}
