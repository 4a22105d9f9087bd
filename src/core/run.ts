/**
 * The run state machine: reduce(state, event) -> state, and effectOf(state)
 * says what the background must do next. Pure: no chrome, no DOM, no clock
 * (times come in with the events).
 *
 * 1. observe: label the page, take the screenshot -> 'observed' (prompt built here)
 * 2. model: ask the model -> 'replied' (parsed here; unreadable -> format-error step)
 * 3. act: run the action -> 'acted' (step recorded with its observation)
 * 4. repeat until ANSWER, max steps, 3 unreadable replies in a row, stop or failure.
 */
import { describeAction, isParseError, type Action } from './actions';
import type { Mark, Viewport } from './marks';
import { getDialect } from './dialects';
import type { HistoryEntry } from './dialects/types';

export type RunStatus = 'running' | 'finished' | 'stopped' | 'failed';
export type Phase = 'observe' | 'model' | 'act' | 'done';
export type ActResult = { ok: true } | { ok: false; error: string };

export const PASSWORD_MASK = '••••';
/** Unreadable replies in a row before the run stops. */
export const MAX_FORMAT_ERRORS = 3;

export interface Usage { promptTokens: number; completionTokens: number }

export interface StepRecord {
  index: number;
  url: string;
  title: string;
  viewport: Viewport;
  elements: Mark[];
  promptText: string;
  imageBytes: number;
  imageWidth: number;
  imageHeight: number;
  /** data URL of the labelled screenshot the model saw */
  screenshot: string;
  raw: string;
  reasoning: string | null;
  thought: string;
  action: Action | null;
  /** the action as shown in history and traces (passwords masked) */
  actionText: string;
  memory: Record<string, unknown>;
  result: ActResult;
  /** what the model is told about this step next time */
  observation: string;
  timings: { observeMs: number; modelMs: number; actMs: number; totalMs: number };
  usage: Usage | null;
}

/** What has been gathered for the step in progress. */
export type PendingStep = Omit<StepRecord, 'raw' | 'reasoning' | 'thought' | 'action' | 'actionText' | 'memory' | 'result' | 'observation' | 'usage' | 'timings'> & {
  observeMs: number;
  startedAt: number;
  frameOffsets?: FrameOffsets;
  reply?: { raw: string; reasoning: string | null; thought: string; action: Action; actionText: string; memory: Record<string, unknown>; notes: string[]; usage: Usage | null; modelMs: number; secret?: boolean };
};

export interface RunState {
  id: string;
  task: string;
  startUrl: string;
  /** {Web} in the prompt: the site the task is about */
  site: string;
  tabId: number;
  dialect: string;
  model: string;
  baseUrl: string;
  maxSteps: number;
  startedAt: number;
  endedAt: number | null;
  status: RunStatus;
  phase: Phase;
  answer: string | null;
  stopReason: string | null;
  memory: Record<string, unknown>;
  steps: StepRecord[];
  pending: PendingStep | null;
  formatErrorsInARow: number;
}

export type FrameOffsets = Record<number, { x: number; y: number }>;

export interface Observation {
  url: string;
  title: string;
  viewport: Viewport;
  marks: Mark[];
  /** where each labelled frame sits in the top page */
  frameOffsets?: FrameOffsets;
  screenshot: { dataUrl: string; bytes: number; width: number; height: number };
}

export type RunEvent =
  | { type: 'observed'; at: number; obs: Observation; ms: number }
  | { type: 'replied'; at: number; raw: string; reasoning: string | null; usage: Usage | null; ms: number }
  | { type: 'acted'; at: number; result: ActResult; ms: number }
  | { type: 'stop'; at: number; reason: string }
  | { type: 'fail'; at: number; reason: string };

export type Effect =
  | { kind: 'observe' }
  | { kind: 'ask'; messages: ReturnType<ReturnType<typeof getDialect>['buildMessages']> }
  | { kind: 'act'; action: Action; mark: Mark | null; frameOffsets?: FrameOffsets }
  | { kind: 'none' };

export interface NewRun {
  id: string; task: string; startUrl: string; tabId: number; dialect: string;
  model: string; baseUrl: string; maxSteps: number; at: number;
}

