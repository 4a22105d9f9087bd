/**
 * File inputs: an action that opens a file chooser gets the files the person attached to the run
 * instead of a native dialog no one can answer, once the person says yes.
 *
 * DOM.setFileInputFiles wants paths on disk and is refused to extensions, so the bytes go to the
 * page's own context instead:
 * 1. while a run works in a tab, Page.setInterceptFileChooserDialog keeps the native chooser from
 *    opening; Chromium emits Page.fileChooserOpened with the input's backendNodeId instead, however
 *    it was opened (a click on the input, on its <label>, a styled button calling input.click(),
 *    Enter on it) — https://chromedevtools.github.io/devtools-protocol/tot/Page/#method-setInterceptFileChooserDialog;
 * 2. a chooser the page opens while no action of the run is under way is refused (no file) and the
 *    model told; one opened by an action: the input is resolved (DOM.resolveNode, the page's main
 *    world), its `accept`, `multiple` and document URL read, and the attached files it takes picked
 *    (core/files.ts);
 * 3. those files are offered, not given: the action's question (core/guards/after.ts) names them
 *    and the site of the field's document, and only a yes (answerOffer) gives them. The same
 *    files to the same site are not asked about twice in a run;
 * 4. to give them, Runtime.callFunctionOn builds File objects from the bytes, sets input.files
 *    through a DataTransfer and fires `input` and `change` (bubbling), as a person's choice would.
 *    Just before, `giving` makes them watched values (watch.ts): the page may send them only to
 *    that site;
 * 5. what happened is a note for the model on the action's outcome (takeFileNotes, answerOffer).
 */
import { pickFiles } from '../../core/files';
import { modelText } from '../../core/run/model-text';
import { base64Encode } from '../../core/export/data-url';
import * as cdp from '../cdp';
import { destinationOf } from '../../core/site';
import { isActing } from '../dialogs';
import { runFiles, type StoredFile } from '../file-store';

/** Attached files a file field asked for, waiting for the person (its input kept resolved until then). */
interface Offer {
  objectId: string;
  chosen: StoredFile[];
  /** what the model is told when they are given */
  note: string;
  /** the field's document */
  url: string;
  /** the files and the destination: given once, not asked again in this run */
  key: string;
}

interface Watch {
  runId: string;
  /** a Type action's text: the files it names are preferred */
  prefer: string;
  notes: string[];
  /** choosers being filled, in order */
  busy: Promise<void>;
  /** called with the files' names and the field's document URL before the page gets them (watch.ts: from then on they are watched values) */
  giving: (names: string[], url: string) => Promise<void>;
  /** the files a chooser asked for during the action under way, until the person answers */
  offer: Offer | null;
  /** keys (Offer.key) of files the person let go to a site in this run */
  given: Set<string>;
}

const watches = new Map<number, Watch>();

chrome.debugger.onEvent.addListener((source, method, params) => {
  const tabId = source.tabId;
  if (method !== 'Page.fileChooserOpened' || tabId === undefined) return;
  const w = watches.get(tabId);
  if (!w) return;
  const p = (params ?? {}) as { backendNodeId?: number; mode?: string };
  // the run did not ask for it: the page opened it on its own (a timer, a script reacting to anything)
  if (!isActing(tabId)) { w.notes.push(modelText.chooserUnasked); return; }
  w.busy = w.busy
    .then(() => offer(tabId, w, p.backendNodeId, p.mode === 'selectMultiple'))
    .catch((err: unknown) => { w.notes.push(modelText.fileChooserFailed(err instanceof Error ? err.message : String(err))); });
});

chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId !== undefined) watches.delete(source.tabId);
});

/** From now on, file choosers in this tab are offered the run's attached files; `giving` is told which, before the page has them. */
export async function watchFileChoosers(tabId: number, runId: string, giving: Watch['giving'] = async () => undefined): Promise<void> {
  if (!watches.has(tabId)) watches.set(tabId, { runId, prefer: '', notes: [], busy: Promise.resolve(), giving, offer: null, given: new Set() });
  await cdp.send(tabId, 'Page.enable');
  await cdp.send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: true });
}

