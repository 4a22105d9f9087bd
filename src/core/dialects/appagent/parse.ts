/**
 * Reply parser for the AppAgent dialect: "Observation: … / Thought: … / Action: … / Summary: …"
 * (the task template's output format). Read tolerantly: think blocks and the separate reasoning
 * field, <answer> and box tokens, code fences, markdown around the headers (`**Action:**`,
 * `### Thought`), full-width colons, the parts in any order or missing; with no Action header, the
 * first line that is a call or FINISH. Only when the reply itself has no action is the reasoning's
 * last one used. Never throws: anything unreadable becomes a ParseError telling the model the form.
 *
 * The Summary is the step's memory (text): the next request's `<last_act>`. A reply without one
 * keeps the previous summary, with a note. FINISH's text is the Thought (else the Summary, else
 * the Observation): the model's last words, the answer when the task was a question.
 */
import type { ParsedStep, ParseError } from '../../action/action';
import type { ShotGeometry } from '../../action/coords';

import { allMatches, unwrap, sectionHeader } from '../shared/reply-text';
import { capText, MAX_MEMORY_CHARS } from '../../limits';
import { FORMS, readCall } from './action';
import { formatAppAgentAction } from './format';
import { trimChars } from '../shared/text';
import { readReply, type BodyRead } from '../shared/define';

export const NOTE_NO_SUMMARY = 'No Summary was given; the previous summary was kept.';

type Kind = 'observation' | 'thought' | 'action' | 'summary';

const HEADERS: Record<Kind, RegExp> = {
  observation: sectionHeader('observation'),
  thought: sectionHeader('thoughts|thought|reasoning|reason'),
  action: sectionHeader('action'),
  summary: sectionHeader('summary'),
};
/** A call or FINISH starting a line, where no Action header is. */
const BARE = /^[-*>#_` \t]*(?:(?:tap|text|long_press|swipe)\s*\(|FINISH\b)/gm;

interface Head { kind: Kind; start: number; end: number }

type BodyResult = BodyRead;

function headsOf(body: string, preferLast: boolean): Head[] {
  const heads: Head[] = [];
  for (const kind of ['observation', 'thought', 'action', 'summary'] as const) {
    const all = allMatches(HEADERS[kind], body);
    const m = preferLast ? all[all.length - 1] : all[0];
    if (m) heads.push({ kind, start: m.index, end: m.index + m[0].length });
  }
  if (!heads.some((h) => h.kind === 'action')) {
    const bare = allMatches(BARE, body);
    const m = preferLast ? bare[bare.length - 1] : bare[0];
    if (m) heads.push({ kind: 'action', start: m.index, end: m.index });
  }
  return heads.sort((a, b) => a.start - b.start);
}

function parseBody(raw: string, shot: ShotGeometry, preferLast: boolean): BodyResult {
  const body = unwrap(raw);
  if (!body.trim()) return { ok: false, error: 'The reply was empty', missing: true };
  const heads = headsOf(body, preferLast);
  const part = (kind: Kind): string | null => {
    const i = heads.findIndex((h) => h.kind === kind);
    if (i < 0) return null;
    return trimChars(body.slice(heads[i].end, i + 1 < heads.length ? heads[i + 1].start : body.length), '*');
  };
  const action = part('action');
  if (action === null || !action.trim()) return { ok: false, error: `No 'Action:' with a function call or FINISH found`, missing: true };
  const observation = part('observation') ?? '';
  const thought = part('thought') ?? (heads[0].start > 0 ? trimChars(body.slice(0, heads[0].start), '*') : '');
  const summary = part('summary');
  const answer = thought || summary || observation;
  const read = readCall(action, shot, answer);
  if (!read.ok) return { ok: false, error: read.error, missing: false };
  const notes = [...read.notes];
  let memory: string | null = null;
  if (summary === null || !summary.trim()) notes.push(NOTE_NO_SUMMARY);
  else memory = capText(summary, MAX_MEMORY_CHARS);
  return {
    ok: true,
    step: { thought: thought || observation, action: read.action, actionText: formatAppAgentAction(read.action, shot), memory, notes },
  };
}

/** Parse an AppAgent reply (the reasoning's call when the reply has none). Never throws. */
export function parseAppAgentReply(content: string, reasoningContent: string | null | undefined, shot: ShotGeometry): ParsedStep | ParseError {
  return readReply(content, reasoningContent, (body, fromReasoning) => parseBody(body, shot, fromReasoning), { help: `; write ${FORMS}` });
}
