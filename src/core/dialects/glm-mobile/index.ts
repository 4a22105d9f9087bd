/**
 * The GLM-4.5V mobile dialect (seed, section "手机环境", the AndroidWorld setting): the run's tab
 * is emulated as a phone, the model sees a clean screenshot (no labels), one user message holds
 * the whole prompt (history and memory encoded in it, as the seed asks) and the current
 * screenshot; replies are "Memory: … / Reason: … / Action: {json}" with boxes in thousandths.
 * The person's "apps" (sites listed in settings) are the apps open_app can open.
 */
import type { Memory } from '../../action/action';
import { THOUSANDTHS, type ShotGeometry } from '../../action/coords';

import { sectionPreview, visibleText } from '../shared/preview';
import type { ActionParse, App, Dialect, DialectContext, HistoryEntry, Preview, RequestPart } from '../types';
import { EXAMPLE, readAction, readObject } from './action';
import { formatMobileAction, pythonDictOf } from './format';
import { parseGlmMobileReply } from './parse';
import { GLM_MOBILE_NOTES, GLM_MOBILE_TEMPLATE } from './template';
import { taskText, trimChars, oneLine } from '../shared/text';
import { defineDialect } from '../shared/define';

/** `<supported_apps>` when the person lists no apps (the example ends its list with "."). */
export const NO_APPS = 'none.';

/** The memory as the history shows it: its text, "None" when empty (as the seed's example). */
export function memoryText(memory: Memory | null | undefined): string {
  if (typeof memory === 'string') return oneLine(memory) || 'None';
  if (memory == null) return 'None';
  // another dialect's memory (an object or a list), were a run to carry one over
  const empty = Array.isArray(memory) ? memory.length === 0 : Object.keys(memory).length === 0;
  return empty ? 'None' : oneLine(JSON.stringify(memory));
}

/**
 * `<supported_apps>`: the names joined by ", " and ended with "." (the example's form). The list
 * sits inside a JSON string of the action space, so a name is escaped as JSON would.
 */
export function formatApps(apps: App[]): string {
  const names = (apps ?? []).map((a) => oneLine(a?.name)).filter(Boolean);
  if (names.length === 0) return NO_APPS;
  return names.map((n) => JSON.stringify(n).slice(1, -1)).join(', ') + '.';
}

/**
 * `<history_and_memory>` in the example's shape, one block per past step, every step shown (the
 * seed: all history goes into the prompt):
 *
 *     Step 0:
 *     Memory: None
 *     Reason: …
 *     Action: {'action_type': 'open_app', 'app_name': 'Broccoli'}
 *
 * Actions are shown as Python dicts, as the example does. Each step shows the memory its reply
 * wrote; an entry that does not carry one shows the run's current memory if it is the last step
 * (the step that wrote it, the "Current Memory" of the section's title), else none. A step whose
 * observation is not "Success" (an error, a clamped point, a format error) gets an
 * "Observation:" line, so the model learns what went wrong; the seed's example, where every step
 * succeeded, has none. No steps yet: "None" (with the memory, were there one).
 */
export function formatHistory(history: HistoryEntry[], memory: Memory | null | undefined): string {
  const mem = memoryText(memory);
  if (!history.length) return mem === 'None' ? 'None' : `Memory: ${mem}`;
  return history
    .map((h, i) => {
      const n = Number.isSafeInteger(h.index) ? h.index : i;
      const lines = [`Step ${n}:`];
      if (h.memory !== undefined) lines.push(`Memory: ${memoryText(h.memory)}`);
      else if (i === history.length - 1) lines.push(`Memory: ${mem}`);
      lines.push(`Reason: ${oneLine(h.thought)}`, `Action: ${oneLine(pythonDictOf(h.action))}`);
      const obs = oneLine(h.observation);
      if (obs && obs !== 'Success') lines.push(`Observation: ${obs}`);
      return lines.join('\n');
    })
    .join('\n');
}

/** A task with an answer schema: the answer action's text carries the answer as JSON. */
/** the action that ends a task, as a follow-up's line names it */
export const END_ACTION = 'status complete';

