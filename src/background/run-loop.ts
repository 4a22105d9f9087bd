/**
 * The run driver: asks the pure state machine (core/run.ts) what to do next,
 * does it through the adapters, feeds the result back, and saves and
 * broadcasts every transition. The run lives here, in the service worker:
 * closing the side panel does not stop it.
 */
import { createRun, effectOf, reduce, type Effect, type RunEvent, type RunState } from '../core/run';
import { toRunView, type StartRun } from '../core/messages';
import { checkSettings, normalizeSettings, type Settings } from '../core/settings';
import { isDialect } from '../core/dialects';
import { act } from './act';
import * as cdp from './cdp';
import { PageError } from './content';
import { resetTab } from './label';
import { askModel } from './model';
import { observe } from './observe';
import { latestRun, loadRun, saveRun } from './run-store';
import { loadSettings } from './settings-store';

interface Active { state: RunState; settings: Settings; abort: AbortController }
const active = new Map<string, Active>();
/** Keys a run was started with (runner flags may differ from the stored one), kept in memory only, to scrub exports. */
const runKeys = new Map<string, string>();

export function secretsOf(runId: string): string[] {
  const k = runKeys.get(runId);
  return k ? [k] : [];
}

export function broadcast(state: RunState): void {
  chrome.runtime.sendMessage({ event: 'run/update', run: toRunView(state) }).catch(() => undefined);
}

async function commit(a: Active, ev: RunEvent): Promise<void> {
  a.state = reduce(a.state, ev);
  await saveRun(a.state);
  broadcast(a.state);
}

export async function startRun(req: StartRun): Promise<string> {
  const task = req.task?.trim();
  if (!task) throw new Error('Type a task first.');
  const settings = normalizeSettings({ ...(await loadSettings()), ...(req.config ?? {}) });
  const problems = Object.values(checkSettings(settings));
  if (problems.length) throw new Error(problems.join(' '));
  if (!isDialect(settings.dialect)) throw new Error(`Unknown dialect "${settings.dialect}".`);
  for (const a of active.values()) {
    if (a.state.tabId === req.tabId) throw new Error('A run is already going on in this tab; stop it first.');
  }
  let tab: chrome.tabs.Tab | undefined;
  if (req.tabId !== undefined) {
    tab = await chrome.tabs.get(req.tabId);
    if (req.url) tab = await chrome.tabs.update(req.tabId, { url: req.url });
  } else if (req.url) {
    tab = await chrome.tabs.create({ url: req.url, active: true });
  } else {
    throw new Error('No tab to work in: give a start URL or open a page first.');
  }
  if (tab?.id === undefined) throw new Error('The tab is gone.');
  const startUrl = req.url ?? tab.pendingUrl ?? tab.url ?? '';
  if (!/^https?:/i.test(startUrl)) throw new Error(`The agent works on web pages (http/https); this tab shows ${startUrl || 'nothing'}.`);
  const state = createRun({
    id: crypto.randomUUID(), task, startUrl, tabId: tab.id, dialect: settings.dialect,
    model: settings.model, baseUrl: settings.baseUrl, maxSteps: settings.maxSteps, at: Date.now(),
  });
  await saveRun(state);
  broadcast(state);
  if (settings.apiKey) runKeys.set(state.id, settings.apiKey);
  void drive({ state, settings, abort: new AbortController() });
  return state.id;
}

export async function stopRun(runId: string | undefined, reason = 'Stopped by the user.'): Promise<boolean> {
  const a = runId ? active.get(runId) : [...active.values()][0];
  if (!a) return false;
  a.abort.abort();
  await commit(a, { type: 'stop', at: Date.now(), reason });
  return true;
}

export async function currentRun(runId?: string): Promise<RunState | undefined> {
  if (runId) return active.get(runId)?.state ?? (await loadRun(runId));
  const live = [...active.values()][0];
  return live?.state ?? (await latestRun());
}

async function perform(a: Active, eff: Effect): Promise<RunEvent> {
  const tabId = a.state.tabId;
  switch (eff.kind) {
    case 'observe': {
      const started = Date.now();
      const obs = await observe(tabId);
      return { type: 'observed', at: Date.now(), obs, ms: Date.now() - started };
    }
    case 'ask': {
      const r = await askModel(a.settings, eff.messages, a.abort.signal);
      if (!r.ok) return { type: r.aborted ? 'stop' : 'fail', at: Date.now(), reason: r.error };
      return { type: 'replied', at: Date.now(), raw: r.content, reasoning: r.reasoning, usage: r.usage, ms: r.ms };
    }
    case 'act': {
      const started = Date.now();
      let result;
      try {
        result = await act(tabId, eff.action, eff.mark, eff.frameOffsets, { searchStartPage: a.settings.searchStartPage });
      } catch (err) {
        // The page changed or closed under the action: tell the model, unless the tab is gone.
        if (!(await chrome.tabs.get(tabId).catch(() => null))) throw new PageError('The run\'s tab was closed.');
        result = { ok: false as const, error: `The action could not be completed: ${messageOf(err)}` };
      }
      return { type: 'acted', at: Date.now(), result, ms: Date.now() - started };
    }
    case 'none':
      return { type: 'stop', at: Date.now(), reason: 'Nothing left to do.' };
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function drive(a: Active): Promise<void> {
  active.set(a.state.id, a);
  const tabId = a.state.tabId;
  try {
    await cdp.attach(tabId);
    while (a.state.status === 'running' && !a.abort.signal.aborted) {
      let ev: RunEvent;
      try {
        ev = await perform(a, effectOf(a.state));
      } catch (err) {
        const reason = err instanceof PageError ? err.message : `Unexpected error: ${messageOf(err)}`;
        ev = { type: err instanceof PageError ? 'stop' : 'fail', at: Date.now(), reason };
      }
      if (a.abort.signal.aborted) break;
      await commit(a, ev);
    }
  } catch (err) {
    await commit(a, { type: 'fail', at: Date.now(), reason: `Could not control the tab: ${messageOf(err)}` });
  } finally {
    active.delete(a.state.id);
    await resetTab(tabId);
    await cdp.detach(tabId);
  }
}

/** The run's tab went away or the user cancelled debugging: stop with that reason. */
export function stopRunsInTab(tabId: number, reason: string): void {
  for (const a of active.values()) if (a.state.tabId === tabId) void stopRun(a.state.id, reason);
}

/**
 * A worker that Chrome stopped comes back without its runs in memory. Pick the
 * latest run up where it was when that is safe (observing or asking the model);
 * stop it when an action may have been half done, so nothing runs twice.
 */
export async function resumeAfterRestart(): Promise<void> {
  const last = await latestRun();
  if (!last || last.status !== 'running' || active.has(last.id)) return;
  const settings = normalizeSettings({ ...(await loadSettings()), baseUrl: last.baseUrl, model: last.model, dialect: last.dialect, maxSteps: last.maxSteps });
  const a: Active = { state: last, settings, abort: new AbortController() };
  if (last.phase === 'act') {
    await commit(a, { type: 'stop', at: Date.now(), reason: 'The browser stopped the extension while an action was running; the run was stopped so that the action is not repeated.' });
    return;
  }
  void drive(a);
}
