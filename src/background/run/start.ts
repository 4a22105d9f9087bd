/** Start and replay: a new run from the person's task (or a recorded run), in a tab, driven from here on. */
import { continueRun as continueWith, createRun, turnsOf, MAX_FOLLOW_UP_CHARS, MAX_TURNS, whyNoFollowUp, type RunState } from '../../core/run';
import { usableSecrets } from '../../core/secrets';
import type { ContinueRun, StartRun } from '../../core/messages';
import { checkSettings, normalizeSettings, parseApps, type Settings } from '../../core/settings';
import { isDialect } from '../../core/dialects/registry';
import type { FileMeta } from '../../core/files';
import { replayPlan, type ReplayPlan } from '../../core/trace/replay';
import { whyNotAllowed } from '../../core/pages';
import { checkSchema } from '../../core/answer-schema';
import { readAllowedSites, type AllowedSites } from '../../core/allowed-sites';
import { demoState } from '../demo';
import { claimStaged } from '../file-store';
import { personLocale, personT } from '../person';
import { loadRun, loadRunConfig, saveRun, saveRunConfig } from '../run-store';
import { loadSettings } from '../settings-store';
import { active, holdKeys, newActive, whenReady } from './active';
import { broadcast } from './commit';
import { drive } from './driver';

/** Where the run is and what it was given, besides the settings. */
interface Origin { id: string; task: string; files: FileMeta[]; startUrl: string; tabId: number; replay?: ReplayPlan; explore?: boolean; answerSchema?: Record<string, unknown>; allowedSites?: AllowedSites }

/**
 * A new run's state from the settings it starts with: the one place where settings (the dialect's
 * among them: apps, dialectOptions) flow into the run state.
 */
export function runStateOf(o: Origin, settings: Settings): RunState {
  return createRun({
    id: o.id, task: o.task, files: o.files, startUrl: o.startUrl, tabId: o.tabId, dialect: settings.dialect,
    model: settings.model, baseUrl: settings.baseUrl, maxSteps: settings.maxSteps, at: Date.now(),
    approveSteps: settings.approveSteps, guards: settings.guards, searchStartPage: settings.searchStartPage, replay: o.replay,
    apps: parseApps(settings.apps),
    limits: { maxTokens: settings.maxRunTokens, maxCost: settings.maxRunCost, price: settings.prices[settings.model] ?? null, currency: settings.currency },
    locale: personLocale(settings), secrets: settings.secrets,
    dialectOptions: settings.dialectOptions[settings.dialect],
    ...(o.explore && !o.replay ? { explore: true } : {}),
    ...(o.answerSchema && !o.replay ? { answerSchema: o.answerSchema } : {}),
    ...(o.allowedSites ? { allowedSites: o.allowedSites } : {}),
  });
}

/**
 * Replays a recorded run (local or imported) in a new tab at its start URL: the recorded actions
 * stand in for the model (core/trace/replay.ts); by default every step waits for approval.
 */
export async function startReplay(runId: string, approveSteps = true): Promise<string> {
  const rec = await loadRun(runId);
  if (!rec) throw new Error(personT(await loadSettings())('noRunWithId', runId));
  // a run of a dialect this version does not have: its actions cannot be read as another's
  if (!isDialect(rec.dialect)) throw new Error(personT(await loadSettings())('noReplayUnknownDialect', String(rec.dialect).slice(0, 60)));
  const dialect = rec.dialect;
  const plan = replayPlan(rec.id, rec.steps, dialect);
  if (!plan.steps.length) throw new Error(personT(await loadSettings())('noReplayActions'));
  // The recorded run's dialect and options: the same observation (labels or not, phone or desktop) and grammar.
  return startRun({
    // a run with follow-ups is replayed whole: its tasks in turn
    task: `Replay: ${turnsOf(rec).map((x) => x.task).join(' → ')}`, url: rec.startUrl,
    config: { approveSteps, dialect, model: 'replay', maxSteps: Math.min(200, plan.steps.length + 5), ...(rec.dialectOptions ? { dialectOptions: { [dialect]: rec.dialectOptions } } : {}) },
  }, plan);
}

/**
 * A follow-up (core/run/follow-up.ts): the ended run goes on with the person's next task, in its own
 * tab while that is open (else the panel's tab, else a new one at `url`), with the endpoint it was
 * started with (the runner's flags win) and the person's secrets as they are now.
 */
