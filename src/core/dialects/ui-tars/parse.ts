/**
 * A UI-TARS reply: "Thought: …" (or "Reflection: … Action_Summary: …") then "Action: <call>",
 * read leniently. The last "Action:" holds the call (as the SDK reads it); without the label, the
 * first call of the action space on a line of its own. Replies that hold several calls (separated
 * by a blank line, which the SDK runs one after another) run the first; the model is told.
 */
import type { ParsedStep, ParseError } from '../../action/action';
import type { ShotGeometry } from '../../action/coords';
import { readReply, type BodyRead } from '../shared/define';
import { allMatches, sectionHeader, unwrap } from '../shared/reply-text';
import { trimChars } from '../shared/text';
import type { ParseOptions } from '../types';
import { CALL_HELP, callToAction, findCall } from './action';
import { spaceOf } from './coords';

export const NOTE_EXTRA_ACTIONS = 'The reply had more than one action; only the first was run.';

const ACTION = sectionHeader('action');
const THOUGHT = sectionHeader('thought');
const SUMMARY = sectionHeader('action_summary');
const REFLECTION = sectionHeader('reflection');

/** The reply without box tokens (UI-TARS-1.5 wraps its points in them). */
function clean(text: string): string {
  return unwrap(text).replace(/<\|box_(?:start|end)\|>/g, '');
}

function thoughtOf(body: string, actionAt: number): string {
  const before = body.slice(0, actionAt);
  const summary = allMatches(SUMMARY, before).at(-1);
  const thought = allMatches(THOUGHT, before).at(-1);
  const from = summary ?? thought;
  let text = from ? before.slice(from.index + from[0].length) : before;
  if (!summary && !thought) {
    const reflection = allMatches(REFLECTION, before).at(-1);
    if (reflection) text = before.slice(reflection.index + reflection[0].length);
  }
  return trimChars(text.replace(/^[ \t]*```[\w-]*[ \t]*$/gm, ''), '`*');
}

function readBody(raw: string, shot: ShotGeometry, options: ParseOptions | undefined): BodyRead {
  const body = clean(raw);
  if (!body.trim()) return { ok: false, error: `The reply was empty. ${CALL_HELP}`, missing: true };
  const label = allMatches(ACTION, body).at(-1);
  const from = label ? label.index + label[0].length : 0;
  const call = findCall(body.slice(from));
  if (!call) return { ok: false, error: label ? `The "Action:" line holds no call. ${CALL_HELP}` : `No "Action:" line found. ${CALL_HELP}`, missing: !label };
  const callAt = from + body.slice(from).indexOf(call.text);
  const thought = thoughtOf(body, label ? label.index : callAt);
  const r = callToAction(call, thought, spaceOf(options), shot);
  if (!r.ok) return { ok: false, error: r.error, missing: false };
  const notes = [...r.notes];
  const rest = body.slice(callAt + call.text.length);
  if (findCall(rest)) notes.push(NOTE_EXTRA_ACTIONS);
  return { ok: true, step: { thought, action: r.action, actionText: call.text, memory: null, notes, ...(r.asksPerson ? { asksPerson: true } : {}) } };
}

/** Parse a UI-TARS reply (the reasoning's call when the reply has none). Never throws. */
export function parseUiTarsReply(content: string, reasoning: string | null | undefined, shot: ShotGeometry, options?: ParseOptions): ParsedStep | ParseError {
  return readReply(content, reasoning, (body) => readBody(body, shot, options), { noText: `The reply had no text after the reasoning. ${CALL_HELP}`, help: `. ${CALL_HELP}` });
}
