/**
 * The run state machine: reduce(state, event) -> state, and effectOf(state)
 * says what the background must do next. Pure: no chrome, no DOM, no clock
 * (times come in with the events).
 *
 * 1. observe: label the page, take the screenshot -> 'observed' (prompt built here)
 * 2. model: ask the model -> 'replied' (parsed here; unreadable -> format-error step)
 * 3. check: the guards (guards.ts) look at the proposed action -> 'checked'; in step-approval mode,
 *    or when a guard trips, the run waits in phase 'approve' for 'approve' (maybe edited) or
 *    'reject' (the feedback becomes the step's observation)
 * 4. act: 'acting' is written before the input, 'input' after it, 'acted' after the page settled,
 *    so a worker that Chrome stopped mid-action knows whether the input happened (step recorded
 *    with its observation)
 * 5. repeat until ANSWER, max steps, 3 unreadable replies in a row, stop or failure.
 *
 * At any time: 'pause' (nothing new starts), 'takeover' (the person acts; a proposed action that
 * has not run is recorded as not run), 'resume' (after a take-over, a step records that the person
 * acted, with the URL before and after, so the model knows).
 */
import { describeAction, isParseError, labelOf, type Action } from './actions';
import { DEFAULT_GUARDS, hostKey, normalizeGuards } from './guards';

const DEFAULT_SEARCH = 'https://www.bing.com/';
import type { Mark, Viewport } from './marks';
import { getDialect } from './dialects';
import type { HistoryEntry } from './dialects/types';
import type { GuardHit, GuardId, GuardSettings } from './guards';
import { replayReply, type ReplayPlan } from './replay';
import { overCap, pageKeyOf, repeatNudge, repeatStop, type RunLimits } from './run-guards';

export type RunStatus = 'running' | 'finished' | 'stopped' | 'failed';
export type Phase = 'observe' | 'model' | 'approve' | 'act' | 'done';
export type ActResult = { ok: true } | { ok: false; error: string };

export const PASSWORD_MASK = '••••';
export { MAX_WAITS_IN_A_ROW, REPEAT_NUDGE, REPEAT_STOP, pageKeyOf, runTotals, type RunLimits } from './run-guards';
export { joinSecret, splitSecret } from './run-secrets';
/** Unreadable replies in a row before the run stops. */
export const MAX_FORMAT_ERRORS = 3;
export interface Usage { promptTokens: number; completionTokens: number }

/** How the person let the step's action run (CONTRACT.md §3 `approval`). */
export interface Approval { decision: 'approved' | 'edited' | 'rejected' | 'auto'; feedback: string | null }

/** Why the run waits for the person before acting. */
export interface ApprovalRequest {
  /** the guard that tripped, or null: step-approval mode */
  rule: GuardId | null;
  /** e.g. "this types into a password field"; null in step-approval mode without a guard */
  reason: string | null;
}

export interface Paused {
  kind: 'pause' | 'takeover';
  at: number;
  /** the tab's URL when it was paused */
  url: string;
}

/** The outcome of an action whose input may or may not have happened (the worker was stopped during it). */
export const INPUT_UNKNOWN: ActResult = {
  ok: false,
  error: 'The browser stopped the extension while this action was being done, so it may or may not have taken effect; look at the page before repeating it.',
};

/** The text the model is told when it has been rejected. */
export function rejectionText(feedback: string | null): string {
  return feedback ? `The user rejected this action and said: ${feedback}` : 'The user rejected this action; try something else.';
}

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
  /**
   * The labelled screenshot the model saw, as kept: a JPEG data URL at CSS-pixel size ('' when not
   * loaded or excluded). The model itself got the PNG (request.imageBytes is its size).
   */
  screenshot: string;
  /** the same view without labels or our select lists: a JPEG data URL ('' when none) */
  cleanScreenshot: string;
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
  /** ms; modelFirstTokenMs: until the first streamed token (null when not streamed) */
  timings: { observeMs: number; modelMs: number; modelFirstTokenMs?: number | null; actMs: number; totalMs: number };
  usage: Usage | null;
  /** the page as the model saw it (URL and element list), to tell an unchanged page (loop guard) */
  pageKey?: string;
  /** null: no action was proposed (unreadable reply, take-over step) */
  approval: Approval | null;
  /** 'person': the person took over and acted; everything else is a model step */
  kind?: 'person';
}

