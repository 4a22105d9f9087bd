/**
 * Reply parser for the GLM-4.5V computer dialect. A reply is a plain-text explanation, one call
 * of the action space, then "Memory:" and a JSON list:
 *
 *   I can see an error dialog. I'll click the OK button to close it.
 *   left_click(start_box='[586, 446]', element_info='OK button')
 *   Memory:
 *   []
 *
 * Read leniently (think blocks or a separate reasoning field, <answer>, box tokens, code fences,
 * markdown, "Action:" labels, the memory before the call); the thought is the explanation: the
 * text without the call and the memory part (the seed's bot_thought). Never throws: anything
 * unreadable becomes a ParseError whose message tells the model what to write.
 */
import type { Action, Memory, ParsedStep, ParseError } from '../../action/action';
import type { ShotGeometry } from '../../action/coords';

import { CALL_HELP, callToAction } from './action';
import { findCalls, unknownCallName, type Call } from './call';
import { parseMemoryList } from './memory';
import { unwrap } from '../shared/reply-text';
import { trimChars } from '../shared/text';
import { readReply, type BodyRead } from '../shared/define';

export const NOTE_EXTRA_ACTIONS = 'Only the first action was run; the rest were ignored.';
export const NOTE_NO_MEMORY = 'No Memory part was given; the previous memory was kept.';

/** How a reply should look, for error messages. */
export const REPLY_HELP = `${CALL_HELP}, after a short plain-text explanation, then "Memory:" and a JSON list on the next line (e.g. [])`;

/** "Memory:" (or "Memory_Updated:", "**Memory:**") — at a line start, or anywhere. */
const MEMORY_LINE = /^[-*>#_ \t]*(?:memory(?:[ _-]?updated)?|updated[ _-]memory)[*_ \t]*[:：][*_ \t]*/gim;
const MEMORY_ANY = /(?<![A-Za-z_])(?:memory(?:[ _-]?updated)?|updated[ _-]memory)[*_ \t]*[:：][*_ \t]*/gi;

type BodyResult =
  | { ok: true; thought: string; action: Action; actionText: string; memory: Memory | null; notes: string[] }
  /** missing: no call at all (so the reasoning may be tried) */
  | { ok: false; error: string; missing: boolean };

/** The first match of a global regex at or after `from`. */
export function firstMatch(re: RegExp, s: string, from = 0): { index: number; length: number } | null {
  re.lastIndex = 0;
  for (const m of s.matchAll(re)) if (m.index >= from) return { index: m.index, length: m[0].length };
  return null;
}

/** The call that is the action: the first at a line start, else the last "name(" in prose. */
function chooseCall(calls: Call[]): { call: Call; others: Call[] } | null {
  const lineStart = calls.filter((c) => c.lineStart);
  if (lineStart.length) return { call: lineStart[0], others: lineStart.slice(1) };
  // In prose, "the key(s) to press" is not a call: only a call with a named or quoted value is.
  const plausible = calls.filter((c) => c.args.some((a) => a.name !== null || a.quoted) || (['wait', 'done', 'fail'].includes(c.name) && c.args.length === 0));
  const tight = plausible.filter((c) => c.tight);
  const pool = tight.length ? tight : plausible;
  return pool.length ? { call: pool[pool.length - 1], others: [] } : null;
}

/** The explanation: labels, markdown left over around the call, and blank runs removed. */
function cleanThought(before: string, between: string): string {
  const b = before
    .replace(/(?:^|\n)[-*>#_ \t`]*(?:action|call|answer)[*_ \t]*[:：][*_ \t`]*$/i, '')
    .replace(/^[-*>#_ \t]*(?:thought|thoughts|explanation)[*_ \t]*[:：][*_ \t]*/i, '');
  const joined = [trimChars(b, '`*'), trimChars(between, '`*')].filter(Boolean).join('\n');
  return joined.replace(/\n{3,}/g, '\n\n').trim();
}

function parseBody(raw: string, shot: ShotGeometry, preferLast: boolean): BodyResult {
  const body = unwrap(raw);
  if (!body.trim()) return { ok: false, error: `The reply was empty. ${REPLY_HELP}`, missing: true };

  // Calls before the first "Memory:" line, else anywhere (the memory may come first).
  const memLine = firstMatch(MEMORY_LINE, body);
  const all = findCalls(body);
  const beforeMemory = memLine ? all.filter((c) => c.start < memLine.index) : all;
  const calls = beforeMemory.length ? beforeMemory : all;
  const chosen = preferLast
    ? (calls.length ? { call: calls.filter((c) => c.lineStart).at(-1) ?? calls[calls.length - 1], others: [] } : null)
    : chooseCall(calls);
  if (!chosen) {
    const unknown = unknownCallName(body);
    const error = unknown
      ? `Unknown action '${unknown.slice(0, 40)}'. ${REPLY_HELP}`
      : `No action call was found. ${REPLY_HELP}`;
    return { ok: false, error, missing: !unknown };
  }
  const { call } = chosen;

  // The memory part: after the call, else before it (up to the call).
  let memText: string | null = null;
  let memSpan: [number, number] | null = null;
  const after = firstMatch(MEMORY_LINE, body, call.end) ?? firstMatch(MEMORY_ANY, body, call.end);
  if (after) {
    memText = body.slice(after.index + after.length);
    memSpan = [after.index, body.length];
  } else if (memLine && memLine.index < call.start) {
    memText = body.slice(memLine.index + memLine.length, call.start);
    memSpan = [memLine.index, call.start];
  }

  let thought: string;
  if (memSpan && memSpan[1] <= call.start) thought = cleanThought(body.slice(0, memSpan[0]), body.slice(call.end));
  else thought = cleanThought(body.slice(0, call.start), body.slice(call.end, memSpan ? memSpan[0] : body.length));

  const r = callToAction(call, thought, shot);
  if (!r.ok) return { ok: false, error: `${r.error}.`.replace(/\.\.$/, '.'), missing: false };
  const notes = [...r.notes];
  if (chosen.others.some((c) => c.start >= call.end && callToAction(c, thought, shot).ok)) notes.push(NOTE_EXTRA_ACTIONS);

  let memory: Memory | null = null;
  if (memText === null) notes.push(NOTE_NO_MEMORY);
  else {
    const m = parseMemoryList(memText);
    if (m.ok) memory = m.memory;
    else notes.push(m.note);
  }
  return { ok: true, thought, action: r.action, actionText: call.text, memory, notes };
}

function stepOf(r: BodyResult): BodyRead {
  if (!r.ok) return r;
  return { ok: true, step: { thought: r.thought, action: r.action, actionText: r.actionText, memory: r.memory, notes: r.notes } };
}

/** Parse a GLM-4.5V computer reply (the reasoning's last call when the reply has none). Never throws. */
export function parseGlmPcReply(content: string, reasoningContent: string | null | undefined, shot: ShotGeometry): ParsedStep | ParseError {
  return readReply(content, reasoningContent, (body, fromReasoning) => stepOf(parseBody(body, shot, fromReasoning)), { noText: `The reply had no text after the reasoning. ${REPLY_HELP}`, help: `. ${REPLY_HELP}` });
}
