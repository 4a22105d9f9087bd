/**
 * What watches a run's tab besides its own input (docs/guards.md): file choosers get the run's
 * attached files (act/files.ts), the page's dialogs are answered or held for the person
 * (dialogs.ts, core/page-dialog.ts), and requests that would carry a secret, a typed password or
 * a card number are held for the person (hold.ts, core/request-hold.ts). Every tab the run works
 * in is watched (its first tab, and each tab it follows: tabs.ts); unwatchTab undoes it all.
 */
import { hostKey, type GuardId } from '../core/guards';
import { dialogHit } from '../core/page-dialog';
import { watchPatterns, holdCheck, type Watched, type WatchPatterns } from '../core/request-hold';
import type { RunState } from '../core/run';
import { translatorFor } from '../core/locales';
import { unwatchFileChoosers, watchFileChoosers } from './act/files';
import { dropDialogs, watchDialogs } from './dialogs';
import { setJudge, startHolding, stopHolding } from './hold';

/** A run as the watchers read it (its state changes; they read it when a dialog or request comes). */
export interface WatchedRun {
  state: RunState;
  /** card numbers the run typed into card fields (kept in memory only, like typed passwords) */
  cards: string[];
}

/** The rule the person approved for the action under way (its question was theirs already). */
export function approvedRule(state: RunState): GuardId | null {
  const p = state.pending;
  const d = p?.decision?.decision;
  return (d === 'approved' || d === 'edited') && p?.guardRule ? p.guardRule : null;
}

/**
 * The values the run's requests must not carry unasked: the person's secrets and the passwords
 * typed in this run (released to the task's site: the person approved typing them there), and
 * card numbers typed in this run (released nowhere).
 */
function watchedOf(run: WatchedRun): Watched[] {
  const v = run.state.vault;
  return [
    ...(v?.kept ?? []).map((s): Watched => ({ value: s.value, kind: 'secret', name: s.name, site: run.state.site })),
    ...(v?.typed ?? []).map((value): Watched => ({ value, kind: 'password', site: run.state.site })),
    ...run.cards.map((value): Watched => ({ value, kind: 'card', site: null })),
  ];
}

const patterns = new WeakMap<WatchedRun, { key: string; p: WatchPatterns }>();

/** The watched values' encodings, made again only when the values change. */
function patternsOf(run: WatchedRun): WatchPatterns {
  const list = watchedOf(run);
  const key = JSON.stringify(list.map((w) => [w.kind, w.value, w.site]));
  const had = patterns.get(run);
  if (had?.key === key) return had.p;
  const p = watchPatterns(list);
  patterns.set(run, { key, p });
  return p;
}

/** The request hold has a rule to apply: password or payment, on and not always allowed on the task's site. */
function holds(state: RunState): boolean {
  const allowed = state.guards.allow[hostKey(state.site)] ?? [];
  return state.guards.rules.some((r) => (r.id === 'password' || r.id === 'payment') && r.on && !allowed.includes(r.id));
}

export async function watchTab(tabId: number, run: WatchedRun): Promise<void> {
  await watchFileChoosers(tabId, run.state.id).catch(() => undefined);
  const t = () => translatorFor(run.state.locale);
  await watchDialogs(tabId, (d) => dialogHit(d, { site: run.state.site, guards: run.state.guards, approved: approvedRule(run.state), t: t() })).catch(() => undefined);
  // With the password and payment rules both off (or always allowed on the site) nothing is held: nothing is paused either.
  if (!holds(run.state)) return;
  setJudge(tabId, (req) => holdCheck(req, { site: run.state.site, watched: patternsOf(run), guards: run.state.guards, approved: approvedRule(run.state), t: t() }));
  await startHolding(tabId, watchedOf(run).length > 0).catch(() => undefined);
}

/**
 * Before an action: once the run has a value to watch (a secret, a password or card number it
 * typed), its tabs hold every kind of request that can carry it, not only page loads.
 */
export async function holdWatched(tabIds: number[], run: WatchedRun): Promise<void> {
  if (!holds(run.state) || !watchedOf(run).length) return;
  for (const t of tabIds) await startHolding(t, true).catch(() => undefined);
}

/** The run left the tab or ended: held requests are blocked, a held dialog cancelled, choosers native again. */
export async function unwatchTab(tabId: number): Promise<void> {
  setJudge(tabId, null);
  await stopHolding(tabId).catch(() => undefined);
  await dropDialogs([tabId]).catch(() => undefined);
  await unwatchFileChoosers(tabId).catch(() => undefined);
}
