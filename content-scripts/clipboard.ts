/**
 * What the page copies, for an action that quotes the clipboard (CogAgent's QUOTE_CLIPBOARD):
 * the system clipboard is never read (that would prompt the person, and could hold anything of
 * theirs). Armed by the background, per document, for runs whose grammar can quote it
 * (background/clipboard.ts):
 * - `copy` events (Ctrl+C, a "Copy" button using document.execCommand): what the page put in the
 *   event's data when it handled the event itself, else the selection (in a field: its selected text);
 * - navigator.clipboard.writeText / write calls, seen by a hook the background installs in the
 *   page's own world (it posts what was written to this window; see background/clipboard.ts).
 * Each copy goes to the background at once, so it survives a navigation.
 */
const TAG = '__webagentClipboard';
let armed = false;

function report(text: string): void {
  if (!text) return;
  chrome.runtime.sendMessage({ event: 'clipboard/copied', text }).catch(() => undefined);
}

function selectedText(): string {
  const el = document.activeElement;
  if (el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && el.type !== 'password')) {
    const { selectionStart: a, selectionEnd: b } = el;
    if (a !== null && b !== null && b > a) return el.value.slice(a, b);
  }
  return document.getSelection()?.toString() ?? '';
}

/** Start recording this document's copies (idempotent). */
export function recordCopies(): null {
  if (armed) return null;
  armed = true;
  // bubbling to the window: after the page's own handlers
  window.addEventListener('copy', (e: ClipboardEvent) => {
    report(e.defaultPrevented ? e.clipboardData?.getData('text/plain') ?? '' : selectedText());
  });
  window.addEventListener('message', (e: MessageEvent) => {
    const data = e.data as Record<string, unknown> | null;
    if (e.source !== window || !data || typeof data[TAG] !== 'string') return;
    report(data[TAG] as string);
  });
  return null;
}
