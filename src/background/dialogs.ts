/**
 * A page's alert / confirm / prompt / beforeunload dialogs in a run's tabs, seen through the
 * debugger (Page.javascriptDialogOpening, sent to the tabs a run attached: cdp.ts) and answered
 * as core/guards/page-dialog.ts says: at once (noted for the model), or, for a confirm a guard cares
 * about while an action is under way, held open for the person (the run asks after the action:
 * core/guards/after.ts) and answered with their decision (answerDialog).
 */
import * as cdp from './cdp';
import { autoAnswer, blockedAtStartNote, dialogFlood, dialogFloodNote, dialogNote, MAX_DIALOG_CHARS, type DialogType, type PageDialog } from '../core/guards/page-dialog';
import { Late, START_ANSWER_MS, within } from '../core/deadline';
import type { GuardHit } from '../core/guards';

export type DialogJudge = (d: PageDialog) => GuardHit | null;

/** A dialog held open for the person: what it says and the guard it trips. */
export interface HeldDialog { dialog: PageDialog; hit: GuardHit }

const judges = new Map<number, DialogJudge>();
/** tab -> what the model is to be told about dialogs answered since last taken; `cut`: answered Cancel */
const notes = new Map<number, Array<{ text: string; cut: boolean }>>();
/** tab -> the action under way: told when a dialog is held for the person */
const waiting = new Map<number, (held: HeldDialog) => void>();
/** tab -> the dialog held open now */
const open = new Map<number, HeldDialog>();
/** tab -> when its recent dialogs opened (core/guards/page-dialog.ts dialogFlood) and whether the flood was stopped */
const recent = new Map<number, { times: number[]; stopped: boolean }>();
/** tabs where an action is under way (its input and its settle wait: actionUnderway) */
const acting = new Set<number>();

/** An action begins (true) or has settled (false) in these tabs. */
export function actionUnderway(tabIds: number[], on: boolean): void {
  for (const t of tabIds) {
    // a flood is counted within one action (or between two): a run's quick steps that each open a dialog are not one
    recent.delete(t);
    if (on) acting.add(t);
    else acting.delete(t);
  }
}

/** An action is under way in the tab (between its input and its settle). */
export const isActing = (tabId: number): boolean => acting.has(tabId);

const TYPES: DialogType[] = ['alert', 'confirm', 'prompt', 'beforeunload'];

chrome.debugger.onEvent.addListener((source, method, params) => {
  const tabId = source.tabId;
  if (tabId === undefined) return;
  if (method === 'Page.javascriptDialogClosed') {
    open.delete(tabId);
    return;
  }
  if (method !== 'Page.javascriptDialogOpening' || !cdp.attachedTabs().includes(tabId)) return;
  const p = params as { type?: string; message?: string };
  const type = TYPES.includes(p.type as DialogType) ? p.type as DialogType : 'alert';
  const dialog: PageDialog = { type, message: String(p.message ?? '').slice(0, MAX_DIALOG_CHARS) };
  const hit = judges.get(tabId)?.(dialog) ?? null;
  // A flood (alert after alert in a loop): every dialog is still answered (a guarded confirm
  // refused), the page is ended and loaded again once, and the model told once.
  const before = recent.get(tabId);
  const f = dialogFlood(before?.times ?? [], Date.now());
  const stopped = (before?.stopped ?? false) && f.times.length > 1;
  recent.set(tabId, { times: f.times, stopped: stopped || f.flood });
  if (f.flood) {
    void cdp.send(tabId, 'Page.handleJavaScriptDialog', { accept: hit ? false : autoAnswer(dialog) }).catch(() => undefined);
    if (!stopped) {
      notes.set(tabId, [...(notes.get(tabId) ?? []), { text: dialogFloodNote(dialog), cut: acting.has(tabId) }]);
      stopFlood(tabId);
    }
    return;
  }
  const during = waiting.get(tabId);
  if (hit && during) {
    open.set(tabId, { dialog, hit });
    during({ dialog, hit });
    return;
  }
  // Nobody needs to be asked, or no action is under way (a timer's dialog between steps): a
  // confirm a guard cares about is refused, anything else answered as autoAnswer says.
  const accept = hit ? false : autoAnswer(dialog);
  void cdp.send(tabId, 'Page.handleJavaScriptDialog', { accept }).catch(() => undefined);
  // A Cancel cuts short the action under way (not one that comes later: a dialog between actions is only told).
  notes.set(tabId, [...(notes.get(tabId) ?? []), { text: dialogNote(dialog, accept, 'agent'), cut: !accept && acting.has(tabId) }]);
});

