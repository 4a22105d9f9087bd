/**
 * The planner's reply (seed 002, "Return in JSON format") to a ParsedStep:
 * - `action` → the action (action.ts); `action: null` → the end of the run, done, with the `log`
 *   (which says why no action is needed, or answers the question);
 * - `more_actions_needed_by_instruction: false` with an action → `endsAfter`: the run finishes
 *   once that action ran, with the `log` as its answer;
 * - `sleep` → `sleepMs` (the run caps it); `error` → `warning` (shown to the person);
 * - thought: `what_the_user_wants_to_do_next_by_instruction`, then on its own line the `log`
 *   (each one line), so the next request's previous logs can take the log back (index.ts logOf).
 * Never throws: anything unreadable is a ParseError whose message says what to write.
 */
import type { Action, ParsedStep, ParseError } from '../../action/action';
import type { BboxConvention } from '../../action/bbox';
import type { ShotGeometry } from '../../action/coords';
import { capText } from '../../limits';
import { peelReasoning, unwrap } from '../shared/reply-text';
import { EXAMPLE, field, readAction, typeOf } from './action';
import { formatMidsceneAction } from './format';
import { isObject, firstObject } from '../shared/json';

export const REPLY_EXAMPLE = `{"what_the_user_wants_to_do_next_by_instruction": "...", "log": "I will use action Tap to ...", "more_actions_needed_by_instruction": true, "action": ${EXAMPLE}}`;

/** A field as one line of text ('' when absent or not text). */
export function oneLine(v: unknown): string {
  const s = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
  return s.split(/[\r\n\t\v\f\u0085\u2028\u2029]+/).map((p) => p.trim()).filter(Boolean).join(' ');
}

/** The thought the run keeps: the intention, then the log on the last line. */
export function thoughtOf(want: string, log: string): string {
  return want && log ? `${want}\n${log}` : want || log;
}

/** A string field's value, read by itself (the whole object could not be read). */
export function stringField(text: string, name: string): string | null {
  const m = new RegExp(String.raw`["']${name}["']\s*:\s*(["'])`).exec(text);
  if (!m) return null;
  let out = '';
  for (let i = m.index + m[0].length; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) out += text[++i];
    else if (text[i] === m[1]) break;
    else out += text[i];
  }
  return out;
}

/**
 * A reply whose whole object cannot be read (a broken brace elsewhere, a cut-off end): its
 * "action" object (or null) and its string fields, each read by itself. Null: no action there.
 */
function salvage(text: string): Record<string, unknown> | null {
  const m = /["']action["']\s*:\s*/.exec(text);
  if (!m) return null;
  const rest = text.slice(m.index + m[0].length);
  let action: unknown;
  if (/^null\b/i.test(rest)) action = null;
  else if (rest.startsWith('{')) {
    const inner = firstObject(rest);
    if (!inner.ok) return null;
    action = inner.value;
  } else return null;
  const out: Record<string, unknown> = { action };
  for (const name of ['what_the_user_wants_to_do_next_by_instruction', 'log', 'error']) {
    const v = stringField(text, name);
    if (v !== null) out[name] = v;
  }
  const more = /["']more_actions_needed_by_instruction["']\s*:\s*(true|false)/i.exec(text);
  if (more) out.more_actions_needed_by_instruction = more[1].toLowerCase() === 'true';
  const sleep = /["']sleep["']\s*:\s*(\d+)/.exec(text);
  if (sleep) out.sleep = Number(sleep[1]);
  return out;
}

function boolOf(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^\s*(true|false)\s*$/i.test(v)) return v.trim().toLowerCase() === 'true';
  return null;
}

function parseUnsafe(content: string, reasoningContent: string | null | undefined, shot: ShotGeometry, bbox: BboxConvention | undefined): ParsedStep | ParseError {
  const { body, reasoning } = peelReasoning(content, reasoningContent);
  if (/^\s*null\s*$/i.test(unwrap(body))) return { thought: '', action: { type: 'finish', outcome: 'done', text: '' }, actionText: 'null', memory: null, notes: [], reasoning };
  let read = firstObject(unwrap(body));
  // No JSON in the reply itself: the reasoning's last object may be the answer.
  if (!read.ok && reasoning && !/\{/.test(body)) {
    const at = reasoning.lastIndexOf('{"what_the_user');
    if (at >= 0) read = firstObject(unwrap(reasoning.slice(at)));
  }
  const reply = read.ok ? (read.value as Record<string, unknown>) : salvage(unwrap(body));
  if (!reply) return { error: `Reply with one JSON object (${read.ok ? '' : read.error}), e.g. ${REPLY_EXAMPLE}`, reasoning };
  const want = oneLine(field(reply, 'what_the_user_wants_to_do_next_by_instruction', 'what_the_user_wants_to_do_next', 'thought'));
  const rawLog = field(reply, 'log');
  // a log given as a JSON value (an answer the task's schema asked for) is kept as its JSON text
  const log = capText(oneLine(rawLog !== null && typeof rawLog === 'object' ? JSON.stringify(rawLog) : rawLog));
  const thought = thoughtOf(want, log);
  // A bare action object (the reply is only the action) is read as that action.
  const bare = field(reply, 'action') === undefined && typeOf(field(reply, 'type', 'action_type')) !== null;
  const rawAction = bare ? reply : field(reply, 'action');
  const notes: string[] = [];
  let action: Action;
  if (rawAction === null || rawAction === undefined) {
    if (rawAction === undefined && !('log' in reply)) return { error: `The reply has no "action" (an action object, or null when no action should be done), e.g. ${REPLY_EXAMPLE}`, reasoning };
    action = { type: 'finish', outcome: 'done', text: log || want };
  } else if (isObject(rawAction)) {
    const r = readAction(rawAction, shot, bbox);
    if (!r.ok) return { error: r.error, reasoning };
    action = r.action;
    notes.push(...r.notes);
  } else if (Array.isArray(rawAction) && isObject(rawAction[0])) {
    const r = readAction(rawAction[0], shot, bbox);
    if (!r.ok) return { error: r.error, reasoning };
    action = r.action;
    notes.push(...r.notes, 'Only the first action was run; give ONLY ONE action.');
  } else {
    return { error: `"action" must be one action object or null, e.g. ${EXAMPLE}`, reasoning };
  }
  const step: ParsedStep = { thought, action, actionText: formatMidsceneAction(action, shot, bbox), memory: null, notes, reasoning };
  const more = boolOf(field(reply, 'more_actions_needed_by_instruction'));
  if (more === false && action.type !== 'finish') step.endsAfter = log || want;
  const sleep = field(reply, 'sleep');
  const ms = typeof sleep === 'number' ? sleep : typeof sleep === 'string' ? Number(sleep) : NaN;
  if (Number.isFinite(ms) && ms > 0) step.sleepMs = Math.round(ms);
  const error = oneLine(field(reply, 'error'));
  if (error) step.warning = error;
  return step;
}

/** Parse a planner reply. Never throws. */
export function parseMidsceneReply(content: string, reasoning: string | null | undefined, shot: ShotGeometry, bbox?: BboxConvention): ParsedStep | ParseError {
  try {
    return parseUnsafe(typeof content === 'string' ? content : '', reasoning, shot, bbox);
  } catch (e) {
    return { error: `The reply could not be read (${e instanceof Error ? e.message : String(e)})`, reasoning: null };
  }
}
