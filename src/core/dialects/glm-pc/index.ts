/**
 * The GLM-4.5V computer dialect (seed, section "电脑环境", OSWorld): no labels, the whole history
 * in one user message with the last 4 past screenshots (at 50%) between its steps, replies as a
 * plain-text explanation, one function call with points in thousandths
 * (`left_click(start_box='[586, 446]', element_info='OK button')`), then "Memory:" and a JSON list.
 */
import { THOUSANDTHS, type ShotGeometry } from '../../action/coords';
import type { ActionParse, Dialect, DialectContext, HistoryEntry, Preview, RequestPart } from '../types';
import { visibleText } from '../shared/preview';

import { PC_ACTION_SPACE, USER_PROMPT_HEAD, USER_PROMPT_TAIL } from './template';
import { findCalls, FUNCTIONS } from './call';
import { callToAction, CALL_HELP } from './action';
import { formatPcAction } from './format';
import { formatMemory } from './memory';
import { parseGlmPcReply, REPLY_HELP } from './parse';
import { unwrap } from '../shared/reply-text';
import { taskText, trimChars } from '../shared/text';
import { defineDialect } from '../shared/define';

/** Past screenshots a request carries: those of the last 4 steps (seed: "最多4张历史图片"). */
export const PAST_SCREENSHOTS = 4;
/** Past screenshots are sent at 50% × 50% of their size (seed). */
export const PAST_SCALE = 0.5;
/** What stands where a past screenshot is not sent (seed). */
export const OMITTED = '(Omitted in context.)';

/** History text without GLM's box tokens (seed: removed from every answer before it is joined in). */
export function stripBoxTokens(s: string): string {
  return String(s ?? '').replace(/<\|(?:begin|start|end)_of_box\|>/g, '');
}

/** A task with an answer schema: DONE's explanation carries the answer as JSON. */
/** the action that ends a task, as a follow-up's line names it */
export const END_ACTION = 'DONE()';

export const answerFormat = (schema: string) => `When the task is done, write the answer as your explanation, as one JSON value and nothing else, then call DONE(). The JSON must match this JSON Schema: ${schema}`;

/** USER_PROMPT_HEAD with the task and the action space, in one pass (a task holding "{action_space}" stays as it is). */
export function promptHead(task: string): string {
  const values: Record<string, string> = { task, action_space: PC_ACTION_SPACE };
  return USER_PROMPT_HEAD.replace(/\{(task|action_space)\}/g, (_, k: string) => values[k]);
}

export function promptTail(memory: DialectContext['memory']): string {
  const m = formatMemory(memory);
  return USER_PROMPT_TAIL.replace('{memory}', () => m);
}

/**
 * One past step's text after its screenshot: " Thought: …\nAction: …". The seed has no place for
 * the observation; one that is not plain "Success" (a failure, a parser note, a format error)
 * follows as "\nObservation: …" so the model learns of it.
 */
function stepText(h: HistoryEntry): string {
  const obs = String(h.observation ?? '').trim();
  const seen = obs && obs !== 'Success' ? `\nObservation: ${stripBoxTokens(obs)}` : '';
  return ` Thought: ${stripBoxTokens(h.thought).trim()}\nAction: ${stripBoxTokens(h.action).trim()}${seen}`;
}

/**
 * The single user message, as the seed's worked example joins it: HEAD, then per past step k
 * "\nstep k: Screenshot:" + (its image | "(Omitted in context.)") + " Thought: …\nAction: …",
 * then TAIL (ending "Current Screenshot:\n") and the current screenshot last. Steps older than the
 * last 4, and steps without a screenshot, are omitted.
 */
export function buildRequest(ctx: DialectContext): RequestPart[] {
  const history = ctx.history ?? [];
  const parts: RequestPart[] = [];
  let text = promptHead(taskText(ctx, { answerFormat, endAction: END_ACTION }));
  const firstImage = history.length - PAST_SCREENSHOTS;
  history.forEach((h, i) => {
    text += `\nstep ${i + 1}: Screenshot:`;
    if (i >= firstImage && h.hasScreenshot) {
      parts.push({ type: 'text', text });
      parts.push({ type: 'image', of: h.index, scale: PAST_SCALE });
      text = '';
    } else {
      text += OMITTED;
    }
    text += stepText(h);
  });
  text += promptTail(ctx.memory);
  parts.push({ type: 'text', text });
  parts.push({ type: 'image', of: 'current' });
  return parts;
}