/** The run is over in this tab: choosers are the browser's again. */
export async function unwatchFileChoosers(tabId: number): Promise<void> {
  const w = watches.get(tabId);
  watches.delete(tabId);
  if (w?.offer) await release(tabId, w.offer.objectId);
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

/** The files a chooser of the action asked for, waiting for the person's answer (null: none). */
export async function takeOffer(tabId: number): Promise<{ files: string[]; url: string } | null> {
  const w = watches.get(tabId);
  if (!w) return null;
  await w.busy;
  return w.offer ? { files: w.offer.chosen.map((f) => f.name), url: w.offer.url } : null;
}

/** The person answered the offer: its files given (`give`) or not; what came of it, for the model. */
export async function answerOffer(tabId: number, give: boolean): Promise<string> {
  const w = watches.get(tabId);
  const o = w?.offer;
  if (!w || !o) return modelText.chooserLost;
  w.offer = null;
  if (!give) {
    await release(tabId, o.objectId);
    return modelText.chooserRefused(o.chosen.map((f) => f.name), destinationOf(o.url) ?? o.url);
  }
  return giveFiles(tabId, w, o).catch((err: unknown) => modelText.fileChooserFailed(err instanceof Error ? err.message : String(err)));
}

/** Runs in the page's main world, on the input: what it accepts, and its document. Self-contained. */
function readInput(this: HTMLInputElement): { accept: string; multiple: boolean; isFile: boolean; url: string } {
  return { accept: this.accept || '', multiple: !!this.multiple, isFile: this instanceof HTMLInputElement && this.type === 'file', url: this.ownerDocument.URL };
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

async function release(tabId: number, objectId: string): Promise<void> {
  await cdp.send(tabId, 'Runtime.releaseObject', { objectId }).catch(() => undefined);
}

/** A chooser the action opened: the attached files it takes are offered (or given, when the person already let them go there). */
async function offer(tabId: number, w: Watch, backendNodeId: number | undefined, multipleMode: boolean): Promise<void> {
  if (backendNodeId === undefined) throw new Error('the browser did not say which field opened it');
  const { object } = await cdp.send<{ object: { objectId?: string } }>(tabId, 'DOM.resolveNode', { backendNodeId });
  const objectId = object.objectId;
  if (!objectId) throw new Error('the file field is gone');
  let kept = false;
  try {
    const input = await callOn<{ accept: string; multiple: boolean; isFile: boolean; url: string }>(tabId, objectId, readInput);
    if (!input.isFile) throw new Error('it was not opened by a file field');
    const attached = await runFiles(w.runId);
    const pick = pickFiles(attached, input.accept, input.multiple || multipleMode, w.prefer);
    const note = modelText.fileChoice(attached, pick, input.accept);
    if (!pick.chosen.length) { w.notes.push(note); return; }
    // one question per action: a second chooser gets nothing
    if (w.offer) { w.notes.push(modelText.chooserAgain); return; }
    const o: Offer = { objectId, chosen: pick.chosen, note, url: input.url, key: JSON.stringify([pick.chosen.map((f) => f.name), destinationOf(input.url)]) };
    kept = true;
    if (w.given.has(o.key)) w.notes.push(await giveFiles(tabId, w, o));
    else w.offer = o;
  } finally {
    if (!kept) await release(tabId, objectId);
  }
}

/** The offered files into their field; what the model is told. */
async function giveFiles(tabId: number, w: Watch, o: Offer): Promise<string> {
  try {
    // watched from before the page can read them: a page may send a file the moment it has it
    await w.giving(o.chosen.map((f) => f.name), o.url);
    const set = await callOn<number>(tabId, o.objectId, setFiles, [await Promise.all(o.chosen.map(toPage))]);
    if (set !== o.chosen.length) throw new Error(`the field kept ${set} of ${o.chosen.length} files`);
    w.given.add(o.key);
    return o.note;
  } finally {
    await release(tabId, o.objectId);
  }
}
