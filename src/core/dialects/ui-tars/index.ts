/**
 * The UI-TARS dialect (ByteDance's open GUI agent, as its SDK `@ui-tars/sdk` prompts it): no
 * labels, a clean PNG screenshot, and a conversation rather than one message. The first user
 * message is the SDK's system prompt with the task after "## User Instruction"; then, per earlier
 * step, a user message with its screenshot (only the last few carry one: MAX_IMAGES, the current
 * screenshot included) and the model's reply, as it wrote it, as an assistant message;
 * the current screenshot last. Replies are one call with boxes in the run's convention (coords.ts).
 */
import type { ShotGeometry } from '../../action/coords';
import { defineDialect } from '../shared/define';
import { sectionPreview } from '../shared/preview';
import { unwrap } from '../shared/reply-text';
import { taskText, trimChars } from '../shared/text';
import type { ActionParse, Dialect, DialectContext, HistoryEntry, ParseOptions, RequestPart } from '../types';
import { CALL_HELP, callToAction, findCall } from './action';
import { COORDINATES, coordinateCheck, RESIZED_PIXELS, spaceOf } from './coords';
import { formatUiTarsAction } from './format';
import { parseUiTarsReply } from './parse';
import { MAX_IMAGES, SYSTEM_PROMPT } from './template';

/**
 * A reply as the SDK keeps it in its conversation (`GUIAgent` stores `getSummary(prediction)`):
 * as the model wrote it, its `Reflection:` sections left out, trimmed.
 */
export function replySummary(reply: string): string {
  return reply.replace(/Reflection:[\s\S]*?(?=Action_Summary:|Action:|$)/g, '').trim();
}

/**
 * An earlier reply as the assistant's message: the model's own words (replySummary), as the SDK
 * sends them back and as UI-TARS was trained to read them. A step whose action the model did not
 * write so (the person edited it, or acted in its place) shows what was done, written in the
 * model's grammar. What the run saw of the step that was not plain "Success" (a failure, a note,
 * a format error) is told in the next user message, before its screenshot: the SDK's
 * conversation has no place for it, and the model must learn of it.
 */
function replyText(h: HistoryEntry): string {
  const own = h.reply === undefined ? '' : replySummary(String(h.reply));
  return own || `Thought: ${String(h.thought ?? '').trim()}\nAction: ${String(h.action ?? '').trim()}`;
}

function observed(h: HistoryEntry): string | null {
  const obs = String(h.observation ?? '').trim();
  return obs && obs !== 'Success' ? `Observation: ${obs}` : null;
}

/** A task with an answer schema: finished(content=...) carries the answer as JSON. */
/** the action that ends a task, as a follow-up's line names it */
export const END_ACTION = 'finished()';

export const answerFormat = (schema: string) => `When the task is done, call finished(content='...') with the answer as its content: one JSON value and nothing else, that matches this JSON Schema: ${schema}`;

export function buildRequest(ctx: DialectContext): RequestPart[] {
  const history = ctx.history ?? [];
  const parts: RequestPart[] = [{ type: 'text', text: SYSTEM_PROMPT + taskText(ctx, { answerFormat, endAction: END_ACTION }) }];
  const firstImage = history.length - (MAX_IMAGES - 1);
  history.forEach((h, i) => {
    const before = i > 0 ? observed(history[i - 1]) : null;
    const image = i >= firstImage && h.hasScreenshot;
    if (before || image) parts.push({ type: 'turn', role: 'user' });
    if (before) parts.push({ type: 'text', text: before });
    if (image) parts.push({ type: 'image', of: h.index, scale: 1 });
    parts.push({ type: 'turn', role: 'assistant' }, { type: 'text', text: replyText(h) });
  });
  parts.push({ type: 'turn', role: 'user' });
  const last = history.length ? observed(history[history.length - 1]) : null;
  if (last) parts.push({ type: 'text', text: last });
  parts.push({ type: 'image', of: 'current' });
  return parts;
}

export function formatErrorObservation(error: string): string {
  const e = trimChars(String(error ?? ''), '.') || 'the reply could not be read';
  return `Format error: ${e}. Reply with "Thought: ..." and then "Action: " with exactly one call of the Action Space, e.g. Action: click(start_box='(100,200)')`;
}

/** One call as a person writes it (approval Edit, the runner's `e ACTION`). */
export function parseAction(text: string, shot: ShotGeometry, options?: ParseOptions): ActionParse {
  const body = unwrap(String(text ?? '')).replace(/<\|box_(?:start|end)\|>/g, '').trim();
  if (!body) return { ok: false, error: `Write an action, e.g. click(start_box='(100,200)') or finished()` };
  const call = findCall(body);
  if (!call) return { ok: false, error: `No call found. ${CALL_HELP}` };
  const r = callToAction(call, '', spaceOf(options), shot);
  return r.ok ? { ok: true, action: r.action, notes: r.notes } : r;
}

export const uiTars: Dialect = defineDialect({
  id: 'ui-tars',
  model: 'UI-TARS',
  messages: { note: 'dialectNoteUitars', requestSource: 'tempSourceUitars' },
  answerFormat,
  endAction: END_ACTION,
  // PNG (exact pixels: it points at them), no labels; the last MAX_IMAGES - 1 earlier screenshots.
  observes: { labels: false, pastScreenshots: MAX_IMAGES - 1, device: 'desktop' },
  coords: RESIZED_PIXELS,
  // The SDK's request: temperature 0, top_p 0.7; max_tokens 1000 for 1.0 (65535 for 1.5: kept lower).
  request: { temperature: 0, maxTokens: 1000, extraBody: '{"top_p": 0.7}' },
  exports: { webvoyager: true },
  options: [COORDINATES],
  coordinateCheck,
  emptyMemory: () => ({}),
  buildRequest,
  parseReply: (content, reasoning, shot, options) => parseUiTarsReply(content, reasoning, shot, options),
  parseAction,
  formatAction: (action, shot, options) => formatUiTarsAction(action, spaceOf(options), shot),
  preview: (partial) => sectionPreview(partial.replace(/<\|box_(?:start|end)\|>/g, ''), 'Thought:', 'Action:'),
  formatErrorObservation,
});
