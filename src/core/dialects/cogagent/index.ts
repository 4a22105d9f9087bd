/**
 * The CogAgent dialect (CogAgent-9B-20241220, seed 000): one user turn, no system prompt, the
 * query "Task / History steps / (Platform: WIN) / (Answer in Action-Operation-Sensitive format.)"
 * and one clean screenshot; replies are "Action: <sentence>", "Grounded Operation: <operation>"
 * with boxes in thousandths, and the marker <<一般操作>> or <<敏感操作>>. No memory. Run
 * variables are named `__CogName_…__` (QUOTE_TEXT, LLM and QUOTE_CLIPBOARD store them; TYPE and
 * LLM use them, filled in by the run just before the action).
 */
import { THOUSANDTHS, type ShotGeometry } from '../../action/coords';

import { sectionPreview } from '../shared/preview';
import { unwrap } from '../shared/reply-text';
import type { ActionParse, Dialect, DialectContext, HistoryEntry, Preview, RequestPart } from '../types';
import { OPERATION_HELP, operationToAction, VARIABLE } from './action';
import { formatCogAction } from './format';
import { lineOperation, operationAt, OPERATION_LABEL } from './operation';
import { parseCogReply, REPLY_HELP } from './parse';
import { FORMAT_LINE, HISTORY_HEAD, MARK_GENERAL, MARK_SENSITIVE, OBSERVATION_LABEL, PLATFORM_LINE, TASK_PREFIX } from './template';
import { taskText, trimChars, oneLine } from '../shared/text';
import { defineDialect } from '../shared/define';

/**
 * One earlier step's history line: "{i}. {grounded operation}\t{action sentence}", as the
 * client keeps them. A step that did not simply succeed gets "\tObservation: …" (our departure:
 * the format has no place for it). Every field on one line.
 */
export function historyLine(h: HistoryEntry, i: number): string {
  const obs = oneLine(h.observation);
  const seen = obs && obs !== 'Success' ? `\t${OBSERVATION_LABEL}${obs}` : '';
  return `${i}. ${oneLine(h.action)}\t${oneLine(h.thought)}${seen}`;
}

/** A task with an answer schema: the Action sentence of END() carries the answer as JSON. */
/** the action that ends a task, as a follow-up's line names it */
export const END_ACTION = 'END()';

export const answerFormat = (schema: string) => `When the task is done, the Action sentence before END() must be the answer, as one JSON value on one line and nothing else, that matches this JSON Schema: ${schema}`;

/** The query text: task, history (its header even when empty), platform and answer format. */
export function queryText(ctx: Pick<DialectContext, 'task' | 'history' | 'answerSchema' | 'followUps'>): string {
  const lines = (ctx.history ?? []).map((h, i) => `\n${historyLine(h, i)}`).join('');
  return `${TASK_PREFIX}${taskText(ctx, { answerFormat, endAction: END_ACTION })}\n${HISTORY_HEAD}${lines}\n${PLATFORM_LINE}\n${FORMAT_LINE}\n`;
}

/** The single user message: the query, then the current screenshot (the client's order). */
export function buildRequest(ctx: DialectContext): RequestPart[] {
  return [{ type: 'text', text: queryText(ctx) }, { type: 'image', of: 'current' }];
}

const FORM = `Answer with "Action: <one sentence>", then "Grounded Operation: <one operation>", then ${MARK_GENERAL} (or ${MARK_SENSITIVE})`;

export function formatErrorObservation(error: string): string {
  const e = trimChars(String(error ?? ''), '.') || 'the reply could not be read';
  return e.includes('Grounded Operation:') ? `Format error: ${e}.` : `Format error: ${e}. ${FORM}.`;
}

/** One Grounded Operation as a person writes it (approval Edit, the runner's `e ACTION`). Never throws. */
export function parseAction(text: string, shot: ShotGeometry): ActionParse {
  try {
    const body = unwrap(String(text ?? '')).trim();
    if (!body) return { ok: false, error: `Write an operation, e.g. CLICK(box=[[387,248,727,317]]) or END()` };
    OPERATION_LABEL.lastIndex = 0;
    const label = OPERATION_LABEL.exec(body);
    const op = (label ? operationAt(body, label.index + label[0].length) : operationAt(body, 0)) ?? lineOperation(body);
    if (!op) return { ok: false, error: `No operation found. ${OPERATION_HELP}` };
    return operationToAction(op, '', shot);
  } catch (e) {
    return { ok: false, error: `The operation could not be read (${e instanceof Error ? e.message : String(e)}). ${OPERATION_HELP}` };
  }
}

/** The live preview: the Action sentence so far, and the Grounded Operation line once it starts. */
export function preview(partial: string): Preview {
  return sectionPreview(partial, 'Action:', 'Grounded Operation:');
}

/** The run variables a text names (`__CogName_Price__`), in order, as written. */
export function variableRefs(text: string): string[] {
  return String(text ?? '').match(VARIABLE) ?? [];
}

export const cogagent: Dialect = defineDialect({
  id: 'cogagent',
  model: 'CogAgent-9B-20241220',
  messages: { note: 'dialectNoteCogagent', requestSource: 'tempSourceCogagent' },
  answerFormat,
  endAction: END_ACTION,
  // clipboard: QUOTE_CLIPBOARD reads what the page copied
  observes: { labels: false, pastScreenshots: 0, device: 'desktop', clipboard: true },
  opensApps: true,
  coords: THOUSANDTHS,
  /**
   * Near-greedy decoding, as THUDM's own inference demo runs the model (cli_demo.py --top_k 1):
   * the reply is a grammar (box numbers, operation names), where sampling only adds typos and
   * makes a run impossible to repeat. 4096 tokens: the demo's max_length; a reply is a few
   * lines, but the LLM action's answer (a summary of a quoted page) can be long. vLLM reads
   * top_k from the body.
   */
  request: { temperature: 0.001, maxTokens: 4096, extraBody: '{"top_k": 1}' },
  // The WebVoyager folder holds the run's messages and screenshots whatever the grammar.
  exports: { webvoyager: true },
  // CogAgent has no memory: the query carries only the history.
  emptyMemory: () => '',
  buildRequest,
  parseReply: (content, reasoning, shot) => parseCogReply(content, reasoning, shot),
  parseAction,
  formatAction: (action, shot) => formatCogAction(action, shot),
  preview,
  formatErrorObservation,
  variableRefs,
});

export { parseCogReply, formatCogAction, REPLY_HELP };
