/**
 * A change to the stored settings, said as what changes rather than as the whole settings, so the
 * background reads, merges and writes it in one place (background/settings-store.ts patchSettings,
 * the `settings/patch` message): a view never reads the settings to write them back.
 */
import { allowOnSite, type GuardId, type GuardRule } from './guards';
import { normalizeSettings, type EndpointProfile, type Settings } from './settings';

export interface SettingsPatch {
  /** fields stored as given, over the stored ones */
  set?: Partial<Settings>;
  /** the guard rules as given; the always-allowed sites stay as stored */
  guardRules?: GuardRule[];
  /** a rule always allowed on a site from now on (the approval card's "always allow") */
  allow?: { site: string; rule: GuardId };
  /** a rule no longer always allowed on a site (`host` as the settings key it) */
  disallow?: { host: string; rule: GuardId };
  /** an endpoint profile saved, or (null) deleted */
  profile?: { name: string; endpoint: EndpointProfile | null };
}

/** The stored settings with the patch applied (normalized, as stored). */
export function patched(stored: Settings, p: SettingsPatch): Settings {
  let next: Settings = { ...stored, ...(p.set ?? {}) };
  if (p.guardRules) next = { ...next, guards: { rules: p.guardRules, allow: stored.guards.allow } };
  if (p.allow) next = { ...next, guards: allowOnSite(next.guards, p.allow.site, p.allow.rule) };
  if (p.disallow) {
    const { host, rule } = p.disallow;
    const left = (next.guards.allow[host] ?? []).filter((x) => x !== rule);
    const allow = { ...next.guards.allow, [host]: left };
    if (!left.length) delete allow[host];
    next = { ...next, guards: { ...next.guards, allow } };
  }
  if (p.profile) {
    const profiles = { ...next.profiles };
    if (p.profile.endpoint) profiles[p.profile.name] = p.profile.endpoint;
    else delete profiles[p.profile.name];
    next = { ...next, profiles };
  }
  return normalizeSettings(next);
}