/**
 * The page's script loops on dialogs: between two of them it runs for microseconds, and its main
 * thread takes no command (Runtime.terminateExecution and Debugger.pause wait behind the loop).
 * So the tab's renderer is ended (Page.crash) and the page loaded again, as a reload leaves it.
 * Other tabs that Chrome put in the same renderer (the same site) end too; Chrome offers to reload them.
 */
function stopFlood(tabId: number): void {
  void cdp.send(tabId, 'Page.crash').catch(() => undefined);
  setTimeout(() => { void chrome.tabs.reload(tabId).catch(() => undefined); }, FLOOD_RELOAD_MS);
}

/** after ending a flooding page, it is loaded again this much later (the renderer has gone by then) */
const FLOOD_RELOAD_MS = 300;

/**
 * As a run begins in a tab: whether its page answers (Page.enable, which also starts the dialog
 * events, within START_ANSWER_MS). A dialog the page opened before the run attached holds its
 * script, and the debugger is not told of it: no command that needs the page is answered, and
 * Page.handleJavaScriptDialog finds no dialog. So a page that does not answer is loaded again (a
 * navigation closes its dialog); a dialog it opens again is then seen and answered like any
 * other, and the model is told. True when it was loaded again.
 */
export async function unblockAtStart(tabId: number): Promise<boolean> {
  try {
    await within(cdp.send(tabId, 'Page.enable'), START_ANSWER_MS);
    return false;
  } catch (err) {
    if (!(err instanceof Late)) return false;
    notes.set(tabId, [...(notes.get(tabId) ?? []), { text: blockedAtStartNote(START_ANSWER_MS / 1000), cut: false }]);
    await chrome.tabs.reload(tabId).catch(() => undefined);
    return true;
  }
}

/** The tab's dialogs are seen from now on (Page events), judged by `judge`. */
export async function watchDialogs(tabId: number, judge: DialogJudge): Promise<void> {
  judges.set(tabId, judge);
  // a page held by a dialog answers once it is closed (and a page that never answers stops the run at its first observation)
  await within(cdp.send(tabId, 'Page.enable'), START_ANSWER_MS).catch(() => undefined);
}

export function unwatchDialogs(tabId: number): void {
  judges.delete(tabId);
  recent.delete(tabId);
  acting.delete(tabId);
  waiting.delete(tabId);
}

/**
 * Runs the action's input; when a dialog that needs the person opens meanwhile, returns it at
 * once (the input may be stuck behind the dialog: `input` goes on and ends once it is answered).
 */
export async function inputOrDialog<T>(tabId: number, input: Promise<T>): Promise<{ done: T } | { held: HeldDialog; input: Promise<T> }> {
  const now = open.get(tabId);
  if (now) return { held: now, input };
  let tell: (h: HeldDialog) => void = () => undefined;
  const held = new Promise<HeldDialog>((resolve) => { tell = resolve; });
  waiting.set(tabId, tell);
  try {
    const first = await Promise.race([input.then((done) => ({ done })), held.then((h) => ({ held: h, input }))]);
    return first;
  } finally {
    if (waiting.get(tabId) === tell) waiting.delete(tabId);
  }
}

/** The person decided: OK (accept) or Cancel. */
export async function answerDialog(tabId: number, accept: boolean): Promise<void> {
  open.delete(tabId);
  await cdp.send(tabId, 'Page.handleJavaScriptDialog', { accept }).catch(() => undefined);
}

/**
 * What the model is to be told about the dialogs the run answered in these tabs since last asked;
 * `cut`: one was answered Cancel, so what the page asked about did not happen.
 */
export function takeDialogNotes(tabIds: number[]): { notes: string[]; cut: boolean } {
  const all = tabIds.flatMap((t) => notes.get(t) ?? []);
  for (const t of tabIds) notes.delete(t);
  return { notes: all.map((n) => n.text), cut: all.some((n) => n.cut) };
}

/** A run ended: a dialog still held open is answered Cancel. */
export async function dropDialogs(tabIds: number[]): Promise<void> {
  for (const t of tabIds) {
    if (open.has(t)) await answerDialog(t, false);
    unwatchDialogs(t);
    notes.delete(t);
  }
}
