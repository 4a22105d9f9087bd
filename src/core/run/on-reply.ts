/** The model's reply (or a replay's recorded action) read into the proposed action (reduce.ts). Pure. */
import { endsRun, isParseError, labelOf, type Action } from '../action/action';
import { browserShortcut } from '../action/shortcuts';
import { injectionReason } from './guard-decision';
import { detectInjection } from '../injection';
import { withPictures, withScreen } from './screen';
import { dialectOf } from '../dialects/registry';
import { MAX_REPLY_CHARS } from '../limits';
import { overCap, repeatCount, repeatStop } from './budget';
import { modelText } from './model-text';
import { hideTarget, rememberTyped } from './secrets';
import { variablesUsed } from './variables';
import { MAX_FORMAT_ERRORS, type ActedElement, type PendingReply, type RunEvent, type RunState } from './state';
import { actedOn, addUsage, end, endWith, finishStep, parseModelReply, personText, shotOf, typedPassword, withSecretMasked } from './step';

/** After an address-bar shortcut, text typed into no particular field is an address to open. */
function asAddress(state: RunState, a: Action): Action {
  const last = state.steps[state.steps.length - 1];
  if (a.type !== 'type' || a.target.kind !== 'none' || last?.action?.type !== 'key' || !last.result.ok) return a;
  if (browserShortcut(last.action.keys) !== 'address') return a;
  const text = a.text.trim();
  if (!text || /\s/.test(text)) return a;
  return { type: 'navigate', url: /^https?:\/\//i.test(text) ? text : `https://${text}` };
}

export function onReply(state: RunState, ev: Extract<RunEvent, { type: 'replied' }>): RunState {
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
export function onReplayed(state: RunState, ev: Extract<RunEvent, { type: 'replayed' }>): RunState {
  if (state.phase !== 'model' || !state.pending) return state;
  const actionText = dialectOf(state.dialect).formatAction(ev.action, shotOf(state.pending), state);
  return proposed(state, ev.at, {
    raw: '', reasoning: null, thought: `Replaying step ${ev.from + 1} of the recorded run.`, action: ev.action, actionText,
    memory: ev.memory, notes: [], usage: null, modelMs: 0, firstTokenMs: null,
  }, ev.target);
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
  // page text a language-model prompt carries is checked like the page itself (injection/index.ts)
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