/** What has been gathered for the step in progress. */
export type PendingStep = Omit<StepRecord, 'raw' | 'reasoning' | 'thought' | 'action' | 'actionText' | 'memory' | 'result' | 'observation' | 'usage' | 'timings' | 'approval' | 'kind' | 'cleanScreenshot'> & {
  /** the PNG data URL the model gets in `screenshot`; these are the JPEGs kept once the step is done */
  kept?: { labelled: string; clean: string };
  observeMs: number;
  startedAt: number;
  frameOffsets?: FrameOffsets;
  reply?: PendingReply;
  /** the guards have looked at the action (phase act) */
  checked?: boolean;
  /** waiting for the person (phase approve) */
  approval?: ApprovalRequest;
  /** how the action was let through */
  decision?: Approval;
  /** the input of the action started (written before it, so a restart knows) */
  actStartedAt?: number;
  /** the input of the action is done, with this outcome (written before the page settles) */
  inputResult?: ActResult;
};

export interface PendingReply {
  raw: string; reasoning: string | null; thought: string; action: Action; actionText: string;
  memory: Record<string, unknown>; notes: string[]; usage: Usage | null; modelMs: number; firstTokenMs?: number | null;
  /** the action types into a password field: its text is masked everywhere it is kept */
  secret?: boolean;
}

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
  /** ask the person before every action */
  approveSteps: boolean;
  guards: GuardSettings;
  /** where "Bing" goes (the leave-site guard needs it) */
  searchStartPage: string;
  paused: Paused | null;
  /** brought in from a trace file (history import), not run here */
  imported?: boolean;
  /** a replay: the recorded actions stand in for the model (replay.ts) */
  replay?: ReplayPlan;
  /** token and cost caps (absent: none) */
  limits?: RunLimits;
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
  /** JPEG data URLs kept for the history: the labelled view and the clean one ('' when not taken) */
  kept?: { labelled: string; clean: string };
}

export type RunEvent =
  | { type: 'observed'; at: number; obs: Observation; ms: number }
  | { type: 'replied'; at: number; raw: string; reasoning: string | null; usage: Usage | null; ms: number; firstTokenMs?: number | null; truncated?: boolean }
  | { type: 'checked'; at: number; hit: GuardHit | null }
  | { type: 'approve'; at: number; edit?: Action; allowRule?: boolean }
  | { type: 'reject'; at: number; feedback: string | null }
  | { type: 'acting'; at: number }
  | { type: 'input'; at: number; result: ActResult }
  | { type: 'acted'; at: number; result: ActResult; ms: number }
  | { type: 'pause'; at: number; url: string }
  | { type: 'takeover'; at: number; url: string }
  | { type: 'resume'; at: number; url: string }
  | { type: 'mode'; at: number; approveSteps: boolean }
  | { type: 'stop'; at: number; reason: string }
  | { type: 'fail'; at: number; reason: string };

export type Effect =
  | { kind: 'observe' }
  | { kind: 'ask'; messages: ReturnType<ReturnType<typeof getDialect>['buildMessages']> }
  /** a replay's next reply, or why it cannot go on */
  | { kind: 'replay'; reply: { ok: true; raw: string } | { ok: false; reason: string } }
  | { kind: 'check'; action: Action; mark: Mark | null }
  | { kind: 'act'; action: Action; mark: Mark | null; frameOffsets?: FrameOffsets }
  /** nothing to do until the person decides (approve, reject, resume) */
  | { kind: 'wait' }
  | { kind: 'none' };

