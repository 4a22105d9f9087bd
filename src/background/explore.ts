/**
 * Exploring a site (AppAgent's self-exploration), after each action of an exploring run has run and
 * the page settled (run/act.ts):
 * 1. the use the action made of a labelled element (tap, long press, swipe, typing into it); an
 *    action on no element teaches nothing;
 * 2. the page now, labelled the dialect's way and captured, the labels drawn onto the picture
 *    (draw-labels.ts: nothing is drawn in the page; AppAgent labels both pictures, so an
 *    action that changed nothing gives the same picture twice): with the step's own screenshot
 *    (the labelled one the model chose from, taken before the action, so it exists even when the
 *    action navigated away) the reflection prompt is asked: BACK, INEFFECTIVE, CONTINUE or SUCCESS;
 * 3. BACK: the browser goes back; INEFFECTIVE: the run will not try that element again (the
 *    reducer keeps its fingerprint);
 * 4. for BACK, CONTINUE and SUCCESS the element's documentation for that use is written with the
 *    documentation template, refined (the refine suffix) when the site's store has an entry for
 *    it, and stored (the store screens it for page instructions and masks typed passwords).
 * What was decided reaches the model as a note on the step, and the trace as the step's `reflection`.
 */
import type { Action } from '../core/action/action';
import type { Usage } from '../core/costs';
import type { DocAction } from '../core/docs/types';
import type { Fingerprint, LabelStyle } from '../core/marks';
import type { ChatMessage } from '../core/dialects/request';
import { learnerFor } from '../core/dialects/registry';
import type { Learned } from '../core/run/state';
import type { Settings } from '../core/settings';
import * as cdp from './cdp';
import { decodeImage, drawLabels, encodeCanvas } from './draw-labels';
import { labelTab } from './label';
import { historyStep } from './act/navigate';
import { askModel } from './model';
import { settle } from './settle';

const BACK_SETTLE_MS = 8_000;

/** Where documentation is read and written (background/doc-store.ts). */
export interface DocSink {
  /** the entry's text for this use of the element, or null */
  find(origin: string, fingerprint: Fingerprint, kind: DocAction): Promise<string | null>;
  /** store it; refused: why (page instructions in it) */
  put(origin: string, fingerprint: Fingerprint, kind: DocAction, text: string): Promise<{ ok: true } | { ok: false; reason: string }>;
}

export interface Exploring {
  tabId: number;
  settings: Settings;
  signal: AbortSignal;
  task: string;
  /** the step's summary of what was done (AppAgent's Summary), for the reflection's <last_act> */
  summary: string;
  action: Action;
  fingerprint: Fingerprint | null | undefined;
  /** the step's screenshot as the model got it (before the action) */
  before: string;
  /** how the dialect draws its labels (both pictures alike) */
  style: LabelStyle;
  origin: string;
  store: DocSink;
}

export interface Explored { learned: Learned; note: string; usage: Usage | null }

function message(prompt: string, images: string[]): ChatMessage[] {
  return [{ role: 'user', content: [{ type: 'text', text: prompt }, ...images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))] }];
}

function add(a: Usage | null, b: Usage | null): Usage | null {
  if (!a || !b) return a ?? b;
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}

/** Steps 1–4; null when the action used no labelled element (nothing to learn). */
export async function learnFromAction(x: Exploring): Promise<Explored | null> {
  const { useOf, reflectPrompt, parseReflection, docPrompt, parseDoc } = learnerFor(x.settings.dialect);
  const use = useOf(x.action);
  if (!use || !x.fingerprint) return null;
  const snap = await labelTab(x.tabId, false, x.style);
  const shot = await decodeImage((await cdp.screenshot(x.tabId, snap.viewport)).dataUrl);
  const after = (await encodeCanvas(drawLabels(shot, snap.marks, snap.viewport, x.style), 'image/png')).dataUrl;
  shot.close();
  const images = [x.before, after];
  const asked = await askModel(x.settings, message(reflectPrompt(use, x.summary, x.task), images), x.signal);
  if (!asked.ok) return { learned: { decision: 'CONTINUE', thought: '', doc: null, refused: asked.error }, note: `The action could not be judged: ${asked.error}`, usage: null };
  let usage = asked.usage;
  const r = parseReflection(asked.content, asked.reasoning);
  if (!r) return { learned: { decision: 'CONTINUE', thought: '', doc: null, refused: 'the reflection named no decision' }, note: 'The action could not be judged (no decision in the reply).', usage };
  // one full stop: the model's thought often ends with its own ("…toward the goal.. Documentation…" before)
  const notes = [`The action was judged ${r.decision}${r.thought ? `: ${r.thought}` : ''}`.replace(/([.!?。！？])?$/, (end) => end || '.')];
  if (r.decision === 'BACK') {
    const back = await historyStep(x.tabId, -1);
    if (back.ok) await settle(x.tabId, BACK_SETTLE_MS);
    notes.push(back.ok ? 'The browser went back to the page before it.' : back.error);
  }
  if (r.decision === 'INEFFECTIVE') {
    notes.push('That element will not be tried again.');
    return { learned: { decision: r.decision, thought: r.thought, doc: null }, note: notes.join(' '), usage };
  }
  const old = await x.store.find(x.origin, x.fingerprint, use.kind);
  const docAsked = await askModel(x.settings, message(docPrompt(use, x.task, old), images), x.signal);
  if (!docAsked.ok) return { learned: { decision: r.decision, thought: r.thought, doc: null, refused: docAsked.error }, note: notes.join(' '), usage };
  usage = add(usage, docAsked.usage);
  const doc = parseDoc(docAsked.content, docAsked.reasoning);
  if (!doc) return { learned: { decision: r.decision, thought: r.thought, doc: null, refused: 'the documentation reply was empty' }, note: notes.join(' '), usage };
  const stored = await x.store.put(x.origin, x.fingerprint, use.kind, doc);
  notes.push(stored.ok ? `Documentation of that element was ${old ? 'refined' : 'written'}.` : `Its documentation was not stored: ${stored.reason}`);
  return { learned: { decision: r.decision, thought: r.thought, doc, ...(stored.ok ? {} : { refused: stored.reason }) }, note: notes.join(' '), usage };
}
