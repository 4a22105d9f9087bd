/**
 * The AppAgent dialect, task mode (TencentQQGYLab/AppAgent, seed 001: prompts.py task_template,
 * scripts/task_executor.py): the model sees one screenshot with our labels drawn AppAgent's way
 * (numeric tags from 1 at each element's centre: observes.labelStyle 'centre-from-1') and no
 * element list; one user message holds the task template with the learned documentation of the
 * elements on screen (`<ui_document>`, docs.ts), the task and the previous step's Summary
 * (`<last_act>`, the dialect's memory), then the screenshot, as AppAgent's OpenAI client sends
 * them. Replies are "Observation / Thought / Action / Summary" with tap(N), text("…"),
 * long_press(N), swipe(N, dir, dist) or FINISH. The prompts speak of a smartphone, so the tab is
 * a phone unless the person chose a desktop viewport (its "device" option, device-option.ts).
 */
import type { Memory } from '../../action/action';
import { THOUSANDTHS, type ShotGeometry } from '../../action/coords';

import { sectionPreview } from '../shared/preview';
import type { ActionParse, Dialect, DialectContext, HistoryEntry, RequestPart } from '../types';
import { FORMS, readCall } from './action';
import { formatUiDocument } from './docs';
import { formatAppAgentAction } from './format';
import { DEVICE, deviceOf } from './device-option';
import { parseAppAgentReply } from './parse';
import { TASK_TEMPLATE } from './template';
import { learnHooks } from './learn';
import { SELF_EXPLORE_TASK_TEMPLATE } from './learn-templates';
import { taskText, trimChars, oneLine } from '../shared/text';
import { defineDialect } from '../shared/define';

/**
 * `<last_act>`: the previous step's Summary (the memory), "None" before the first step, as the
 * executor starts. When the last step did not simply succeed (an error, a format error, the
 * person's rejection), what happened follows on the same line: the template has no other place
 * for it, and the model must learn of it (a departure: AppAgent stops on such errors).
 */
export function formatLastAct(memory: Memory | null | undefined, history: HistoryEntry[]): string {
  const summary = typeof memory === 'string' ? oneLine(memory) : '';
  const last = history?.[history.length - 1];
  const obs = last ? oneLine(last.observation) : '';
  const base = summary || 'None';
  return obs && obs !== 'Success' ? `${base} (The latest action: ${oneLine(last!.action)}. Observation: ${obs})` : base;
}

/**
 * Exploring (AppAgent's self-exploration: ctx.explore): the exploration template, without
 * documentation; elements an earlier exploring action found to change nothing are named after
 * the summary (AppAgent drops them from its tags; ours stay drawn, so the model is told).
 */
function avoidNote(avoid: number[] | undefined): string {
  if (!avoid?.length) return '';
  return ` (Tapping the UI elements labeled ${avoid.map((l) => l + 1).join(', ')} changed nothing before: do not use them.)`;
}

/** A task with an answer schema: the Thought of FINISH carries the answer as JSON. */
/** the action that ends a task, as a follow-up's line names it */
export const END_ACTION = 'FINISH';

export const answerFormat = (schema: string) => `When you reply FINISH, your Thought must be the answer, as one JSON value and nothing else, that matches this JSON Schema: ${schema}`;

export function buildPrompt(ctx: DialectContext): string {
  const values: Record<string, string> = {
    ui_document: formatUiDocument(ctx.docs),
    task_description: taskText(ctx, { answerFormat, endAction: END_ACTION }),
    last_act: formatLastAct(ctx.memory, ctx.history ?? []) + (ctx.explore ? avoidNote(ctx.avoid) : ''),
  };
  // One pass (AppAgent substitutes one after another), so a task or summary holding
  // "<last_act>" is never substituted again.
  const template = ctx.explore ? SELF_EXPLORE_TASK_TEMPLATE : TASK_TEMPLATE;
  return template.replace(/<(ui_document|task_description|last_act)>/g, (_, k: string) => values[k]);
}

/** One user message: the prompt, then the labelled screenshot (AppAgent's OpenAIModel: text, then images). */
export function buildRequest(ctx: DialectContext): RequestPart[] {
  return [{ type: 'text', text: buildPrompt(ctx) }, { type: 'image', of: 'current' }];
}

export function formatErrorObservation(error: string): string {
  const e = trimChars(String(error ?? ''), '.') || 'the reply could not be read';
  return `Format error: ${e}. Your output should include "Observation: ...", "Thought: ...", "Action: " with one function call (${FORMS}) and "Summary: ...".`;
}

/** One action as a person writes it (a call or FINISH; "Action:" before it is allowed). */
export function parseAction(text: string, shot: ShotGeometry): ActionParse {
  const s = String(text ?? '').trim().replace(/^[-*#> \t]*action[*_ \t]*[:：]\s*/i, '');
  if (!s) return { ok: false, error: `Write one action: ${FORMS}` };
  const r = readCall(s, shot, '');
  return r.ok ? { ok: true, action: r.action, notes: r.notes } : { ok: false, error: r.error };
}

export const appagent: Dialect = defineDialect({
  id: 'appagent',
  model: 'AppAgent (GPT-4V, Qwen-VL)',
  messages: { note: 'dialectNoteAppagent', requestSource: 'tempSourceAppagent' },
  answerFormat,
  endAction: END_ACTION,
  // PNG: the phone-emulated capture's size is read from the image itself (docs/dialects.md, Coordinates).
  observes: { labels: true, labelStyle: 'centre-from-1', docs: true, device: 'phone', pastScreenshots: 0 },
  // The grammar acts on tags only; no coordinates are read or written.
  coords: THOUSANDTHS,
  // AppAgent's config.yaml: temperature 0; its 300 max tokens are raised (a think block does not fit).
  request: { temperature: 0, maxTokens: 1024, extraBody: '' },
  exports: { webvoyager: true },
  emptyMemory: () => '',
  buildRequest,
  parseReply: (content, reasoning, shot) => parseAppAgentReply(content, reasoning, shot),
  parseAction,
  formatAction: formatAppAgentAction,
  preview: (partial) => sectionPreview(partial, 'Thought:', 'Action:'),
  formatErrorObservation,
  options: [DEVICE],
  deviceOf,
  learn: learnHooks,
});