export interface NewRun {
  id: string; task: string; startUrl: string; tabId: number; dialect: string;
  model: string; baseUrl: string; maxSteps: number; at: number;
  /** default false; guards default to DEFAULT_GUARDS; searchStartPage to Bing */
  approveSteps?: boolean; guards?: GuardSettings; searchStartPage?: string;
  replay?: ReplayPlan;
  limits?: RunLimits;
}

export function createRun(n: NewRun): RunState {
  return {
    id: n.id, task: n.task, startUrl: n.startUrl, site: siteOf(n.startUrl), tabId: n.tabId,
    dialect: n.dialect, model: n.model, baseUrl: n.baseUrl, maxSteps: n.maxSteps,
    startedAt: n.at, endedAt: null, status: 'running', phase: 'observe', answer: null, stopReason: null,
    memory: {}, steps: [], pending: null, formatErrorsInARow: 0,
    approveSteps: n.approveSteps ?? false, guards: n.guards ?? DEFAULT_GUARDS, searchStartPage: n.searchStartPage ?? DEFAULT_SEARCH, paused: null,
    ...(n.replay ? { replay: n.replay } : {}),
    ...(n.limits ? { limits: n.limits } : {}),
  };
}

/** A run saved by an older version, with the fields added since filled in. */
export function upgradeRun(s: RunState): RunState {
  return {
    ...s,
    approveSteps: s.approveSteps ?? false,
    guards: normalizeGuards(s.guards),
    searchStartPage: s.searchStartPage ?? DEFAULT_SEARCH,
    paused: s.paused ?? null,
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

/** The mark an action targets, from the step's element list (null: none, or no such label). */
export function targetOf(elements: Mark[], a: Action): Mark | null {
  const label = labelOf(a);
  return label === null ? null : elements.find((m) => m.label === label) ?? null;
}

export function effectOf(state: RunState): Effect {
  if (state.status !== 'running') return { kind: 'none' };
  if (state.paused || state.phase === 'approve') return { kind: 'wait' };
  const p = state.pending;
  if (state.phase === 'observe' || !p) return { kind: 'observe' };
  if (state.phase === 'model' && state.replay) {
    return { kind: 'replay', reply: replayReply(state.replay, modelSteps(state), p.elements, p.url) };
  }
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
    const mark = targetOf(p.elements, a);
    if (!p.checked) return { kind: 'check', action: a, mark };
    return { kind: 'act', action: a, mark, frameOffsets: p.frameOffsets };
  }
  return { kind: 'none' };
}

function end(state: RunState, at: number, status: RunStatus, reason: string | null, answer: string | null = null): RunState {
  return { ...state, status, phase: 'done', endedAt: at, stopReason: reason, answer, pending: null, paused: null };
}

/** Hides what was typed into a password field in everything that is kept. */
function maskSecret(text: string, secret: string): string {
  return secret ? text.split(secret).join(PASSWORD_MASK) : text;
}

/**
 * A reply whose action types into a password field: the text is masked in raw, reasoning, thought,
 * memory and actionText, and the reply is marked secret (the action keeps the text until it runs;
 * storage keeps it out of the database, run-store.ts). Any other reply comes back unchanged.
 */
export function withSecretMasked(r: PendingReply, elements: Mark[]): PendingReply {
  const a = r.action;
  if (a.type !== 'type' || targetOf(elements, a)?.inputType !== 'password' || !a.text) return { ...r, secret: false };
  return {
    ...r,
    raw: maskSecret(r.raw, a.text),
    reasoning: r.reasoning === null ? null : maskSecret(r.reasoning, a.text),
    thought: maskSecret(r.thought, a.text),
    memory: JSON.parse(maskSecret(JSON.stringify(r.memory), a.text)) as Record<string, unknown>,
    actionText: describeAction({ ...a, text: PASSWORD_MASK }),
    secret: true,
  };
}

function finishStep(state: RunState, at: number, result: ActResult, extra: string[], actMs: number): RunState {
  const p = state.pending!;
  const r = p.reply!;
  // Parser notes (e.g. memory kept) follow the outcome in brackets, so the outcome reads first.
  const observation = (result.ok ? 'Success' : result.error) + (extra.length ? ` (${extra.join(' ')})` : '');
  const step: StepRecord = {
    index: p.index, url: p.url, title: p.title, viewport: p.viewport, elements: p.elements,
    promptText: p.promptText, imageBytes: p.imageBytes, imageWidth: p.imageWidth, imageHeight: p.imageHeight,
    screenshot: p.kept?.labelled ?? p.screenshot, cleanScreenshot: p.kept?.clean ?? '', raw: r.raw, reasoning: r.reasoning, thought: r.thought,
    action: r.secret && r.action.type === 'type' ? { ...r.action, text: PASSWORD_MASK } : r.action,
    actionText: r.actionText, memory: r.memory, result, observation,
    timings: { observeMs: p.observeMs, modelMs: r.modelMs, modelFirstTokenMs: r.firstTokenMs ?? null, actMs, totalMs: Math.max(0, at - p.startedAt) },
    usage: r.usage,
    pageKey: pageKeyOf(p.url, p.elements),
    approval: p.decision ?? null,
  };
  const next: RunState = { ...state, steps: [...state.steps, step], memory: r.memory, pending: null, phase: 'observe' };
  if (modelSteps(next) >= state.maxSteps) return end(next, at, 'stopped', `Reached the maximum of ${state.maxSteps} steps without an answer.`);
  return next;
}

/** Steps the model took (the person's take-overs do not count against max steps). */
export function modelSteps(state: RunState): number {
  return state.steps.filter((s) => s.kind !== 'person').length;
}

/** The step that tells the model the person acted in the browser themselves. */
function personStep(state: RunState, paused: Paused, at: number, url: string): StepRecord {
  const last = state.steps[state.steps.length - 1];
  const moved = url === paused.url ? `still on ${url}` : `page before: ${paused.url}; page now: ${url}`;
  return {
    index: state.steps.length, url, title: '', viewport: last?.viewport ?? { width: 0, height: 0, devicePixelRatio: 1 },
    elements: [], promptText: '', imageBytes: 0, imageWidth: 0, imageHeight: 0, screenshot: '', cleanScreenshot: '',
    raw: '', reasoning: null, thought: '', action: null, actionText: 'The user took over the browser',
    memory: state.memory, result: { ok: true },
    observation: `The user took over and acted in the browser themselves (${moved}). Continue the task from the current page.`,
    timings: { observeMs: 0, modelMs: 0, actMs: 0, totalMs: Math.max(0, at - paused.at) },
    usage: null, approval: null, kind: 'person',
  };
}

export function reduce(state: RunState, ev: RunEvent): RunState {
  if (state.status !== 'running') return state;
  const p = state.pending;
  switch (ev.type) {
    case 'stop': return end(state, ev.at, 'stopped', ev.reason);
    case 'fail': return end(state, ev.at, 'failed', ev.reason);
    case 'mode': return { ...state, approveSteps: ev.approveSteps };
    case 'pause': return state.paused ? state : { ...state, paused: { kind: 'pause', at: ev.at, url: ev.url } };
    case 'takeover': return takeOver(state, ev.at, ev.url);
    case 'resume': {
      if (!state.paused) return state;
      if (state.paused.kind === 'pause') return { ...state, paused: null };
      const steps = [...state.steps, personStep(state, state.paused, ev.at, ev.url)];
      return { ...state, steps, paused: null, pending: null, phase: 'observe' };
    }
    case 'checked': {
      if (state.phase !== 'act' || !p?.reply || p.checked) return state;
      if (!ev.hit && !state.approveSteps) return { ...state, pending: { ...p, checked: true, decision: { decision: 'auto', feedback: null } } };
      return { ...state, phase: 'approve', pending: { ...p, checked: true, approval: { rule: ev.hit?.id ?? null, reason: ev.hit?.reason ?? null } } };
    }
    case 'approve': return onApprove(state, ev);
    case 'reject': {
      if (state.phase !== 'approve' || !p?.reply) return state;
      const feedback = ev.feedback?.trim() || null;
      const withDecision: RunState = { ...state, pending: { ...p, approval: undefined, decision: { decision: 'rejected', feedback } } };
      return finishStep(withDecision, ev.at, { ok: false, error: rejectionText(feedback) }, [], 0);
    }
    case 'acting': {
      if (state.phase !== 'act' || !p?.reply || p.actStartedAt !== undefined) return state;
      return { ...state, pending: { ...p, actStartedAt: ev.at } };
    }
    case 'input': {
      if (state.phase !== 'act' || !p?.reply || p.actStartedAt === undefined || p.inputResult) return state;
      return { ...state, pending: { ...p, inputResult: ev.result } };
    }
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
        screenshot: o.screenshot.dataUrl, kept: o.kept, observeMs: ev.ms, startedAt, frameOffsets: o.frameOffsets,
      };
      return { ...state, phase: 'model', pending };
    }
    case 'replied': return onReply(state, ev);
    case 'acted': {
      if (state.phase !== 'act' || !p?.reply) return state;
      return finishStep({ ...state, formatErrorsInARow: 0 }, ev.at, ev.result, p.reply.notes, ev.ms);
    }
  }
}

