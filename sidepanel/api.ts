/** The side panel's (and the headless runner's) way to talk to the background: the typed message map. */
import { t } from './i18n';
import type { Reply, RunStream, RunUpdate, RunView, ViewMessages, ViewName } from '../src/core/messages';
import { normalizeSettings, type Settings } from '../src/core/settings';
import { mergeView } from '../src/core/run/view';

export async function send<K extends ViewName>(type: K, payload: ViewMessages[K]['req']): Promise<ViewMessages[K]['res']> {
  let reply: Reply<ViewMessages[K]['res']> | undefined;
  try {
    reply = await chrome.runtime.sendMessage({ type, payload });
  } catch (err) {
    throw new Error(t('bgNoAnswer', err instanceof Error ? err.message : String(err)));
  }
  if (!reply) throw new Error(t('bgNoAnswerPlain'));
  if (!reply.ok) throw new Error(reply.error);
  return reply.value;
}

/**
 * Whole run views: each broadcast (only the steps that changed, core/run/view.ts) merged onto the
 * view held (`held()`), or, when it cannot be placed there (the panel opened during the run, a
 * message lost), the whole view fetched. `wanted`: which broadcasts to take.
 */
export function onRunView(held: () => RunView | null, fn: (run: RunView) => void, wanted: (got: RunView) => boolean = () => true): () => void {
  return onRunUpdate((got) => {
    if (!wanted(got)) return;
    const merged = mergeView(held(), got);
    if (merged) fn(merged);
    else fetchRunView(held, got.id).then((r) => { if (r) fn(r); }, () => undefined);
  });
}

/** Each broadcast as it comes: a run's status and its changed steps only (see onRunView). */
export function onRunUpdate(fn: (run: RunView) => void): () => void {
  const listener = (msg: unknown) => {
    if ((msg as RunUpdate)?.event === 'run/update') fn((msg as RunUpdate).run);
  };
  chrome.runtime.onMessage.addListener(listener);
  return () => chrome.runtime.onMessage.removeListener(listener);
}

/** The whole view of a run (the latest without an id), or null when the held one is newer or there is none. */
export async function fetchRunView(held: () => RunView | null, runId?: string): Promise<RunView | null> {
  const r = await send('run/get', { runId });
  return r && mergeView(held(), r);
}

/** The model's reply as it streams in, and retry notes (broadcast while a step asks the model). */
export function onRunStream(fn: (ev: RunStream) => void): () => void {
  const listener = (msg: unknown) => {
    if ((msg as RunStream)?.event === 'run/stream') fn(msg as RunStream);
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

/** The message of any thrown value, for the panel's error line. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Keeps a port to the background open. Chrome stops an idle service worker and the port then
 * disconnects; reconnecting wakes the worker (its onConnect listener), which resumes the run
 * (background/run/resume.ts), and `onReconnect` lets the panel fetch the run again, since
 * broadcasts sent while it was away are lost. The short delay lets the old worker finish going.
 */
export function keepConnected(onReconnect: () => void): () => void {
  let port: chrome.runtime.Port | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const connect = () => {
    try {
      port = chrome.runtime.connect({ name: 'panel' });
    } catch {
      timer = setTimeout(connect, 200); // the extension is reloading: try again
      return;
    }
    port.onDisconnect.addListener(() => {
      void chrome.runtime.lastError; // read it, so Chrome does not log it as unchecked
      if (closed) return;
      timer = setTimeout(() => {
        connect();
        onReconnect();
      }, 200);
    });
  };
  connect();
  return () => {
    closed = true;
    clearTimeout(timer);
    port?.disconnect();
  };
}

/**
 * Settings as they change in storage (the background saves them: "Always allow", the
 * step-approval switch from another panel). The background keeps them under this key
 * (src/background/settings-store.ts).
 */
export function onSettingsChange(fn: (s: Settings) => void): () => void {
  const listener = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
    if (area === 'local' && changes.settings) fn(normalizeSettings(changes.settings.newValue as Partial<Settings> | undefined));
  };
  chrome.storage.onChanged.addListener(listener);
  return () => chrome.storage.onChanged.removeListener(listener);
}

/** Runs a panel command, showing its error; false when it failed (app.tsx makes one for its views). */
export type Command = (fn: () => Promise<unknown>) => Promise<boolean>;
