/**
 * The run state machine: reduce(state, event) -> state. Pure: no chrome, no DOM, no clock (times
 * come in with the events). effects.ts says what the background must do next.
 *
 * 1. observe: label the page, take the screenshot -> 'observed' (the dialect builds the request here, once)
 * 2. model: ask the model -> 'replied' (parsed by the dialect; unreadable -> format-error step),
 *    or in a replay the next recorded action -> 'replayed'
 * 3. check: the guards look at the proposed action -> 'checked'; in step-approval mode, or when a
 *    guard trips, the run waits in phase 'approve' for 'approve' (maybe edited) or 'reject'
 * 4. act: 'acting' is written before the input, 'input' after it, 'acted' after the page settled,
 *    so a worker that Chrome stopped mid-action knows whether the input happened
 * 5. repeat until the task is answered, done or failed, max steps, 3 unreadable replies in a
 *    row, stop or failure.
 *
 * At any time: 'pause', 'takeover' (the person acts; a proposed action that has not run is
 * recorded as not run), 'resume' (after a take-over, a step records that the person acted).
 */
import { endsRun, isParseError, labelOf, type Action, type Memory, type ParsedStep, type ParseError } from '../action/action';
import { browserShortcut } from '../action/shortcuts';
import { hostKey, normalizeGuards, DEFAULT_GUARDS } from '../guards';
import { checkDecision, injectionReason } from './guard-decision';
import { detectInjection, pageTexts } from '../injection';
import { fileFindings, findingsOf } from './findings';
import { withPictures, withScreen } from './screen';
import { afterActionHit, type Landed } from '../guard-after';
import { dialectOf } from '../dialects/registry';
import { optionValues } from '../dialects/options';
import { promptTextOf } from '../dialects/request';
import type { HistoryEntry } from '../dialects/types';
import { capText, MAX_REPLY_CHARS } from '../limits';
import type { ShotGeometry } from '../action/coords';
import type { Mark } from '../marks';
import type { Usage } from '../costs';
import { overCap, pageKeyOf, repeatCount, repeatStop, textKey } from './budget';
import { markUnchanged } from './unchanged';
import { modelText } from './model-text';
import { translatorFor } from '../locales';
import { personTextIn } from './person-text';
import { hideMarks, hideReply, hideRun, hideTarget, rememberTyped, taskForModel, typesKnownPassword } from './secrets';
import { hideValue, MIN_SECRET_CHARS, onlyPlaceholders, placeholdersIn, typedPlaceholderFor, usableSecrets } from '../secrets';
import { keptValue, previewValue, variablesUsed } from './variables';
import {
  DEFAULT_SEARCH, MAX_FORMAT_ERRORS, PASSWORD_MASK, TOOK_OVER_FEEDBACK, siteOf,
  type ActedElement, type ActResult, type AfterAction, type Approval, type NewRun, type Paused, type PendingReply, type PendingStep,
  type RunEvent, type RunState, type RunStatus, type StepRecord, type TabChange,
} from './state';

export function createRun(n: NewRun): RunState {
  const kept = usableSecrets(n.secrets ?? []);
  const vault = kept.length ? { typed: [], kept } : undefined;
  return {
    id: n.id, task: hideRun({ vault }, n.task), startUrl: n.startUrl, site: siteOf(n.startUrl), tabId: n.tabId,
    dialect: n.dialect, model: n.model, baseUrl: n.baseUrl, maxSteps: n.maxSteps,
    startedAt: n.at, endedAt: null, status: 'running', phase: 'observe', answer: null, stopReason: null,
    memory: n.memory ?? dialectOf(n.dialect).emptyMemory(), steps: [], pending: null, formatErrorsInARow: 0,
    approveSteps: n.approveSteps ?? false, guards: n.guards ?? DEFAULT_GUARDS, searchStartPage: n.searchStartPage ?? DEFAULT_SEARCH, paused: null,
    ...(n.apps?.length ? { apps: n.apps } : {}),
    ...(n.replay ? { replay: n.replay } : {}),
    ...(n.limits ? { limits: n.limits } : {}),
    ...(n.files?.length ? { files: n.files } : {}),
    ...(n.locale && n.locale !== 'en' ? { locale: n.locale } : {}),
    ...(vault ? { vault } : {}),
    ...(n.bbox && dialectOf(n.dialect).bboxSetting ? { bbox: n.bbox } : {}),
    ...(dialectOf(n.dialect).options?.length ? { dialectOptions: optionValues(dialectOf(n.dialect), n.dialectOptions) } : {}),
    ...(n.explore && dialectOf(n.dialect).observes.docs ? { explore: true } : {}),
    ...(n.device && dialectOf(n.dialect).deviceSetting ? { device: n.device } : {}),
  };
}

