/**
 * Resume: a worker that Chrome stopped comes back without its runs in memory. The latest run is
 * picked up where the database says it was: observing or asking the model (asked again), waiting
 * for the person (waits again), paused, or acting (the input is not repeated: see act.ts).
 */
import { upgradeRun } from '../../core/run';
import { normalizeSettings } from '../../core/settings';
import { dropRunFiles } from '../file-store';
import { latestRunHead, loadRun, loadRunConfig } from '../run-store';
import { loadSettings } from '../settings-store';
import { active, holdKeys, newActive, queue } from './active';
import { commit, reasonText } from './commit';
import { drive } from './driver';
import { restoreWatched } from '../watch';
import { updatedFrom } from '../stores';

async function resumeLatest(): Promise<void> {
  // the first start of a new version learns the version before it here, before any run is looked at
  await updatedFrom();
  // Called on every resume alarm (each 30 s of a run): look at the run's record before its steps.
  const head = await latestRunHead();
  if (!head || head.status !== 'running' || active.has(head.id)) return;
  const saved = await loadRun(head.id);
  if (!saved) return;
  const last = upgradeRun(saved);
  const config = await loadRunConfig(last.id);
  const settings = normalizeSettings({
    ...(await loadSettings()), baseUrl: last.baseUrl, model: last.model, dialect: last.dialect, maxSteps: last.maxSteps, ...config,
  });
  holdKeys(last.id, { apiKey: settings.apiKey });
  const a = newActive(last, settings);
  // the card numbers it typed and where the values in its pages may go (watch.ts)
  await restoreWatched(a);
  if (!config) {
    // Tab ids start over after a browser restart: never carry on in whatever tab has the old id.
    // After an update the run's memory-only state (its endpoint settings, typed passwords, the
    // values it watches) is gone with the old version: it cannot go on safely either.
    const from = await updatedFrom();
    const reason = from ? { key: 'updatedStopped', args: [from, chrome.runtime.getManifest().version] } : { key: 'restarted' };
    await commit(a, { type: 'stop', at: Date.now(), reason: reasonText(a.state, reason) });
    await dropRunFiles(last.id).catch(() => undefined);
    return;
  }
  // A closed tab with an opener still open: the run goes back there (drive).
  const tab = await chrome.tabs.get(last.tabId).catch(() => null);
  if (!tab && !last.tabStack?.length) {
    await commit(a, { type: 'stop', at: Date.now(), reason: reasonText(a.state, { key: 'tabClosed' }) });
    await dropRunFiles(last.id).catch(() => undefined);
    return;
  }
  void drive(a);
}

/** Called when the worker starts and on the resume alarm (driver.ts ALARM); commands wait for it. */
export function resumeAfterRestart(): Promise<void> {
  return queue(resumeLatest);
}
