/**
 * The drive loop: asks the pure state machine (core/run) what to do next, does it through the
 * executors (perform.ts), feeds the result back, and saves and broadcasts every transition. The
 * run lives here, in the service worker: closing the side panel does not stop it.
 */
import { DEFAULT_SETTINGS } from '../../core/settings';
import { effectOf, type Effect, type RunEvent } from '../../core/run';
import { runDevice } from '../../core/dialects/device';
import { emulatePhone, restoreDevice } from '../act/device';
import * as cdp from '../cdp';
import { unblockAtStart } from '../dialogs';
import { PageError } from '../content';
import { dropDownloads, undoDownloads } from '../downloads';
import { dropRunFiles } from '../file-store';
import { resetTab } from '../label';
import { canGoBack, syncTabs } from '../tabs';
import { endWatch, forgetWatched, watchTab } from '../watch';
import { active, type Active } from './active';
import { advance, commit, messageOf, reasonText, startKeeping } from './commit';
import { perform } from './perform';

export const ALARM = 'webagent-resume';
const KEEPALIVE_MS = 20_000;

/** DevTools errors that say the page's document or frame went away under the call (it reloaded or navigated). */
const PAGE_GONE = /Not attached to an active page|Cannot find context with specified id|Execution context was destroyed|Inspected target navigated or closed|No frame with given id|Frame with the given id was not found|Cannot find default execution context/i;
/** observations retried in a row when the page went away under them */
const GONE_RETRIES = 5;

/**
 * Resolves when the person acts on the run (control, stop), or at once when they did since the
 * last wait: a control that lands while the loop is between two waits (after it saw nothing to do,
 * before it waits again) is not lost.
 */
function changed(a: Active): Promise<void> {
  if (a.woken) {
    a.woken = false;
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    a.wake = () => {
      a.wake = () => { a.woken = true; };
      resolve();
    };
  });
}

/** The effects that run while the observed step's history images are still being made (commit.ts startKeeping). */
const BESIDE_KEEPING = new Set<Effect['kind']>(['ask', 'check', 'act', 'after']);

export async function drive(a: Active): Promise<void> {
  active.set(a.state.id, a);
  // A run picked up after a restart whose tab closed meanwhile goes back to its opener first.
  if (await canGoBack(a.state)) await syncTabs(a, (ev) => commit(a, ev)).catch(() => undefined);
  const tabId = a.state.tabId;
  // Extension API calls keep the worker alive during long model replies and approvals; the alarm
  // wakes a worker Chrome stopped anyway, so the run resumes (resume.ts).
  const keepAlive = setInterval(() => { void chrome.runtime.getPlatformInfo().catch(() => undefined); }, KEEPALIVE_MS);
  void chrome.alarms.create(ALARM, { periodInMinutes: 0.5 });
  const phone = runDevice(a.state) === 'phone';
  // The run's time limit (Settings, --max-minutes), from its start, whatever it is doing then (a
  // restarted worker sets it again from the run's start): stopped as the Stop button stops it.
  const minutes = a.settings.maxMinutes ?? DEFAULT_SETTINGS.maxMinutes;
  const timeLimit = setTimeout(() => {
    if (a.state.status !== 'running') return;
    void commit(a, { type: 'stop', at: Date.now(), reason: reasonText(a.state, { key: 'stopTimeLimit', args: [minutes] }) }).then(() => { a.request?.abort(); a.wake(); });
  }, Math.max(0, a.state.startedAt + minutes * 60_000 - Date.now()));
  try {
    await cdp.attach(tabId);
    // a page held by a dialog it opened before the run attached is loaded again (dialogs.ts)
    if (!a.state.steps.length && !a.state.pending) await unblockAtStart(tabId);
    // A phone dialect's tab is a phone for the run only (restored below).
    if (phone) {
      await emulatePhone(tabId);
      // The page was loaded as a desktop page: load it again so the site sees the phone (its
      // user agent and width) from the first step. A restarted worker finds the tab already a phone.
      if (!a.state.steps.length && !a.state.pending) await cdp.send(tabId, 'Page.reload', {}).catch(() => undefined);
    }
    // File choosers, the page's dialogs and its requests are watched for the run (watch.ts).
    await watchTab(tabId, a);
    let goneInARow = 0;
    while (a.state.status === 'running') {
      await syncTabs(a, (ev) => commit(a, ev));
      if (a.state.status !== 'running') break;
      const eff = effectOf(a.state);
      // The observed step's history images are made while the model thinks and while its action
      // runs; any other effect (a replay, a pause, a wait for the person) waits for them first (the
      // commit that records the step waits for them in any case: commit.ts).
      if (!BESIDE_KEEPING.has(eff.kind)) await startKeeping(a);
      if (eff.kind === 'wait') {
        await changed(a);
        continue;
      }
      let ev: RunEvent | null;
      try {
        ev = await perform(a, eff);
      } catch (err) {
        // The page reloaded or navigated under a DevTools call (its document or frame is gone): an
        // observation is taken again (a page that never holds still is stopped by observeSteady, or
        // here after a few tries); an action under way is not run again: the run stops and says why.
        const gone = !(err instanceof PageError) && PAGE_GONE.test(messageOf(err));
        goneInARow = gone ? goneInARow + 1 : 0;
        if (gone && eff.kind === 'observe' && goneInARow < GONE_RETRIES) continue;
        const reason = err instanceof PageError ? (err.person ? reasonText(a.state, err.person) : err.message)
          : gone ? reasonText(a.state, { key: 'stopPageGone' }) : `Unexpected error: ${messageOf(err)}`;
        ev = { type: err instanceof PageError || gone ? 'stop' : 'fail', at: Date.now(), reason };
        // The run's tab closed under the step: back to its opener at the top of the loop.
        if (await canGoBack(a.state)) ev = null;
      }
      if (ev) goneInARow = 0;
      // The observed step goes to the model at once; it is stored with its images ('kept', commit.ts startKeeping).
      if (ev?.type === 'observed') advance(a, ev);
      else if (ev) await commit(a, ev);
    }
  } catch (err) {
    await commit(a, { type: 'fail', at: Date.now(), reason: `Could not control the tab: ${messageOf(err)}`, cause: 'tab' });
  } finally {
    clearInterval(keepAlive);
    clearTimeout(timeLimit);
    // The last step's history images in flight are stored before the run lets go of its tabs.
    await a.keeping?.catch(() => undefined);
    active.delete(a.state.id);
    if (!active.size) void chrome.alarms.clear(ALARM);
    await dropRunFiles(a.state.id).catch(() => undefined);
    await forgetWatched(a.state.id);
    // Downloads nobody said yes to (the run stopped while asking, or before it could ask) are undone.
    await undoDownloads(a.held ?? []).catch(() => undefined);
    await dropDownloads([...new Set([tabId, a.state.tabId, ...a.tabs])]).catch(() => undefined);
    for (const t of new Set([tabId, a.state.tabId, ...a.tabs])) {
      if (!(await chrome.tabs.get(t).catch(() => null))) continue;
      // a tab still holding a value the run typed stays watched (watch.ts endWatch)
      await endWatch(t, a);
      await resetTab(t);
      if (phone) await restoreDevice(t).catch(() => undefined);
      await cdp.detach(t);
    }
  }
}
