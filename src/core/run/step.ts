/**
 * What every event that records or ends a step shares (reduce.ts): the step written into the
 * history (finishStep), the run ended (end, endWith), the secrets a reply types masked, and the
 * history as later prompts show it. Pure.
 */
import { labelOf, type Action, type Memory, type ParsedStep, type ParseError } from '../action/action';
import { detectInjection } from '../injection';
import { dialectOf } from '../dialects/registry';
import type { HistoryEntry } from '../dialects/types';
import { capText } from '../limits';
import type { ShotGeometry } from '../action/coords';
import type { Mark } from '../marks';
import type { Usage } from '../costs';
import { pageKeyOf } from './budget';
import { checkAnswer, MAX_ANSWER_TRIES } from '../answer-schema';
import { modelText } from './model-text';
import { translatorFor } from '../locales';
import { personTextIn } from './person-text';
import { hideReply, hideRun, rememberTyped, typesKnownPassword } from './secrets';
import { hideValue, MIN_SECRET_CHARS, onlyPlaceholders, typedPlaceholderFor } from '../secrets';
import { keptValue, previewValue } from './variables';
import { PASSWORD_MASK, type ActedElement, type ActResult, type AfterAction, type Paused, type PendingReply, type PendingStep, type RunState, type RunStatus, type StepRecord, type TabChange } from './state';

/** What the run says to its person, in the language they had when it started. */
export function personText(state: RunState) {
  return personTextIn(translatorFor(state.locale));
}

/** What the model was shown at this step: the screenshot's size and the viewport it pictures. */
export function shotOf(p: Pick<PendingStep, 'imageWidth' | 'imageHeight' | 'viewport'>): ShotGeometry {
  return { imageWidth: p.imageWidth, imageHeight: p.imageHeight, viewport: { width: p.viewport.width, height: p.viewport.height } };
}

/** The model's reply as the run's dialect reads it: parsed once per reply (the background's 'replied' event carries it). */
export function parseModelReply(state: RunState, raw: string, reasoning: string | null): ParsedStep | ParseError {
  return dialectOf(state.dialect).parseReply(raw, reasoning, shotOf(state.pending!), state);
}

/** The past steps as later prompts show them, each text capped (limits.ts) so one huge reply is not re-sent at every step. */
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
export function actedOn(elements: Mark[], a: Action, found: ActedElement | null | undefined): ActedElement | null {
  const m = markOf(elements, a);
  if (m) return { tag: m.tag, text: m.text, rect: m.rect, inputType: m.inputType, frameId: m.frameId, fingerprint: m.fingerprint };
  return labelOf(a) === null ? found ?? null : null;
}

export function end(state: RunState, at: number, status: RunStatus, reason: string | null, answer: string | null = state.answer): RunState {
  return { ...state, status, phase: 'done', endedAt: at, stopReason: reason, answer, pending: null, paused: null };
}

/**
 * The run stopped or failed from outside (Stop, a time limit, a tab it cannot control): an action
 * that ran, or may have, is recorded first, so a trace never loses what was done in the page. One
 * waiting on "keep what it did?" is recorded as stopped before the answer (its downloads are
 * removed when the run lets go of its tabs, driver.ts).
 */
