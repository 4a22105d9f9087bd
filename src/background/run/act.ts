/**
 * The 'act' effect: 'acting' written before the input, 'input' after it, then the page settled and
 * what the action did (tabs, downloads, held requests, dialogs, files) -> 'acted'. A worker
 * restarted mid-action does not repeat the input.
 */
import { guardHit, hideRun, modelText, type ActResult, type Effect, type RunEvent } from '../../core/run';
import type { Action } from '../../core/action/action';
import { reachedBy } from '../gate';
import { dialectOf } from '../../core/dialects/registry';
import { fillSecrets } from '../../core/secrets';
import { actInput, settleAfter } from '../act';
import { takeFileNotes, takeOffer } from '../act/files';
import { armClipboard } from '../clipboard';
import { isLate, markLate, PageError, sendContent } from '../content';
import { actionUnderway, inputOrDialog, takeDialogNotes, type HeldDialog } from '../dialogs';
import { inputDeadline, Late, within } from '../../core/deadline';
import { takeDownloads } from '../downloads';
import { settledOrHeld, takeHeld } from '../hold';
import { takeRefused } from '../refuse';
import { syncTabs } from '../tabs';
import { holdWatched, placeValues } from '../watch';
import type { Active } from './active';
import { commit, messageOf, pause, tabUrl } from './commit';
import { learnFrom } from './explore';
import { askText } from './llm';

type Act = Extract<Effect, { kind: 'act' }>;

export async function actStep(a: Active, eff: Act): Promise<RunEvent> {
  const tabId = a.state.tabId;
  const p = a.state.pending!;
  let started = p.actStartedAt;
  let heldDialog: HeldDialog | null = null;
  const tabs = () => [...new Set([tabId, a.state.tabId, ...a.tabs])];
  actionUnderway(tabs(), true);
  await holdWatched(tabs(), a);
  try {
    if (started === undefined) {
      started = Date.now();
      await commit(a, { type: 'acting', at: started });
      const r = await input(a, tabId, eff);
      heldDialog = r.held;
      await commit(a, { type: 'input', at: Date.now(), result: hideRun(a.state, r.result) });
    }
    // After a restart with the input started but not recorded, nobody knows whether it happened.
    const result = a.state.pending?.inputResult ?? { ok: false as const, error: modelText.inputUnknown };
    if (heldDialog) {
      // The page waits on its dialog: nothing settles until the person answers (the 'after' effect).
      const landed = { url: await tabUrl(a.state.tabId), downloads: await takeDownloads(tabs()), dialog: heldDialog, requests: takeHeld(tabs()) };
      a.held = landed.downloads;
      return { type: 'acted', at: Date.now(), result, ms: Date.now() - started, landed };
    }
    // A page waiting on a request the hold keeps does not settle: the question comes first. A page
    // that did not take the input in its time is not waited on: it is looked at again at once.
    if (!isLate(tabId)) await settledOrHeld(tabs(), settleAfter(tabId, eff.action));
    // the model asked for a pause after its action (capped by the run: effects.ts)
    if (eff.sleepMs) await pause(eff.sleepMs);
    // Exploring: the action judged from the screenshots before and after it, its element documented (explore.ts)
    const learnt = a.state.explore && result.ok ? await learnFrom(a, tabId, eff.action) : null;

    // What file choosers the action opened got (act/files.ts) and the page's dialogs answered (dialogs.ts), for the model.
    const dialogs = takeDialogNotes(tabs());
    const refused = takeRefused(tabs());
    const notes = [...await takeFileNotes(tabId), ...dialogs.notes, ...(refused.length ? [modelText.connectionsRefused(refused)] : [])];
    // A tab the action opened or closed: this step records the change.
    await syncTabs(a, (ev) => commit(a, ev));
    // Where the action took the tab and what it downloaded: the guards look at it (guards/after.ts).
    const downloads = await takeDownloads(tabs());
    a.held = downloads;
    // Requests the page sent that carry a secret or a card number: held for the person (hold.ts).
    const requests = takeHeld(tabs());
    // A file chooser the action opened waits for the person with the attached files it would get (act/files.ts).
    const chooser = await takeOffer(tabId);
    const landed = { url: await tabUrl(a.state.tabId), downloads, ...(requests.length ? { requests } : {}), ...(chooser ? { chooser } : {}) };
    const learned = learnt && result.ok ? { ...result, learned: learnt.learned, usage: learnt.usage, note: result.note ? `${result.note} ${learnt.note}` : learnt.note } : result;
    // A dialog answered Cancel cut the action short: not a success.
    const outcome = dialogs.cut && learned.ok ? { ok: false as const, error: modelText.cutByDialog } : learned;
    return { type: 'acted', at: Date.now(), result: withNotes(outcome, notes), ms: Date.now() - started, landed };
  } finally {
    actionUnderway(tabs(), false);
  }
}

