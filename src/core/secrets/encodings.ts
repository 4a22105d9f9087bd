/**
 * The forms a value takes when a page, a URL or a request body carries it: as typed, URL-encoded
 * (`encodeURIComponent`, or a form's `application/x-www-form-urlencoded` with `+` for a space; hex
 * in either case), HTML entities (`&#64;`, `&#x40;`, `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`),
 * JSON-escaped (`\"`, `\\`, `\/`, `\n`…, `\u0040` for any character), base64 and base64url of its
 * UTF-8 bytes (padded or not, and at each of the 3 byte alignments inside a longer base64 string).
 *
 * One list for both users of it:
 * - the request hold (guards/request-hold.ts) looks for the literal forms (encodedForms) in a request,
 *   and also decodes the request to find mixed and nested forms;
 * - masking (index.ts hideIn) replaces every occurrence with the value's placeholder or mask,
 *   through one regular expression per value (matcherOf): each character of the value as typed or
 *   in any of the per-character encodings above (so a mix, `alice%40example.com` or
 *   `a\u0026b`, matches too; `%2f` and `%2F` alike), or one of the value's base64 forms.
 *
 * Not matched by masking: nested encodings (URL-encoded base64, base64 of JSON, a value
 * URL-encoded twice), which the request hold finds by decoding. Pure.
 */
import { base64Encode } from '../export/data-url';

/** How a value was written in a text. */
export type Carried = 'raw' | 'url' | 'json' | 'html' | 'base64';

/** A base64 form shorter than this is not looked for: a short one matches by chance. */
export const MIN_BASE64_NEEDLE = 6;

const encoder = new TextEncoder();
/** The UTF-8 bytes of a string. */
export const utf8 = (s: string): Uint8Array => encoder.encode(s);

/** The base64 of `bytes` at each of the 3 alignments, only the characters no neighbouring byte changes. */
export function base64Needles(bytes: Uint8Array): string[] {
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const padded = new Uint8Array(k + bytes.length);
    padded.set(bytes, k);
    const enc = base64Encode(padded).replace(/=+$/, '');
    const start = Math.ceil((8 * k) / 6);
    const end = Math.floor((8 * (k + bytes.length)) / 6);
    const needle = enc.slice(start, end);
    if (needle.length >= MIN_BASE64_NEEDLE) out.push(needle);
  }
  return out;
}

const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

/** The form encoding (`application/x-www-form-urlencoded`, as a browser submits a form): only `*-._` and alphanumerics kept, `+` for a space. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
}

const HTML_NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Whether the string has a lone surrogate (encodeURIComponent would throw). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The value written in each encoding, as literal strings, each once and never the value itself:
 * what the request hold searches a request for. Masking (matcherOf) matches all of these and more.
 */
