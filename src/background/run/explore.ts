/** Exploring: an action judged from the screenshots before and after it, its element documented (background/explore.ts). */
import type { Action } from '../../core/action/action';
import { dialectOf } from '../../core/dialects/registry';
import { docOrigin } from '../../core/docs/matching';
import { docSink } from '../doc-store';
import { learnFromAction, type Explored } from '../explore';
import type { Active } from './active';
import { messageOf } from './commit';

/**
 * The step's own screenshot is the "before" picture; the site's documentation store gets what was
 * learned (masked for the passwords this run typed, screened for page instructions). Stopped with the run.
 */
export async function learnFrom(a: Active, tabId: number, action: Action): Promise<Explored | null> {
  const p = a.state.pending;
  const origin = p ? docOrigin(p.url) : null;
  if (!p?.reply || !origin) return null;
  const request = new AbortController();
  a.request = request;
  try {
    const memory = p.reply.memory;
    return await learnFromAction({
      tabId, settings: a.settings, signal: request.signal, task: a.state.task, summary: typeof memory === 'string' ? memory : p.reply.thought,
      action, fingerprint: p.target?.fingerprint, before: p.screenshot, origin, style: dialectOf(a.state.dialect).observes.labelStyle ?? 'corner',
      store: docSink('explore', () => a.state.vault?.typed ?? []),
    });
  } catch (err) {
    return { learned: { decision: 'CONTINUE', thought: '', doc: null, refused: messageOf(err) }, note: `The action could not be judged: ${messageOf(err)}`, usage: null };
  } finally {
    if (a.request === request) a.request = null;
  }
}
