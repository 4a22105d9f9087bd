/**
 * JSON as models write it, read tolerantly: code fences and prose around it, // and /* *\/
 * comments (models copy a seed's commented schema), trailing commas, single quotes, Python
 * literals (None/True/False) and bare keys.
 */
import { balancedSpan, tryJson } from './reply-text';

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const WORD = /[A-Za-z_]\w*/y;

const TRAILING_COMMA = /,\s*[}\]]/y;

/** Python-ish / sloppy JSON to JSON, token by token so string contents are never touched. */
export function repairJson(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (c === '"' || c === "'") {
      // Copy a string, re-emitting it double-quoted.
      let body = '';
      let j = i + 1;
      for (; j < s.length && s[j] !== c; j++) {
        if (s[j] === '\\' && j + 1 < s.length) {
          const n = s[j + 1];
          body += n === "'" ? "'" : '\\' + n; // \' is not a JSON escape
          j++;
        } else if (s[j] === '"') body += '\\"';
        else if (s[j] === '\n') body += '\\n';
        else if (s[j] === '\r') body += '\\r';
        else if (s[j] === '\t') body += '\\t';
        else body += s[j];
      }
      out += `"${body}"`;
      i = j + 1;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(s);
    if (word) {
      const w = word[0];
      out += w === 'None' ? 'null' : w === 'True' ? 'true' : w === 'False' ? 'false' : w;
      i += w.length;
      continue;
    }
    if (c === ',') {
      // Drop a trailing comma before a closing bracket.
      TRAILING_COMMA.lastIndex = i;
      const rest = TRAILING_COMMA.exec(s);
      if (rest) {
        i += rest[0].length - 1;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/** Quote bare keys (`{action_type: "click"}`) in repaired JSON, whose strings are all double-quoted. */
export function quoteBareKeys(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (c === '"') {
      let j = i + 1;
      while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      out += s.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const word = /^[A-Za-z_][\w-]*/.exec(s.slice(i, i + 64));
    if (word) {
      let k = i + word[0].length;
      while (k < s.length && (s[k] === ' ' || s[k] === '\t')) k++;
      const w = word[0];
      out += s[k] === ':' && !['true', 'false', 'null'].includes(w) ? `"${w}"` : w;
      i += w.length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

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