export function encodedForms(value: string): Array<[Carried, string]> {
  const out: Array<[Carried, string]> = [];
  const add = (how: Carried, s: string) => { if (s !== value && !out.some(([, n]) => n === s)) out.push([how, s]); };
  const lower = (s: string) => s.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
  if (!LONE_SURROGATE.test(value)) {
    const uri = encodeURIComponent(value);
    add('url', uri);
    add('url', lower(uri));
    add('url', uri.replace(/%20/g, '+'));
    const form = formEncode(value);
    add('url', form);
    add('url', lower(form));
  }
  add('json', JSON.stringify(value).slice(1, -1));
  const units = value.split('').map((c) => c.charCodeAt(0).toString(16).padStart(4, '0'));
  add('json', units.map((h) => `\\u${h}`).join(''));
  add('json', units.map((h) => `\\u${h.toUpperCase()}`).join(''));
  add('html', value.replace(/[&<>"']/g, (c) => HTML_NAMED[c]));
  const points = [...value].map((c) => c.codePointAt(0)!);
  add('html', points.map((p) => `&#${p};`).join(''));
  add('html', points.map((p) => `&#x${p.toString(16)};`).join(''));
  for (const b of base64Needles(utf8(value))) {
    add('base64', b);
    add('base64', urlSafe(b));
  }
  return out;
}

// --- masking: one regular expression per value ----------------------------------------------

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
/** Hex digits matched in either case: "2f" -> "2[fF]". */
const hexCi = (hex: string) => hex.replace(/[a-fA-F]/g, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
const hex2 = (n: number) => n.toString(16).padStart(2, '0');

const JSON_SHORT: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
const HTML_NAMED_RE: Record<string, string> = { '&': '&(?:amp|AMP);', '<': '&(?:lt|LT);', '>': '&(?:gt|GT);', '"': '&(?:quot|QUOT);', "'": '&apos;' };

/** One character (a code point) of a value, as typed or in any encoding: a regex alternation, the encoded forms first. */
function charAlternatives(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const surrogate = cp >= 0xd800 && cp <= 0xdfff;
  const alts: string[] = [];
  // HTML: decimal and hex character references, leading zeros allowed; the named ones
  if (!surrogate) {
    alts.push(`&#0*${cp};`, `&#[xX]0*${hexCi(cp.toString(16))};`);
    if (HTML_NAMED_RE[ch]) alts.push(HTML_NAMED_RE[ch]);
  }
  // JSON: \uXXXX for each UTF-16 unit, the short escapes
  alts.push(ch.split('').map((u) => `\\\\u${hexCi(u.charCodeAt(0).toString(16).padStart(4, '0'))}`).join(''));
  if (JSON_SHORT[ch]) alts.push(`\\\\${escapeRe(JSON_SHORT[ch])}`);
  // URL: %XX for each UTF-8 byte, + for a space
  if (!surrogate) alts.push([...utf8(ch)].map((b) => `%${hexCi(hex2(b))}`).join(''));
  if (ch === ' ') alts.push('\\+');
  alts.push(escapeRe(ch));
  return alts.length === 1 ? alts[0] : `(?:${alts.join('|')})`;
}

/**
 * Characters with an encoding that starts with the character itself (`\` and `\\`, `&` and
 * `&amp;`, `%` and `%25`): matched atomically (the first alternative that fits is kept), or a run
 * of them could be read in exponentially many ways (20 backslashes took seconds).
 */
const AMBIGUOUS = new Set(['\\', '&', '%']);

/** The regex source for `value` in every encoding (see the module's comment). */
export function encodedPattern(value: string): string {
  let groups = 0;
  const chars = [...value].map((ch) => {
    const alts = charAlternatives(ch);
    if (!AMBIGUOUS.has(ch)) return alts;
    groups++;
    // an atomic group: a lookahead is never re-entered; (?:\N) so a digit after it is not read as part of N
    return `(?=(${alts}))(?:\\${groups})`;
  }).join('');
  const bytes = utf8(value);
  const whole = base64Encode(bytes).replace(/=+$/, '');
  const b64: string[] = [];
  // the whole value's base64 (standard, URL-safe), with its padding when there is one
  if (whole.length >= MIN_BASE64_NEEDLE) b64.push(`${escapeRe(whole)}={0,2}`, `${escapeRe(urlSafe(whole))}={0,2}`);
  // inside a longer base64 string, at each alignment: the characters only the value's bytes set
  for (const [how, form] of encodedForms(value)) if (how === 'base64') b64.push(escapeRe(form));
  // as typed first: an atomic character may take the start of an encoding the raw value holds (`%25` for `%`)
  const raw = groups ? [escapeRe(value)] : [];
  return [...new Set([...b64.slice(0, 2), ...raw, chars, ...b64.slice(2)])].join('|');
}

/** Compiled matchers by value: a run masks every string of every step with the same few values. */
const matchers = new Map<string, RegExp>();
const MAX_MATCHERS = 256;

/** A global regex matching `value` in every encoding (compiled once per value and kept). */
export function matcherOf(value: string): RegExp {
  let re = matchers.get(value);
  if (!re) {
    if (matchers.size >= MAX_MATCHERS) matchers.clear();
    re = new RegExp(encodedPattern(value), 'g');
    matchers.set(value, re);
  }
  return re;
}

/** Whether `text` carries `value` in any encoding masking knows. */
export function hasEncoded(text: string, value: string): boolean {
  if (!value || !text) return false;
  const re = matcherOf(value);
  re.lastIndex = 0;
  const found = re.test(text);
  re.lastIndex = 0;
  return found;
}

/** The SHA-256 of `bytes`, in hex (a picture's identity: the picture check, the pictures read by OCR). */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer> | Uint8ClampedArray<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