/**
 * The person takes the page. A proposed action that has not started is recorded as not run (its
 * reply is kept); a step still being observed or asked is dropped: its screenshot would be stale
 * once the person acts, and it is taken again after resume.
 */
function takeOver(state: RunState, at: number, url: string): RunState {
  if (state.paused?.kind === 'takeover') return state;
  const paused: Paused = { kind: 'takeover', at, url: state.paused?.url ?? url };
  const p = state.pending;
  if (p?.reply && p.actStartedAt === undefined && (state.phase === 'act' || state.phase === 'approve')) {
    const withDecision: RunState = { ...state, pending: { ...p, approval: undefined, decision: { decision: 'rejected', feedback: 'The user took over before this action ran.' } } };
    const done = finishStep(withDecision, at, { ok: false, error: 'Not run: the user took over the browser before this action ran.' }, [], 0);
    return done.status === 'running' ? { ...done, paused } : done;
  }
  if (state.phase === 'act' && p?.actStartedAt !== undefined) return { ...state, paused }; // the action finishes first
  return { ...state, pending: null, phase: 'observe', paused };
}

function onApprove(state: RunState, ev: Extract<RunEvent, { type: 'approve' }>): RunState {
  const p = state.pending;
  if (state.phase !== 'approve' || !p?.reply) return state;
  let reply = p.reply;
  let guards = state.guards;
  if (ev.allowRule && p.approval?.rule) {
    const key = hostKey(state.site);
    const now = guards.allow[key] ?? [];
    if (!now.includes(p.approval.rule)) guards = { ...guards, allow: { ...guards.allow, [key]: [...now, p.approval.rule] } };
  }
  if (ev.edit) {
    const label = labelOf(ev.edit);
    if (label !== null && !p.elements.some((m) => m.label === label)) return state; // validated by the caller
    reply = withSecretMasked({ ...reply, action: ev.edit, actionText: describeAction(ev.edit) }, p.elements);
  }
  const decision: Approval = { decision: ev.edit ? 'edited' : 'approved', feedback: null };
  const next: RunState = { ...state, guards, pending: { ...p, reply, approval: undefined, decision, checked: true }, phase: 'act' };
  if (reply.action.type === 'answer') {
    const done = finishStep(next, ev.at, { ok: true }, [], 0);
    return end({ ...done, status: 'running' }, ev.at, 'finished', null, reply.action.text);
  }
  return next;
}

