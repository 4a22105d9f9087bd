/**
 * The exported trace (docs/trace-format.md): one JSON file per run, readable
 * without the extension. Secrets (the API key) are scrubbed from every string
 * as a last line of defence; password text is masked earlier, in run.ts.
 */
import type { GuardId } from '../guards';
import { sitesActedOn } from '../allowed-sites';
import type { Action } from '../action/action';
import type { FileMeta } from '../files';
import type { Fingerprint, Mark, Rect } from '../marks';
import type { ActedElement, FailCause, RunState, RunStatus, StepFacts } from '../run/state';
import type { Price } from '../costs';
import { PASSWORD_MASK, type Variables } from '../run/state';
import { hideRun } from '../run/secrets';
import { hideValues } from '../secrets';
import { shownVariables } from '../run/variables';

export const TRACE_FORMAT = 'webagent-trace';
/** 2: actions in the shared Action model (targets: label, point, window, none), `target`, dialect memory forms. 1 still imports. */
export const TRACE_VERSION = 2;
export const TRACE_VERSIONS_READ = [1, 2];
export const REDACTED = '[REDACTED]';

/** A step in the trace: the step's facts (run/state.ts StepFacts) and the trace's own forms of the rest. */
export interface TraceStep extends StepFacts {
  /** `fingerprint` (tag, text, structural path) lets a replay find the element again */
  elements: { label: number; tag: string; text: string; rect: Rect; fingerprint?: Fingerprint }[];
  request: { promptText: string; imageBytes: number; imageWidth: number; imageHeight: number };
  reply: { raw: string; reasoning: string | null };
  /** 'none': no action was proposed (unreadable reply); 'takeover': the person acted themselves */
  action: Action | { type: 'none'; reason: string } | { type: 'takeover' };
  /** what the action acted on: its label's element or the element under its point (null: none or unknown) */
  target: ActedElement | null;
  approval: null | { decision: 'approved' | 'edited' | 'rejected' | 'auto'; feedback: string | null };
  /** what the person was asked about this step (a guard's rule, null for the page's words or the model's own question, and the question); absent: not asked for a reason */
  guard?: { rule: GuardId | null; reason: string };
}

/** One turn of a run in a trace: its task, when and at which step it began, and how it ended (all but the last). */
export interface TraceTurn {
  task: string;
  startedAt: string;
  fromStep: number;
  status?: Exclude<RunStatus, 'running'>;
  answer?: string | null;
  stopReason?: string | null;
  answerJson?: unknown;
}

export interface Trace {
  format: typeof TRACE_FORMAT;
  version: typeof TRACE_VERSION;
  run: {
    id: string; task: string; startUrl: string; dialect: string; model: string; baseUrl: string;
    startedAt: string; endedAt: string | null; status: Exclude<RunStatus, 'running'> | 'running';
    answer: string | null; stopReason: string | null;
    /** a failed run: what outside the agent failed (the model endpoint, the tab, storage); absent otherwise */
    failCause?: FailCause;
    /** files the person attached for file inputs: name, size, type (never the bytes); absent when none */
    files?: FileMeta[];
    /** the model's price per million tokens when the run was made (settings), for its cost; null or absent: unknown */
    price?: Price | null;
    /** the price's currency (ISO 4217) from settings; null or absent (traces made before it was kept): not known, costs show without a unit */
    currency?: string | null;
    /** the values of the dialect's own settings for this run (Dialect.options), e.g. ui-tars's coordinates; absent: it has none */
    dialectOptions?: Record<string, string>;
    /** run variables actions stored (CogAgent's quotes, LLM answers, clipboard), by name; password values masked; absent when none */
    variables?: Variables;
    /** the task's JSON Schema for its answer (docs/answer-schema.md); absent: a free answer */
    answerSchema?: Record<string, unknown>;
    /** the answer as JSON, once it matched answerSchema; absent otherwise */
    answerJson?: unknown;
    /** answers the schema refused (each went back to the model); absent when none */
    answersRefused?: number;
    /** the run's turns once it had a follow-up (docs/follow-ups.md): the first task, then each follow-up; absent: one turn */
    turns?: TraceTurn[];
    /**
     * where the run could act and did (docs/allowed-sites.md): `allowed` set before the run ("start":
     * only the start site; "any"; or the sites besides it), `granted` the sites the person allowed
     * when asked during the run, `actedOn` the sites its actions were taken on, in order. Absent in
     * traces made before it was kept
     */
    sites?: { allowed: 'start' | 'any' | string[]; granted: string[]; actedOn: string[] };
  };
  steps: TraceStep[];
}

