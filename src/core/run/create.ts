/** A new run's state, and a run saved by an older version brought up to date. Pure. */
import { normalizeGuards, DEFAULT_GUARDS } from '../guards';
import { dialectOf } from '../dialects/registry';
import { oldOptionFields, optionValues } from '../dialects/options';
import { hideRun } from './secrets';
import { usableSecrets } from '../secrets';
import { DEFAULT_SEARCH, siteOf, type NewRun, type RunState } from './state';

export function createRun(n: NewRun): RunState {
  const kept = usableSecrets(n.secrets ?? []);
  const vault = kept.length ? { typed: [], kept } : undefined;
  return {
    id: n.id, task: hideRun({ vault }, n.task), startUrl: n.startUrl, site: siteOf(n.startUrl), tabId: n.tabId,
    dialect: n.dialect, model: n.model, baseUrl: n.baseUrl, maxSteps: n.maxSteps,
    startedAt: n.at, endedAt: null, status: 'running', phase: 'observe', answer: null, stopReason: null,
    memory: n.memory ?? dialectOf(n.dialect).emptyMemory(), steps: [], pending: null, formatErrorsInARow: 0,
    approveSteps: n.approveSteps ?? false, guards: n.guards ?? DEFAULT_GUARDS, searchStartPage: n.searchStartPage ?? DEFAULT_SEARCH, paused: null,
    ...(n.apps?.length ? { apps: n.apps } : {}),
    ...(n.replay ? { replay: n.replay } : {}),
    ...(n.limits ? { limits: n.limits } : {}),
    ...(n.files?.length ? { files: n.files } : {}),
    ...(n.locale && n.locale !== 'en' ? { locale: n.locale } : {}),
    ...(vault ? { vault } : {}),
    ...(dialectOf(n.dialect).options?.length ? { dialectOptions: optionValues(dialectOf(n.dialect), n.dialectOptions) } : {}),
    ...(n.explore && dialectOf(n.dialect).observes.docs ? { explore: true } : {}),
    ...(n.answerSchema ? { answerSchema: n.answerSchema } : {}),
    ...(n.allowedSites === 'any' ? { anySite: true } : n.allowedSites?.length ? { sitesAllowed: n.allowedSites } : {}),
  };
}

/** A run saved by an older version, with the fields added since filled in. */
export function upgradeRun(saved: RunState): RunState {
  // a run saved before bbox and device were its dialect's options (options.ts oldOptionFields)
  const { bbox: _bbox, device: _device, ...s } = saved as RunState & { bbox?: unknown; device?: unknown };
  const d = dialectOf(s.dialect);
  if (d.options?.length) s.dialectOptions = optionValues(d, { ...oldOptionFields(d, saved as unknown as Record<string, unknown>), ...s.dialectOptions });
  return {
    ...s,
    approveSteps: s.approveSteps ?? false,
    guards: normalizeGuards(s.guards),
    searchStartPage: s.searchStartPage ?? DEFAULT_SEARCH,
    paused: s.paused ?? null,
  };
}
