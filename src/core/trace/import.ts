/**
 * Importing a trace file (docs/trace-format.md) as a run the history can show like a local one.
 * fromTrace is toTrace's inverse on everything a trace carries, so that exporting an imported
 * trace gives the same JSON back. What a trace does not carry (the tab, the pending step) is empty.
 */
import { upgradeAction } from '../action/legacy';
import { dialectOf } from '../dialects/registry';
import { optionValues } from '../dialects/options';
import { DEFAULT_GUARDS, GUARD_IDS, type GuardId } from '../guards';
import { INJECTION_KINDS, type InjectionPlace } from '../injection';
import type { ImageScreen } from '../image-screen';

/** A place off the element list as a trace file gives it (any JSON): kept when it is one, else "title". */
function placeOf(x: unknown): InjectionPlace {
  const o = (x && typeof x === 'object' ? x : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : '');
  if (o.channel === 'url') return { channel: 'url' };
  if (o.channel === 'notes' && typeof o.label === 'number') return { channel: 'notes', label: o.label };
  if (o.channel === 'file') return { channel: 'file', name: str(o.name) };
  if (o.channel === 'image') return { channel: 'image', excerpt: str(o.excerpt) };
  if (o.channel === 'picture') return { channel: 'picture', tag: str(o.tag), excerpt: str(o.excerpt), ...(typeof o.frame === 'string' ? { frame: str(o.frame) } : {}) };
  if (o.channel === 'text' || o.channel === 'alt' || o.channel === 'title' || o.channel === 'aria-label') {
    return { channel: o.channel, tag: str(o.tag), excerpt: str(o.excerpt), ...(typeof o.frame === 'string' ? { frame: str(o.frame) } : {}) };
  }
  return 'title';
}
import { asCurrency, asPrice } from '../costs';
import { checkSchema } from '../answer-schema';
import { readAllowedSites } from '../allowed-sites';
import type { PictureText } from '../picture-text';
import type { Translate } from '../i18n';
import { siteOf, type AfterAction, type RunState, type StepRecord, type Turn } from '../run/state';
import { TRACE_FORMAT, TRACE_VERSION, TRACE_VERSIONS_READ, type Trace, type TraceStep } from '.';

function isObject(x: unknown): x is Record<string, unknown> {
  return !!x && typeof x === 'object' && !Array.isArray(x);
}

/** The trace in `json`, or what is wrong with it (for the person). */
/**
 * Why a file is not a trace this version reads, as data (the panel says it in the person's words,
 * background/index.ts), beside `error`, in English for logs and the runner.
 */
export type TraceProblem =
  | { kind: 'not-object' } | { kind: 'not-trace' } | { kind: 'version'; version: string; reads: string }
  | { kind: 'run' } | { kind: 'steps' } | { kind: 'step'; step: number };

/** Why the file is not a trace, in the person's words (public/_locales: importNot…). */
export function traceProblemWords(p: TraceProblem, t: Translate): string {
  switch (p.kind) {
    case 'not-object': return t('importNotObject');
    case 'not-trace': return t('importNotTrace');
    case 'version': return t('importVersion', p.version, p.reads);
    case 'run': return t('importNoRun');
    case 'steps': return t('importNoSteps');
    case 'step': return t('importBadStep', p.step);
  }
}

