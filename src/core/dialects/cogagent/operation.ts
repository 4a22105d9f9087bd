import { readArgs, type Arg } from '../shared/call';
import { normalizeWidth } from '../shared/text';
/**
 * Finding and reading CogAgent's Grounded Operation, a Python-style call such as
 * `CLICK(box=[[387,248,727,317]], element_type='Clickable text', element_info='Click to add Title')`.
 * Its arguments are read by the same lenient reader as GLM's computer calls (glm-pc/call.ts
 * readArgs: quotes of either kind, unquoted lists, Python escapes, full-width punctuation, a
 * missing ")" at the end of a reply cut off). Scans are linear: hostile replies must not make
 * them backtrack.
 */

/** The operations of CogAgent's action space (seed 000), as it writes them. */
export const OPERATIONS = [
  'CLICK', 'DOUBLE_CLICK', 'RIGHT_CLICK', 'HOVER', 'TYPE',
  'SCROLL_UP', 'SCROLL_DOWN', 'SCROLL_LEFT', 'SCROLL_RIGHT',
  'KEY_PRESS', 'GESTURE', 'LAUNCH', 'QUOTE_TEXT', 'LLM', 'QUOTE_CLIPBOARD', 'END',
] as const;

export type OperationName = (typeof OPERATIONS)[number];

export const OPERATION_LIST = OPERATIONS.join(', ');

export interface Operation {
  /** the operation, or null when the name is not one of the action space's */
  name: OperationName | null;
  /** the name as written */
  written: string;
  args: Arg[];
  /** the operation as written, from its name to its ")" */
  text: string;
  start: number;
  end: number;
}

/** "Grounded Operation:" (any case, markdown around it, a full-width colon, no space after it). */
export const OPERATION_LABEL = /(?:^|\n)[-*>#_ \t`]*grounded[ \t_]*operation[*_ \t`]*[:：][*_ \t`]*/gi;

/** A call's name and "(" at a line start, after markdown or an "Operation:" label. */
const LINE_CALL = /(?:^|\n)[-*>#_ \t`]*(?:(?:grounded[ \t_]*)?operation[*_ \t`]*[:：][*_ \t`]*)?([A-Za-z][A-Za-z0-9_]{0,40})[ \t]*[(（]/g;

const NAME_AT = /^[ \t`*]*([A-Za-z][A-Za-z0-9_]{0,40})[ \t]*([(（]?)/;

function known(written: string): OperationName | null {
  const up = written.toUpperCase();
  return (OPERATIONS as readonly string[]).includes(up) ? (up as OperationName) : null;
}

/**
 * The operation written at `at` (after a "Grounded Operation:" label), or null when no name is
 * there. `END` without brackets is read as END().
 */
export function operationAt(text: string, at: number): Operation | null {
  const m = NAME_AT.exec(text.slice(at, at + 80));
  if (!m) return null;
  const start = at + m[0].indexOf(m[1]);
  const name = known(m[1]);
  if (!m[2]) {
    // a bare name: only END (nothing to read) is an operation without brackets
    if (name !== 'END') return null;
    return { name, written: m[1], args: [], text: m[1], start, end: start + m[1].length };
  }
  const { args, end } = readArgs(text, at + m[0].length);
  return { name, written: m[1], args, text: text.slice(start, end).trim(), start, end };
}

/** The first call of the action space that starts a line (a reply without the label), or null. */
export function lineOperation(text: string): Operation | null {
  LINE_CALL.lastIndex = 0;
  let count = 0;
  for (let m = LINE_CALL.exec(text); m && count < 200; m = LINE_CALL.exec(text), count++) {
    if (!known(m[1])) continue;
    const at = m.index + m[0].lastIndexOf(m[1]);
    return operationAt(text, at);
  }
  return null;
}

/** The numbers of a box value: "[[387,248,727,317]]", "[000,086,999,932]", "［1，2，3，4］". */
export function numbersOf(value: string): number[] {
  const s = normalizeWidth(value).slice(0, 200);
  // a digit inside a word ("x1") is not a number
  return (s.match(/(?<![A-Za-z_\d.])-?\d+(?:\.\d+)?/g) ?? []).map(Number).filter(Number.isFinite);
}

/** Python's None (or nothing) as a value: absent. */
export function isNone(arg: Arg | null): boolean {
  if (!arg) return true;
  const v = arg.value.trim();
  return v === '' || /^(?:none|null|nil)$/i.test(v);
}

/** Python's True as a value ("True", "true", "1", "yes"). */
export function isTrue(arg: Arg | null): boolean {
  return !!arg && /^(?:true|1|yes)$/i.test(arg.value.trim());
}
