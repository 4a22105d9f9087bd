/** Observe: label the page in all frames (content scripts), then screenshot it by CDP at CSS-pixel size. */
import type { Observation } from '../core/run';
import * as cdp from './cdp';
import { ensureContent } from './content';
import { labelTab } from './label';
import { tabComplete } from './settle';

const LOAD_CAP_MS = 15_000;

export async function observe(tabId: number): Promise<Observation> {
  await tabComplete(tabId, LOAD_CAP_MS);
  await ensureContent(tabId);
  const snap = await labelTab(tabId);
  const shot = await cdp.screenshot(tabId, snap.viewport);
  return { url: snap.url, title: snap.title, viewport: snap.viewport, marks: snap.marks, frameOffsets: snap.frameOffsets, screenshot: shot };
}