export function parseTrace(json: unknown): { ok: true; trace: Trace } | { ok: false; error: string; problem: TraceProblem } {
  if (!isObject(json)) return { ok: false, error: 'This file is not a trace: it is not a JSON object.', problem: { kind: 'not-object' } };
  if (json.format !== TRACE_FORMAT) return { ok: false, error: `This file is not a webagent trace (its "format" is ${JSON.stringify(json.format ?? null)}).`, problem: { kind: 'not-trace' } };
  if (!TRACE_VERSIONS_READ.includes(json.version as number)) {
    const version = String(JSON.stringify(json.version ?? null)).slice(0, 20);
    const reads = TRACE_VERSIONS_READ.join(', ');
    return { ok: false, error: `This trace has version ${version}; this extension reads versions ${reads}.`, problem: { kind: 'version', version, reads } };
  }
  const run = json.run;
  if (!isObject(run) || typeof run.id !== 'string' || typeof run.task !== 'string' || typeof run.startedAt !== 'string') {
    return { ok: false, error: 'The trace\'s "run" is missing its id, task or start time.', problem: { kind: 'run' } };
  }
  if (!Array.isArray(json.steps)) return { ok: false, error: 'The trace has no "steps" list.', problem: { kind: 'steps' } };
  for (const [i, s] of json.steps.entries()) {
    if (!isObject(s) || typeof s.index !== 'number' || !isObject(s.action) || !isObject(s.result) || !isObject(s.request) || !isObject(s.reply)) {
      return { ok: false, error: `Step ${i + 1} of the trace is incomplete (index, action, request, reply and result are needed).`, problem: { kind: 'step', step: i + 1 } };
    }
  }
  return { ok: true, trace: upgradeTrace(json as unknown as Trace) };
}

/** A version 1 trace read as the current version: actions in the current model, no targets. */
export function upgradeTrace(t: Trace): Trace {
  if ((t.version as number) === TRACE_VERSION) return t;
  return {
    ...t, version: TRACE_VERSION,
    steps: t.steps.map((s) => {
      const a = s.action as { type: string };
      const action = a.type === 'none' || a.type === 'takeover' ? s.action : upgradeAction(s.action) ?? { type: 'none' as const, reason: 'the recorded action could not be read' };
      return { ...s, action, target: s.target ?? null };
    }),
  };
}

/** A trace's `afterAction`, checked field by field (absent or unreadable: none). */
function afterActionOf(v: unknown): AfterAction | null {
  if (!v || typeof v !== 'object') return null;
  const a = v as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' ? x : null);
  const rule = a.rule === 'leave-site' || a.rule === 'download' ? a.rule : null;
  const decision = ['approved', 'rejected', 'auto', 'takeover', 'stopped'].includes(a.decision as string) ? a.decision as AfterAction['decision'] : undefined;
  const downloads = Array.isArray(a.downloads) ? a.downloads.filter((d) => d && typeof d === 'object').map((d) => {
    const o = d as Record<string, unknown>;
    const size = typeof o.size === 'number' && o.size >= 0 ? o.size : undefined;
    return {
      id: typeof o.id === 'number' ? o.id : -1, url: str(o.url) ?? '', filename: str(o.filename) ?? '',
      ...(size !== undefined ? { size } : {}), ...(str(o.type) ? { type: str(o.type)! } : {}), ...(str(o.site) ? { site: str(o.site)! } : {}),
    };
  }) : [];
  return {
    rule, reason: str(a.reason), url: str(a.url) ?? '', downloads,
    ...(decision ? { decision } : {}),
    ...(a.feedback !== undefined ? { feedback: str(a.feedback) } : {}),
    ...(typeof a.outcome === 'string' ? { outcome: a.outcome } : {}),
  };
}

/** A trace's `imageScreen`, checked field by field (absent or unreadable: none). */
function imageScreenOf(v: unknown): ImageScreen | null {
  if (!isObject(v) || !['none', 'found', 'unreadable', 'failed'].includes(v.verdict as string)) return null;
  const str = (x: unknown, n = 500) => (typeof x === 'string' ? x.slice(0, n) : undefined);
  const u = isObject(v.usage) && typeof v.usage.promptTokens === 'number' && typeof v.usage.completionTokens === 'number'
    ? { promptTokens: v.usage.promptTokens, completionTokens: v.usage.completionTokens } : null;
  const words = str(v.words, 300);
  const reply = str(v.reply);
  const error = str(v.error);
  return {
    hash: str(v.hash, 64) ?? '', verdict: v.verdict as ImageScreen['verdict'],
    ...(words !== undefined ? { words } : {}), ...(reply !== undefined ? { reply } : {}), ...(error !== undefined ? { error } : {}),
    ...(v.reused === true ? { reused: true } : {}),
    usage: u, ms: typeof v.ms === 'number' && v.ms >= 0 ? v.ms : 0,
  };
}

