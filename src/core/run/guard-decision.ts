/**
 * Where a guard is decided, for a proposed action (pure): which guard settings are in force (an
 * exploring run never pays, deletes or sends, whatever the settings say), which guard trips (the
 * rules on every element the input reaches, and the secrets guard), and what the trip leads to:
 * refused without asking (exploring), the person asked, or on without asking.
 *
 * The background finds what the input would reach (background/gate.ts) and calls guardHit;
 * on-check.ts ('checked') calls checkDecision with the hit.
 */
import { guardCheckReached, type GuardHit, type GuardId, type GuardSettings, type Reached } from '../guards';
import { injectionPlace, type InjectionHit } from '../injection';
import { linkEffect } from '../guards/link-effect';
import { allowedAsApps } from '../allowed-sites';
import { translatorFor } from '../locales';
import { placeholdersIn, secretGuard } from '../secrets';
import type { Action } from '../action/action';
import type { PendingStep, RunState } from './state';

/** What an exploring run never does, whatever the guard settings: these rules are on and never allowed on a site. */
export const NEVER_WHILE_EXPLORING: GuardId[] = ['payment', 'delete', 'send'];

/** The guard settings in force for the run: its own, or while exploring with the rules above on and nothing allowed. */
export function guardsInForce(state: Pick<RunState, 'explore' | 'guards' | 'anySite'>): GuardSettings {
  if (!state.explore) return withRunSites(state, state.guards);
  return withRunSites(state, { ...state.guards, rules: state.guards.rules.map((r) => (NEVER_WHILE_EXPLORING.includes(r.id) ? { ...r, on: true } : r)), allow: {} });
}

/** `guards` for a run that may act anywhere (core/allowed-sites.ts): the leave-site rule does not ask in it. */
export function withRunSites(state: Pick<RunState, 'anySite'>, guards: GuardSettings): GuardSettings {
  return state.anySite ? { ...guards, rules: guards.rules.map((r) => (r.id === 'leave-site' ? { ...r, on: false } : r)) } : guards;
}

/** The sites the leave-site guard counts as the task's own besides its start site: the person's apps and the allowed sites. */
export function guardApps(state: Pick<RunState, 'apps' | 'sitesAllowed' | 'sitesGranted'>): Array<{ name: string; url: string }> {
  return [...(state.apps ?? []), ...allowedAsApps(state)];
}

/** The guard an action trips, given every element its input would reach (null: none). */
export function guardHit(state: RunState, action: Action, reached: Reached[]): GuardHit | null {
  const t = translatorFor(state.locale);
  const byRules = () => guardCheckReached(action, reached, { site: state.site, searchStartPage: state.searchStartPage, apps: guardApps(state), t }, guardsInForce(state));
  const bySecrets = () => secretGuard(action, state.site, state.guards, t, state.vault?.typed);
  // where a pressed link goes, judged as the request following it would be (guards/link-effect.ts)
  const byLink = () => linkEffect(reached, { site: state.site, guards: guardsInForce(state), t });
  // A placeholder's reason names the secret; otherwise the rules' own reason comes first (a
  // password field says so, rather than "a password typed before": this action put it there).
  return placeholdersIn(action).length ? bySecrets() ?? byRules() ?? byLink() : byRules() ?? byLink() ?? bySecrets();
}

/** What a checked action leads to. */
export type CheckDecision =
  /** exploring never pays, deletes or sends: refused without asking (the model is told why) */
  | { kind: 'refused'; rule: GuardId }
  /** on without asking */
  | { kind: 'auto' }
  /** the run waits for the person; `rule`: the guard that tripped (null: step approval, the page's words, a sensitive action) */
  | { kind: 'ask'; rule: GuardId | null; reason: string | null };

/** Whether the person is asked about the pending action, given the guard it tripped (guardHit). */
export function checkDecision(state: RunState, p: PendingStep, hit: GuardHit | null): CheckDecision {
  if (state.explore && hit && NEVER_WHILE_EXPLORING.includes(hit.id)) return { kind: 'refused', rule: hit.id };
  const injected = p.injection?.length ? injectionReason(state, p.injection) : null;
  // the model marked the action sensitive (CogAgent) or asks for help (UI-TARS's call_user): the person is asked, whatever the guard lists say
  const sensitive = p.reply?.sensitive ? translatorFor(state.locale)(p.reply.asksPerson ? 'whyModelAsks' : 'whySensitive', p.reply.thought) : null;
  if (!hit && !injected && !sensitive && !state.approveSteps) return { kind: 'auto' };
  // a guard's reason and the page's words aimed at the agent, both: the person weighs the one knowing the other
  const reason = [hit?.reason, injected].filter((x): x is string => !!x).join('; ') || sensitive;
  return { kind: 'ask', rule: hit?.id ?? null, reason };
}

/** Why the run asks: the page's text aimed at the agent, where it was, in the person's language. */
export function injectionReason(state: RunState, hits: InjectionHit[]): string {
  const t = translatorFor(state.locale);
  const h = hits[0];
  const where = injectionPlace(h.where, t);
  return t(hits.length > 1 ? 'injReasonMore' : 'injReason', where, h.phrase, hits.length - 1);
}
