/**
 * New tabs and windows: the run follows a tab that its tab opens (a target=_blank link,
 * window.open, a popup window) and goes back to the opener when that tab closes. A tab the run
 * moves to gets what the run's tab had: the debugger (trusted input, screenshots), the
 * dialect's phone emulation and the attached files for its file choosers (act/files.ts) here;
 * the content script and labels when it is observed (observe.ts injects what is missing); guards
 * and the task belong to the run, not to a tab.
 *
 * 1. chrome.tabs.onCreated (index.ts) names the tab that opened a new one (`openerTabId`, set
 *    for tabs and popup windows alike);
 * 2. the driver (run/driver.ts) follows the newest tab its current tab opened, at the end of an
 *    action and between effects (followTab), and records the change in the run's state;
 * 3. when the run's tab closes, it goes back to the latest opener still open (the stack in the
 *    run's state, so a restarted worker knows it: openerStillOpen), else the run stops.
 */
import { translatorFor } from '../core/locales';
import { whyNotAllowed } from '../core/pages';
import { runDevice } from '../core/dialects/device';
import type { RunEvent, RunState } from '../core/run';
import { watchTab, type Placement } from './watch';
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

/** What syncTabs needs of a live run (run/active.ts Active). */
export interface TabbedRun {
  state: RunState;
  /** tabs a tab of the run opened (tabs.onCreated), newest last, not yet followed */
  opened: Array<{ tabId: number; opener: number }>;
  /** every tab the run worked in, to clean up when it ends */
  tabs: Set<number>;
  /** card numbers the run typed (watch.ts: requests carrying them wait for the person) */
  cards: string[];
  /** the watched values the run put into a page, and where they may go (watch.ts) */
  placed: Placement[];
}

/**
 * The run's tab and the tabs it opened: back to the opener when the run's tab closed (or stop
 * when none is open), then into the newest tab the run's tab opened. Each move is committed as a
 * 'tab' event; the tab moved to is watched too (watch.ts: file choosers, dialogs, the request hold).
 */
export async function syncTabs(run: TabbedRun, commit: (ev: RunEvent) => Promise<void>): Promise<void> {
  const phone = runDevice(run.state) === 'phone';
  if (run.state.status !== 'running') return;
  if (!(await chrome.tabs.get(run.state.tabId).catch(() => null))) {
    const back = await openerStillOpen(run.state.tabStack ?? [], phone);
    if (!back) {
      await commit({ type: 'stop', at: Date.now(), reason: translatorFor(run.state.locale)('tabClosed') });
      return;
    }
    run.tabs.add(back.tabId);
    await watchTab(back.tabId, run).catch(() => undefined);
    await commit({ type: 'tab', at: Date.now(), change: 'closed', tabId: back.tabId, url: back.url });
  }
  for (;;) {
    const from = run.state.tabId;
    const next = run.opened.filter((o) => o.opener === from).pop();
    if (!next) return;
    run.opened = run.opened.filter((o) => o.tabId !== next.tabId);
    run.tabs.add(next.tabId);
    const to = await followTab(next.tabId, phone);
    if (!to || run.state.status !== 'running') continue;
    await watchTab(to.tabId, run).catch(() => undefined);
    await commit({ type: 'tab', at: Date.now(), change: 'opened', tabId: to.tabId, url: to.url });
    // What the new tab opened meanwhile is followed next; the rest is stale.
    run.opened = run.opened.filter((o) => o.opener === to.tabId);
  }
}

/** The run's tab closed and there is an opener to go back to (syncTabs does). */
export async function canGoBack(state: RunState): Promise<boolean> {
  return !!state.tabStack?.length && !(await chrome.tabs.get(state.tabId).catch(() => null));
}
