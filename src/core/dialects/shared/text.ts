/**
 * Text helpers the dialects share: full-width punctuation to ASCII, trimming given characters,
 * one field on one line. Only for syntax; typed and answer text is never changed.
 */

const FULL_WIDTH: Record<string, string> = {
  '：': ':', '；': ';', '【': '[', '】': ']', '［': '[', '］': ']', '，': ',', '（': '(', '）': ')', '。': '.',
};

/** Full-width punctuation and digits to ASCII. Only for syntax, never for typed or answer text. */
export function normalizeWidth(s: string): string {
  return s
    .replace(/[：；【】［］，（）。]/g, (c) => FULL_WIDTH[c])
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
}

/**
 * Trim any of `chars` (and whitespace) from both ends. A loop, not a `[...]+$`
 * regex: those backtrack quadratically on long whitespace runs in hostile replies.
 */
export function trimChars(s: string, chars: string, ends: 'both' | 'end' = 'both'): string {
  let a = 0;
  let b = s.length;
  if (ends === 'both') while (a < b && strips(s[a], chars)) a++;
  while (b > a && strips(s[b - 1], chars)) b--;
  return s.slice(a, b);
}

/** One function for every call (a closure per call cost a second on a reply of a million lines). */
function strips(c: string, chars: string): boolean {
  return chars.includes(c) || /\s/.test(c);
}

/** One history field on one line: line breaks would break the step's "Name: value" lines. */
export function oneLine(s: unknown): string {
  // split + trim rather than / *[\n\t]+ */, which backtracks quadratically on long space runs
  const parts = String(s ?? '').split(/[\r\n\t\v\f\u0085\u2028\u2029]+/);
  return parts.map((p) => p.trim()).filter(Boolean).join(' ');
}


/** The task as a dialect puts it in its prompt: with the answer schema's line in the dialect's words when the task has one. */
export function taskWithSchema(task: string, schema: string | undefined, format: ((schema: string) => string) | undefined): string {
  return schema && format ? `${task}\n${format(schema)}` : task;
}
