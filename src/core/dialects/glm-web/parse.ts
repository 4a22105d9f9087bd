/**
 * Reply parser for the GLM web dialect. Reads every form real models write (test/unit/glm-web-parse.test.ts has them): peel
 * reasoning, <answer>, box tokens, markdown and full-width forms; then read
 * Thought / Action / Memory_Updated. Never throws: anything unreadable becomes
 * a ParseError whose message tells the model what was wrong.
 */
import type { Action, Memory, ParsedStep, ParseError } from '../../action/action';
import { formatWebAction } from './format';
import { KEYWORD, answerOf, looksLikeAction, parseActionLine, parseOldAnswer, stripLineWrap, type ActionResult } from './action';
import { parseMemory } from './memory';
import { allMatches, unwrap, sectionHeader } from '../shared/reply-text';
import { trimChars } from '../shared/text';
import { readReply, type BodyRead } from '../shared/define';

export const NOTE_EXTRA_ACTIONS = 'Only the first action was run; the rest were ignored.';
export const NOTE_NO_MEMORY = 'No Memory_Updated was given; the previous memory was kept.';

type BodyResult =
  | { ok: true; thought: string; action: Action; memory: Memory | null; notes: string[] }
  /** missing: there was no action at all (so another source may be tried) */
  | { ok: false; error: string; missing: boolean };

const ACTION_H = sectionHeader('action');
const THOUGHT_H = sectionHeader('thought|thoughts');
const MEMORY_H = sectionHeader('memory[ _-]?updated|updated[ _-]memory|memory');

/** Where the Action section starts: a line-start header, else an inline "Action:", else a bare action line. */
function findAction(body: string, preferLast: boolean): { start: number; end: number } | null {
  const heads = allMatches(ACTION_H, body);
  if (heads.length) {
    const h = preferLast ? heads[heads.length - 1] : heads[0];
    return { start: h.index, end: h.index + h[0].length };
  }
  const inline = [...body.matchAll(/(?<![A-Za-z_])action[*_ \t]*[:：][*_ \t]*/gi)];
  if (inline.length) {
    const h = inline[inline.length - 1]; // inline mentions come last in a one-line reply
    return { start: h.index, end: h.index + h[0].length };
  }
  // A bare action ("<|begin_of_box|>Click [3]<|end_of_box|>") in the reply itself; never in
  // reasoning, where "Wait, ..." is prose.
  const first = body.search(/\S/);
  if (!preferLast && first >= 0 && looksLikeAction(body.slice(first).split('\n')[0])) return { start: first, end: first };
  return null;
}

function readThought(before: string): string {
  const heads = allMatches(THOUGHT_H, before);
  const t = heads.length ? before.slice(heads[heads.length - 1].index + heads[heads.length - 1][0].length) : before;
  return trimChars(t, '*');
}

function parseBody(raw: string, preferLast: boolean): BodyResult {
  const body = unwrap(raw);
  if (!body.trim()) return { ok: false, error: 'The reply was empty', missing: true };
  const pos = findAction(body, preferLast);
  if (!pos) return { ok: false, error: "No 'Action:' line found", missing: true };

  const thought = readThought(body.slice(0, pos.start));
  const after = body.slice(pos.end);
  const mem = allMatches(MEMORY_H, after)[0];
  const section = mem ? after.slice(0, mem.index) : after;
  let memoryText: string | null = mem ? after.slice(mem.index + mem[0].length) : null;

  // The action line: the rest of the header line, or the next non-empty line ("Action:\nClick [3]").
  const lines = section.split('\n');
  const k = lines.findIndex((l) => stripLineWrap(l) !== '');
  if (k < 0) return { ok: false, error: "The 'Action:' line is empty", missing: false };
  const line = stripLineWrap(lines[k]);
  const later = lines.slice(k + 1);

  let result: ActionResult;
  const notes: string[] = [];
  const kw = KEYWORD.exec(line);
  if (kw && kw[1].toLowerCase() === 'answer') {
    const rest = line.slice(kw[0].length) + (later.length ? '\n' + later.join('\n') : '');
    const open = rest.search(/<content>/i);
    if (open >= 0) {
      // <content> may span lines and even run past a "Memory_Updated:" line: take to the LAST </content>.
      const lineStart = lines.slice(0, k).reduce((n, l) => n + l.length + 1, 0);
      const whole = after.slice(lineStart + lines[k].indexOf(kw[0]));
      const o = whole.search(/<content>/i) + '<content>'.length;
      const c = whole.toLowerCase().lastIndexOf('</content>');
      if (c >= o) {
        result = answerOf(whole.slice(o, c));
        const tail = whole.slice(c + '</content>'.length);
        const m2 = allMatches(MEMORY_H, tail)[0];
        memoryText = m2 ? tail.slice(m2.index + m2[0].length) : null;
      } else {
        result = answerOf(rest.slice(open + '<content>'.length)); // unclosed: to the end of the section
      }
    } else {
      result = parseOldAnswer(rest);
    }
  } else {
    result = parseActionLine(line);
    if (result.ok && later.some(looksLikeAction)) notes.push(NOTE_EXTRA_ACTIONS);
  }
  if (!result.ok) return { ok: false, error: result.error, missing: false };

  let memory: Record<string, unknown> | null = null;
  if (memoryText === null) notes.push(NOTE_NO_MEMORY);
  else {
    const r = parseMemory(memoryText);
    if (r.ok) memory = r.memory;
    else notes.push(r.note);
  }
  return { ok: true, thought, action: result.action, memory, notes };
}

function stepOf(r: BodyResult): BodyRead {
  if (!r.ok) return r;
  return { ok: true, step: { thought: r.thought, action: r.action, actionText: formatWebAction(r.action), memory: r.memory, notes: r.notes } };
}

/** Parse a GLM web reply (the reasoning's last "Action:" when the reply has none). Never throws. */
export function parseGlmWebReply(content: string, reasoningContent?: string | null): ParsedStep | ParseError {
  return readReply(content, reasoningContent, (body, fromReasoning) => stepOf(parseBody(body, fromReasoning)), { noText: "The reply had no text after the reasoning and no 'Action:' line" });
}
