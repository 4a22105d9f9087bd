/** The 'observed' and 'kept' events (reduce.ts). Pure. */
import { detectInjection, pageTexts } from '../injection';
import { findingsOf } from './findings';
import { dialectOf } from '../dialects/registry';
import { promptTextOf } from '../dialects/request';
import type { Mark } from '../marks';
import { pageKeyOf, textKey } from './budget';
import { markUnchanged } from './unchanged';
import { hideRun, taskForModel } from './secrets';
import { schemaText } from '../answer-schema';
import { followUpsOf } from './follow-up';
import { type RunEvent, type RunState } from './state';
import { historyOf, shotOf } from './step';

/** The page as observed: the model's request is built here, once; text aimed at the agent is held for the person. */
export function onObserved(state: RunState, ev: Extract<RunEvent, { type: 'observed' }>): RunState {
  if (state.phase !== 'observe') return state;
  // the page's secrets already hidden (reduce.ts)
  const o = ev.obs;
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
      ...(state.answerSchema ? { answerSchema: schemaText(state.answerSchema) } : {}),
      ...(state.turns ? { followUps: followUpsOf(state) } : {}),
    ...(o.docs?.length ? { docs: o.docs } : {}),
    ...(state.explore ? { explore: true, avoid: avoidedLabels(state, o.marks) } : {}),
  });
  return { ...state, heldFindings: undefined, phase: 'model', pending: { ...base, request, promptText: promptTextOf(request), ...(injection.length ? { injection } : {}) } };
}

/** The step's history images, made while the model thinks and the action runs. */
export function onKept(state: RunState, ev: Extract<RunEvent, { type: 'kept' }>): RunState {
  const p = state.pending;
  // Made while the model thinks and the action runs; joined before the event that ends the step, so any phase of the same step takes it.
  if (!p || p.index !== ev.index) return state;
  const stages = p.observeStages && ev.sent ? { ...p.observeStages, ...ev.sent } : p.observeStages;
  return { ...state, pending: { ...p, kept: ev.kept, ...(stages ? { observeStages: stages } : {}) } };
}

/** Exploring: the labels on this screen of elements found to change nothing (same fingerprint). */
function avoidedLabels(state: RunState, marks: Mark[]): number[] {
  const useless = state.useless ?? [];
  if (!useless.length) return [];
  return marks.filter((m) => m.fingerprint && useless.some((f) => f.tag === m.fingerprint!.tag && f.text === m.fingerprint!.text && f.path === m.fingerprint!.path)).map((m) => m.label);
}
