/**
 * A frame budget for a run's tabs (docs/labeling.md, "Pages that do not answer"): a page whose
 * frames keep loading more frames (each one two more of itself) would grow until Chrome's own
 * limit, a thousand frames, and starve the run meanwhile. Once a run's tab has loaded
 * FRAME_LOADS frames in one document, its further frame loads are blocked (a declarativeNetRequest
 * session rule for that tab and `sub_frame` requests) until the tab loads a new page or the run
 * leaves it. The labeling says so in the trace (`framesLeftOut`).
 */
import { FRAME_LOADS } from '../core/deadline';

/** run tab -> the frames its document loaded, and whether its frame loads are blocked */
const tabs = new Map<number, { frames: Set<number>; blocked: boolean }>();

/** a rule id per tab, above the ids refuse.ts takes (it takes the lowest free ones) */
const ruleId = (tabId: number) => 1_000_000 + (tabId % 1_000_000);

async function unblock(tabId: number): Promise<void> {
  await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: [ruleId(tabId)] }).catch(() => undefined);
}

function committed(d: chrome.webNavigation.WebNavigationFramedCallbackDetails): void {
  const t = tabs.get(d.tabId);
  if (!t) return;
  if (d.frameId === 0) {
    t.frames.clear();
    if (t.blocked) { t.blocked = false; void unblock(d.tabId); }
    return;
  }
  t.frames.add(d.frameId);
  if (t.blocked || t.frames.size < FRAME_LOADS) return;
  t.blocked = true;
  void chrome.declarativeNetRequest.updateSessionRules({
    removeRuleIds: [ruleId(d.tabId)],
    addRules: [{ id: ruleId(d.tabId), priority: 1, action: { type: 'block' as chrome.declarativeNetRequest.RuleActionType }, condition: { tabIds: [d.tabId], resourceTypes: ['sub_frame' as chrome.declarativeNetRequest.ResourceType] } }],
  }).catch(() => undefined);
}

let listening = false;

/** The run works in this tab from now on: its frame loads are counted. */
export function budgetFrames(tabId: number): void {
  if (!listening) {
    listening = true;
    chrome.webNavigation.onCommitted.addListener(committed);
  }
  if (!tabs.has(tabId)) tabs.set(tabId, { frames: new Set(), blocked: false });
}

/** Whether the tab's frame loads are blocked now (its page went past the budget). */
export function framesBlocked(tabId: number): boolean {
  return tabs.get(tabId)?.blocked ?? false;
}

/** The run left the tab: its frames are no longer counted, nor blocked. */
export async function releaseFrames(tabId: number): Promise<void> {
  const t = tabs.get(tabId);
  tabs.delete(tabId);
  if (t?.blocked) await unblock(tabId);
}
