/**
 * Secrets of a run (core/secrets/index.ts): what the database never gets, and hiding them in what is
 * kept and sent. Pure.
 *
 * - A pending action that types a password keeps its text out of what is written to the database
 *   (splitSecret); the text waits in memory-only storage (run-store.ts) until it is typed.
 * - The run's vault (the person's secrets, the passwords it typed) is kept there too.
 * - Once a password is typed, it is masked in everything the run keeps, earlier steps included
 *   (rememberTyped), and in everything later (hideRun: replies, prompts).
 * - Everything goes through hideIn (core/secrets/index.ts), which finds a value in every encoding
 *   (core/secrets/encodings.ts): raw, URL/form-encoded, HTML entities, JSON escapes, base64.
 */
import type { Action } from '../action/action';
import type { Mark } from '../marks';
import { hasEncoded } from '../secrets/encodings';
import { AS_PLACEHOLDERS, hideIn, MIN_SECRET_CHARS, type Vault } from '../secrets';
import { modelText } from './model-text';
import { PASSWORD_MASK, type ActResult, type ActedElement, type PendingReply, type PendingStep, type RunEvent, type RunState, type StepRecord } from './state';

/**
 * Secrets hidden in `value` (every string in it): the person's as placeholders, typed passwords
 * as theirs (`{{password:1}}`: the model can type one again, core/secrets/index.ts). For text and
 * free-form data (memory); structured records go through the helpers below, which hide only their
 * text fields (a password "password" must not rename an input type).
 */
export function hideRun<T>(state: Pick<RunState, 'vault'>, value: T): T {
  return hideIn(value, state.vault, AS_PLACEHOLDERS);
}

type Hide = (text: string) => string;

/** An action's free text (typed text, answer, address) hidden; its kind, target and keys kept. */
function hideAction<A extends Action | null>(h: Hide, a: A): A {
  if (!a) return a;
  const out = { ...a } as Record<string, unknown>;
  if (typeof out.text === 'string') out.text = h(out.text);
  if (typeof out.url === 'string') out.url = h(out.url);
  return out as A;
}

/** Element texts hidden (the list the model reads, and the fingerprints replay uses). */
export function hideMarks(state: Pick<RunState, 'vault'>, marks: Mark[]): Mark[] {
  if (!state.vault) return marks;
  const h: Hide = (t) => hideRun(state, t);
  return marks.map((m) => ({ ...m, text: h(m.text), ...(m.fingerprint ? { fingerprint: { ...m.fingerprint, text: h(m.fingerprint.text) } } : {}) }));
}

/** What an action acts on, its text hidden. */
export function hideTarget<T extends ActedElement | null | undefined>(state: Pick<RunState, 'vault'>, t: T): T {
  return t && state.vault ? { ...t, text: hideRun(state, t.text), ...(t.href ? { href: hideRun(state, t.href) } : {}) } : t;
}

function hideStep(state: RunState, s: StepRecord): StepRecord {
  const h: Hide = (t) => hideRun(state, t);
  return {
    ...s, url: h(s.url), title: h(s.title), elements: hideMarks(state, s.elements), promptText: h(s.promptText),
    raw: h(s.raw), reasoning: s.reasoning === null ? null : h(s.reasoning), thought: h(s.thought), action: hideAction(h, s.action),
    actionText: h(s.actionText), target: hideTarget(state, s.target), memory: hideRun(state, s.memory), result: hideRun(state, s.result),
    observation: h(s.observation),
  };
}

/** The step being asked or acted: what it saw and asked (its reply keeps the text it is about to type). */
function hidePending(state: RunState, p: PendingStep): PendingStep {
  const h: Hide = (t) => hideRun(state, t);
  return {
    ...p, url: h(p.url), title: h(p.title), elements: hideMarks(state, p.elements), promptText: h(p.promptText),
    target: hideTarget(state, p.target),
    ...(p.request ? { request: p.request.map((part) => (part.type === 'text' ? { ...part, text: h(part.text) } : part)) } : {}),
  };
}

/** An action's outcome with its words hidden; what it stored (`set`) is kept whole, for the run's variables (variables.ts). */
function hideResult(h: Hide, r: ActResult): ActResult {
  return r.ok ? (r.note === undefined ? r : { ...r, note: h(r.note) }) : { ...r, error: h(r.error) };
}

/**
 * The one boundary where what the browser reports enters the run (reduce.ts): the person's
 * secrets and the passwords typed so far hidden in every text of an event that comes from the page
 * or the tab (addresses, titles, the element list, file names, an action's outcome). The handlers
 * (on-*.ts) then keep what they are given. A model's reply has its own boundary (withSecretMasked,
 * step.ts), which keeps the password an action is about to type; text a transition makes itself
 * from values the run holds (a stored variable's preview) is hidden where it is made (finishStep).
 */