export async function continueRun(req: ContinueRun): Promise<string> {
  await whenReady();
  const stored = await loadSettings();
  const saved = await loadRun(String(req.runId));
  if (!saved) throw new Error(personT(stored)('noRunWithId', String(req.runId)));
  const config = { ...((await loadRunConfig(saved.id)) ?? {}), ...(req.config ?? {}) };
  const settings = normalizeSettings({ ...stored, baseUrl: saved.baseUrl, model: saved.model, ...config, dialect: saved.dialect });
  const t = personT(settings);
  const task = String(req.task ?? '');
  const why = active.has(saved.id) ? 'followUpRunning' : whyNoFollowUp(saved, task);
  if (why === 'followUpLong') throw new Error(t(why, MAX_FOLLOW_UP_CHARS));
  if (why === 'followUpTurns') throw new Error(t(why, MAX_TURNS));
  if (why) throw new Error(t(why));
  if (!isDialect(saved.dialect)) throw new Error(t('setDialect', saved.dialect));
  const problems = Object.values(checkSettings(settings, t));
  if (problems.length) throw new Error(problems.join(' '));
  const own = saved.tabId >= 0 ? await chrome.tabs.get(saved.tabId).catch(() => null) : null;
  let tab: chrome.tabs.Tab | null = own;
  if (!tab && req.tabId !== undefined) tab = await chrome.tabs.get(req.tabId).catch(() => null);
  if (!tab && req.url) tab = await chrome.tabs.create({ url: req.url, active: true });
  if (tab?.id === undefined) throw new Error(t('followUpNoTab'));
  for (const a of active.values()) {
    if (a.state.tabId === tab.id) throw new Error(t('runInTab'));
  }
  const here = tab.pendingUrl ?? tab.url ?? req.url ?? '';
  const refused = whyNotAllowed(here);
  if (refused) throw new Error(t('webPagesOnly', refused));
  const kept = usableSecrets(settings.secrets);
  const vault = kept.length || saved.vault?.typed.length ? { typed: saved.vault?.typed ?? [], kept } : undefined;
  const state = continueWith({ ...saved, vault, model: settings.model, baseUrl: settings.baseUrl, approveSteps: settings.approveSteps }, {
    task, at: Date.now(), tabId: tab.id, maxSteps: settings.maxSteps,
  });
  await saveRunConfig(state.id, config);
  await saveRun(state);
  broadcast(state);
  holdKeys(state.id, settings);
  void drive(newActive(state, settings));
  return state.id;
}

export async function startRun(req: StartRun, replay?: ReplayPlan): Promise<string> {
  await whenReady();
  const task = req.task?.trim();
  const settings = normalizeSettings({ ...(await loadSettings()), ...(req.config ?? {}) });
  const t = personT(settings);
  if (!task) throw new Error(t('typeTaskFirst'));
  const problems = Object.values(checkSettings(settings, t));
  if (problems.length) throw new Error(problems.join(' '));
  if (!isDialect(settings.dialect)) throw new Error(t('setDialect', settings.dialect));
  const schema = req.answerSchema === undefined || req.answerSchema === null ? null : checkSchema(req.answerSchema);
  if (schema && !schema.ok) throw new Error(t('answerSchemaBad', schema.problem));
  const sites = readAllowedSites(req.allowedSites);
  if (!sites.ok) throw new Error(t('allowedSitesBad', sites.problem));
  for (const a of active.values()) {
    if (a.state.tabId === req.tabId) throw new Error(t('runInTab'));
  }
  // a demonstration being recorded in the tab is the person's own actions: a run would mix in
  if (req.tabId !== undefined && demoState(req.tabId).recording) throw new Error(t('demoRecordingInTab'));
  let tab: chrome.tabs.Tab | undefined;
  if (req.tabId !== undefined) {
    tab = await chrome.tabs.get(req.tabId);
    if (req.url) tab = await chrome.tabs.update(req.tabId, { url: req.url });
  } else if (req.url) {
    tab = await chrome.tabs.create({ url: req.url, active: true });
  } else {
    throw new Error(t('noTab'));
  }
  if (tab?.id === undefined) throw new Error(t('tabGone'));
  const startUrl = req.url ?? tab.pendingUrl ?? tab.url ?? '';
  const why = whyNotAllowed(startUrl);
  if (why) throw new Error(t('webPagesOnly', why));
  const id = crypto.randomUUID();
  // The files attached in the panel (or by the runner) are this run's from now on.
  const files = await claimStaged(id);
  const state = runStateOf({ id, task, files, startUrl, tabId: tab.id, replay, explore: req.explore, ...(schema?.ok ? { answerSchema: schema.schema } : {}), ...(sites.value ? { allowedSites: sites.value } : {}) }, settings);
  await saveRunConfig(state.id, req.config ?? {});
  await saveRun(state);
  broadcast(state);
  holdKeys(state.id, settings);
  void drive(newActive(state, settings));
  return state.id;
}
