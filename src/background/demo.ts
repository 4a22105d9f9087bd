/**
 * Recording a demonstration (AppAgent's learning from the person: its step recorder and
 * document generation, seed 001), for a dialect that reads learned docs:
 * 1. start: the tab is labelled AppAgent's way (tags from 1 at the centres) and captured: the
 *    picture before the person's first action; the content script reports what the person does
 *    to labelled elements (content-scripts/demo.ts);
 * 2. each reported action: the page is waited for, labelled and captured again: the picture after
 *    it, and before the next one (a page the action opened is armed again). A person faster than
 *    the page (a second action before the first one's picture after) makes the two pictures share
 *    a change: the panel says "wait" until the pictures are taken (`ready`);
 * 3. stop: for each action, the documentation prompt of its kind (the refine suffix when the site's
 *    store has an entry for the element) with the pictures before and after it; the answer is
 *    stored for the element (source "demo"), masked for the passwords typed meanwhile (reported
 *    apart, kept in memory only) and screened for page instructions.
 * Recordings live in the worker's memory: a worker that Chrome stops ends them (the panel says so).
 */
import type { DocAction } from '../core/docs/types';
import type { Fingerprint } from '../core/marks';
import type { ChatMessage } from '../core/dialects/request';
import { learnerFor } from '../core/dialects/registry';
import { docOrigin } from '../core/docs/matching';
import * as cdp from './cdp';
import { AS_PLACEHOLDERS, hideIn } from '../core/secrets';
import { isRunTab } from './run/tab-events';
import { sendContent } from './content';
import { docSink } from './doc-store';
import { everyFrame, labelTab } from './label';
import { askModel } from './model';
import { loadSettings } from './settings-store';
import { settle } from './settle';

const SETTLE_MS = 8_000;

interface DemoStep { kind: DocAction; label: number; fingerprint: Fingerprint; swipeDir?: string; before: string; after: string | null }

/** `waiting`: actions whose picture after is still to be taken (the person acted faster than the page settled) */
interface Recording { tabId: number; task: string; steps: DemoStep[]; before: string; secrets: string[]; busy: Promise<void>; waiting: number }

const recordings = new Map<number, Recording>();

async function picture(tabId: number): Promise<string> {
  const snap = await labelTab(tabId, true, 'centre-from-1');
  return (await cdp.screenshot(tabId, snap.viewport)).dataUrl;
}

async function arm(tabId: number, on: boolean): Promise<void> {
  await everyFrame(tabId, 'recordDemo', on).catch(() => undefined);
}

/** Step 1. */
export async function startDemo(tabId: number, task: string): Promise<{ recording: true }> {
  if (recordings.has(tabId)) throw new Error('A demonstration is already being recorded in this tab.');
  const before = await picture(tabId);
  recordings.set(tabId, { tabId, task, steps: [], before, secrets: [], busy: Promise.resolve(), waiting: 0 });
  await arm(tabId, true);
  return { recording: true };
}

/** `ready`: every recorded action has its picture after (the next action will have the right picture before it). */
export function demoState(tabId: number): { recording: boolean; actions: number; ready: boolean } {
  const r = recordings.get(tabId);
  return { recording: !!r, actions: r?.steps.length ?? 0, ready: !r || r.waiting === 0 };
}

/** Step 2, from the content script's reports. */
export function listenForDemos(): void {
  chrome.runtime.onMessage.addListener((msg: unknown, sender) => {
    const m = msg as { event?: unknown; use?: unknown; label?: unknown; fingerprint?: Fingerprint; swipeDir?: unknown; value?: unknown } | null;
    const rec = sender.tab?.id === undefined ? undefined : recordings.get(sender.tab.id);
    if (sender.id !== chrome.runtime.id || !rec) return undefined;
    if (m?.event === 'demo/secret' && typeof m.value === 'string') rec.secrets.push(m.value);
    if (m?.event !== 'demo/action' || typeof m.label !== 'number' || !m.fingerprint) return undefined;
    const kind = (['tap', 'long_press', 'text', 'swipe'] as const).find((k) => k === m.use);
    if (!kind) return undefined;
    const step: DemoStep = { kind, label: m.label, fingerprint: m.fingerprint, before: '', after: null, ...(typeof m.swipeDir === 'string' ? { swipeDir: m.swipeDir } : {}) };
    rec.steps.push(step);
    rec.waiting++;
    // in order: the picture before an action is the one taken after the action before it
    rec.busy = rec.busy.then(async () => {
      step.before = rec.before;
      await settle(rec.tabId, SETTLE_MS);
      step.after = await picture(rec.tabId);
      rec.before = step.after;
      await arm(rec.tabId, true);
    }).catch(() => undefined).finally(() => { rec.waiting--; });
    return undefined;
  });
}

/** Step 3. */
export async function stopDemo(tabId: number): Promise<{ actions: number; documented: number; refused: string[] }> {
  const rec = recordings.get(tabId);
  if (!rec) throw new Error('No demonstration is being recorded in this tab.');
  await rec.busy;
  recordings.delete(tabId);
  await arm(tabId, false);
  // its pictures attached the debugger (the yellow bar): let go of the tab unless a run acts in it
  if (!isRunTab(tabId)) await cdp.detach(tabId);
  await sendContent(tabId, 'marks/hide', {}).catch(() => undefined);
  const url = (await chrome.tabs.get(tabId).catch(() => null))?.url ?? '';
  const origin = docOrigin(url);
  const settings = await loadSettings();
  const sink = docSink('demo', () => rec.secrets);
  let documented = 0;
  const refused: string[] = [];
  const { useFor, docPrompt, parseDoc } = learnerFor(settings.dialect);
  // the task as the person wrote it may name a secret or a password typed in the demonstration: the model gets placeholders
  const task = hideIn(rec.task, { typed: rec.secrets, kept: settings.secrets }, AS_PLACEHOLDERS);
  for (const s of rec.steps) {
    if (!s.after || !origin) continue;
    const use = useFor(s.kind, s.label, s.swipeDir);
    const old = await sink.find(origin, s.fingerprint, s.kind);
    const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: docPrompt(use, task, old) }, { type: 'image_url', image_url: { url: s.before } }, { type: 'image_url', image_url: { url: s.after } }] }];
    const r = await askModel(settings, messages, new AbortController().signal);
    if (!r.ok) { refused.push(`${s.fingerprint.text || s.fingerprint.tag}: ${r.error}`); continue; }
    const doc = parseDoc(r.content, r.reasoning);
    if (!doc) { refused.push(`${s.fingerprint.text || s.fingerprint.tag}: the model wrote nothing`); continue; }
    const stored = await sink.put(origin, s.fingerprint, s.kind, doc);
    if (stored.ok) documented++;
    else refused.push(`${s.fingerprint.text || s.fingerprint.tag}: ${stored.reason}`);
  }
  return { actions: rec.steps.length, documented, refused };
}
