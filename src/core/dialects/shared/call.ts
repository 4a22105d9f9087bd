/**
 * Reading Python-style calls the dialects share (`name(a='x', b=[1, 2])`): arguments, named or
 * positional, quoted with Python escapes or bare, read leniently and linearly.
 */

export interface Arg {
  /** lower-case name, or null for a positional value */
  name: string | null;
  /** the value: a quoted string decoded, anything else as written (trimmed) */
  value: string;
  quoted: boolean;
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

/** The named argument (any of `names`), else the positional value at `position`. */
export function argOf(args: Arg[], names: string[], position: number | null): Arg | null {
  const named = args.find((a) => a.name !== null && names.includes(a.name));
  if (named) return named;
  if (position === null) return null;
  const positional = args.filter((a) => a.name === null);
  return positional[position] ?? null;
}

