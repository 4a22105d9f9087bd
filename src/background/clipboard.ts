/**
 * What the page copied in a run's tab (content-scripts/clipboard.ts), for an action that quotes
 * the clipboard. The system clipboard is never read.
 *
 * armClipboard, before each action of a run whose grammar can quote the clipboard: the content
 * script starts recording copy events, and a hook in the page's own world reports
 * navigator.clipboard.writeText / write calls (the page's intent: recorded even when the browser
 * refuses the write, e.g. without focus). The last copy per tab is kept in memory and in
 * chrome.storage.session (a worker restart keeps it; nothing reaches disk).
 */
import { everyFrame } from './label';

interface Copied { text: string; at: number }

const last = new Map<number, Copied>();
const key = (tabId: number) => `clipboard:${tabId}`;
/** longest copy kept */
const MAX_CHARS = 100_000;

/** Runs in the page's own world (self-contained): report clipboard writes to this window. */
function hookClipboard(): void {
  const flag = Symbol.for('webagent.clipboard.hook');
  const w = window as unknown as Record<symbol, boolean>;
  if (w[flag]) return;
  w[flag] = true;
  const c = navigator.clipboard;
  if (!c) return;
  const post = (text: unknown) => window.postMessage({ __webagentClipboard: String(text) }, '*');
  const writeText = c.writeText?.bind(c);
  if (writeText) c.writeText = (text: string) => { post(text); return writeText(text); };
  const write = c.write?.bind(c);
  if (write) {
    c.write = (items: ClipboardItem[]) => {
      for (const item of items ?? []) {
        if (item?.types?.includes('text/plain')) item.getType('text/plain').then((b) => b.text()).then(post, () => undefined);
      }
      return write(items);
    };
  }
}

/** Start recording what the page copies in every frame of the tab (idempotent per document). */
export async function armClipboard(tabId: number): Promise<void> {
  await Promise.all([
    chrome.scripting.executeScript({ target: { tabId, allFrames: true }, world: 'MAIN', func: hookClipboard }).catch(() => undefined),
    everyFrame(tabId, 'recordCopies').catch(() => undefined),
  ]);
}

/** Copies reported by content scripts. */
export function listenForCopies(): void {
  chrome.runtime.onMessage.addListener((msg: unknown, sender) => {
    const m = msg as { event?: unknown; text?: unknown } | null;
    if (sender.id !== chrome.runtime.id || m?.event !== 'clipboard/copied' || typeof m.text !== 'string' || sender.tab?.id === undefined) return undefined;
    const copied = { text: m.text.slice(0, MAX_CHARS), at: Date.now() };
    last.set(sender.tab.id, copied);
    void chrome.storage.session.set({ [key(sender.tab.id)]: copied }).catch(() => undefined);
    return undefined;
  });
}

/** The latest copy in any of these tabs (the run's, and those it came from), or null. */
export async function lastCopied(tabIds: number[]): Promise<Copied | null> {
  let best: Copied | null = null;
  for (const id of tabIds) {
    let c = last.get(id) ?? null;
    if (!c) c = ((await chrome.storage.session.get(key(id)).catch(() => ({}))) as Record<string, Copied | undefined>)[key(id)] ?? null;
    if (c && (!best || c.at > best.at)) best = c;
  }
  return best;
}
