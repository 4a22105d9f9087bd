/**
 * Reading a WebVoyager task folder the way WebVoyager's evaluation/auto_eval.py reads it:
 * - the task: the second message's text (a string, or a content list whose first part is text)
 *   matched by `Now given a task:(.+?)Please interact with` (one line, as the regex does not
 *   cross lines), trimmed;
 * - the answer: the last message must contain `Action: ANSWER`; its answer is what the export's
 *   `wvAnswerOf` reads (auto_eval.py's own pattern);
 * - the screenshots: files named `screenshot{N}.png` (not `screenshot{N}_no_box.png`), sorted by
 *   N, the last k of them.
 * auto_eval.py scores a folder with only the system message, or without an answer, as a failure
 * without asking its model; `readInteractMessages` says why in `reason` so the caller can do
 * the same. A file that is not a message list at all is `broken` (an error, not a failed run).
 */
import { wvAnswerOf } from '../export/webvoyager';

/** What a folder's interact_messages.json gives a judge. */
export type InteractRead =
  | { ok: true; task: string; answer: string }
  | { ok: false; task: string | null; reason: string; broken?: true };

const TASK_PATTERN = /Now given a task:(.+?)Please interact with/;

/** The text of a message's content: a string, or the text of a content list's parts (first part for the task). */
function textOf(content: unknown, firstOnly: boolean): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  if (firstOnly) {
    const first = content[0] as { text?: unknown } | undefined;
    return first && typeof first.text === 'string' ? first.text : null;
  }
  const texts = content
    .filter((p): p is { text: string } => !!p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string')
    .map((p) => p.text);
  return texts.length ? texts.join('\n') : null;
}

/** Reads the task and the answer from the text of an interact_messages.json, or why there is none. */
export function readInteractMessages(json: string): InteractRead {
  let messages: unknown;
  try {
    messages = JSON.parse(json);
  } catch {
    return { ok: false, task: null, reason: 'interact_messages.json is not JSON.', broken: true };
  }
  if (!Array.isArray(messages) || messages.length === 0) {
    return { ok: false, task: null, reason: 'interact_messages.json holds no messages.', broken: true };
  }
  if (messages.length === 1) {
    return { ok: false, task: null, reason: 'No answer: only the system message (the run made no step).' };
  }
  const first = textOf((messages[1] as { content?: unknown } | null)?.content, true);
  const m = first === null ? null : TASK_PATTERN.exec(first);
  const task = m ? m[1].trim() : null;
  if (task === null) {
    return { ok: false, task: null, reason: 'No task: the second message has no "Now given a task: … Please interact with".' };
  }
  const last = textOf((messages[messages.length - 1] as { content?: unknown } | null)?.content, false) ?? '';
  const answer = wvAnswerOf(last);
  if (answer === null) {
    return { ok: false, task, reason: 'No answer: the last message has no "Action: ANSWER".' };
  }
  return { ok: true, task, answer };
}

/**
 * The default number of screenshots a judge sees. auto_eval.py's `--max_attached_imgs` defaults
 * to 1 and its run_eval.sh passes 15; we choose 3: the last screenshot alone often misses the page
 * the answer was read from (the agent scrolled or moved on), while 15 large images make every
 * judgement slow and costly and overflow the context of smaller judge models. 3 is also how many
 * images WebVoyager's agent itself keeps in its context.
 */
export const DEFAULT_JUDGE_SCREENSHOTS = 3;

const SCREENSHOT = /^screenshot(\d+)\.png$/;

/** Of a folder's file names, the `screenshot{N}.png` ones sorted by N, the last k (none when k ≤ 0). */
export function lastScreenshots(names: string[], k: number = DEFAULT_JUDGE_SCREENSHOTS): string[] {
  if (!(k > 0)) return [];
  const shots = names
    .map((name) => ({ name, m: SCREENSHOT.exec(name) }))
    .filter((s): s is { name: string; m: RegExpExecArray } => s.m !== null)
    .map((s) => ({ name: s.name, n: Number(s.m[1]) }))
    .sort((a, b) => a.n - b.n);
  return shots.slice(-Math.floor(k)).map((s) => s.name);
}
