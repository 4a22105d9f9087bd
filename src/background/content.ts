/**
 * Talking to the content script in the run's tab (top frame). When the tab
 * was opened before the extension was installed or reloaded, the content
 * script is not there yet: inject it, then wait for its "ready" message.
 */
import type { ContentMessages, ContentName, Reply } from '../core/messages';
import { CONTENT_ANSWER_MS, Late, STUCK_AGAIN_MS, within } from '../core/deadline';

const READY_TIMEOUT_MS = 10_000;

/** The page is the cause: the run stops (not fails). `person`: a message key of person text (public/_locales) to say it in the run's language. */
export class PageError extends Error {
  constructor(message: string, readonly person?: { key: string; args?: (string | number)[] }) {
    super(message);
  }
}

/** The page's script did not answer within CONTENT_ANSWER_MS. */
export function stuck(): PageError {
  return new PageError(`The page did not answer within ${CONTENT_ANSWER_MS / 1000} s: its script seems stuck (a loop) or very busy, so it cannot be read. Reload the page or try another one.`, { key: 'stopPageStuck', args: [CONTENT_ANSWER_MS / 1000] });
}

/** tabs whose top page did not answer in time at its last call (or took no action's input in its time): the next call gives it STUCK_AGAIN_MS at most */
const lateTabs = new Set<number>();

/** The tab's top page did not take an action's input in its time: counted as not answering (the next call is short). */
export const markLate = (tabId: number): void => { lateTabs.add(tabId); };
/** The tab's top page has not answered since it last failed to in time. */
export const isLate = (tabId: number): boolean => lateTabs.has(tabId);

export async function sendContent<K extends ContentName>(tabId: number, type: K, payload: ContentMessages[K]['req'], frameId = 0, ms = CONTENT_ANSWER_MS): Promise<ContentMessages[K]['res']> {
  // a page whose script is stuck in a loop never answers: the wait has an end (core/deadline.ts)
  const wait = frameId === 0 && lateTabs.has(tabId) ? Math.min(ms, STUCK_AGAIN_MS) : ms;
  const reply = (await within(chrome.tabs.sendMessage(tabId, { type, payload }, { frameId }), wait).catch((err: unknown) => {
    if (err instanceof Late) {
      if (frameId === 0) lateTabs.add(tabId);
      throw stuck();
    }
    throw err;
  })) as Reply<ContentMessages[K]['res']> | undefined;
  if (frameId === 0) lateTabs.delete(tabId);
  if (!reply) throw new PageError(`The page did not answer "${type}".`);
  if (!reply.ok) throw new PageError(reply.error);
  return reply.value;
}

/** Resolves when the content script of tabId's top frame says it is ready. */
function waitForReady(tabId: number, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { chrome.runtime.onMessage.removeListener(listener); reject(new PageError('The page script did not start in time.')); }, ms);
    const listener = (msg: unknown, sender: chrome.runtime.MessageSender) => {
      if (sender.tab?.id === tabId && sender.frameId === 0 && (msg as { event?: string })?.event === 'content/ready') {
        clearTimeout(timer);
        chrome.runtime.onMessage.removeListener(listener);
        resolve();
      }
    };
    chrome.runtime.onMessage.addListener(listener);
  });
}

/** The error says the page's script did not answer in time (stuck). */
export const isStuck = (err: unknown): boolean => err instanceof PageError && err.person?.key === 'stopPageStuck';

/** Whether the top frame's content script answers; a page that did not answer in time (stuck) throws that. */
async function ping(tabId: number): Promise<boolean> {
  try {
    await sendContent(tabId, 'content/ping', {});
    return true;
  } catch (err) {
    if (isStuck(err)) throw err;
    return false;
  }
}

/** how often the script is put into a page that refused it while between documents (IN_BETWEEN) */
const INJECT_TRIES = 6;
/** …and at this try, a page that still refuses it is loaded again */
const RELOAD_AT = 2;
/** what the extension APIs say of a page between two documents (the access check finds neither) */
const IN_BETWEEN = /cannot access contents of the page|frame with id \d+ was removed|no frame with id|the frame was removed|error page/i;

/** Makes sure the content script answers in the tab's top frame; says why when it cannot. */
export async function ensureContent(tabId: number): Promise<void> {
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  if (!tab) throw new PageError('The run\'s tab was closed.');
  if (tab.url && !/^(https?|file):/i.test(tab.url)) {
    throw new PageError(`The extension may not work on this page (${tab.url.split('?')[0]}); only http(s) pages can be automated.`);
  }
  const ready = waitForReady(tabId, READY_TIMEOUT_MS);
  ready.catch(() => undefined);
  if (await ping(tabId)) return;
  const files = chrome.runtime.getManifest().content_scripts?.[0]?.js ?? [];
  for (let attempt = 1; ; attempt++) {
    try {
      await within(chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files }), CONTENT_ANSWER_MS);
      break;
    } catch (err) {
      if (err instanceof Late) throw stuck();
      const now = await chrome.tabs.get(tabId).catch(() => null);
      if (!now) throw new PageError('The run\'s tab was closed.');
      if (now.url && !/^(https?|file):/i.test(now.url)) throw new PageError(`The tab now shows ${now.url.split('?')[0]}, which the extension may not automate (only http and https pages).`);
      // A page being loaded again (after a dialog flood, a reload) is between documents for a
      // moment, and refuses the script as a page without access would: tried again once it moved.
      // A page still refusing it has lost its renderer (ended, crashed: Chrome shows its sad-tab
      // page at the same address): it is loaded again, as a person would.
      if (attempt < INJECT_TRIES && IN_BETWEEN.test(err instanceof Error ? err.message : String(err))) {
        if (attempt === RELOAD_AT) await chrome.tabs.reload(tabId).catch(() => undefined);
        await nextTabEvent(tabId, 500);
        continue;
      }
      throw new PageError(`Cannot run in this page: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  // Either the ready message or a successful ping means the script is up.
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let isReady = false;
  ready.then(() => { isReady = true; }, () => undefined);
  while (!isReady && !(await ping(tabId))) {
    if (Date.now() > deadline) throw new PageError('The page script did not start in time; try reloading the page.');
    await Promise.race([ready.catch(() => undefined), nextTabEvent(tabId, 250)]);
  }
}

/** Waits for the tab to change or for ms, whichever is first (used between pings, not as a fixed sleep). */
function nextTabEvent(tabId: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); chrome.tabs.onUpdated.removeListener(onUpd); resolve(); };
    const onUpd = (id: number) => { if (id === tabId) done(); };
    const timer = setTimeout(done, ms);
    chrome.tabs.onUpdated.addListener(onUpd);
  });
}