function markOut(m: Mark) {
  return m.fingerprint ? { label: m.label, tag: m.tag, text: m.text, rect: m.rect, fingerprint: m.fingerprint } : { label: m.label, tag: m.tag, text: m.text, rect: m.rect };
}

/** Replaces every occurrence of each secret (of 4+ characters), in any encoding, in every string of a JSON value. */
export function scrub<T>(value: T, secrets: string[]): T {
  const list = secrets.filter((s) => s && s.length >= 4);
  if (!list.length) return value;
  // in every encoding a page or a URL may hold it (core/secrets/encodings.ts)
  return hideValues(value, list, REDACTED);
}

export interface TraceOptions {
  /** leave the screenshots out ('' in both fields): smaller, and nothing on screen is shared */
  excludeScreenshots?: boolean;
}

/** Where the run could act and did (Trace run.sites), from the whole run (a trace made in parts takes it from the run, not a part). */
export function runSites(state: Pick<RunState, 'anySite' | 'sitesAllowed' | 'sitesGranted' | 'steps'>): NonNullable<Trace['run']['sites']> {
  return {
    allowed: state.anySite ? 'any' : state.sitesAllowed?.length ? [...state.sitesAllowed] : 'start',
    granted: [...(state.sitesGranted ?? [])],
    actedOn: sitesActedOn(state.steps),
  };
}

export function toTrace(state: RunState, secrets: string[], opts: TraceOptions = {}): Trace {
  const trace: Trace = {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    run: {
      id: state.id, task: state.task, startUrl: state.startUrl, dialect: state.dialect, model: state.model,
      baseUrl: state.baseUrl, startedAt: new Date(state.startedAt).toISOString(),
      endedAt: state.endedAt === null ? null : new Date(state.endedAt).toISOString(),
      status: state.status, answer: state.answer, stopReason: state.stopReason,
      ...(state.failCause ? { failCause: state.failCause } : {}),
      ...(state.files?.length ? { files: state.files.map((f) => ({ name: f.name, size: f.size, type: f.type })) } : {}),
      price: state.limits?.price ?? null,
      currency: state.limits?.currency ?? null,
      ...(state.dialectOptions ? { dialectOptions: { ...state.dialectOptions } } : {}),
      ...(state.variables && Object.keys(state.variables).length ? { variables: hideRun(state, shownVariables(state.variables, PASSWORD_MASK)) } : {}),
      ...(state.answerSchema ? { answerSchema: state.answerSchema } : {}),
      ...(state.answerJson !== undefined ? { answerJson: state.answerJson } : {}),
      ...(state.answersRefused ? { answersRefused: state.answersRefused } : {}),
      sites: runSites(state),
      ...(state.turns?.length ? { turns: state.turns.map(({ at, ...t }) => ({ ...t, startedAt: new Date(at).toISOString() })) } : {}),
    },
    steps: state.steps.map((s) => ({
      index: s.index, url: s.url, title: s.title, viewport: s.viewport, elements: s.elements.map(markOut),
      request: { promptText: s.promptText, imageBytes: s.imageBytes, imageWidth: s.imageWidth, imageHeight: s.imageHeight },
      reply: { raw: s.raw, reasoning: s.reasoning },
      thought: s.thought,
      action: s.kind === 'person' ? { type: 'takeover' as const } : s.action ?? { type: 'none', reason: 'the reply could not be read' },
      actionText: s.actionText,
      target: s.target ?? null,
      memory: s.memory,
      approval: s.approval ?? null,
      ...(s.guard ? { guard: s.guard } : {}),
      result: s.result,
      observation: s.observation,
      timings: s.timings,
      usage: s.usage,
      screenshot: opts.excludeScreenshots ? '' : s.screenshot,
      // the same picture is not stored twice (glm-pc, glm-mobile: the model saw the clean view)
      cleanScreenshot: opts.excludeScreenshots || s.cleanScreenshot === s.screenshot ? '' : s.cleanScreenshot ?? '',
      ...(s.tabs?.length ? { tabs: s.tabs } : {}),
      ...(s.injection?.length ? { injection: s.injection } : {}),
      ...(s.imageScreen ? { imageScreen: s.imageScreen } : {}),
      ...(s.pictureText ? { pictureText: s.pictureText } : {}),
      ...(s.afterAction ? { afterAction: s.afterAction } : {}),
      ...(s.sensitive ? { sensitive: true } : {}),
      ...(s.warning ? { warning: s.warning } : {}),
      ...(s.reflection ? { reflection: s.reflection } : {}),
    })),
  };
  return scrub(trace, secrets);
}
