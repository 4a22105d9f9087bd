/**
 * Waiting until the page has settled after an action: the tab has finished
 * loading and the DOM has been quiet for a moment, capped. Event-driven, no
 * fixed sleeps.
 */
import { nothingRendered, READY_CAP_MS, type SettleReport } from '../core/settle';
import { ensureContent, sendContent } from './content';

const QUIET_MS = 300;

/** Resolves when the tab's status is "complete" (or after capMs). */
export function tabComplete(tabId: number, capMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(onUpd);
      resolve(ok);
    };
    const onUpd = (id: number, info: { status?: string }) => { if (id === tabId && info.status === 'complete') done(true); };
    const timer = setTimeout(() => done(false), capMs);
    chrome.tabs.onUpdated.addListener(onUpd);
    chrome.tabs.get(tabId).then((t) => { if (t.status === 'complete') done(true); }, () => done(false));
  });
}

/** Load finished and DOM quiet for QUIET_MS, at most capMs in all. */
export async function settle(tabId: number, capMs: number): Promise<void> {
  const deadline = Date.now() + capMs;
  for (let attempt = 0; attempt < 3; attempt++) {
    await tabComplete(tabId, Math.max(0, deadline - Date.now()));
    const left = deadline - Date.now();
    if (left <= 0) return;
    try {
      await ensureContent(tabId);
      await sendContent(tabId, 'page/settle', { quietMs: QUIET_MS, capMs: left });
      return;
    } catch {
      // The page navigated away while we waited: wait for the new one.
    }
  }
}

/**
 * Before an observation: the tab loaded (at most loadCapMs), then the page a person would see
 * (content script pageReady, at most READY_CAP_MS: custom elements defined and rendered, fonts
 * ready, network quiet), measured. A page that cannot answer (it navigated meanwhile) gets a report of the load
 * wait only; the labeling pass after it says what is wrong, if anything.
 */
export async function settlePage(tabId: number, loadCapMs: number): Promise<SettleReport> {
  const started = Date.now();
  await tabComplete(tabId, loadCapMs);
  const load = Date.now() - started;
  await ensureContent(tabId);
  const ready = await sendContent(tabId, 'page/ready', { capMs: READY_CAP_MS }).catch(() => null);
  const none = { defined: { ms: 0, pending: [] }, rendered: nothingRendered(), fonts: { ms: 0, ok: false }, network: { ms: 0, quiet: false } };
  return { ...(ready ?? none), load, ms: Date.now() - started };
}
