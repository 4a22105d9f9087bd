/**
 * Page text made unable to look like the element list's structure (docs/labeling.md, "Page text
 * cannot forge the list"). The glm-web list is `[3]: <button> "Close";` entries and the reply
 * grammar is `Thought:` / `Action:` / `Memory_Updated:` lines with actions such as `Click [3]` and
 * `ANSWER; <content>…</content>`; page text written into the list keeps its words but loses those
 * shapes:
 * - a number in square brackets, `[12]`, takes full-width brackets: `［12］` (a person still reads
 *   "12 in brackets"; the list's own labels use ASCII brackets only);
 * - a tag, `<button>` or `</content>`, takes single angle quotes: `‹button›`, `‹/content›`;
 * - a reply keyword followed by a colon, `Action:` (also Thought, Memory_Updated, Memory,
 *   Observation; any case, an ASCII or full-width colon), becomes `Action –`.
 * Text without these shapes is returned unchanged, byte for byte.
 */

const LABEL = /\[(\s*\d+\s*)\]/g;
const TAG = /<(\/?[A-Za-z][\w:-]*)(\s*\/?)>/g;
const KEYWORD = /\b(memory_updated|memory|thought|action|observation)\s*[:：]/gi;

export function neutralizePageText(s: string): string {
  if (!/[[<:：]/.test(s)) return s;
  return s
    .replace(LABEL, '［$1］')
    .replace(TAG, '‹$1$2›')
    .replace(KEYWORD, '$1 –');
}