export function createRun(n: NewRun): RunState {
  return {
    id: n.id, task: n.task, startUrl: n.startUrl, site: siteOf(n.startUrl), tabId: n.tabId,
    dialect: n.dialect, model: n.model, baseUrl: n.baseUrl, maxSteps: n.maxSteps,
    startedAt: n.at, endedAt: null, status: 'running', phase: 'observe', answer: null, stopReason: null,
    memory: {}, steps: [], pending: null, formatErrorsInARow: 0,
  };
}

/** "https://github.com/" for any URL on github.com; the URL itself when it cannot be parsed. */
export function siteOf(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? `${u.protocol}//${u.host}/` : url;
  } catch {
    return url;
  }
}

export function historyOf(state: RunState): HistoryEntry[] {
  return state.steps.map((s) => ({ thought: s.thought, action: s.actionText, observation: s.observation }));
}

export function effectOf(state: RunState): Effect {
  if (state.status !== 'running') return { kind: 'none' };
  const p = state.pending;
  if (state.phase === 'observe' || !p) return { kind: 'observe' };
  if (state.phase === 'model') {
    const dialect = getDialect(state.dialect);
    return {
      kind: 'ask',
      messages: dialect.buildMessages({
        task: state.task, site: state.site, now: new Date(p.startedAt), history: historyOf(state),
        memory: state.memory, marks: p.elements, screenshotDataUrl: p.screenshot,
      }),
    };
  }
  if (state.phase === 'act' && p.reply) {
    const a = p.reply.action;
    const label = a.type === 'click' || a.type === 'type' ? a.label : a.type === 'scroll' && a.target.kind === 'element' ? a.target.label : null;
    return { kind: 'act', action: a, mark: label === null ? null : p.elements.find((m) => m.label === label) ?? null, frameOffsets: p.frameOffsets };
  }
  return { kind: 'none' };
}

function end(state: RunState, at: number, status: RunStatus, reason: string | null, answer: string | null = null): RunState {
  return { ...state, status, phase: 'done', endedAt: at, stopReason: reason, answer, pending: null };
}

function labelOf(a: Action): number | null {
  if (a.type === 'click' || a.type === 'type') return a.label;
  if (a.type === 'scroll' && a.target.kind === 'element') return a.target.label;
  return null;
}

/** Hides what was typed into a password field in everything that is kept. */
function maskSecret(text: string, secret: string): string {
  return secret ? text.split(secret).join(PASSWORD_MASK) : text;
}

function finishStep(state: RunState, at: number, result: ActResult, extra: string[], actMs: number): RunState {
  const p = state.pending!;
  const r = p.reply!;
  // Parser notes (e.g. memory kept) follow the outcome in brackets, so the outcome reads first.
  const observation = (result.ok ? 'Success' : result.error) + (extra.length ? ` (${extra.join(' ')})` : '');
  const step: StepRecord = {
    index: p.index, url: p.url, title: p.title, viewport: p.viewport, elements: p.elements,
    promptText: p.promptText, imageBytes: p.imageBytes, imageWidth: p.imageWidth, imageHeight: p.imageHeight,
    screenshot: p.screenshot, raw: r.raw, reasoning: r.reasoning, thought: r.thought,
    action: r.secret && r.action.type === 'type' ? { ...r.action, text: PASSWORD_MASK } : r.action,
    actionText: r.actionText, memory: r.memory, result, observation,
    timings: { observeMs: p.observeMs, modelMs: r.modelMs, actMs, totalMs: Math.max(0, at - p.startedAt) },
    usage: r.usage,
  };
  const next: RunState = { ...state, steps: [...state.steps, step], memory: r.memory, pending: null, phase: 'observe' };
  if (next.steps.length >= state.maxSteps) return end(next, at, 'stopped', `Reached the maximum of ${state.maxSteps} steps without an answer.`);
  return next;
}

