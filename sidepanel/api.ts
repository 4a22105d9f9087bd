/** The side panel's (and the headless runner's) way to talk to the background: the typed message map. */
import type { Reply, RunUpdate, RunView, ViewMessages, ViewName } from '../src/core/messages';

export async function send<K extends ViewName>(type: K, payload: ViewMessages[K]['req']): Promise<ViewMessages[K]['res']> {
  let reply: Reply<ViewMessages[K]['res']> | undefined;
  try {
    reply = await chrome.runtime.sendMessage({ type, payload });
  } catch (err) {
    throw new Error(`The extension's background did not answer (${err instanceof Error ? err.message : String(err)}). Try reloading the extension.`);
  }
  if (!reply) throw new Error('The extension\'s background did not answer. Try reloading the extension.');
  if (!reply.ok) throw new Error(reply.error);
  return reply.value;
}

export function onRunUpdate(fn: (run: RunView) => void): () => void {
  const listener = (msg: unknown) => {
    if ((msg as RunUpdate)?.event === 'run/update') fn((msg as RunUpdate).run);
  };
  chrome.runtime.onMessage.addListener(listener);
  return () => chrome.runtime.onMessage.removeListener(listener);
}

/**
 * The tab the agent should work in: the active tab of this window when it is
 * a web page, else the most recently used web page in this window (the panel
 * may itself be open as a tab).
 */
export async function targetTab(): Promise<chrome.tabs.Tab | null> {
  const tabs = await chrome.tabs.query({ currentWindow: true });
  const web = tabs.filter((t) => /^https?:/i.test(t.url ?? ''));
  const activeWeb = web.find((t) => t.active);
  if (activeWeb) return activeWeb;
  return web.sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0] ?? null;
}
