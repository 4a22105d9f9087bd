/**
 * Reply parser for CogAgent-9B-20241220 in the Action-Operation-Sensitive format:
 *
 *   Action: Click the 'Mark all as read' button in the top toolbar of the page.
 *   Grounded Operation: CLICK(box=[[219,186,311,207]], element_type='Clickable text', element_info='Mark all emails as read')
 *   <<一般操作>>
 *
 * Read as the model really writes it: `Grounded Operation:END()` without a space, leading zeros
 * and single brackets in boxes, extra prose or Status/Plan lines around, think blocks, the
 * reasoning in a separate field, markdown around the labels. The thought is the Action sentence
 * (the history shows it again; at END() it is the run's answer). The marker `<<敏感操作>>` marks
 * the step sensitive (the person is asked first). CogAgent has no memory: `memory` is null.
 * Never throws: anything unreadable becomes a ParseError whose message tells the model the form.
 */
import type { ParsedStep, ParseError } from '../../action/action';
import type { ShotGeometry } from '../../action/coords';

import { unwrap } from '../shared/reply-text';
import { operationToAction } from './action';
import { lineOperation, operationAt, OPERATION_LABEL, OPERATION_LIST, type Operation } from './operation';
import { ANSWER_FORMAT, MARK_GENERAL, MARK_SENSITIVE } from './template';
import { trimChars } from '../shared/text';
import { readReply, type BodyRead } from '../shared/define';

/** How a reply should look, for error messages. */
export const REPLY_HELP = `Answer in the ${ANSWER_FORMAT} format: a line "Action: <what you do, in one sentence>", a line "Grounded Operation: <one operation>" (e.g. Grounded Operation: CLICK(box=[[387,248,727,317]], element_type='Clickable text', element_info='Search')), then ${MARK_GENERAL}, or ${MARK_SENSITIVE} when the operation is sensitive. Operations: ${OPERATION_LIST}.`;

/** "Action:" at a line start (not the "Grounded Operation:" label, which has no "Action"). */
const ACTION_LABEL = /(?:^|\n)[-*>#_ \t`]*action[*_ \t`]*[:：][*_ \t`]*/gi;
const SENSITIVE = /<<\s*敏感操作\s*>>/;
/** Everything that is not the Action sentence: markers, other sections' labels. */
const MARKERS = /<<\s*(?:一般|敏感)操作\s*>>/g;

/** missing (no operation at all): the reasoning may be tried */
type BodyResult = BodyRead;

function firstAt(re: RegExp, s: string, from = 0): { index: number; end: number } | null {
  re.lastIndex = 0;
  for (const m of s.matchAll(re)) if (m.index >= from) return { index: m.index, end: m.index + m[0].length };
  return null;
}

/** The Action sentence: after "Action:" up to the operation's label (or the end of its line). */
function sentenceOf(body: string, op: { labelAt: number; start: number; end: number }): string {
  const label = firstAt(ACTION_LABEL, body);
  let text: string;
  if (label && label.index < op.labelAt) text = body.slice(label.end, op.labelAt);
  else if (label) {
    const nl = body.indexOf('\n', label.end);
    text = body.slice(label.end, nl < 0 ? body.length : nl);
  } else {
    // no label: the prose before the operation, without other sections' labels (Status:, Plan:)
    text = body.slice(0, op.labelAt).replace(/(?:^|\n)[-*>#_ \t`]*(?:status|plan)[*_ \t`]*[:：]/gi, '\n');
  }
  return trimChars(text.replace(MARKERS, ' ').replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n'), '`*');
}

function parseBody(raw: string, shot: ShotGeometry): BodyResult {
  const body = unwrap(raw);
  if (!body.trim()) return { ok: false, error: `The reply was empty. ${REPLY_HELP}`, missing: true };
  let op: Operation | null = null;
  let labelAt = -1;
  const label = firstAt(OPERATION_LABEL, body);
  if (label) {
    op = operationAt(body, label.end);
    labelAt = label.index;
    if (!op) {
      const line = body.slice(label.end).split('\n')[0].trim();
      return { ok: false, error: `The Grounded Operation ${line ? `'${line.slice(0, 60)}' ` : ''}could not be read. ${REPLY_HELP}`, missing: false };
    }
  } else {
    op = lineOperation(body);
    if (!op) return { ok: false, error: `No Grounded Operation was found. ${REPLY_HELP}`, missing: true };
    labelAt = body.lastIndexOf('\n', op.start) + 1;
  }
  if (op.name === null) return { ok: false, error: `Unknown operation '${op.written.slice(0, 40)}'. ${REPLY_HELP}`, missing: false };
  const thought = sentenceOf(body, { labelAt, start: op.start, end: op.end });
  const r = operationToAction(op, thought, shot);
  if (!r.ok) return { ok: false, error: r.error, missing: false };
  const step: ParsedStep = { thought, action: r.action, actionText: op.text, memory: null, notes: r.notes, reasoning: null };
  if (SENSITIVE.test(body)) step.sensitive = true;
  return { ok: true, step };
}

/** Parse a CogAgent reply (the reasoning's operation when the reply has none). Never throws. */
export function parseCogReply(content: string, reasoningContent: string | null | undefined, shot: ShotGeometry): ParsedStep | ParseError {
  return readReply(content, reasoningContent, (body) => parseBody(body, shot), { noText: `The reply had no text after the reasoning. ${REPLY_HELP}`, help: `. ${REPLY_HELP}` });
}