/** A trace's `pictureText`, checked field by field (absent or unreadable: none). */
function pictureTextOf(v: unknown): PictureText | null {
  if (!isObject(v)) return null;
  const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? Math.round(x) : 0);
  return {
    pictures: n(v.pictures), read: n(v.read), reused: n(v.reused), unread: n(v.unread), ms: n(v.ms),
    ...(typeof v.error === 'string' ? { error: v.error.slice(0, 500) } : {}),
  };
}

/** `sameClean`: a missing clean view is the labelled one (dialects whose model sees no labels). */
function stepOf(t: TraceStep, sameClean: boolean): StepRecord {
  const a = t.action as { type: string };
  const step: StepRecord = {
    index: t.index, url: t.url, title: t.title, viewport: t.viewport,
    elements: t.elements.map((e) => ({ ...e })),
    promptText: t.request.promptText, imageBytes: t.request.imageBytes, imageWidth: t.request.imageWidth, imageHeight: t.request.imageHeight,
    screenshot: t.screenshot ?? '', cleanScreenshot: t.cleanScreenshot || (sameClean ? t.screenshot ?? '' : ''),
    raw: t.reply.raw, reasoning: t.reply.reasoning,
    thought: t.thought,
    action: a.type === 'none' || a.type === 'takeover' ? null : upgradeAction(t.action),
    actionText: t.actionText, target: t.target ?? null, memory: t.memory, result: t.result, observation: t.observation,
    timings: t.timings, usage: t.usage, approval: t.approval,
  };
  if (a.type === 'takeover') step.kind = 'person';
  const g = t.guard as { rule?: unknown; reason?: unknown } | undefined;
  if (g && typeof g.reason === 'string' && (g.rule === null || GUARD_IDS.includes(g.rule as GuardId))) step.guard = { rule: g.rule as GuardId | null, reason: g.reason };
  const injection = Array.isArray(t.injection) ? t.injection.filter((h) => h && typeof h.phrase === 'string').map((h) => ({
    phrase: h.phrase.slice(0, 80), kind: INJECTION_KINDS.includes(h.kind) ? h.kind : 'command' as const, where: typeof h.where === 'number' || typeof h.where === 'string' ? h.where : placeOf(h.where),
  })) : [];
  if (injection.length) step.injection = injection;
  const screen = imageScreenOf(t.imageScreen);
  if (screen) step.imageScreen = screen;
  const pictures = pictureTextOf(t.pictureText);
  if (pictures) step.pictureText = pictures;
  const after = afterActionOf(t.afterAction);
  if (after) step.afterAction = after;
  if (Array.isArray(t.tabs) && t.tabs.length) step.tabs = t.tabs.map((c) => ({ change: c.change === 'closed' ? 'closed' : 'opened', url: String(c.url ?? '') }));
  return step;
}