export function hideEvent(state: Pick<RunState, 'vault'>, ev: RunEvent): RunEvent {
  if (!state.vault) return ev;
  const h: Hide = (t) => hideRun(state, t);
  switch (ev.type) {
    case 'observed': return { ...ev, obs: { ...ev.obs, url: h(ev.obs.url), title: h(ev.obs.title), marks: hideMarks(state, ev.obs.marks) } };
    case 'input': return { ...ev, result: hideResult(h, ev.result) };
    case 'acted': {
      const l = ev.landed;
      const landed = l && { ...l, url: h(l.url), downloads: hideRun(state, l.downloads), ...(l.chooser ? { chooser: { ...l.chooser, url: h(l.chooser.url) } } : {}) };
      return { ...ev, result: hideResult(h, ev.result), ...(landed ? { landed } : {}) };
    }
    case 'resolved': return { ...ev, outcome: h(ev.outcome) };
    case 'tab': case 'pause': case 'takeover': case 'resume': return { ...ev, url: h(ev.url) };
    case 'replayed': case 'approve': return ev.target ? { ...ev, target: hideTarget(state, ev.target) } : ev;
    default: return ev;
  }
}

/** The task as the model reads it: secrets hidden, the names of the person's secrets, and the placeholders of the passwords typed. */
export function taskForModel(state: RunState): string {
  const task = hideRun(state, state.task);
  const names = state.vault?.kept.map((s) => s.name) ?? [];
  const typed = state.vault?.typed.filter((p) => p.length >= MIN_SECRET_CHARS).length ?? 0;
  const notes = [...(names.length ? [modelText.secretsNote(names)] : []), ...(typed ? [modelText.typedNote(typed)] : [])];
  return notes.length ? `${task}\n\n${notes.join(' ')}` : task;
}

/**
 * A reply with the run's secrets hidden in everything it keeps. An action's typed text keeps the
 * passwords it types (masked in storage: splitSecret) but gets placeholders for the person's
 * secrets (filled in again when typed); any other action is hidden fully (an answer, say).
 */
export function hideReply(r: PendingReply, state: RunState): PendingReply {
  const v = state.vault;
  if (!v) return r;
  const a = r.action;
  const action = a.type === 'type' ? { ...a, text: hideIn(a.text, { typed: [], kept: v.kept }, PASSWORD_MASK) } : hideAction((t) => hideRun(state, t), a);
  return {
    ...r, action, raw: hideRun(state, r.raw), reasoning: hideRun(state, r.reasoning), thought: hideRun(state, r.thought),
    memory: hideRun(state, r.memory), actionText: hideRun(state, r.actionText),
  };
}

/** The text types a password the run typed before, in any encoding (secrets/encodings.ts): it is masked like one. */
export function typesKnownPassword(state: RunState, text: string): boolean {
  return !!state.vault?.typed.some((p) => hasEncoded(text, p));
}

/**
 * A password the run types from now on is masked in everything it keeps: the task, its answer,
 * its memory and every finished step (run-store.ts writes them again). Too short a password
 * (MIN_SECRET_CHARS) is masked only in its own step.
 */
export function rememberTyped(state: RunState, password: string): RunState {
  const v = state.vault ?? { typed: [], kept: [] };
  if (password.length < MIN_SECRET_CHARS || v.typed.includes(password)) return state;
  const next: RunState = { ...state, vault: { ...v, typed: [...v.typed, password] } };
  return {
    ...next, task: hideRun(next, state.task), answer: hideRun(next, state.answer), memory: hideRun(next, state.memory),
    ...(state.turns ? { turns: state.turns.map((t) => ({ ...t, task: hideRun(next, t.task), ...(t.answer !== undefined ? { answer: hideRun(next, t.answer) } : {}) })) } : {}),
    steps: state.steps.map((s) => hideStep(next, s)), pending: state.pending && hidePending(next, state.pending),
  };
}

/**
 * Storage split: what is written to the database (`state`: the pending password masked, stored
 * values with secrets and typed passwords as placeholders, no vault),
 * the pending password text, and the vault, both for memory-only storage.
 */
export function splitSecret(state: RunState): { state: RunState; secret: string | null; vault: Vault | null } {
  const { vault, ...rest } = state;
  // a stored value may hold a secret or a password the run typed: on disk as its placeholder (filled in again when typed)
  const safe: RunState = rest.variables ? { ...rest, variables: hideRun(state, rest.variables) } : rest;
  const r = safe.pending?.reply;
  if (!r?.secret || r.action.type !== 'type' || r.action.text === PASSWORD_MASK) return { state: safe, secret: null, vault: vault ?? null };
  const reply: PendingReply = { ...r, action: { ...r.action, text: PASSWORD_MASK } };
  return { state: { ...safe, pending: { ...safe.pending!, reply } }, secret: r.action.text, vault: vault ?? null };
}

/**
 * The inverse of splitSecret after a restart. When the secret is gone (the browser restarted), a
 * password action that has not started is dropped and the step asked again, so "••••" is never typed.
 */
export function joinSecret(state: RunState, secret: string | null, vault: Vault | null = null): RunState {
  const withVault: RunState = vault ? { ...state, vault } : state;
  const p = withVault.pending;
  const r = p?.reply;
  if (!p || !r?.secret || r.action.type !== 'type' || r.action.text !== PASSWORD_MASK) return withVault;
  if (secret !== null) return { ...withVault, pending: { ...p, reply: { ...r, action: { ...r.action, text: secret } } } };
  if (p.actStartedAt !== undefined) return withVault; // the input already ran (or may have): it is not repeated
  const { reply: _r, approval: _a, checked: _c, decision: _d, ...observed } = p;
  return { ...withVault, phase: 'model', pending: observed };
}