export function reduce(state: RunState, ev: RunEvent): RunState {
  if (state.status !== 'running') return state;
  switch (ev.type) {
    case 'stop': return end(state, ev.at, 'stopped', ev.reason);
    case 'fail': return end(state, ev.at, 'failed', ev.reason);
    case 'observed': {
      if (state.phase !== 'observe') return state;
      const dialect = getDialect(state.dialect);
      const o = ev.obs;
      const startedAt = ev.at - ev.ms;
      const promptText = dialect.buildPrompt({
        task: state.task, site: state.site, now: new Date(startedAt), history: historyOf(state),
        memory: state.memory, marks: o.marks, screenshotDataUrl: o.screenshot.dataUrl,
      });
      const pending: PendingStep = {
        index: state.steps.length, url: o.url, title: o.title, viewport: o.viewport, elements: o.marks,
        promptText, imageBytes: o.screenshot.bytes, imageWidth: o.screenshot.width, imageHeight: o.screenshot.height,
        screenshot: o.screenshot.dataUrl, observeMs: ev.ms, startedAt, frameOffsets: o.frameOffsets,
      };
      return { ...state, phase: 'model', pending };
    }
    case 'replied': return onReply(state, ev);
    case 'acted': {
      if (state.phase !== 'act' || !state.pending?.reply) return state;
      return finishStep({ ...state, formatErrorsInARow: 0 }, ev.at, ev.result, state.pending.reply.notes, ev.ms);
    }
  }
}

function onReply(state: RunState, ev: Extract<RunEvent, { type: 'replied' }>): RunState {
  if (state.phase !== 'model' || !state.pending) return state;
  const dialect = getDialect(state.dialect);
  const parsed = dialect.parseReply(ev.raw, ev.reasoning);
  const p = state.pending;
  if (isParseError(parsed)) {
    const reply = { raw: ev.raw, reasoning: ev.reasoning ?? parsed.reasoning, thought: '', action: { type: 'wait' } as Action,
      actionText: '(unreadable reply)', memory: state.memory, notes: [], usage: ev.usage, modelMs: ev.ms };
    const withReply: RunState = { ...state, pending: { ...p, reply } };
    const count = state.formatErrorsInARow + 1;
    const done = finishStep({ ...withReply, formatErrorsInARow: count }, ev.at, { ok: false, error: dialect.formatErrorObservation(parsed.error) }, [], 0);
    const last = done.steps[done.steps.length - 1];
    // Not an action that ran: record it as such.
    last.action = null;
    if (count >= MAX_FORMAT_ERRORS && done.status === 'running') {
      return end(done, ev.at, 'failed', `The model's reply could not be read ${count} times in a row (last problem: ${parsed.error}). Check that the model and dialect match; the raw replies are in the steps.`);
    }
    return done;
  }
  const { action } = parsed;
  let { actionText } = parsed;
  let raw = ev.raw;
  let reasoning = ev.reasoning ?? parsed.reasoning;
  let thought = parsed.thought;
  let secret = false;
  const notes = [...parsed.notes];
  const mark = labelOf(action) === null ? null : p.elements.find((m) => m.label === labelOf(action)) ?? null;
  if (action.type === 'type' && mark?.inputType === 'password') {
    raw = maskSecret(raw, action.text);
    reasoning = reasoning === null ? null : maskSecret(reasoning, action.text);
    thought = maskSecret(thought, action.text);
    if (parsed.memory) parsed.memory = JSON.parse(maskSecret(JSON.stringify(parsed.memory), action.text)) as Record<string, unknown>;
    actionText = describeAction({ ...action, text: PASSWORD_MASK });
    secret = true;
  }
  const memory = parsed.memory ?? state.memory;
  const reply = { raw, reasoning, thought, action, actionText, memory, notes, usage: ev.usage, modelMs: ev.ms, secret };
  const withReply: RunState = { ...state, pending: { ...p, reply }, formatErrorsInARow: 0 };
  if (action.type === 'answer') {
    const done = finishStep(withReply, ev.at, { ok: true }, [], 0);
    return end({ ...done, status: 'running' }, ev.at, 'finished', null, action.text);
  }
  const label = labelOf(action);
  if (label !== null && !mark) {
    const labels = p.elements.length ? `labels on this page are 0 to ${p.elements.length - 1}` : 'this page has no labelled elements';
    return finishStep(withReply, ev.at, { ok: false, error: `There is no element with label [${label}]; ${labels}.` }, [], 0);
  }
  return { ...withReply, phase: 'act' };
}
