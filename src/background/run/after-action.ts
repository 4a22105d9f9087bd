/**
 * The 'after' effect: keeps what an action did (downloads resumed, held requests sent, the page's
 * dialog answered OK, a file chooser given the attached files) or undoes it (downloads cancelled and erased, requests blocked, the tab back
 * when it is still on the other site), as the person decided -> 'resolved'.
 */
import { guardApps, modelText, type AfterAction, type Effect, type RunEvent } from '../../core/run';
import { dialogNote } from '../../core/guards/page-dialog';
import { awayHost } from '../../core/site';
import { answerOffer } from '../act/files';
import { answerDialog } from '../dialogs';
import { keepDownloads, undoDownloads } from '../downloads';
import { blockHeld, releaseHeld, settledOrHeld } from '../hold';
import { letGo } from '../watch';
import { settle } from '../settle';
import { syncTabs } from '../tabs';
import type { Active } from './active';
import { commit, pause, tabUrl } from './commit';

const BACK_SETTLE_MS = 8_000;
/** How long an action's input may take to end once the dialog it was stuck behind is answered. */
const INPUT_AFTER_DIALOG_MS = 10_000;

export async function afterStep(a: Active, eff: Extract<Effect, { kind: 'after' }>): Promise<RunEvent> {
  const outcome = await resolveAfter(a, eff.after, eff.before);
  a.held = [];
  return { type: 'resolved', at: Date.now(), outcome };
}

/** What happened, for the model. */
async function resolveAfter(a: Active, after: AfterAction, before: string): Promise<string> {
  const keep = after.decision !== 'rejected';
  const said: string[] = [];
  // Only the person's yes sends a held request or answers OK; a take-over blocks the requests and
  // leaves the dialog to the person, who now has the page.
  const yes = after.decision === 'approved';
  if (after.dialog && after.decision !== 'takeover') {
    // OK or Cancel, as the person said; then the action's input ends and the page settles.
    await answerDialog(a.state.tabId, yes);
    await Promise.race([a.inputLeft, pause(INPUT_AFTER_DIALOG_MS)]);
    a.inputLeft = undefined;
    await settle(a.state.tabId, BACK_SETTLE_MS);
    said.push(dialogNote(after.dialog, yes, 'user'));
  }
  if (after.chooser) {
    // the attached files go to the field only on a yes (or with nobody to ask: the rule is off)
    const give = yes || after.decision === 'auto';
    said.push(await answerOffer(a.state.tabId, give));
    // the page reads them now; what it sends on is held like any watched value's request (asked with the next action)
    if (give) await settledOrHeld([a.state.tabId], settle(a.state.tabId, BACK_SETTLE_MS));
  }
  if (after.requests?.length) {
    if (yes) {
      // what the person saw named the destination: the values in the page may go there from now on
      for (const dest of new Set(after.requests.flatMap((r) => (r.away ? [r.away] : [])))) await letGo(a, [...a.tabs], dest);
      await releaseHeld(after.requests);
    } else await blockHeld(after.requests);
    const what = (list: typeof after.requests) => (list ?? []).map((r) => r.what);
    const away = after.requests.filter((r) => r.away);
    const effects = after.requests.filter((r) => !r.away && r.effect);
    const carried = after.requests.filter((r) => !r.away && !r.effect);
    if (carried.length) said.push(yes ? modelText.requestsSent(what(carried)) : modelText.requestsBlocked(what(carried)));
    if (effects.length) said.push(yes ? modelText.effectSent(what(effects)) : modelText.effectBlocked(what(effects)));
    if (away.length) said.push(yes ? modelText.awaySent(what(away)) : modelText.awayBlocked(what(away)));
  }
  if (after.downloads.length) {
    if (keep) await keepDownloads(after.downloads);
    else await undoDownloads(after.downloads);
    said.push(keep ? modelText.downloadKept(after.downloads) : modelText.downloadUndone(after.downloads));
  }
  if (after.rule === 'leave-site') said.push(keep ? modelText.leftSiteKept(after.url) : await leaveSiteUndone(a, after.url, before));
  return said.join(' ');
}

/** The tab back from the other site (or closed, when the action opened it); what came of it. */
async function leaveSiteUndone(a: Active, url: string, before: string): Promise<string> {
  const tabId = a.state.tabId;
  // Not again after a restart that already went back.
  if (awayHost(before, await tabUrl(tabId), guardApps(a.state))) {
    await chrome.tabs.goBack(tabId).catch(() => undefined);
    await settle(tabId, BACK_SETTLE_MS);
  }
  const now = await tabUrl(tabId);
  // A tab this action opened has nowhere to go back to: it is closed, and the run goes back to its opener (syncTabs).
  const opened = !!a.state.tabStack?.length && (a.state.tabChanges ?? []).some((c) => c.change === 'opened');
  if (awayHost(before, now, guardApps(a.state)) && opened && (await chrome.tabs.remove(tabId).then(() => true, () => false))) {
    // This step records the way back too.
    await syncTabs(a, (ev) => commit(a, ev));
    return modelText.leftSiteClosed(url);
  }
  return awayHost(before, now, guardApps(a.state)) ? modelText.leftSiteStuck(url) : modelText.leftSiteUndone(url, now);
}