/** What the run says to its person, in the language they had when it started. */
function personText(state: RunState) {
  return personTextIn(translatorFor(state.locale));
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

/** What the model was shown at this step: the screenshot's size and the viewport it pictures. */
export function shotOf(p: Pick<PendingStep, 'imageWidth' | 'imageHeight' | 'viewport'>): ShotGeometry {
  return { imageWidth: p.imageWidth, imageHeight: p.imageHeight, viewport: { width: p.viewport.width, height: p.viewport.height } };
}

/** The past steps as later prompts show them, each text capped (limits.ts) so one huge reply is not re-sent at every step. */
/** The model's reply as the run's dialect reads it: parsed once per reply (the background's 'replied' event carries it). */
export function parseModelReply(state: RunState, raw: string, reasoning: string | null): ParsedStep | ParseError {
  return dialectOf(state.dialect).parseReply(raw, reasoning, shotOf(state.pending!), state);
}

export function historyOf(state: RunState): HistoryEntry[] {
  return hideRun(state, state.steps.map((s) => ({
    index: s.index, thought: capText(s.thought), action: capText(s.actionText), observation: capText(s.observation), hasScreenshot: s.imageBytes > 0,
    memory: typeof s.memory === 'string' ? capText(s.memory) : s.memory,
    ...(s.kind === 'person' || s.approval?.decision === 'edited' ? {} : { reply: capText(s.raw) }),
  })));
}

/** The mark a label action targets, from the step's element list (null: none, or no such label). */
export function markOf(elements: Mark[], a: Action): Mark | null {
  const label = labelOf(a);
  return label === null ? null : elements.find((m) => m.label === label) ?? null;
}

/** What an action acts on: its label's mark, else what the background found (a point, the focused field). */
function actedOn(elements: Mark[], a: Action, found: ActedElement | null | undefined): ActedElement | null {
  const m = markOf(elements, a);
  if (m) return { tag: m.tag, text: m.text, rect: m.rect, inputType: m.inputType, frameId: m.frameId, fingerprint: m.fingerprint };
  return labelOf(a) === null ? found ?? null : null;
}

function end(state: RunState, at: number, status: RunStatus, reason: string | null, answer: string | null = state.answer): RunState {
  return { ...state, status, phase: 'done', endedAt: at, stopReason: reason, answer, pending: null, paused: null };
}

/** Hides what was typed into a password field in everything that is kept, as `mask`. */
function maskSecret(text: string, secret: string, mask: string): string {
  return secret ? hideValue(text, secret, mask) : text;
}

function maskMemory(m: Memory, secret: string, mask: string): Memory {
  return typeof m === 'string' ? maskSecret(m, secret, mask) : (JSON.parse(maskSecret(JSON.stringify(m), secret, mask)) as Memory);
}

/**
 * A reply whose action types into a password field: the text is masked in raw, reasoning, thought,
 * memory and actionText, and the reply is marked secret (the action keeps the text until it runs;
 * storage keeps it out of the database, secrets.ts). Any other reply comes back unchanged.
 */
export function withSecretMasked(reply: PendingReply, target: ActedElement | null, state: RunState, p: PendingStep, password = target?.inputType === 'password'): PendingReply {
  const r = hideReply(reply, state);
  const a = r.action;
  // placeholders only (a secret, a password typed before): no value of its own to hide
  if (a.type !== 'type' || !a.text || onlyPlaceholders(a.text) || (!password && !typesKnownPassword(state, a.text))) return { ...r, secret: false };
  // the placeholder it is kept as from now on (rememberTyped), so the model can type it again; a short one: the mask
  const mask = a.text.length >= MIN_SECRET_CHARS ? typedPlaceholderFor(state.vault?.typed ?? [], a.text) : PASSWORD_MASK;
  return {
    ...r,
    raw: maskSecret(r.raw, a.text, mask),
    reasoning: r.reasoning === null ? null : maskSecret(r.reasoning, a.text, mask),
    thought: maskSecret(r.thought, a.text, mask),
    memory: maskMemory(r.memory, a.text, mask),
    actionText: dialectOf(state.dialect).formatAction({ ...a, text: mask }, shotOf(p), state),
    secret: true,
  };
}

/** A reply that types a password: it is masked in everything the run keeps from now on. */
function typedPassword(state: RunState, r: PendingReply): RunState {
  return r.secret && r.action.type === 'type' ? rememberTyped(state, r.action.text) : state;
}

function finishStep(state: RunState, at: number, result: ActResult, extra: string[], actMs: number): RunState {
  const p = state.pending!;
  const r = p.reply!;
  // Parser notes (e.g. memory kept) follow the outcome in brackets, so the outcome reads first.
  // a value the action stored (quote, llm, clipboard): kept by name; the step records what was stored
  const set = result.ok ? result.set : undefined;
  // exploring: how the action was judged (the element that changed nothing is not tried again)
  const learned = result.ok ? result.learned : undefined;
  const uselessNow = learned?.decision === 'INEFFECTIVE' && p.target?.fingerprint ? [...(state.useless ?? []), p.target.fingerprint] : state.useless;
  if (result.ok && result.learned) {
    const { learned: _kept, ...rest } = result;
    result = rest;
  }
  // tokens the action itself used (the llm action's request) count with the step's reply
  const usage = addUsage(r.usage, result.ok ? result.usage ?? null : null);
  if (result.ok && result.usage !== undefined) result = { ok: true, ...(result.note ? { note: result.note } : {}), ...(set ? { set } : {}) };
  let variables = state.variables;
  let note = result.ok ? result.note : undefined;
  // what an action stored reaches later prompts (the history, an LLM prompt): screened like the page
  const aimed = set ? detectInjection([{ text: set.value, where: set.name }]) : [];
  if (set) {
    const secret = typesKnownPassword(state, set.value);
    const value = keptValue(set.value);
    variables = { ...variables, [set.name]: { value, step: p.index, ...(secret ? { secret } : {}) } };
    const said = secret ? modelText.storedSecret(set.name) : modelText.stored(set.name, value.length, previewValue(value));
    note = note ? `${said} ${note}` : said;
    result = { ok: true, ...(note ? { note } : {}) };
  }

  const outcome = result.ok ? (note ? `${modelText.success}. ${note}` : modelText.success) : result.error;
  const tabs = state.tabChanges ?? [];
  const observation = hideRun(state, withTabs(outcome, tabs) + (extra.length ? ` (${extra.join(' ')})` : ''));
  const step: StepRecord = {
    index: p.index, url: p.url, title: p.title, viewport: p.viewport, elements: p.elements,
    promptText: p.promptText, imageBytes: p.imageBytes, imageWidth: p.imageWidth, imageHeight: p.imageHeight,
    screenshot: p.kept?.labelled || p.screenshot, cleanScreenshot: p.kept?.clean ?? '', raw: r.raw, reasoning: r.reasoning, thought: r.thought,
    action: r.secret && r.action.type === 'type' ? { ...r.action, text: PASSWORD_MASK } : r.action,
    actionText: r.actionText, target: p.target ?? null, memory: r.memory, result: hideRun(state, result), observation,
    timings: {
      observeMs: p.observeMs, modelMs: r.modelMs, modelFirstTokenMs: r.firstTokenMs ?? null, actMs, totalMs: Math.max(0, at - p.startedAt),
      ...(p.observeStages ? { observeStages: p.observeStages } : {}),
    },
    usage,
    pageKey: pageKeyOf(p.url, p.elements, p.values),
    ...(p.shotKey ? { shotKey: p.shotKey } : {}),
    approval: p.decision ?? null,
    ...(tabs.length ? { tabs } : {}),
    ...(p.injection?.length ? { injection: p.injection } : {}),
    ...(p.imageScreen ? { imageScreen: p.imageScreen } : {}),
    ...(p.pictureText ? { pictureText: p.pictureText } : {}),
    ...(p.after ? { afterAction: p.after } : {}),
    ...(r.sensitive ? { sensitive: true } : {}),
    ...(r.warning ? { warning: r.warning } : {}),
    ...(learned ? { reflection: learned } : {}),
  };
  const next: RunState = {
    ...state, steps: [...state.steps, step], memory: r.memory, pending: null, phase: 'observe', tabChanges: [],
    ...(variables ? { variables } : {}), ...(uselessNow ? { useless: uselessNow } : {}),
    ...(aimed.length ? { heldFindings: [...(state.heldFindings ?? []), ...aimed] } : {}),
  };
  // the model's last action (Midscene's more_actions_needed_by_instruction: false) ran: the run is finished
  if (r.endsAfter !== undefined && result.ok && step.approval?.decision !== 'rejected') return end(next, at, 'finished', null, hideRun(state, r.endsAfter) || state.answer);
  if (modelSteps(next) >= state.maxSteps) return end(next, at, 'stopped', personText(state).maxSteps(state.maxSteps));
  return next;
}

function addUsage(a: Usage | null, b: Usage | null): Usage | null {
  if (!a || !b) return a ?? b;
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}

/** The outcome, then what the model is told about tabs that opened or closed meanwhile. */
function withTabs(outcome: string, tabs: TabChange[]): string {
  if (!tabs.length) return outcome;
  const said = tabs.map((t) => (t.change === 'opened' ? modelText.tabOpened(t.url) : modelText.tabClosed(t.url))).join(' ');
  return `${outcome}${/[.!?]$/.test(outcome) ? '' : '.'} ${said}`;
}

/** Steps the model took (the person's take-overs do not count against max steps). */
export function modelSteps(state: RunState): number {
  return state.steps.filter((s) => s.kind !== 'person').length;
}

/** The step that tells the model the person acted in the browser themselves. */
function personStep(state: RunState, paused: Paused, at: number, url: string): StepRecord {
  const last = state.steps[state.steps.length - 1];
  const tabs = state.tabChanges ?? [];
  return {
    index: state.steps.length, url: hideRun(state, url), title: '', viewport: last?.viewport ?? { width: 0, height: 0, devicePixelRatio: 1 },
    elements: [], promptText: '', imageBytes: 0, imageWidth: 0, imageHeight: 0, screenshot: '', cleanScreenshot: '',
    raw: '', reasoning: null, thought: '', action: null, actionText: 'The user took over the browser',
    memory: state.memory, result: { ok: true },
    observation: hideRun(state, withTabs(modelText.personActed(modelText.personMoved(paused.url, url)), tabs)),
    timings: { observeMs: 0, modelMs: 0, actMs: 0, totalMs: Math.max(0, at - paused.at) },
    usage: null, approval: null, kind: 'person',
    ...(tabs.length ? { tabs } : {}),
  };
}

export function reduce(state: RunState, ev: RunEvent): RunState {
  if (state.status !== 'running') return state;
  const p = state.pending;
  switch (ev.type) {
    case 'stop': return end(state, ev.at, 'stopped', ev.reason);
    case 'fail': return { ...end(state, ev.at, 'failed', ev.reason), ...(ev.cause ? { failCause: ev.cause } : {}) };
    case 'mode': return { ...state, approveSteps: ev.approveSteps };
    case 'pause': return state.paused ? state : { ...state, paused: { kind: 'pause', at: ev.at, url: ev.url } };
    case 'takeover': return takeOver(state, ev.at, ev.url);
    case 'resume': {
      if (!state.paused) return state;
      if (state.paused.kind === 'pause') return { ...state, paused: null };
      const steps = [...state.steps, personStep(state, state.paused, ev.at, ev.url)];
      return { ...state, steps, paused: null, pending: null, phase: 'observe', tabChanges: [] };
    }
    case 'checked': {
      if (state.phase !== 'act' || !p?.reply || p.checked) return state;
      // A field the password guard knows from its attributes or label (a password shown as text, a
      // PIN, a one-time code): what is typed there is masked from now on, as in a password field.
      const a = p.reply.action;
      const masks = ev.hit?.id === 'password' && !p.reply.secret && a.type === 'type' && !placeholdersIn(a).length;
      const q = masks ? { ...p, reply: withSecretMasked(p.reply, p.target ?? null, state, p, true) } : p;
      // what the guard leads to is decided in guard-decision.ts
      const d = checkDecision(state, p, ev.hit);
      if (d.kind === 'refused') {
        const refused: RunState = { ...state, pending: { ...q, checked: true, guardRule: d.rule, decision: { decision: 'rejected', feedback: modelText.exploreNever } } };
        return finishStep(refused, ev.at, { ok: false, error: modelText.exploreNever }, [], 0);
      }
      if (d.kind === 'auto') return { ...state, pending: { ...q, checked: true, decision: { decision: 'auto', feedback: null } } };
      return { ...state, phase: 'approve', pending: { ...q, checked: true, ...(ev.hit ? { guardRule: ev.hit.id } : {}), approval: { rule: d.rule, reason: d.reason } } };
    }
    case 'tab': return onTab(state, ev);
    case 'files': {
      // the model is told the attached files' names: a name aimed at the agent makes the next action wait
      const named = fileFindings(ev.files.filter((f) => !state.files?.some((g) => g.name === f.name)));
      return { ...state, files: ev.files, ...(named.length ? { heldFindings: [...(state.heldFindings ?? []), ...named] } : {}) };
    }
    case 'approve': return onApprove(state, ev);
    case 'reject': {
      if (state.phase !== 'approve' || !p?.reply) return state;
      const feedback = ev.feedback?.trim() || null;
      if (p.after && !p.after.decision) return { ...state, phase: 'act', pending: { ...p, approval: undefined, after: { ...p.after, decision: 'rejected', feedback } } };
      const withDecision: RunState = { ...state, pending: { ...p, approval: undefined, decision: { decision: 'rejected', feedback } } };
      return finishStep(withDecision, ev.at, { ok: false, error: modelText.rejected(feedback) }, [], 0);
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
      // The person's secrets and typed passwords hidden in the page as kept and as the model reads it.
      const o = { ...ev.obs, url: hideRun(state, ev.obs.url), title: hideRun(state, ev.obs.title), marks: hideMarks(state, ev.obs.marks) };
      const startedAt = ev.at - ev.ms;
      const shotKey = textKey(o.screenshot.dataUrl);
      // the last action changed nothing: its observation says so before the model reads it again
      const steps = markUnchanged(state.steps, pageKeyOf(o.url, o.marks, o.values), shotKey);
      if (steps !== state.steps) state = { ...state, steps };
      const base = {
        index: state.steps.length, url: o.url, title: o.title, viewport: o.viewport, elements: o.marks,
        imageBytes: o.screenshot.bytes, imageWidth: o.screenshot.width, imageHeight: o.screenshot.height,
        screenshot: o.screenshot.dataUrl, kept: o.kept, observeMs: ev.ms, startedAt, frameOffsets: o.frameOffsets,
        ...(o.stages ? { observeStages: o.stages } : {}), ...(o.values ? { values: o.values } : {}), shotKey,
      };
      // Text aimed at the agent: the next action waits for the person (the model is not told).
      const listed = detectInjection(pageTexts(o.title, o.marks));
      const injection = [...listed, ...findingsOf(o, listed), ...(state.heldFindings ?? [])];
      const dialect = dialectOf(state.dialect);
      const request = dialect.buildRequest({
        task: taskForModel(state), site: state.site, now: new Date(startedAt), history: historyOf(state), memory: hideRun(state, state.memory),
        marks: dialect.observes.labels ? o.marks : [], shot: shotOf(base), apps: state.apps ?? [],
        ...(state.dialectOptions ? { dialectOptions: state.dialectOptions } : {}),
        ...(o.docs?.length ? { docs: o.docs } : {}),
        ...(state.explore ? { explore: true, avoid: avoidedLabels(state, o.marks) } : {}),
      });
      return { ...state, heldFindings: undefined, phase: 'model', pending: { ...base, request, promptText: promptTextOf(request), ...(injection.length ? { injection } : {}) } };
    }
    case 'kept': {
      // Made while the model thinks and the action runs; joined before the event that ends the step, so any phase of the same step takes it.
      if (!p || p.index !== ev.index) return state;
      const stages = p.observeStages && ev.sent ? { ...p.observeStages, ...ev.sent } : p.observeStages;
      return { ...state, pending: { ...p, kept: ev.kept, ...(stages ? { observeStages: stages } : {}) } };
    }
    case 'replied': return onReply(state, ev);
    case 'replayed': return onReplayed(state, ev);
    case 'acted': {
      if (state.phase !== 'act' || !p?.reply || p.acted) return state;
      if (ev.landed) {
        const after = afterAction(state, p, ev.landed);
        if (after) {
          const pending: PendingStep = { ...p, acted: { result: ev.result, ms: ev.ms }, after };
          if (after.decision) return { ...state, pending };
          return { ...state, phase: 'approve', pending: { ...pending, approval: { rule: after.rule, reason: after.reason, after: true } } };
        }
      }
      return finishStep({ ...state, formatErrorsInARow: 0 }, ev.at, ev.result, p.reply.notes, ev.ms);
    }
    case 'resolved': {
      if (state.phase !== 'act' || !p?.reply || !p.acted || !p.after?.decision || p.after.outcome !== undefined) return state;
      const after: AfterAction = { ...p.after, outcome: ev.outcome };
      return finishStep({ ...state, formatErrorsInARow: 0, pending: { ...p, after } }, ev.at, withOutcome(p.acted.result, after), p.reply.notes, p.acted.ms);
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
  if (p?.reply && p.acted && p.after && !p.after.decision) {
    // Asked about what the action did: the person now has the browser, and it is left as it is.
    const after: AfterAction = { ...p.after, decision: 'takeover', outcome: modelText.afterTakeover };
    const done = finishStep({ ...state, pending: { ...p, approval: undefined, after } }, at, withOutcome(p.acted.result, after), p.reply.notes, p.acted.ms);
    return done.status === 'running' ? { ...done, paused } : done;
  }
  if (p?.reply && p.actStartedAt === undefined && (state.phase === 'act' || state.phase === 'approve')) {
    const withDecision: RunState = { ...state, pending: { ...p, approval: undefined, decision: { decision: 'rejected', feedback: TOOK_OVER_FEEDBACK } } };
    const done = finishStep(withDecision, at, { ok: false, error: modelText.tookOverBeforeRun }, [], 0);
    return done.status === 'running' ? { ...done, paused } : done;
  }
  if (state.phase === 'act' && p?.actStartedAt !== undefined) return { ...state, paused }; // the action finishes first
  return { ...state, pending: null, phase: 'observe', paused };
}

/**
 * The run moves to another tab. An action under way finishes first: its step records the change.
 * A proposed action that has not started was meant for the page it saw: recorded as not run. A
 * step still being observed or asked is dropped and observed again, in the new tab. The change is
 * told to the model with the next recorded step.
 */
function onTab(state: RunState, ev: Extract<RunEvent, { type: 'tab' }>): RunState {
  if (ev.tabId === state.tabId) return state;
  const stack = state.tabStack ?? [];
  const tabStack = ev.change === 'opened' ? [...stack, state.tabId] : stack.slice(0, Math.max(0, stack.lastIndexOf(ev.tabId)));
  const moved: RunState = { ...state, tabId: ev.tabId, tabStack, tabChanges: [...(state.tabChanges ?? []), { change: ev.change, url: hideRun(state, ev.url) }] };
  const p = state.pending;
  if (p?.acted || (state.phase === 'act' && p?.actStartedAt !== undefined)) return moved;
  if (p?.reply && (state.phase === 'act' || state.phase === 'approve')) {
    return finishStep({ ...moved, pending: { ...p, approval: undefined, decision: undefined } }, ev.at, { ok: false, error: modelText.tabChangedBeforeRun }, [], 0);
  }
  return { ...moved, pending: null, phase: 'observe' };
}

/**
 * What the action did that the guards look at after it: asked about (no decision yet), or
 * downloads nobody needs to be asked about (kept: decision 'auto'); null: nothing of the kind.
 */
function afterAction(state: RunState, p: PendingStep, landed: Landed<AfterAction['downloads'][number]>): AfterAction | null {
  const approved = p.decision?.decision === 'approved' ? p.guardRule ?? null : null;
  const hit = afterActionHit(landed, { site: state.site, before: p.url, apps: state.apps, approved, t: translatorFor(state.locale) }, state.guards);
  const chooser = landed.chooser ? { chooser: { ...landed.chooser, url: hideRun(state, landed.chooser.url) } } : {};
  const held = { ...(landed.dialog ? { dialog: landed.dialog.dialog } : {}), ...(landed.requests?.length ? { requests: landed.requests } : {}), ...chooser };
  const url = hideRun(state, landed.url);
  const downloads = hideRun(state, landed.downloads);
  if (hit) return { rule: hit.id, reason: hit.reason, url, downloads, ...held };
  // nobody to ask (the rule is off or always allowed): downloads kept, a chooser given its files
  return downloads.length || landed.chooser ? { rule: null, reason: null, url, downloads, ...chooser, decision: 'auto' } : null;
}

/** The action's outcome with what became of what it did (kept: a note; undone: the action counts as not done). */
function withOutcome(r: ActResult, after: AfterAction): ActResult {
  const said = [after.outcome ?? '', after.feedback ? modelText.userSaid(after.feedback) : ''].filter(Boolean).join(' ');
  if (!said) return r;
  // what the action's own notes say still happened (a connection refused, a dialog answered): kept before it
  if (after.decision === 'rejected') return { ok: false, error: r.ok ? (r.note ? `${r.note} ${said}` : said) : `${r.error} ${said}` };
  if (!r.ok) return { ok: false, error: `${r.error} ${said}` };
  return { ok: true, note: r.note ? `${r.note} ${said}` : said };
}

/** An action that ends the run, once it is let through: finished with the answer, or failed with the reason. */
function endWith(state: RunState, at: number, a: Action): RunState {
  const done = finishStep(state, at, { ok: true }, [], 0);
  const running: RunState = { ...done, status: 'running' };
  if (a.type === 'answer') return end(running, at, 'finished', null, a.text);
  if (a.type === 'finish' && a.outcome === 'done') return end(running, at, 'finished', null, state.answer ?? (a.text || null));
  if (a.type === 'finish') return end(running, at, 'failed', personText(state).modelGaveUp(a.text), state.answer);
  return done;
}

function onApprove(state: RunState, ev: Extract<RunEvent, { type: 'approve' }>): RunState {
  const p = state.pending;
  if (state.phase !== 'approve' || !p?.reply) return state;
  let reply = p.reply;
  let target = p.target ?? null;
  let guards = state.guards;
  if (ev.allowRule && p.approval?.rule) {
    const key = hostKey(state.site);
    const now = guards.allow[key] ?? [];
    if (!now.includes(p.approval.rule)) guards = { ...guards, allow: { ...guards.allow, [key]: [...now, p.approval.rule] } };
  }
  // What the action did is kept (an edit has nothing to change: the action ran).
  if (p.after && !p.after.decision) {
    if (ev.edit) return state;
    return { ...state, guards, phase: 'act', pending: { ...p, approval: undefined, after: { ...p.after, decision: 'approved' } } };
  }
  if (ev.edit) {
    const label = labelOf(ev.edit);
    if (label !== null && !p.elements.some((m) => m.label === label)) return state; // validated by the caller
    target = actedOn(p.elements, ev.edit, ev.target);
    const actionText = dialectOf(state.dialect).formatAction(ev.edit, shotOf(p), state);
    reply = withSecretMasked({ ...reply, action: ev.edit, actionText }, target, state, p);
  }
  state = typedPassword(state, reply);
  const decision: Approval = { decision: ev.edit ? 'edited' : 'approved', feedback: null };
  const next: RunState = { ...state, guards, pending: { ...state.pending!, reply, target, approval: undefined, decision, checked: true }, phase: 'act' };
  return endsRun(reply.action) ? endWith(next, ev.at, reply.action) : next;
}

/** After an address-bar shortcut, text typed into no particular field is an address to open. */
function asAddress(state: RunState, a: Action): Action {
  const last = state.steps[state.steps.length - 1];
  if (a.type !== 'type' || a.target.kind !== 'none' || last?.action?.type !== 'key' || !last.result.ok) return a;
  if (browserShortcut(last.action.keys) !== 'address') return a;
  const text = a.text.trim();
  if (!text || /\s/.test(text)) return a;
  return { type: 'navigate', url: /^https?:\/\//i.test(text) ? text : `https://${text}` };
}

function onReply(state: RunState, ev: Extract<RunEvent, { type: 'replied' }>): RunState {
  if (state.phase !== 'model' || !state.pending) return state;
  // The pictures on screen read by OCR, and the picture check made beside the request: their
  // findings wait for the person like the page's.
  const read = ev.pictures ? withPictures(state.pending, ev.pictures) : state.pending;
  const p = ev.screen ? withScreen(read, ev.screen) : read;
  if (ev.screen || ev.pictures) state = { ...state, pending: p };
  if (ev.screen) ev = { ...ev, usage: addUsage(ev.usage, ev.screen.usage) };
  const dialect = dialectOf(state.dialect);
  const parsed = ev.parsed ?? parseModelReply(state, ev.raw, ev.reasoning);
  if (isParseError(parsed)) {
    const reply: PendingReply = { raw: ev.raw, reasoning: ev.reasoning ?? parsed.reasoning, thought: '', action: { type: 'wait' },
      actionText: '(unreadable reply)', memory: state.memory, notes: [], usage: ev.usage, modelMs: ev.ms, firstTokenMs: ev.firstTokenMs ?? null };
    const withReply: RunState = { ...state, pending: { ...p, reply } };
    const count = state.formatErrorsInARow + 1;
    // A reply the server cut at max_tokens: say so, to the model and to the person.
    const cut = ev.truncated ? modelText.cutAtTokenLimit : '';
    const done = finishStep({ ...withReply, formatErrorsInARow: count }, ev.at, { ok: false, error: dialect.formatErrorObservation(parsed.error) + cut }, [], 0);
    const last = done.steps[done.steps.length - 1];
    // Not an action that ran: record it as such.
    last.action = null;
    if (count >= MAX_FORMAT_ERRORS && done.status === 'running') {
      const raw = ev.raw.trim().replace(/\s+/g, ' ');
      const shown = raw ? `"${raw.length > 300 ? `${raw.slice(0, 300)}…` : raw}"` : '(empty)';
      const capped = !!ev.truncated && ev.raw.length + (ev.reasoning?.length ?? 0) >= MAX_REPLY_CHARS;
      return end(done, ev.at, 'failed', personText(state).unreadable(count, parsed.error, shown, !!ev.truncated, capped));
    }
    return done;
  }
  const action = asAddress(state, parsed.action);
  const actionText = action === parsed.action ? parsed.actionText : dialect.formatAction(action, shotOf(p), state);
  const notes = action === parsed.action ? [...parsed.notes] : [...parsed.notes, modelText.openedAddress((action as { url: string }).url)];
  return proposed(state, ev.at, {
    raw: ev.raw, reasoning: ev.reasoning ?? parsed.reasoning, thought: parsed.thought, action, actionText,
    memory: parsed.memory ?? state.memory, notes, usage: ev.usage, modelMs: ev.ms, firstTokenMs: ev.firstTokenMs ?? null,
    ...(parsed.sensitive || parsed.asksPerson ? { sensitive: true } : {}),
    ...(parsed.asksPerson ? { asksPerson: true } : {}),
    ...(parsed.sleepMs !== undefined ? { sleepMs: parsed.sleepMs } : {}),
    ...(parsed.endsAfter !== undefined ? { endsAfter: parsed.endsAfter } : {}),
    ...(parsed.warning ? { warning: parsed.warning } : {}),
  }, ev.target);
}

/** A replay's recorded action stands in for a reply (written in the run's grammar for the history). */
function onReplayed(state: RunState, ev: Extract<RunEvent, { type: 'replayed' }>): RunState {
  if (state.phase !== 'model' || !state.pending) return state;
  const actionText = dialectOf(state.dialect).formatAction(ev.action, shotOf(state.pending), state);
  return proposed(state, ev.at, {
    raw: '', reasoning: null, thought: `Replaying step ${ev.from + 1} of the recorded run.`, action: ev.action, actionText,
    memory: ev.memory, notes: [], usage: null, modelMs: 0, firstTokenMs: null,
  }, ev.target);
}

/** Exploring: the labels on this screen of elements found to change nothing (same fingerprint). */
function avoidedLabels(state: RunState, marks: Mark[]): number[] {
  const useless = state.useless ?? [];
  if (!useless.length) return [];
  return marks.filter((m) => m.fingerprint && useless.some((f) => f.tag === m.fingerprint!.tag && f.text === m.fingerprint!.text && f.path === m.fingerprint!.path)).map((m) => m.label);
}

/** Variables typed into a password field: masked from now on, like the password itself. */
function secretVariables(state: RunState, names: string[]): RunState {
  const variables = { ...state.variables };
  for (const n of names) {
    variables[n] = { ...variables[n], secret: true };
    state = rememberTyped(state, variables[n].value);
  }
  return { ...state, variables };
}

/** A readable proposed action: budget and loop guards, the end of the run, or on to the check. */
function proposed(state: RunState, at: number, r: PendingReply, found: ActedElement | null | undefined): RunState {
  const p = state.pending!;
  // what a point or the focused field holds can show a secret (marks are hidden when observed)
  const target = hideTarget(state, actedOn(p.elements, r.action, found));
  const reply = withSecretMasked(r, target, state, p);
  state = typedPassword(state, reply);
  // the action with the run's secrets hidden (an answer that repeats a password, say)
  const { action } = reply;
  // run variables it uses (variables.ts): all must exist; typed into a password field they become secret
  const used = variablesUsed(action, dialectOf(state.dialect));
  const missing = used.filter((n) => !state.variables?.[n]);
  if (!missing.length && used.length && action.type === 'type' && target?.inputType === 'password') state = secretVariables(state, used);
  // page text a language-model prompt carries is checked like the page itself (injection.ts)
  const fromVars = action.type === 'llm' && !missing.length ? detectInjection(used.map((n) => ({ text: state.variables![n].value, where: n }))) : [];
  const injection = [...(p.injection ?? []), ...fromVars];
  const withReply: RunState = { ...state, pending: { ...state.pending!, reply, target, ...(injection.length ? { injection } : {}) }, formatErrorsInARow: 0 };
  if (missing.length) return finishStep(withReply, at, { ok: false, error: modelText.noSuchVariable(missing, Object.keys(state.variables ?? {})) }, [], 0);
  if (!endsRun(action)) {
    // Budget and loop guards: the action is recorded as not run and the run stops with the reason.
    const stop = overCap(state, r.usage) ?? repeatStop(state, p, reply.actionText, action);
    if (stop) return end(finishStep(withReply, at, { ok: false, error: modelText.budgetStop(stop) }, [], 0), at, 'stopped', personText(state).budgetStop(stop));
    const n = repeatCount(state, p, reply.actionText);
    if (n !== null) reply.notes.push(modelText.repeatNudge(n));
  }
  if (action.type === 'reply') withReply.answer = action.text; // told to the person; the run goes on
  const injected = injection.length ? injectionReason(state, injection) : null;
  if (endsRun(action) && (state.approveSteps || injected)) {
    // The person may still send the model back to work ("that is not the cheapest one").
    return { ...withReply, phase: 'approve', pending: { ...withReply.pending!, checked: true, approval: { rule: null, reason: injected } } };
  }
  if (endsRun(action)) return endWith({ ...withReply, pending: { ...withReply.pending!, decision: { decision: 'auto', feedback: null } } }, at, action);
  const label = labelOf(action);
  if (label !== null && !target) return finishStep(withReply, at, { ok: false, error: modelText.noSuchLabel(label, p.elements.length) }, [], 0);
  return { ...withReply, phase: 'act' };
}
