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

export interface Arg {
  /** lower-case name, or null for a positional value */
  name: string | null;
  /** the value: a quoted string decoded, anything else as written (trimmed) */
  value: string;
  quoted: boolean;
}

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

const OPEN_QUOTES: Record<string, string> = { "'": "'", '"': '"', '‘': '’', '“': '”', '`': '`', '’': '’', '”': '”' };

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** Python string escapes (\' \" \\ \n \t \r); an unknown escape keeps its backslash, as in Python. */
export function unescapePython(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const n = s[++i];
    switch (n) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case '\\': out += '\\'; break;
      case "'": out += "'"; break;
      case '"': out += '"'; break;
      default: out += '\\' + n;
    }
  }
  return out;
}

/** A Python single-quoted string literal of `s` (what formatAction writes). */
export function quotePython(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
}

/** Does what follows a closing quote end the value: ", name=", ")" or the end of the text? */
function endsValue(s: string, j: number): boolean {
  let k = j;
  while (k < s.length && (s[k] === ' ' || s[k] === '\t')) k++;
  if (k >= s.length || s[k] === ')' || s[k] === '）' || s[k] === '\n' || s[k] === '\r') return true;
  if (s[k] !== ',' && s[k] !== '，') return false;
  k++;
  while (k < s.length && isSpace(s[k])) k++;
  if (k >= s.length || s[k] === ')' || s[k] === '）') return true;
  // ", name=" (a next argument) or ", '..." (a next positional value)
  if (OPEN_QUOTES[s[k]] !== undefined || s[k] === '[' || s[k] === '(' || /\d/.test(s[k])) return true;
  let w = k;
  while (w < s.length && /[A-Za-z_0-9]/.test(s[w])) w++;
  if (w === k) return false;
  while (w < s.length && (s[w] === ' ' || s[w] === '\t')) w++;
  return s[w] === '=' || s[w] === '＝' || s[w] === ':';
}

const MAX_VALUE = 20000;

/** A quoted value starting at `i` (the opening quote): its raw body and the index after it. */
function readQuoted(s: string, i: number): { body: string; next: number } {
  const close = OPEN_QUOTES[s[i]];
  let firstClose = -1;
  // A value longer than this is not looked for past its first closing quote (linear on hostile replies).
  const stop = Math.min(s.length, i + 1 + MAX_VALUE);
  for (let j = i + 1; j < stop; j++) {
    const c = s[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c !== close && !(close === "'" && c === '’') && !(close === '"' && c === '”')) continue;
    if (firstClose < 0) firstClose = j;
    if (endsValue(s, j + 1)) return { body: s.slice(i + 1, j), next: j + 1 };
  }
  if (firstClose >= 0) return { body: s.slice(i + 1, firstClose), next: firstClose + 1 };
  // unclosed (cut off): to the end of the line
  let e = s.indexOf('\n', i + 1);
  if (e < 0) e = s.length;
  return { body: s.slice(i + 1, e), next: e };
}

/** An unquoted value: brackets balanced, up to "," or ")" outside them, or the line's end. */
function readBare(s: string, i: number): { body: string; next: number } {
  let depth = 0;
  let j = i;
  for (; j < s.length; j++) {
    const c = s[j];
    if (c === '\n') break;
    if (c === '[' || c === '(' || c === '［' || c === '（' || c === '{') depth++;
    else if (c === ']' || c === '］' || c === '}' || ((c === ')' || c === '）') && depth > 0)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === ',' || c === '，' || c === ')' || c === '）')) break;
  }
  return { body: s.slice(i, j).trim(), next: j };
}

/**
 * The arguments after "(" at `i`, up to the matching ")" (or the line's end when it never comes).
 * Also read by the CogAgent dialect, whose operations are Python-style calls too.
 */
export function readArgs(s: string, i: number): { args: Arg[]; end: number } {
  const args: Arg[] = [];
  let j = i;
  const skip = (lineBreaks: boolean) => {
    while (j < s.length && (s[j] === ' ' || s[j] === '\t' || (lineBreaks && (s[j] === '\n' || s[j] === '\r')))) j++;
  };
  const isComma = (c: string) => c === ',' || c === '，';
  const isClose = (c: string) => c === ')' || c === '）';
  skip(true);
  for (let guard = 0; guard < 64; guard++) {
    if (j >= s.length) return { args, end: s.length };
    if (isClose(s[j])) return { args, end: j + 1 };
    if (isComma(s[j])) {
      j++;
      skip(true);
      continue;
    }
    let name: string | null = null;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]*[=＝:][ \t]*/.exec(s.slice(j, j + 80));
    if (m && !(m[0].trimEnd().endsWith(':') && s[j + m[0].length] === '/')) {
      name = m[1].toLowerCase();
      j += m[0].length;
    }
    if (j < s.length && OPEN_QUOTES[s[j]] !== undefined) {
      const q = readQuoted(s, j);
      args.push({ name, value: unescapePython(q.body), quoted: true });
      j = q.next;
    } else {
      const b = readBare(s, j);
      args.push({ name, value: b.body, quoted: false });
      j = b.next;
    }
    skip(false);
    if (j >= s.length) return { args, end: s.length };
    if (isClose(s[j])) return { args, end: j + 1 };
    if (isComma(s[j])) {
      j++;
      skip(true);
      continue;
    }
    if (s[j] === '\n' || s[j] === '\r') return { args, end: j }; // unclosed: the call ends with its line
    // junk after a value ("'[1,2]' here"): up to the next separator
    while (j < s.length && !isComma(s[j]) && !isClose(s[j]) && s[j] !== '\n') j++;
  }
  return { args, end: j };
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

/** The named argument (any of `names`), else the positional value at `position`. */
export function argOf(args: Arg[], names: string[], position: number | null): Arg | null {
  const named = args.find((a) => a.name !== null && names.includes(a.name));
  if (named) return named;
  if (position === null) return null;
  const positional = args.filter((a) => a.name === null);
  return positional[position] ?? null;
}