/** A finished (or stopped) run from a trace, marked imported; `tabId` -1 (no tab). */
export function fromTrace(t: Trace): RunState {
  const r = t.run;
  return {
    id: r.id, task: r.task, startUrl: r.startUrl, site: siteOf(r.startUrl), tabId: -1,
    dialect: r.dialect, model: r.model, baseUrl: r.baseUrl, maxSteps: Math.max(1, t.steps.length),
    startedAt: Date.parse(r.startedAt), endedAt: r.endedAt === null ? null : Date.parse(r.endedAt),
    // A trace exported mid-run cannot be continued here: it is kept as stopped.
    status: r.status === 'running' ? 'stopped' : r.status, phase: 'done',
    answer: r.answer, stopReason: r.status === 'running' ? 'Imported while it was still running.' : r.stopReason,
    memory: t.steps.at(-1)?.memory ?? dialectOf(r.dialect).emptyMemory(), steps: t.steps.map((s) => stepOf(s, !dialectOf(r.dialect).observes.labels)), pending: null, formatErrorsInARow: 0,
    approveSteps: false, guards: DEFAULT_GUARDS, searchStartPage: 'https://www.bing.com/', paused: null, imported: true,
    ...(Array.isArray(r.files) && r.files.length
      ? { files: r.files.map((f) => ({ name: String(f?.name ?? ''), size: Number(f?.size) || 0, type: String(f?.type ?? '') })) }
      : {}),
    // the price the run was made with, so its cost shows (no caps: an imported run does not run)
    ...(asPrice(r.price) ? { limits: { maxTokens: 0, maxCost: 0, price: asPrice(r.price), currency: asCurrency(r.currency) } } : {}),
    // how its points were read (checked against the dialect's choices; unknown values read as its defaults)
    ...(dialectOf(r.dialect).options?.length ? { dialectOptions: optionValues(dialectOf(r.dialect), r.dialectOptions) } : {}),
    ...answerFieldsOf(r),
    ...turnsField(r.turns, t.steps.length),
    ...sitesField(r.sites),
  };
}

/** The allowed and granted sites a trace keeps (each checked as typed sites are; unreadable: none). */
function sitesField(v: unknown): Pick<RunState, 'anySite' | 'sitesAllowed' | 'sitesGranted'> {
  if (!v || typeof v !== 'object') return {};
  const o = v as Record<string, unknown>;
  const allowed = readAllowedSites(o.allowed);
  const granted = Array.isArray(o.granted) ? readAllowedSites(o.granted) : null;
  return {
    ...(allowed.ok && allowed.value === 'any' ? { anySite: true } : allowed.ok && Array.isArray(allowed.value) ? { sitesAllowed: allowed.value } : {}),
    ...(granted?.ok && Array.isArray(granted.value) ? { sitesGranted: granted.value } : {}),
  };
}

const ENDED: ReadonlyArray<Turn['status']> = ['finished', 'stopped', 'failed'];

/** A trace's turns, checked one by one (in order, steps in range); unreadable ones make the run one turn again. */
function turnsField(v: unknown, steps: number): Pick<RunState, 'turns'> {
  if (!Array.isArray(v) || v.length < 2) return {};
  const turns: Turn[] = [];
  for (const x of v) {
    if (!x || typeof x !== 'object') return {};
    const o = x as Record<string, unknown>;
    const at = typeof o.startedAt === 'string' ? Date.parse(o.startedAt) : NaN;
    const from = o.fromStep;
    if (typeof o.task !== 'string' || Number.isNaN(at) || typeof from !== 'number' || !Number.isSafeInteger(from) || from < 0 || from > steps) return {};
    if (turns.length && from < turns[turns.length - 1].fromStep) return {};
    turns.push({
      task: o.task, at, fromStep: from,
      ...(ENDED.includes(o.status as Turn['status']) ? { status: o.status as Turn['status'] } : {}),
      ...(typeof o.answer === 'string' || o.answer === null ? { answer: o.answer as string | null } : {}),
      ...(typeof o.stopReason === 'string' || o.stopReason === null ? { stopReason: o.stopReason as string | null } : {}),
      ...(o.answerJson !== undefined ? { answerJson: o.answerJson } : {}),
    });
  }
  return { turns };
}

/** The answer schema and the JSON answer a trace keeps: a schema the validator cannot use is dropped with its answer. */
function answerFieldsOf(r: Trace['run']): Pick<RunState, 'answerSchema' | 'answerJson' | 'answersRefused'> {
  const checked = r.answerSchema === undefined ? null : checkSchema(r.answerSchema);
  if (!checked?.ok) return {};
  const refused = Number(r.answersRefused);
  return {
    answerSchema: checked.schema,
    ...(r.answerJson !== undefined ? { answerJson: r.answerJson } : {}),
    ...(Number.isSafeInteger(refused) && refused > 0 ? { answersRefused: refused } : {}),
  };
}
