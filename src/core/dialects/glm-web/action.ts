/**
 * One action in the GLM web / WebVoyager grammar ("Click [3]", "Type [2]; [x]",
 * "Scroll [WINDOW]; [down]", "Wait", "GoBack", "Bing", "Key; [Return]",
 * "ANSWER; <content>...</content>"), read leniently: real models drop
 * brackets, change case, use full-width punctuation and add explanations.
 */
import { at, type Action } from '../../action/action';
import { normalizeWidth, trimChars } from '../shared/text';

export type ActionResult = { ok: true; action: Action } | { ok: false; error: string };

/** The action keyword at the start of a line; the lookahead stops "Clicking", "Typed"... */
export const KEYWORD = /^(click|type|scroll|wait|go[ \t_-]*back|bing|google|key|answer)(?![a-z])/i;

/**
 * A line that is itself another action (for the "only the first action was
 * run" note). Stricter than KEYWORD so prose like "Wait, the page..." or
 * "Type of element..." does not count.
 */
const ANOTHER_ACTION =
  /^(?:(?:click|type|scroll)\s*[[［【(]|(?:click|type|scroll)\s+[0-9０-９]|scroll\s+(?:up|down|window)\b|(?:wait|go\s*back|bing|google)[\s.。]*$|(?:key|answer)\s*[;；:：])/i;

/** Markdown and quoting around a whole action line: "**Click [3]**", "`Click [3]`". */
export function stripLineWrap(line: string): string {
  return trimChars(line.replace(/^[\s*`>]+/, ''), '*`', 'end');
}

/** Is this line (after an optional bullet / "Action:" header) another action? */
export function looksLikeAction(line: string): boolean {
  const l = stripLineWrap(line)
    .replace(/^(?:[-+•]|\d+[.)])\s+/, '')
    .replace(/^action[\s*]*[:：][\s*]*/i, '');
  return ANOTHER_ACTION.test(stripLineWrap(l));
}

const QUOTE_PAIRS: Array<[string, string]> = [['"', '"'], ["'", "'"], ['“', '”'], ['‘', '’'], ['「', '」'], ['`', '`']];

/** Strip one pair of surrounding quotes (and a period after them: `"text".`). */
function stripQuotes(s: string): string {
  for (const [open, close] of QUOTE_PAIRS) {
    if (s.length < 2 || !s.startsWith(open)) continue;
    if (s.endsWith(close)) return s.slice(1, -1);
    if (s.endsWith(close + '.') && s.length >= 3) return s.slice(1, -2);
  }
  return s;
}

/** "[x]" -> "x" only when the first bracket closes at the very end ("[a] and [b]" stays). */
function stripOuterBrackets(s: string): string {
  if (!/^[[［【]/.test(s) || !/[\]］】]$/.test(s)) return s;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (/[[［【]/.test(s[i])) depth++;
    else if (/[\]］】]/.test(s[i]) && --depth === 0 && i < s.length - 1) return s;
  }
  return s.slice(1, -1);
}

function toLabel(digits: string): number | null {
  const n = Number(normalizeWidth(digits));
  return Number.isSafeInteger(n) ? n : null;
}

const NEED_LABEL = (verb: string, example: string): ActionResult => ({
  ok: false,
  error: `${verb} needs a numerical label, e.g. "${example}"`,
});

function parseClick(rest: string): ActionResult {
  const r = normalizeWidth(rest).replace(/\s+/g, ' ');
  // "Click [3]", "Click 3", "Click on [3]"; else the first "[N]" further on ("Click the Search button [3]").
  const m = /^\s*(?:on\s+)?(?:element\s+)?(?:label\s+)?[[(]?\s*(\d+)/i.exec(r) ?? /\[\s*(\d+)\s*\]/.exec(r);
  const label = m ? toLabel(m[1]) : null;
  return label === null ? NEED_LABEL('Click', 'Click [3]') : { ok: true, action: { type: 'click', target: at.label(label), button: 'left', count: 1 } };
}

function parseType(rest: string): ActionResult {
  const r = rest.trimStart();
  const head = /^(?:[[［【(（]\s*)?([0-9０-９]+)\s*(?:[\]］】)）])?/.exec(r);
  const label = head ? toLabel(head[1]) : null;
  if (!head || label === null) return NEED_LABEL('Type', 'Type [2]; [hello]');
  const tail = r.slice(head[0].length).replace(/^\s*[;；,，:：]?\s*/, '').trimEnd();
  if (tail === '') {
    return { ok: false, error: 'Type needs the text to type, e.g. "Type [2]; [hello]" ("Type [2]; []" clears the field)' };
  }
  let text: string;
  if (/^[[［【]/.test(tail)) {
    // Bracketed text runs to the LAST closing bracket on the line, so "[a [b] c]" keeps its inner brackets.
    const close = Math.max(tail.lastIndexOf(']'), tail.lastIndexOf('］'), tail.lastIndexOf('】'));
    text = close > 0 ? tail.slice(1, close) : tail.slice(1);
  } else {
    text = tail; // unbracketed: to the end of the line, a trailing period included (it may be meant)
  }
  return { ok: true, action: { type: 'type', target: at.label(label), text: stripQuotes(text.trim()), clear: true, enter: true } };
}

function parseScroll(rest: string): ActionResult {
  const r = normalizeWidth(rest).replace(/\s+/g, ' ');
  const m = /^\s*\[?\s*(\d+|window)?\s*\]?\s*[;,:]?\s*\[?\s*(up|down)(?:wards?)?\b/i.exec(r);
  if (!m) return { ok: false, error: 'Scroll needs a direction, e.g. "Scroll [WINDOW]; [down]" or "Scroll [6]; [up]"' };
  const direction = m[2].toLowerCase() as 'up' | 'down';
  const label = m[1] && /\d/.test(m[1]) ? toLabel(m[1]) : null;
  const target = label === null ? at.window() : at.label(label);
  return { ok: true, action: { type: 'scroll', target, direction } };
}

function parseKey(rest: string): ActionResult {
  let k = trimChars(normalizeWidth(rest).replace(/\s+/g, ' ').trim().replace(/^[;:,]\s*/, ''), '.', 'end');
  k = stripQuotes(stripOuterBrackets(k).trim()).trim();
  if (/^(?:return|enter|回车|回车键)(?:\s*key)?$/i.test(k)) return { ok: true, action: { type: 'key', keys: 'Enter' } };
  if (k === '') return { ok: false, error: 'Key needs a key name; only "Key; [Return]" is supported' };
  return { ok: false, error: `Only the Return key can be pressed ("Key; [Return]"), not '${k.slice(0, 40)}'` };
}

/** Old WebVoyager form "ANSWER; text" (or "ANSWER; [text]"): the whole rest of the Action section. */
export function parseOldAnswer(rest: string): ActionResult {
  const text = stripQuotes(stripOuterBrackets(rest.replace(/^\s*[;；:：,，]?\s*/, '').trim()).trim());
  return answerOf(text);
}

export function answerOf(text: string): ActionResult {
  if (text.trim() === '') {
    return { ok: false, error: 'ANSWER needs the answer text, e.g. "ANSWER; <content>Guatemala</content>"' };
  }
  return { ok: true, action: { type: 'answer', text: text.trim() } };
}

/**
 * Parse one action line (wrappers already stripped). ANSWER is handled by the
 * caller because its text may span several lines.
 */
export function parseActionLine(line: string): ActionResult {
  const m = KEYWORD.exec(line);
  if (!m) {
    const shown = line.trim().slice(0, 60);
    return { ok: false, error: shown ? `Unknown action '${shown}'` : "The 'Action:' line is empty" };
  }
  const kw = m[1].toLowerCase().replace(/[ \t_-]/g, '');
  const rest = line.slice(m[0].length);
  switch (kw) {
    case 'click': return parseClick(rest);
    case 'type': return parseType(rest);
    case 'scroll': return parseScroll(rest);
    case 'wait': return { ok: true, action: { type: 'wait' } };
    case 'goback': return { ok: true, action: { type: 'goBack' } };
    case 'bing':
    case 'google': return { ok: true, action: { type: 'search' } };
    case 'key': return parseKey(rest);
    default: return parseOldAnswer(rest);
  }
}
