/**
 * The Midscene-style planner (seed 002): a system message (the seed's prompt as written), then one
 * user message with the clean screenshot and the instruction with the previous logs; the reply is
 * one JSON object (parse.ts) whose `locate.bbox` is read in the endpoint's bounding-box convention
 * (action/bbox.ts: thousandths x-y or y-x, or pixels of the image sent, padded to multiples of 28).
 * No memory: the previous logs are the model's whole record.
 */
import { THOUSANDTHS, type ShotGeometry } from '../../action/coords';

import { visibleText } from '../shared/preview';
import type { ActionParse, Dialect, DialectContext, HistoryEntry, Preview, RequestPart } from '../types';
import { EXAMPLE, readAction } from './action';
import { formatMidsceneAction } from './format';
import { BBOX, bboxOf, coordinateCheck, padsScreenshot } from './bbox-option';

import { oneLine, parseMidsceneReply, REPLY_EXAMPLE, stringField } from './parse';
import { MIDSCENE_SYSTEM_PROMPT } from './template';
import { isObject, firstObject, readLoose } from '../shared/json';
import { taskText, trimChars } from '../shared/text';
import { defineDialect } from '../shared/define';

/** A past step's log: the last line of its thought (parse.ts thoughtOf), with what went wrong if it did not succeed. */
export function logOf(h: HistoryEntry): string {
  const lines = String(h.thought ?? '').split('\n');
  const log = oneLine(lines[lines.length - 1]) || oneLine(h.action);
  const obs = oneLine(h.observation);
  return obs && obs !== 'Success' ? `${log} (${obs})` : log;
}

/**
 * The user message's text, as Midscene builds its planning prompt: the instruction, then the logs
 * of the actions already done (so the model does not repeat them).
 */
/** A task with an answer schema: the log of the last reply (action null) carries the answer as JSON. */
/** the action that ends a task, as a follow-up's line names it */
export const END_ACTION = '"action": null';

export const answerFormat = (schema: string) => `When the instruction is done, reply with "action": null and put the answer in "log": one JSON value that matches this JSON Schema: ${schema}`;

export function userText(ctx: DialectContext): string {
  const logs = (ctx.history ?? []).map(logOf).filter(Boolean);
  const text = `Here is the user's instruction:\n<instruction>\n${taskText(ctx, { answerFormat, endAction: END_ACTION })}\n</instruction>`;
  if (!logs.length) return text;
  return `${text}\n\nThese are the logs from previous executions, which indicate what was done in the previous actions.\nDo NOT repeat these actions.\n<previous_logs>\n${logs.map((l) => `- ${l}`).join('\n')}\n</previous_logs>`;
}

/** The system prompt, then the screenshot and the instruction with the logs. */
export function buildRequest(ctx: DialectContext): RequestPart[] {
  return [
    { type: 'system', text: MIDSCENE_SYSTEM_PROMPT },
    { type: 'image', of: 'current' },
    { type: 'text', text: userText(ctx) },
  ];
}

export function formatErrorObservation(error: string): string {
  const e = trimChars(String(error ?? ''), '.') || 'the reply could not be read';
  return `Format error: ${e}. Reply with one JSON object as the system prompt says, e.g. ${REPLY_EXAMPLE}`;
}

/** One action as a person writes it: an action object, a whole reply, or null (the run is done). */
export function parseAction(text: string, shot: ShotGeometry, bbox?: Parameters<typeof readAction>[2]): ActionParse {
  try {
    const s = String(text ?? '').trim();
    if (/^null$/i.test(s)) return { ok: true, action: { type: 'finish', outcome: 'done', text: '' }, notes: [] };
    const obj = firstObject(s);
    if (!obj.ok) return { ok: false, error: `Write one action as JSON, e.g. ${EXAMPLE}` };
    const value = obj.value as Record<string, unknown>;
    const inner = 'action' in value && !('type' in value) ? value.action : value;
    if (inner === null) return { ok: true, action: { type: 'finish', outcome: 'done', text: '' }, notes: [] };
    if (!isObject(inner)) return { ok: false, error: `Write one action as JSON, e.g. ${EXAMPLE}` };
    const r = readAction(inner, shot, bbox);
    return r.ok ? { ok: true, action: r.action, notes: r.notes } : { ok: false, error: r.error };
  } catch (e) {
    return { ok: false, error: `The action could not be read (${e instanceof Error ? e.message : String(e)}); write it like ${EXAMPLE}` };
  }
}

/** The intention and log so far; the action object once it has begun. */
export function preview(partial: string): Preview {
  const text = visibleText(partial);
  const want = stringField(text, 'what_the_user_wants_to_do_next_by_instruction')?.trim() || null;
  const log = stringField(text, 'log')?.trim() || null;
  const thought = want && log ? `${want}\n${log}` : want ?? log;
  const at = text.search(/["']action["']\s*:/);
  let action: string | null = null;
  if (at >= 0) {
    const rest = text.slice(at).replace(/^["']action["']\s*:\s*/, '');
    const v = readLoose(rest.trim().replace(/[,}\s]*$/, ''));
    action = v === null ? 'null' : isObject(v) ? JSON.stringify(v) : oneLine(rest).slice(0, 200) || null;
  }
  return { thought, action };
}

export const midscene: Dialect = defineDialect({
  id: 'midscene',
  model: 'Midscene planner (Qwen-VL, UI-TARS, Doubao, Gemini, GLM)',
  messages: { note: 'dialectNoteMidscene', requestSource: 'tempSourceMidscene' },
  answerFormat,
  endAction: END_ACTION,
  observes: { labels: false, pastScreenshots: 0, device: 'desktop' },
  // the default convention; a run reads boxes in its endpoint's (the "bbox" option)
  coords: THOUSANDTHS,
  options: [BBOX],
  coordinateCheck,
  padsScreenshot,
  request: { temperature: 0.1, maxTokens: 4096, extraBody: '' },
  exports: { webvoyager: true },
  emptyMemory: () => '',
  buildRequest,
  parseReply: (content, reasoning, shot, options) => parseMidsceneReply(content, reasoning, shot, bboxOf(options)),
  parseAction: (text, shot, options) => parseAction(text, shot, bboxOf(options)),
  formatAction: (action, shot, options) => formatMidsceneAction(action, shot, bboxOf(options)),
  preview,
  formatErrorObservation,
});