function onReply(state: RunState, ev: Extract<RunEvent, { type: 'replied' }>): RunState {
  if (state.phase !== 'model' || !state.pending) return state;
  const dialect = getDialect(state.dialect);
  const parsed = dialect.parseReply(ev.raw, ev.reasoning);
  const p = state.pending;
  if (isParseError(parsed)) {
    const reply = { raw: ev.raw, reasoning: ev.reasoning ?? parsed.reasoning, thought: '', action: { type: 'wait' } as Action,
      actionText: '(unreadable reply)', memory: state.memory, notes: [], usage: ev.usage, modelMs: ev.ms, firstTokenMs: ev.firstTokenMs ?? null };
    const withReply: RunState = { ...state, pending: { ...p, reply } };
    const count = state.formatErrorsInARow + 1;
    // A reply the server cut at max_tokens: say so, to the model and to the person.
    const cut = ev.truncated ? ' Your reply was cut off at the token limit before it was complete: keep the Thought short.' : '';
    const done = finishStep({ ...withReply, formatErrorsInARow: count }, ev.at, { ok: false, error: dialect.formatErrorObservation(parsed.error) + cut }, [], 0);
    const last = done.steps[done.steps.length - 1];
    // Not an action that ran: record it as such.
    last.action = null;
    if (count >= MAX_FORMAT_ERRORS && done.status === 'running') {
      const last = ev.raw.trim().replace(/\s+/g, ' ');
      const shown = last ? `"${last.length > 300 ? `${last.slice(0, 300)}…` : last}"` : '(empty)';
      const hint = ev.truncated ? 'The last reply was cut off at the token limit: raise Max tokens in settings.' : 'Check that the model and dialect match; every raw reply is in the steps.';
      return end(done, ev.at, 'failed', `The model's reply could not be read ${count} times in a row (last problem: ${parsed.error}). Its last reply was: ${shown}. ${hint}`);
    }
    return done;
  }
  const { action } = parsed;
  const mark = targetOf(p.elements, action);
  const reply = withSecretMasked({
    raw: ev.raw, reasoning: ev.reasoning ?? parsed.reasoning, thought: parsed.thought, action, actionText: parsed.actionText,
    memory: parsed.memory ?? state.memory, notes: [...parsed.notes], usage: ev.usage, modelMs: ev.ms, firstTokenMs: ev.firstTokenMs ?? null,
  }, p.elements);
  const withReply: RunState = { ...state, pending: { ...p, reply }, formatErrorsInARow: 0 };
  if (action.type !== 'answer') {
    // Budget and loop guards: the action is recorded as not run and the run stops with the reason.
    const stop = overCap(state, ev.usage) ?? repeatStop(state, p, reply.actionText, action);
    if (stop) return end(finishStep(withReply, ev.at, { ok: false, error: `Not run: ${stop}` }, [], 0), ev.at, 'stopped', stop);
    const nudge = repeatNudge(state, p, reply.actionText);
    if (nudge) reply.notes.push(nudge);
  }
  if (action.type === 'answer' && state.approveSteps) {
    // The person may still send the model back to work ("that is not the cheapest one").
    return { ...withReply, phase: 'approve', pending: { ...p, reply, checked: true, approval: { rule: null, reason: null } } };
  }
  if (action.type === 'answer') {
    const done = finishStep({ ...withReply, pending: { ...withReply.pending!, decision: { decision: 'auto', feedback: null } } }, ev.at, { ok: true }, [], 0);
    return end({ ...done, status: 'running' }, ev.at, 'finished', null, action.text);
  }
  const label = labelOf(action);
  if (label !== null && !mark) {
    const labels = p.elements.length ? `labels on this page are 0 to ${p.elements.length - 1}` : 'this page has no labelled elements';
    return finishStep(withReply, ev.at, { ok: false, error: `There is no element with label [${label}]; ${labels}.` }, [], 0);
  }
  return { ...withReply, phase: 'act' };
}