export function endKeepingAction(state: RunState, at: number, status: RunStatus, reason: string | null): RunState {
  const p = state.pending;
  if (!p?.reply || p.actStartedAt === undefined) return end(state, at, status, reason);
  let result: ActResult;
  let pending: PendingStep = { ...p, approval: undefined };
  if (p.acted && p.after && !p.after.decision) {
    const after: AfterAction = { ...p.after, decision: 'stopped', outcome: modelText.afterStopped };
    pending = { ...pending, after };
    result = withOutcome(p.acted.result, after);
  } else if (p.acted) result = p.after ? withOutcome(p.acted.result, p.after) : p.acted.result;
  else result = p.inputResult ?? { ok: false, error: modelText.stoppedMidAction };
  const done = finishStep({ ...state, pending }, at, result, p.reply.notes, p.acted?.ms ?? Math.max(0, at - p.actStartedAt));
  return end(done, at, status, reason);
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
export function typedPassword(state: RunState, r: PendingReply): RunState {
  return r.secret && r.action.type === 'type' ? rememberTyped(state, r.action.text) : state;
}

export function finishStep(state: RunState, at: number, result: ActResult, extra: string[], actMs: number): RunState {
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
    ...(p.guard ? { guard: p.guard } : {}),
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

export function addUsage(a: Usage | null, b: Usage | null): Usage | null {
  if (!a || !b) return a ?? b;
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}

/** The outcome, then what the model is told about tabs that opened or closed meanwhile. */
export function withTabs(outcome: string, tabs: TabChange[]): string {
  if (!tabs.length) return outcome;
  const said = tabs.map((t) => (t.change === 'opened' ? modelText.tabOpened(t.url) : modelText.tabClosed(t.url))).join(' ');
  return `${outcome}${/[.!?]$/.test(outcome) ? '' : '.'} ${said}`;
}

/** Steps the model took (the person's take-overs do not count against max steps). */
export function modelSteps(state: RunState): number {
  return state.steps.filter((s) => s.kind !== 'person').length;
}

/** The step that tells the model the person acted in the browser themselves. */
export function personStep(state: RunState, paused: Paused, at: number, url: string): StepRecord {
  const last = state.steps[state.steps.length - 1];
  const tabs = state.tabChanges ?? [];
  return {
    index: state.steps.length, url, title: '', viewport: last?.viewport ?? { width: 0, height: 0, devicePixelRatio: 1 },
    elements: [], promptText: '', imageBytes: 0, imageWidth: 0, imageHeight: 0, screenshot: '', cleanScreenshot: '',
    raw: '', reasoning: null, thought: '', action: null, actionText: 'The user took over the browser',
    memory: state.memory, result: { ok: true },
    observation: withTabs(modelText.personActed(modelText.personMoved(paused.url, url)), tabs),
    timings: { observeMs: 0, modelMs: 0, actMs: 0, totalMs: Math.max(0, at - paused.at) },
    usage: null, approval: null, kind: 'person',
    ...(tabs.length ? { tabs } : {}),
  };
}

/** The action's outcome with what became of what it did (kept: a note; undone: the action counts as not done). */
export function withOutcome(r: ActResult, after: AfterAction): ActResult {
  const said = [after.outcome ?? '', after.feedback ? modelText.userSaid(after.feedback) : ''].filter(Boolean).join(' ');
  if (!said) return r;
  // what the action's own notes say still happened (a connection refused, a dialog answered): kept before it
  if (after.decision === 'rejected') return { ok: false, error: r.ok ? (r.note ? `${r.note} ${said}` : said) : `${r.error} ${said}` };
  if (!r.ok) return { ok: false, error: `${r.error} ${said}` };
  return { ok: true, note: r.note ? `${r.note} ${said}` : said };
}

/**
 * An action that ends the run, once it is let through: finished with the answer, or failed with the
 * reason. With an answer schema (core/answer-schema.ts) the answer must match it: one that does not
 * is this step's failure, told to the model with the validator's message, and the run goes on,
 * until MAX_ANSWER_TRIES answers were refused; then it stops with the reason.
 */
export function endWith(state: RunState, at: number, a: Action): RunState {
  const answers = a.type === 'answer' || (a.type === 'finish' && a.outcome === 'done');
  const answer = a.type === 'answer' ? a.text : answers ? state.answer ?? (a.text || null) : null;
  const checked = state.answerSchema && answers ? checkAnswer(state.answerSchema, answer) : null;
  if (checked && !checked.ok) {
    const refused = (state.answersRefused ?? 0) + 1;
    // the step is recorded as failed with the validator's message (a step past max steps ends the run as usual)
    const told: RunState = { ...finishStep(state, at, { ok: false, error: modelText.answerRefused(checked.error, MAX_ANSWER_TRIES - refused) }, [], 0), answersRefused: refused };
    if (refused < MAX_ANSWER_TRIES || told.status !== 'running') return told;
    return end(told, at, 'failed', personText(state).answerRefused(refused, checked.error), answer);
  }
  const done = finishStep(state, at, { ok: true }, [], 0);
  const running: RunState = { ...done, status: 'running', ...(checked?.ok ? { answerJson: checked.value } : {}) };
  if (a.type === 'answer') return end(running, at, 'finished', null, a.text);
  if (a.type === 'finish' && a.outcome === 'done') return end(running, at, 'finished', null, answer);
  if (a.type === 'finish') return end(running, at, 'failed', personText(state).modelGaveUp(a.text), state.answer);
  return done;
}