export function formatErrorObservation(error: string): string {
  const e = trimChars(String(error ?? ''), '.') || 'the reply could not be read';
  return `Format error: ${e}. Reply with a short plain-text explanation, then exactly one call from the # Action Space on its own line (e.g. left_click(start_box='[500,300]', element_info='OK button')), then "Memory:" and a JSON list on the next line (e.g. [] or [{"key": "value"}]).`;
}

/** One call as a person writes it (approval Edit, the runner's `e ACTION`). Never throws. */
export function parseAction(text: string, shot: ShotGeometry): ActionParse {
  try {
    const body = unwrap(String(text ?? '')).trim();
    if (!body) return { ok: false, error: `Write an action, e.g. left_click(start_box='[500,300]') or DONE()` };
    const calls = findCalls(body);
    const call = calls.find((c) => c.lineStart) ?? calls[0];
    if (!call) return { ok: false, error: `No action call found. ${CALL_HELP}` };
    return callToAction(call, '', shot);
  } catch (e) {
    return { ok: false, error: `The action could not be read (${e instanceof Error ? e.message : String(e)}). ${CALL_HELP}` };
  }
}

const NAMES = FUNCTIONS.join('|');
const CALL_BEGIN = new RegExp(`(?<![A-Za-z0-9_])(?:${NAMES})[ \\t]*[(（]`, 'i');
const MEMORY_BEGIN = /^[-*>#_ \t]*memory(?:[ _-]?updated)?[*_ \t]*[:：]/im;

/** The live preview: the explanation so far, and the call once "name(" has arrived. */
export function preview(partial: string): Preview {
  const text = visibleText(partial).replace(/\r\n?/g, '\n');
  const call = CALL_BEGIN.exec(text);
  const mem = MEMORY_BEGIN.exec(text);
  let cut = text.length;
  if (call) cut = call.index;
  if (mem && mem.index < cut) cut = mem.index;
  let thought = text.slice(0, cut);
  if (!call) {
    // "…\nleft_cl": a call (or "Memory:") still arriving
    const nl = thought.lastIndexOf('\n');
    const tail = thought.slice(nl + 1).trim().toLowerCase();
    if (tail && !/\s/.test(tail) && (FUNCTIONS.some((f) => f.startsWith(tail)) || 'memory:'.startsWith(tail))) thought = thought.slice(0, nl + 1);
  }
  thought = thought
    .replace(/(?:^|\n)[-*>#_ \t`]*(?:action|call)[*_ \t]*[:：]?[*_ \t`]*$/i, '')
    .replace(/^[ \t]*```[\w-]*[ \t]*$/gm, '');
  const action = call ? text.slice(call.index).split('\n')[0].trim() : '';
  return { thought: trimChars(thought, '`*') || null, action: action || null };
}

export const glmPc: Dialect = defineDialect({
  id: 'glm-pc',
  model: 'GLM-4.5V',
  messages: { note: 'dialectNotePc', requestSource: 'tempSourceGlm' },
  answerFormat,
  endAction: END_ACTION,
  observes: { labels: false, pastScreenshots: PAST_SCREENSHOTS, device: 'desktop' },
  coords: THOUSANDTHS,
  request: { temperature: 0.001, maxTokens: 8192, extraBody: '{"skip_special_tokens": false}' },
  exports: { webvoyager: true },
  emptyMemory: () => [],
  buildRequest,
  parseReply: (content, reasoning, shot) => parseGlmPcReply(content, reasoning, shot),
  parseAction,
  formatAction: (action, shot) => formatPcAction(action, shot),
  preview,
  formatErrorObservation,
});

export { parseGlmPcReply, formatPcAction, REPLY_HELP };
