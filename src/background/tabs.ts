/**
 * New tabs and windows: the run follows a tab that its tab opens (a target=_blank link,
 * window.open, a popup window) and goes back to the opener when that tab closes. A tab the run
 * moves to gets what the run's tab had: the debugger (trusted input, screenshots) and the
 * dialect's phone emulation here; the content script and labels when it is observed
 * (observe.ts injects what is missing); guards and the task belong to the run, not to a tab.
 *
 * 1. chrome.tabs.onCreated (index.ts) names the tab that opened a new one (`openerTabId`, set
 *    for tabs and popup windows alike);
 * 2. the driver (run-loop.ts) follows the newest tab its current tab opened, at the end of an
 *    action and between effects (followTab), and records the change in the run's state;
 * 3. when the run's tab closes, it goes back to the latest opener still open (the stack in the
 *    run's state, so a restarted worker knows it: openerStillOpen), else the run stops.
 */
import { whyNotAllowed } from '../core/pages';
import * as cdp from './cdp';
import { emulatePhone } from './act/device';
import { tabComplete } from './settle';

const LOAD_CAP_MS = 10_000;

/** The tab's URL, or the one it is loading ('' when none yet). */
function urlOf(t: chrome.tabs.Tab): string {
  return t.url || t.pendingUrl || '';
}

/**
 * Makes `tabId` a tab the run can act in: debugger attached, a phone when the dialect sees one.
 * `reload`: the page was loaded as a desktop page; load it again so the site sees the phone
 * (not after a form was posted: that would post it again).
 */
export async function prepareTab(tabId: number, phone: boolean, reload: boolean): Promise<void> {
  await cdp.attach(tabId);
  if (!phone) return;
  await emulatePhone(tabId);
  if (!reload) return;
  type History = { currentIndex: number; entries: Array<{ transitionType?: string }> };
  const h = await cdp.send<History>(tabId, 'Page.getNavigationHistory').catch(() => null);
  if (h?.entries[h.currentIndex]?.transitionType === 'form_submit') return;
  await cdp.send(tabId, 'Page.reload', {}).catch(() => undefined);
}

/**
 * Follows a new tab: waits for its page to load (capped), then prepares it. Null when the tab
 * closed meanwhile, or shows a page the agent may not work in (it is left alone then).
 */
export async function followTab(tabId: number, phone: boolean): Promise<{ tabId: number; url: string } | null> {
  // Attached at once, so the phone's size and user agent apply as early as possible.
  await prepareTab(tabId, phone, false).catch(() => undefined);
  await tabComplete(tabId, LOAD_CAP_MS);
  const t = await chrome.tabs.get(tabId).catch(() => null);
  const url = t ? urlOf(t) : '';
  if (!t || !url || whyNotAllowed(url)) {
    if (t) await cdp.detach(tabId);
    return null;
  }
  await prepareTab(tabId, phone, true);
  // The person sees where the agent works (a tab opened in the background, e.g. by a middle click).
  await chrome.tabs.update(tabId, { active: true }).catch(() => undefined);
  return { tabId, url };
}

/** The latest tab on the stack that is still open, made ready to act in again; null when none is. */
export async function openerStillOpen(stack: number[], phone: boolean): Promise<{ tabId: number; url: string } | null> {
  for (const tabId of [...stack].reverse()) {
    const t = await chrome.tabs.get(tabId).catch(() => null);
    if (!t) continue;
    await prepareTab(tabId, phone, false);
    await chrome.tabs.update(tabId, { active: true }).catch(() => undefined);
    return { tabId, url: urlOf(t) };
  }
  return null;
}
