/** The 'observe' effect: the page labelled and photographed once it holds still -> 'observed'. */
import type { RunEvent } from '../../core/run';
import { dialectOf } from '../../core/dialects/registry';
import { UNSEEN_PAGE, whyNotAllowed } from '../../core/pages';
import { PageError } from '../content';
import { observeSteady } from '../observe';
import { readPictures } from '../ocr';
import type { Active } from './active';

export async function observeStep(a: Active): Promise<RunEvent> {
  const tabId = a.state.tabId;
  const t = await chrome.tabs.get(tabId).catch(() => null);
  if (!t) throw new PageError('The run\'s tab was closed.');
  const url = t.url || t.pendingUrl;
  const why = url ? whyNotAllowed(url) : t.status === 'complete' ? UNSEEN_PAGE : null;
  if (why) throw new PageError(`The run stopped because ${why}.`);
  const started = Date.now();
  const { observes } = dialectOf(a.state.dialect);
  const o = await observeSteady(tabId, observes);
  // its history images are made while the model thinks (commit.ts startKeeping)
  a.keep = { index: a.state.steps.length, shot: o.obs.screenshot.dataUrl, settledAt: o.settledAt, run: o.keep };
  // its pictures are read while the model thinks, and joined to the reply (ask.ts)
  const { boxes, shot, cssWidth } = o.pictures;
  a.pictures = a.settings.readPictures && boxes.length ? { index: a.state.steps.length, shot: o.obs.screenshot.dataUrl, read: readPictures(shot, cssWidth, boxes) } : null;
  return { type: 'observed', at: Date.now(), obs: o.obs, ms: Date.now() - started };
}
