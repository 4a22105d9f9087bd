/**
 * Reply parser for the GLM mobile dialect: "Memory: … / Reason: … / Action: {json}" (seed,
 * "Your answer should look like"). Peels reasoning (<think> or the separate field), <answer>,
 * box tokens and code fences; reads the three sections in any order; the action is read by
 * action.ts. Never throws: anything unreadable becomes a ParseError whose message tells the
 * model what to write.
 */
import type { Action, ParsedStep, ParseError } from '../../action/action';
import type { ShotGeometry } from '../../action/coords';

import { readAction, readObject } from './action';
import { formatMobileAction } from './format';
import { allMatches, unwrap, sectionHeader } from '../shared/reply-text';
import { capText, MAX_MEMORY_CHARS } from '../../limits';
import { trimChars } from '../shared/text';
import { readReply, type BodyRead } from '../shared/define';

export const NOTE_NO_MEMORY = 'No Memory was given; the previous memory was kept.';
export const NOTE_EXTRA_ACTIONS = 'Only the first action was run; the rest were ignored.';

type Kind = 'memory' | 'reason' | 'action';

const HEADERS: Record<Kind, RegExp> = {
  memory: sectionHeader('memory'),
  reason: sectionHeader('reasoning|reason|thoughts|thought'),
  action: sectionHeader('action'),
};
/** An action object where no "Action:" header is: `{"action_type": …` (or 'action_type'). */
const BARE_ACTION = /\{\s*["']?action_type["']?\s*[:：]/gi;
const ANOTHER_ACTION = /["']?action_type["']?\s*[:：]/i;

/** "None" and friends: the model remembers nothing. */
const EMPTY_MEMORY = /^(?:none|null|nil|n\/a|empty|nothing|无|\[\s*\]|\{\s*\})?[.。]?$/i;

type BodyResult =
  | { ok: true; thought: string; action: Action; memory: string | null; notes: string[] }
  /** missing: there was no action at all (so another source may be tried) */
  | { ok: false; error: string; missing: boolean };

interface Head { kind: Kind; start: number; end: number }

/** The section headers: the first of each kind (the last when reading reasoning, whose final words are its decision). */
function headsOf(body: string, preferLast: boolean): Head[] {
  const heads: Head[] = [];
  for (const kind of ['memory', 'reason'] as const) {
    const all = allMatches(HEADERS[kind], body);
    const m = preferLast ? all[all.length - 1] : all[0];
    if (m) heads.push({ kind, start: m.index, end: m.index + m[0].length });
  }
  const actions = allMatches(HEADERS.action, body).map((m) => ({ kind: 'action' as const, start: m.index, end: m.index + m[0].length }));
  if (actions.length) {
    // An "Action:" followed by an object on its own line or the next (not prose that happens to start with "Action:").
    const withObject = actions.filter((h) => /^\s*[`'"]?\{/.test(body.slice(h.end, h.end + 400)));
    const pool = withObject.length ? withObject : actions;
    heads.push(preferLast ? pool[pool.length - 1] : pool[0]);
  } else {
    const bare = allMatches(BARE_ACTION, body);
    const m = preferLast ? bare[bare.length - 1] : bare[0];
    if (m) heads.push({ kind: 'action', start: m.index, end: m.index });
  }
  return heads.sort((a, b) => a.start - b.start);
}

/** The memory text; '' for "None" and the like. */
function memoryOf(section: string): string {
  const s = trimChars(section, '`*');
  return EMPTY_MEMORY.test(s) ? '' : capText(s, MAX_MEMORY_CHARS);
}

function parseBody(raw: string, shot: ShotGeometry, preferLast: boolean): BodyResult {
  const body = unwrap(raw);
  if (!body.trim()) return { ok: false, error: 'The reply was empty', missing: true };
  const heads = headsOf(body, preferLast);
  const at = heads.findIndex((h) => h.kind === 'action');
  if (at < 0) return { ok: false, error: "No 'Action:' line with the action's JSON found", missing: true };

  const sectionOf = (i: number): string => body.slice(heads[i].end, i + 1 < heads.length ? heads[i + 1].start : body.length);
  const reasonAt = heads.findIndex((h) => h.kind === 'reason');
  const memoryAt = heads.findIndex((h) => h.kind === 'memory');
  // No "Reason:": what comes before the first section is the reasoning the reply gives.
  const thought = trimChars(reasonAt >= 0 ? sectionOf(reasonAt) : body.slice(0, heads[0].start), '*');

  const section = sectionOf(at);
  const obj = readObject(section);
  if (!obj.ok) return { ok: false, error: obj.error, missing: false };
  const read = readAction(obj.value, shot, thought);
  if (!read.ok) return { ok: false, error: read.error, missing: false };

  const notes = [...read.notes];
  if (ANOTHER_ACTION.test(section.slice(obj.end))) notes.push(NOTE_EXTRA_ACTIONS);
  let memory: string | null = null;
  if (memoryAt < 0) notes.push(NOTE_NO_MEMORY);
  else memory = memoryOf(sectionOf(memoryAt));
  return { ok: true, thought, action: read.action, memory, notes };
}

function stepOf(r: BodyResult, shot: ShotGeometry): BodyRead {
  if (!r.ok) return r;
  return { ok: true, step: { thought: r.thought, action: r.action, actionText: formatMobileAction(r.action, shot), memory: r.memory, notes: r.notes } };
}

/** Parse a GLM mobile reply (the reasoning's last action when the reply has none). Never throws. */
export function parseGlmMobileReply(content: string, reasoningContent: string | null | undefined, shot: ShotGeometry): ParsedStep | ParseError {
  return readReply(content, reasoningContent, (body, fromReasoning) => stepOf(parseBody(body, shot, fromReasoning), shot), { noText: "The reply had no text after the reasoning and no 'Action:' line" });
}
