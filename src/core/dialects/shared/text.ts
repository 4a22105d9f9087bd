/**
 * Text helpers the dialects share: full-width punctuation to ASCII, trimming given characters,
 * one field on one line. Only for syntax; typed and answer text is never changed.
 */
import type { DialectContext } from '../types';

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


/** A dialect's words for what a task line may carry besides the task (Dialect.answerFormat, Dialect.endAction). */
export interface TaskWords { answerFormat: (schema: string) => string; endAction: string }

/**
 * The task as a dialect puts it in its prompt: the first task; each follow-up after it, saying how
 * the turn before ended (by the grammar's end action, with its answer) and that the follow-up is
 * the task to do now; then the answer schema's line when the task has one.
 */
export function taskText(ctx: Pick<DialectContext, 'task' | 'answerSchema' | 'followUps'>, words: TaskWords): string {
  let text = String(ctx.task ?? '');
  for (const [i, f] of (ctx.followUps ?? []).entries()) {
    const before = f.before.done
      ? `The task above is done (it ended with ${words.endAction}${f.before.answer ? `, answer: ${f.before.answer}` : ''}).`
      : 'The task above was stopped before it was done.';
    text += `\n\n${before}\nFollow-up ${i + 1} from the user, the task to do now, going on in the same browser from the current screen: ${f.task}`;
  }
  return ctx.answerSchema ? `${text}\n${words.answerFormat(ctx.answerSchema)}` : text;
}
