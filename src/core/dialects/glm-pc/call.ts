import { type Arg, readArgs } from '../shared/call';
/**
 * Finding and reading the function call of a GLM-4.5V computer reply, e.g.
 * `left_click(start_box='[586, 446]', element_info='OK button')`, leniently: any case, a space
 * before "(", double or curly quotes, unquoted values (`step=5`, `start_box=[1,2]`), positional
 * values, full-width "（，＝）", Python escapes in strings, a missing ")" at the end of a reply cut
 * off by the token limit, and unescaped quotes inside a string where they cannot end it
 * (`content='it's'`). Scans are linear: hostile replies must not make them backtrack.
 */

/** The calls of the action space, lower-case (WAIT, DONE and FAIL are matched in any case). */
export const FUNCTIONS = [
  'left_click', 'right_click', 'middle_click', 'hover', 'left_double_click', 'left_drag',
  'key', 'type', 'scroll', 'wait', 'done', 'fail',
] as const;

export type FunctionName = (typeof FUNCTIONS)[number];

/** The names as the action space writes them, for messages. */
export const FUNCTION_LIST = 'left_click, right_click, middle_click, hover, left_double_click, left_drag, key, type, scroll, WAIT, DONE, FAIL';

const CALL_START = /(?<![A-Za-z0-9_])(left_double_click|left_click|right_click|middle_click|left_drag|hover|key|type|scroll|wait|done|fail)([ \t]*)[(（]/gi;

/** Markdown, list bullets and an "Action:" label that may come before a call on its line. */
const LINE_PREFIX = /^[\s>*`#•·-]*(?:\d+[.)][ \t]*)?(?:(?:action|call|answer|操作|动作)[*_ \t]*[:：][*_ \t`]*)?$/i;

export interface Call {
  name: FunctionName;
  /** where the name starts and where the call ends (after ")", or the end of the text) */
  start: number;
  end: number;
  args: Arg[];
  /** the call as written */
  text: string;
  /** the call starts its line (after markdown or an "Action:" label) */
  lineStart: boolean;
  /** "name(" with nothing between the name and "(" */
  tight: boolean;
}

/** Every call of the action space in `text`, in order, calls inside an earlier call left out. */
export function findCalls(text: string): Call[] {
  const calls: Call[] = [];
  let after = 0;
  CALL_START.lastIndex = 0;
  for (let m = CALL_START.exec(text); m; m = CALL_START.exec(text)) {
    if (m.index < after) continue;
    const { args, end } = readArgs(text, m.index + m[0].length);
    const lineBegin = text.lastIndexOf('\n', m.index - 1) + 1;
    calls.push({
      name: m[1].toLowerCase() as FunctionName,
      start: m.index,
      end,
      args,
      text: text.slice(m.index, end).trim(),
      lineStart: LINE_PREFIX.test(text.slice(lineBegin, m.index)),
      tight: m[2] === '',
    });
    after = end;
    CALL_START.lastIndex = Math.max(end, m.index + 1);
    if (calls.length >= 200) break;
  }
  return calls;
}

/**
 * An identifier call at a line start that is not in the action space ("click(...)"), or null.
 * The prefix stays on its line (spaces, not `\s`, which spans line breaks): tried at every line start of
 * a reply of blank lines, it made this scan quadratic (a 40 kB reply of newlines took 0.7 s).
 */
export function unknownCallName(text: string): string | null {
  const m = /^[ \t\f\v\u00a0\u3000>*`#•·-]*(?:(?:action|call)[*_ \t]*[:：][*_ \t`]*)?([A-Za-z_][A-Za-z0-9_.]{0,40})[ \t]*[(（]/im.exec(text);
  return m ? m[1] : null;
}
