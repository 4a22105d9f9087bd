/**
 * The GLM-4.5V web dialect (seed 003, "网页环境"): set-of-marks labels, one
 * user message with the screenshot and a single prompt that carries the whole
 * history, replies in the WebVoyager grammar ("Click [3]", "Type [2]; [x]", ...).
 */
import { isParseError } from '../../action/action';
import { THOUSANDTHS } from '../../action/coords';
import type { Mark } from '../../marks';
import type { ActionParse, Dialect, DialectContext, HistoryEntry, RequestPart } from '../types';
import { sectionPreview } from '../shared/preview';
import { GLM_WEB_TEMPLATE } from './template';
import { parseGlmWebReply } from './parse';

import { formatWebAction } from './format';
import { neutralizePageText } from '../../page-text';
import { taskText, trimChars } from '../shared/text';
import { defineDialect } from '../shared/define';

/** How many past steps the prompt shows (seed 003 uses the last 15). */
export const HISTORY_WINDOW = 15;
/** Longest element text shown in the list; longer text is cut with "…", never dropped. */
export const ELEMENT_TEXT_MAX = 200;

/** Tags the list names explicitly (WebVoyager: button, input, textarea; we add select). */
const TAGGED = new Set(['button', 'input', 'textarea', 'select']);

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Local time as Python's `%Y-%m-%d, %I:00 %p`, e.g. "2025-07-26, 10:00 AM". */
export function formatPromptTime(d: Date): string {
  const h = d.getHours();
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}, ${pad2(h12)}:00 ${h < 12 ? 'AM' : 'PM'}`;
}

/** One history field on one line: line breaks and tabs would break the entry format. */
function oneLine(s: string): string {
  // split + trim instead of / *[\n\t]+ */: that regex backtracks quadratically on long space runs.
  const parts = String(s ?? '').split(/[\r\n\t\v\f\u0085\u2028\u2029]+/);
  return parts.map((p) => p.trim()).filter(Boolean).join(' ');
}

/** `{PREVIOUS_ACTIONS}`: the last 15 steps, numbered by their index in the full history. */
export function formatHistory(history: HistoryEntry[]): string {
  const start = Math.max(0, history.length - HISTORY_WINDOW);
  const lines: string[] = [];
  for (let i = start; i < history.length; i++) {
    const h = history[i];
    lines.push(`${i}.Thought:${oneLine(h.thought)}\tAction:${oneLine(h.action)}\tObservation:${oneLine(h.observation)}`);
  }
  return lines.join('\n');
}

/**
 * Element text as the list shows it. Page text is untrusted: whitespace
 * (newlines, tabs) collapses to single spaces and `"`/`\` are escaped, so the
 * text can neither close its quotes, forge a `[N]:` entry nor start an
 * `Action:` line; besides, `[N]`, `<tag>` and `Action:`-like shapes are neutralised
 * (page-text.ts), so a forged entry does not read as one even to a model that ignores `\"`.
 * Cut before escaping so an escape is never split.
 */
export function elementText(raw: string): string {
  const collapsed = neutralizePageText(String(raw ?? '').replace(/\s+/g, ' ').trim());
  const chars = Array.from(collapsed); // code points: never split a surrogate pair
  const cut = chars.length > ELEMENT_TEXT_MAX ? chars.slice(0, ELEMENT_TEXT_MAX - 1).join('') + '…' : collapsed;
  return cut.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** `{web_text}`: `[3]: <button> "Close";` or `[4]: "Learn more";`, joined by a tab. */
export function formatElements(marks: Mark[]): string {
  return marks
    .map((m) => {
      const tag = String(m.tag ?? '').toLowerCase();
      const text = elementText(m.text);
      return TAGGED.has(tag) ? `[${m.label}]: <${tag}> "${text}";` : `[${m.label}]: "${text}";`;
    })
    .join('\t');
}

/** A task with an answer schema: the content of ANSWER must be JSON that matches it. */
/** the action that ends a task, as a follow-up's line names it */
export const END_ACTION = 'ANSWER';

export const answerFormat = (schema: string) => `When you give the answer (ANSWER; <content>...</content>), the content must be one JSON value, and nothing else, that matches this JSON Schema: ${schema}`;

export function buildPrompt(ctx: DialectContext): string {
  const values: Record<string, string> = {
    TASK: taskText(ctx, { answerFormat, endAction: END_ACTION }),
    Web: ctx.site,
    Time: formatPromptTime(ctx.now),
    PREVIOUS_ACTIONS: formatHistory(ctx.history),
    Memory: JSON.stringify(ctx.memory ?? {}),
    web_text: formatElements(ctx.marks),
  };
  // One pass, so a value containing "{Memory}" is never substituted again.
  // The template's "{Your brief thoughts ...}" etc. are not placeholders and stay.
  return GLM_WEB_TEMPLATE.replace(/\{(TASK|Web|Time|PREVIOUS_ACTIONS|Memory|web_text)\}/g, (_, k: string) => values[k]);
}

/** Seed 003: one user message, no system message, the image first, then the prompt. */
export function buildRequest(ctx: DialectContext): RequestPart[] {
  return [{ type: 'image', of: 'current' }, { type: 'text', text: buildPrompt(ctx) }];
}

export function formatErrorObservation(error: string): string {
  const e = trimChars(String(error ?? ''), '.') || 'the reply could not be read';
  return `Format error: ${e}. Reply with "Thought: ...", then one "Action: ..." line in exactly one of the formats listed under # Action Space (e.g. "Action: Click [3]"), then "Memory_Updated: {...}".`;
}

/** One action as a person writes it ("Click [3]", "ANSWER; <content>42</content>"), read by the reply parser. */
export function parseAction(text: string): ActionParse {
  const line = String(text ?? '').trim();
  if (!line) return { ok: false, error: 'Write an action, e.g. Click [3] or Type [2]; [hello]' };
  const r = parseGlmWebReply(`Thought: (written by the user)\nAction: ${line}`);
  return isParseError(r) ? { ok: false, error: r.error } : { ok: true, action: r.action, notes: [] };
}

export const glmWeb: Dialect = defineDialect({
  id: 'glm-web',
  model: 'GLM-4.5V',
  callsReadAsWords: true,
  messages: { note: 'dialectNoteWeb', requestSource: 'tempSourceGlm' },
  // JPEG at 90: captured ~30 % faster than PNG at 1280x800 on heavy documentation pages, about as
  // large, text and label numbers as legible (npm run bench, part observe; docs/dialects.md).
  observes: { labels: true, pastScreenshots: 0, device: 'desktop', image: { mime: 'image/jpeg', quality: 90 } },
  // The web grammar acts on labels; the model is told coordinates are thousandths, so they are.
  coords: THOUSANDTHS,
  request: { temperature: 0.001, maxTokens: 8192, extraBody: '{"skip_special_tokens": false}' },
  exports: { webvoyager: true },
  emptyMemory: () => ({}),
  buildRequest,
  parseReply: (content, reasoning) => parseGlmWebReply(content, reasoning),
  parseAction: (text) => parseAction(text),
  formatAction: (action) => formatWebAction(action),
  preview: (partial) => sectionPreview(partial, 'Thought:', 'Action:'),
  formatErrorObservation,
  answerFormat,
  endAction: END_ACTION,
});