/** The input itself, the person's secrets filled in only now; `held`: a page dialog it is stuck behind. */
async function input(a: Active, tabId: number, eff: Act): Promise<{ result: ActResult; held: HeldDialog | null }> {
  // The person's secrets are filled in only now, as the text is typed (core/secrets/index.ts).
  const kept = a.state.vault?.kept ?? [];
  const filled = fillSecrets(eff.action, kept, a.state.vault?.typed);
  // a grammar that can quote the clipboard: what the page copies from now on is recorded
  if (dialectOf(a.state.dialect).observes.clipboard) await armClipboard(tabId);
  try {
    if (filled.missing.length) return { result: { ok: false, error: modelText.noSuchSecret(filled.missing, kept.map((s) => s.name)) }, held: null };
    // A watched value typed now is in the page from the first key: the tab holds every request to other sites first (watch.ts).
    if (filled.action.type === 'type') await placeValues(a, tabId, filled.action.text, await frameUrl(tabId, eff.mark?.frameId));
    // A page dialog a guard cares about stops the action where it is and waits for the person (dialogs.ts).
    const r = await inputOrDialog(tabId, inTime(tabId, inputDeadline(filled.action), actInput(tabId, filled.action, {
      mark: eff.mark, frameOffsets: eff.frameOffsets, searchStartPage: a.state.searchStartPage, startUrl: a.state.startUrl, apps: a.state.apps ?? [],
      ask: (prompt) => askText(a, prompt), tabIds: [tabId, ...[...(a.state.tabStack ?? [])].reverse()],
      beforePress: (x, y, n) => pressCheck(a, tabId, eff, x, y, n),
    })));
    if (!('held' in r)) return { result: r.done, held: null };
    a.inputLeft = r.input.catch(() => undefined);
    return { result: { ok: true }, held: r.held };
  } catch (err) {
    // The page changed or closed under the action: tell the model. A tab the action closed
    // (a popup's "Close") sends the run back to its opener, when there is one.
    if (!(await chrome.tabs.get(tabId).catch(() => null))) {
      if (!a.state.tabStack?.length) throw new PageError('The run\'s tab was closed.');
      return { result: { ok: true as const }, held: null };
    }
    return { result: { ok: false as const, error: `The action could not be completed: ${messageOf(err)}` }, held: null };
  }
}

/**
 * An action's input, or a failed one once `ms` have passed (the page took none of it, or part:
 * core/deadline.ts inputDeadline); the tab is then counted as not answering (content.ts markLate).
 */
function inTime(tabId: number, ms: number, input: Promise<ActResult>): Promise<ActResult> {
  return within(input, ms).catch((err: unknown) => {
    if (err instanceof Late) {
      markLate(tabId);
      return { ok: false as const, error: modelText.inputTooLate(Math.round(ms / 1000)) };
    }
    throw err;
  });
}

/**
 * The element under the pointer, judged again just before a press: a page can swap what is there
 * as the pointer arrives ("Cancel" becomes "Place order" on pointerenter) or after a double
 * click's first press. A guard it trips now stops the press, unless it is the rule the person
 * approved for this action; the model is told what was there. An element that cannot be
 * inspected is pressed (the second line, at the request, still holds what it would send).
 */
async function pressCheck(a: Active, tabId: number, eff: Act, x: number, y: number, n: number): Promise<string | null> {
  const p = a.state.pending;
  const button = eff.action.type === 'click' ? eff.action.button : 'left';
  const at: Action = { type: 'click', target: { kind: 'point', x, y }, button, count: 1 };
  const reached = await reachedBy(tabId, at, null, eff.frameOffsets).catch(() => null);
  if (!reached) return null;
  const hit = guardHit(a.state, at, reached);
  if (!hit) return null;
  if (p?.guardRule === hit.id && p.decision?.decision === 'approved') return null;
  return modelText.pressChanged(p?.target?.text ?? eff.mark?.text ?? '', reached[0]?.target?.text ?? '', hit.id, n);
}

/** The URL of the frame a label is in (null: the top page, or a frame that does not answer). */
async function frameUrl(tabId: number, frameId: number | undefined): Promise<string | null> {
  if (!frameId) return null;
  return (await sendContent(tabId, 'content/ping', {}, frameId).catch(() => null))?.url ?? null;
}

/** An action's outcome with more for the model to read (file choosers). */
function withNotes(r: ActResult, notes: string[]): ActResult {
  if (!notes.length) return r;
  const more = notes.join(' ');
  if (r.ok) return { ok: true, note: r.note ? `${r.note} ${more}` : more };
  return { ok: false, error: `${r.error} ${more}` };
}