export const answerFormat = (schema: string) => `Before you set the status to complete, give the answer with the answer action; its "text" must be one JSON value, written as a string, that matches this JSON Schema: ${schema}`;

export function buildPrompt(ctx: DialectContext): string {
  const values: Record<string, string> = {
    task_description: taskText(ctx, { answerFormat, endAction: END_ACTION }),
    supported_apps: formatApps(ctx.apps),
    history_and_memory: formatHistory(ctx.history ?? [], ctx.memory),
    additional_notes: GLM_MOBILE_NOTES,
  };
  // One pass, so a value containing "<task_description>" is never substituted again. The
  // calling rules' <answer_text>, <name>, <up|down|left|right>... are not placeholders and stay.
  return GLM_MOBILE_TEMPLATE.replace(/<(task_description|supported_apps|history_and_memory|additional_notes)>/g, (_, k: string) => values[k]);
}

/**
 * One user message: the prompt, then the current screenshot. The mobile section says only to send
 * the current screenshot with the prompt, not where. The one message list the seed shows for this
 * model (the computer section) puts the current screenshot last ("the current state's image
 * should always be placed last"), after all the text; the mobile prompt, like that one, is a
 * single text with no place of its own for the image. (glm-web sends the image first: its section
 * shows no message list either.)
 */
export function buildRequest(ctx: DialectContext): RequestPart[] {
  return [{ type: 'text', text: buildPrompt(ctx) }, { type: 'image', of: 'current' }];
}

export function formatErrorObservation(error: string): string {
  const e = trimChars(String(error ?? ''), '.') || 'the reply could not be read';
  return `Format error: ${e}. Reply with "Memory: ...", then "Reason: ...", then "Action: " and one action of the action space in the correct JSON format, e.g. Action: ${EXAMPLE}`;
}

/** One action as a person writes it (the JSON of a calling rule; "Action:" before it is allowed). */
export function parseAction(text: string, shot: ShotGeometry): ActionParse {
  try {
    const s = String(text ?? '').trim();
    if (!s) return { ok: false, error: `Write one action as JSON, e.g. ${EXAMPLE}` };
    const obj = readObject(s);
    if (!obj.ok) return { ok: false, error: obj.error };
    const r = readAction(obj.value, shot, '');
    return r.ok ? { ok: true, action: r.action, notes: r.notes } : { ok: false, error: r.error };
  } catch (e) {
    return { ok: false, error: `The action could not be read (${e instanceof Error ? e.message : String(e)}); write it like ${EXAMPLE}` };
  }
}

/** The Reason so far (null while Memory is still arriving) and the Action line once started. */
export function preview(partial: string): Preview {
  const p = sectionPreview(partial, 'Reason:', 'Action:');
  if (!/(?:^|\n)[-*#> \t]*reason(?:ing)?[*_ \t]*[:：]/i.test(visibleText(partial))) return { thought: null, action: p.action };
  // Reason, then Memory, then Action: the thought stops at Memory.
  const cut = p.thought ? p.thought.search(/\n[-*#> \t]*memory[*_ \t]*[:：]/i) : -1;
  return cut >= 0 ? { thought: p.thought!.slice(0, cut).trim() || null, action: p.action } : p;
}

export const glmMobile: Dialect = defineDialect({
  id: 'glm-mobile',
  model: 'GLM-4.5V',
  messages: { note: 'dialectNoteMobile', requestSource: 'tempSourceGlm' },
  answerFormat,
  endAction: END_ACTION,
  observes: { labels: false, pastScreenshots: 0, device: 'phone' },
  opensApps: true,
  coords: THOUSANDTHS,
  request: { temperature: 0.001, maxTokens: 8192, extraBody: '{"skip_special_tokens": false}' },
  exports: { webvoyager: true },
  emptyMemory: () => '',
  buildRequest,
  parseReply: (content, reasoning, shot) => parseGlmMobileReply(content, reasoning, shot),
  parseAction,
  formatAction: formatMobileAction,
  preview,
  formatErrorObservation,
});
