/**
 * Content script entry, in every frame: the message adapter between the
 * background and the labeler / select rewrite / point tools, plus the API that
 * chrome.scripting reaches in all frames at once (background/label.ts).
 * Safe to inject twice (the second copy does nothing).
 */
import type { ContentMessages, ContentName, Reply } from '../src/core/messages';
import {
  chooseInSelect, collectFrame, drawMarks, drawOverlay, focusMark, framesMoved, hideMarks, lastSelectPick,
  listenForLinks, prepareFrames, resetMarks, resolveMark, scrollMark, scrollWindow,
} from './labeler';
import { frameLinks } from './labeler/frames';
import { markDetails } from './details';
import { readField, setField } from './field';
import { activeElement, focusedField, focusState, inspectPoint, markPoint } from './point';
import { pageReady, waitForQuiet } from './settle';
import { quoteBox } from './quote';
import { recordCopies } from './clipboard';
import { recordDemo } from './demo';
import { FRAME_MOVED, mergeFrames } from '../src/core/frames';

type Handlers = { [K in ContentName]: (req: ContentMessages[K]['req']) => ContentMessages[K]['res'] | Promise<ContentMessages[K]['res']> };

const handlers: Handlers = {
  'content/ping': () => ({ url: location.href }),
  'marks/draw': () => drawMarks(),
  'marks/overlay': ({ marks, style }) => { drawOverlay(marks, style); return null; },
  'marks/hide': () => { hideMarks(); return null; },
  'marks/reset': () => { resetMarks(); return null; },
  'marks/resolve': ({ label }) => resolveMark(label),
  'marks/details': ({ label }) => markDetails(label),
  'marks/focus': ({ label }) => focusMark(label),
  'field/read': ({ label }) => readField(label),
  'field/set': ({ label, value }) => setField(label, value),
  'page/scroll': ({ direction }) => scrollWindow(direction),
  'marks/scroll': ({ label, direction }) => scrollMark(label, direction),
  'page/quote': ({ box, all }) => quoteBox(box, all),
  'page/settle': ({ quietMs, capMs }) => waitForQuiet(quietMs, capMs),
  'page/ready': ({ capMs }) => pageReady(capMs),
  'select/last-pick': () => lastSelectPick(),
  'select/choose': ({ label, text }) => chooseInSelect(label, text),
  'point/inspect': ({ x, y }) => inspectPoint(x, y),
  'point/focused': () => focusedField(),
  'point/active': () => activeElement(),
  'point/mark': ({ point, box }) => markPoint(point, box),
};

const FLAG = Symbol.for('webagent.content');
const g = globalThis as unknown as Record<symbol, unknown>;

if (!g[FLAG]) {
  g[FLAG] = true;
  listenForLinks();
  // Reached by chrome.scripting.executeScript({ allFrames }) in this same isolated world.
  g[Symbol.for('webagent.api')] = {
    prepareFrames,
    // Native selects get their in-page lists as the page is labelled (every frame has its own).
    collectFrame,
    // A page with no iframes (background/label.ts, one round trip): prepare, label, draw; or 'frames'.
    // `draw`: false, or how to draw the labels (true: 'corner').
    labelAlone: async (draw: unknown) => {
      prepareFrames();
      const marks = await collectFrame();
      if (marks.frames.length) return 'frames';
      const style = draw === 'centre-from-1' ? 'centre-from-1' : draw === true || draw === 'corner' ? 'corner' : null;
      // drawn as the background will list them: the same merge of the one frame (a run draws nothing here)
      if (style) drawOverlay(mergeFrames([{ frameId: 0, result: marks }])?.marks ?? [], style);
      return marks;
    },
    resetMarks,
    hideMarks,
    // After the screenshot (background/observe.ts): did the page scroll or move an iframe since the pass?
    labelsChanged: () => {
      const moved = framesMoved();
      return moved === 'scroll' ? 'the page scrolled' : moved === 'frame' ? FRAME_MOVED : null;
    },
    // Every iframe's id and content-box origin now (background/act/frames.ts).
    frameLinks,
    // Typing into the focused field when it sits in a cross-origin frame (background/act/type.ts).
    focusState,
    // What the page copies, for a grammar that can quote the clipboard (background/clipboard.ts).
    recordCopies,
    // The person's actions on labelled elements while a demonstration is recorded (background/demo.ts).
    recordDemo: (record: unknown) => recordDemo(record === true),
  };
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
  if (window === window.top) chrome.runtime.sendMessage({ event: 'content/ready' }).catch(() => undefined);
}
