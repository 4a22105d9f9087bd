/** Tab events: a run follows a tab its tab opened, goes back when its tab closes, or stops. */
import { active } from './active';
import type { PersonReason } from './commit';
import { stopRun } from './controls';

export function isRunTab(tabId: number): boolean {
  return [...active.values()].some((a) => a.state.tabId === tabId);
}

/** A new tab: when a run's tab opened it, the run follows it (syncTabs). */
export function tabCreated(tab: chrome.tabs.Tab): void {
  if (tab.id === undefined || tab.openerTabId === undefined) return;
  for (const a of active.values()) {
    // Its current tab, or a tab it is about to follow; not a tab it left behind (on the stack).
    const opener = tab.openerTabId;
    if (a.state.tabId !== opener && (!a.tabs.has(opener) || a.state.tabStack?.includes(opener))) continue;
    a.opened.push({ tabId: tab.id, opener });
    a.wake();
  }
}

/** A closed tab: a run in it goes back to the tab that opened it (syncTabs), or stops. */
export function tabRemoved(tabId: number): void {
  for (const a of active.values()) {
    a.opened = a.opened.filter((o) => o.tabId !== tabId);
    if (a.state.tabId !== tabId) continue;
    if (!a.state.tabStack?.length) {
      void stopRun(a.state.id, { key: 'tabClosed' });
      continue;
    }
    // A reply about the closed tab's page is of no use: ask again in the tab the run goes back to.
    a.request?.abort();
    a.wake();
  }
}

/** The run's tab went away, or moved where the agent may not act: stop with that reason. */
export function stopRunsInTab(tabId: number, reason: PersonReason): void {
  for (const a of active.values()) if (a.state.tabId === tabId) void stopRun(a.state.id, reason);
}
