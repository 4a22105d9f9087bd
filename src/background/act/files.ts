/**
 * File inputs: an action that opens a file chooser gets the files the person attached to the run
 * instead of a native dialog no one can answer.
 *
 * DOM.setFileInputFiles wants paths on disk and is refused to extensions, so the bytes go to the
 * page's own context instead:
 * 1. while a run works in a tab, Page.setInterceptFileChooserDialog keeps the native chooser from
 *    opening; Chromium emits Page.fileChooserOpened with the input's backendNodeId instead, however
 *    it was opened (a click on the input, on its <label>, a styled button calling input.click(),
 *    Enter on it) — https://chromedevtools.github.io/devtools-protocol/tot/Page/#method-setInterceptFileChooserDialog;
 * 2. on that event the input is resolved (DOM.resolveNode, the page's main world) and its `accept`
 *    and `multiple` read; the run's attached files it takes are picked (core/files.ts);
 * 3. Runtime.callFunctionOn builds File objects from the bytes, sets input.files through a
 *    DataTransfer and fires `input` and `change` (bubbling), as a person's choice would;
 * 4. what happened is a note for the model on the action's outcome (takeFileNotes).
 */
import { pickFiles } from '../../core/files';
import { modelText } from '../../core/run/model-text';
import { base64Encode } from '../../core/export/data-url';
import * as cdp from '../cdp';
import { runFiles, type StoredFile } from '../file-store';

interface Watch {
  runId: string;
  /** a Type action's text: the files it names are preferred */
  prefer: string;
  notes: string[];
  /** choosers being filled, in order */
  busy: Promise<void>;
  /** called with the files' names before the page gets them (watch.ts: from then on they are watched values) */
  giving: (names: string[]) => Promise<void>;
}

const watches = new Map<number, Watch>();

chrome.debugger.onEvent.addListener((source, method, params) => {
  const tabId = source.tabId;
  if (method !== 'Page.fileChooserOpened' || tabId === undefined) return;
  const w = watches.get(tabId);
  if (!w) return;
  const p = (params ?? {}) as { backendNodeId?: number; mode?: string };
  w.busy = w.busy
    .then(() => fill(tabId, w, p.backendNodeId, p.mode === 'selectMultiple'))
    .catch((err: unknown) => { w.notes.push(modelText.fileChooserFailed(err instanceof Error ? err.message : String(err))); });
});

chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId !== undefined) watches.delete(source.tabId);
});

/** From now on, file choosers in this tab get the run's attached files; `giving` is told which, before the page has them. */
export async function watchFileChoosers(tabId: number, runId: string, giving: (names: string[]) => Promise<void> = async () => undefined): Promise<void> {
  if (!watches.has(tabId)) watches.set(tabId, { runId, prefer: '', notes: [], busy: Promise.resolve(), giving });
  await cdp.send(tabId, 'Page.enable');
  await cdp.send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: true });
}

/** The run is over in this tab: choosers are the browser's again. */
export async function unwatchFileChoosers(tabId: number): Promise<void> {
  watches.delete(tabId);
  await cdp.send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: false }).catch(() => undefined);
}

/** A Type action's text names the files to choose, when it names any of the attached ones. */
export function preferFiles(tabId: number, text: string): void {
  const w = watches.get(tabId);
  if (w) w.prefer = text;
}

/** What the model is told about file choosers since the action began (after they are filled). */
export async function takeFileNotes(tabId: number): Promise<string[]> {
  const w = watches.get(tabId);
  if (!w) return [];
  await w.busy;
  const notes = w.notes;
  w.notes = [];
  w.prefer = '';
  return notes;
}

/** Runs in the page's main world, on the input: what it accepts. Self-contained. */
function readInput(this: HTMLInputElement): { accept: string; multiple: boolean; isFile: boolean } {
  return { accept: this.accept || '', multiple: !!this.multiple, isFile: this instanceof HTMLInputElement && this.type === 'file' };
}

/** Runs in the page's main world, on the input: files from base64, set, input and change fired. Self-contained. */
function setFiles(this: HTMLInputElement, files: Array<{ name: string; type: string; lastModified: number; base64: string }>): number {
  const dt = new DataTransfer();
  for (const f of files) {
    const bin = atob(f.base64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    dt.items.add(new File([bytes], f.name, { type: f.type, lastModified: f.lastModified }));
  }
  this.files = dt.files;
  this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return this.files ? this.files.length : 0;
}

async function callOn<T>(tabId: number, objectId: string, fn: (...args: never[]) => unknown, args: unknown[] = []): Promise<T> {
  const r = await cdp.send<{ result: { value?: T }; exceptionDetails?: { text?: string; exception?: { description?: string } } }>(tabId, 'Runtime.callFunctionOn', {
    objectId, functionDeclaration: fn.toString(), arguments: args.map((value) => ({ value })), returnByValue: true, awaitPromise: true,
  });
  if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text ?? 'the page refused');
  return r.result.value as T;
}

async function toPage(f: StoredFile) {
  return { name: f.name, type: f.type, lastModified: f.lastModified, base64: base64Encode(new Uint8Array(await f.bytes.arrayBuffer())) };
}

async function fill(tabId: number, w: Watch, backendNodeId: number | undefined, multipleMode: boolean): Promise<void> {
  if (backendNodeId === undefined) throw new Error('the browser did not say which field opened it');
  const { object } = await cdp.send<{ object: { objectId?: string } }>(tabId, 'DOM.resolveNode', { backendNodeId });
  const objectId = object.objectId;
  if (!objectId) throw new Error('the file field is gone');
  try {
    const input = await callOn<{ accept: string; multiple: boolean; isFile: boolean }>(tabId, objectId, readInput);
    if (!input.isFile) throw new Error('it was not opened by a file field');
    const attached = await runFiles(w.runId);
    const pick = pickFiles(attached, input.accept, input.multiple || multipleMode, w.prefer);
    if (pick.chosen.length) {
      // watched from before the page can read them: a page may send a file the moment it has it
      await w.giving(pick.chosen.map((f) => f.name));
      const set = await callOn<number>(tabId, objectId, setFiles, [await Promise.all(pick.chosen.map(toPage))]);
      if (set !== pick.chosen.length) throw new Error(`the field kept ${set} of ${pick.chosen.length} files`);
    }
    w.notes.push(modelText.fileChoice(attached, pick, input.accept));
  } finally {
    await cdp.send(tabId, 'Runtime.releaseObject', { objectId }).catch(() => undefined);
  }
}
