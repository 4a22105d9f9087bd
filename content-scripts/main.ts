/**
 * Content script entry: the message adapter between the background and the
 * labeler / select rewrite. Safe to inject twice (the second copy does nothing).
 * Answers only in the top frame for now; other frames join in a later version.
 */
import type { ContentMessages, ContentName, Reply } from '../src/core/messages';
import { chooseInSelect, drawMarks, focusMark, hideMarks, lastSelectPick, resetMarks, resolveMark, scrollWindow } from './labeler';
import { waitForQuiet } from './settle';

type Handlers = { [K in ContentName]: (req: ContentMessages[K]['req']) => ContentMessages[K]['res'] | Promise<ContentMessages[K]['res']> };

const handlers: Handlers = {
  'content/ping': () => ({ url: location.href }),
  'marks/draw': () => drawMarks(),
  'marks/hide': () => { hideMarks(); return null; },
  'marks/reset': () => { resetMarks(); return null; },
  'marks/resolve': ({ label }) => resolveMark(label),
  'marks/focus': ({ label }) => focusMark(label),
  'page/scroll': ({ direction }) => scrollWindow(direction),
  'page/settle': ({ quietMs, capMs }) => waitForQuiet(quietMs, capMs),
  'select/last-pick': () => lastSelectPick(),
  'select/choose': ({ label, text }) => chooseInSelect(label, text),
};

const FLAG = Symbol.for('webagent.content');
const g = globalThis as unknown as Record<symbol, boolean>;

if (window === window.top && !g[FLAG]) {
  g[FLAG] = true;
  chrome.runtime.onMessage.addListener((msg: { type?: string; payload?: unknown }, sender, sendResponse) => {
    // Only the extension's background talks to us; pages cannot reach this listener.
    if (sender.id !== chrome.runtime.id || typeof msg?.type !== 'string' || !(msg.type in handlers)) return false;
    const handler = handlers[msg.type as ContentName] as (req: unknown) => unknown;
    Promise.resolve()
      .then(() => handler(msg.payload ?? {}))
      .then(
        (value) => sendResponse({ ok: true, value } satisfies Reply<unknown>),
        (err: unknown) => sendResponse({ ok: false, error: err instanceof Error ? err.message : String(err) } satisfies Reply<unknown>),
      );
    return true;
  });
  chrome.runtime.sendMessage({ event: 'content/ready' }).catch(() => undefined);
}
