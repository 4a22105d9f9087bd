/**
 * What watches a run's tab besides its own input (docs/guards.md): file choosers are offered the
 * run's attached files (act/files.ts), the page's dialogs are answered or held for the person
 * (dialogs.ts, core/guards/page-dialog.ts), and requests that would carry a secret, a typed password or
 * a card number are held for the person (hold.ts, core/guards/request-hold.ts). Every tab the run works
 * in is watched (its first tab, and each tab it follows: tabs.ts); unwatchTab undoes it all.
 */
import { budgetFrames, releaseFrames } from './frame-budget';
import { hostKey, type GuardId } from '../core/guards';
import { dialogHit } from '../core/guards/page-dialog';
import { fileNameOf, fileValue, watchPatterns, holdCheck, type Watched, type WatchPatterns } from '../core/guards/request-hold';
import type { RunState } from '../core/run';
import { translatorFor } from '../core/locales';
import { unwatchFileChoosers, watchFileChoosers } from './act/files';
import { dropDialogs, isActing, watchDialogs } from './dialogs';
import { effectCheck } from '../core/guards/request-effect';
import { catchDownloads, setJudge, startHolding, stopHolding, type HoldLevel } from './hold';
import { linger, refuseAway, stopRefusing } from './refuse';
import { MIN_SECRET_CHARS } from '../core/secrets';
import { destinationOf } from '../core/site';

/** A run as the watchers read it (its state changes; they read it when a dialog or request comes). */
export interface WatchedRun {
  state: RunState;
  /** card numbers the run typed into card fields (kept in memory only, like typed passwords) */
  cards: string[];
  /**
   * the watched values the run put into a page, with their destinations (core/guards/request-hold.ts
   * Watched.home and .to), by value; with `cards`, kept in chrome.storage.session (memory only,
   * never on disk) so a restarted worker holds the same (keepWatched, restoreWatched)
   */
  placed: Placement[];
}

const watchedKey = (runId: string) => `watched:${runId}`;

/** The run's typed card numbers and placed values, kept for a restarted worker (memory-only session storage). */
export async function keepWatched(run: WatchedRun): Promise<void> {
  if (!run.cards.length && !run.placed.length) return;
  await chrome.storage.session.set({ [watchedKey(run.state.id)]: { cards: run.cards, placed: run.placed } }).catch((err) => console.warn('keeping the watched values failed', err));
}

/** After a worker restart: the run's card numbers and placed values as they were. */
export async function restoreWatched(run: WatchedRun): Promise<void> {
  const got = await chrome.storage.session.get(watchedKey(run.state.id)).catch(() => ({} as Record<string, unknown>));
  const kept = got[watchedKey(run.state.id)] as { cards?: unknown; placed?: unknown } | undefined;
  if (Array.isArray(kept?.cards)) run.cards = kept.cards.filter((c): c is string => typeof c === 'string');
  if (Array.isArray(kept?.placed)) {
    run.placed = kept.placed.filter((p): p is Placement => !!p && typeof (p as Placement).value === 'string' && Array.isArray((p as Placement).home) && Array.isArray((p as Placement).to));
  }
}

/** The run is over: its watched values are forgotten (a tab left watched keeps only its refusing rules: refuse.ts). */
export async function forgetWatched(runId: string): Promise<void> {
  await chrome.storage.session.remove(watchedKey(runId)).catch(() => undefined);
}

export interface Placement { value: string; home: string[]; to: string[] }

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
  const where = (value: string) => {
    const p = run.placed.find((x) => x.value === value);
    return p ? { home: p.home, to: p.to } : {};
  };
  return [
    ...run.placed.flatMap((p): Watched[] => {
      const name = fileNameOf(p.value);
      return name === null ? [] : [{ value: p.value, kind: 'file', name, site: null, home: p.home, to: p.to }];
    }),
    ...(v?.kept ?? []).map((s): Watched => ({ value: s.value, kind: 'secret', name: s.name, site: run.state.site, ...where(s.value) })),
    ...(v?.typed ?? []).map((value): Watched => ({ value, kind: 'password', site: run.state.site, ...where(value) })),
    ...run.cards.map((value): Watched => ({ value, kind: 'card', site: null, ...where(value) })),
  ];
}

/**
 * The level the run's tabs are held at (hold.ts): every request once a value is in a page; every
 * kind that can carry a body while there is a value to look for, or an effect rule (payment,
 * delete, send) to judge requests by (guards/request-effect.ts); else page loads.
 */
function levelOf(run: WatchedRun): HoldLevel {
  return run.placed.length ? 'every' : watchedOf(run).length || judgesEffects(run.state) ? 'carriers' : 'documents';
}

const patterns = new WeakMap<WatchedRun, { key: string; p: WatchPatterns }>();

/** The watched values' encodings, made again only when the values change. */
function patternsOf(run: WatchedRun): WatchPatterns {
  const list = watchedOf(run);
  const key = JSON.stringify(list.map((w) => [w.kind, w.value, w.site, w.home, w.to]));
  const had = patterns.get(run);
  if (had?.key === key) return had.p;
  const p = watchPatterns(list);
  patterns.set(run, { key, p });
  return p;
}

/** A rule of `ids` is on and not always allowed on the task's site. */
function ruleOn(state: RunState, ids: GuardId[]): boolean {
  const allowed = state.guards.allow[hostKey(state.site)] ?? [];
  return state.guards.rules.some((r) => ids.includes(r.id) && r.on && !allowed.includes(r.id));
}

/** The request hold has a rule to apply: password or payment (values), or delete or send (effects). */
function holds(state: RunState): boolean {
  return ruleOn(state, ['password', 'payment', 'delete', 'send']);
}

/** The values rules (password, payment) are on: a value's requests are held, what cannot be held refused. */
function holdsValues(state: RunState): boolean {
  return ruleOn(state, ['password', 'payment']);
}

/** Requests are judged by what they would do during actions (guards/request-effect.ts): an effect rule is on. */
function judgesEffects(state: RunState): boolean {
  return ruleOn(state, ['payment', 'delete', 'send']);
}

export async function watchTab(tabId: number, run: WatchedRun): Promise<void> {
  budgetFrames(tabId);
  await watchFileChoosers(tabId, run.state.id, (names, url) => placeFiles(run, tabId, names, url)).catch(() => undefined);
  const t = () => translatorFor(run.state.locale);
  await watchDialogs(tabId, (d) => dialogHit(d, { site: run.state.site, guards: run.state.guards, approved: approvedRule(run.state), t: t() })).catch(() => undefined);
  // With the password, payment, delete and send rules all off (or always allowed on the site) no request is held: none is paused either.
  if (!holds(run.state)) return;
  // first by the values a request may carry or where it goes; during an action, also by what it would do (the guards' second line)
  setJudge(tabId, (req) => {
    const ctx = { site: run.state.site, guards: run.state.guards, approved: approvedRule(run.state), t: t() };
    return holdCheck(req, { ...ctx, watched: patternsOf(run) }) ?? (isActing(tabId) ? effectCheck(req, ctx) : null);
  });
  await startHolding(tabId, levelOf(run)).catch(() => undefined);
}

/**
 * Before an action: downloads caught in every frame (the download rule); once the run has a value to watch (a secret, a password or card number it
 * typed), its tabs hold every kind of request that can carry it, not only page loads; once one is
 * in a page, every request.
 */
export async function holdWatched(tabIds: number[], run: WatchedRun): Promise<void> {
  // The download rule on: a download from any frame of the tab is held before any byte is written
  // (downloads.ts). Set before the first action, not as the run attaches: frames of other sites
  // are then attached to the debugger after the page has loaded (a frame of another site that was
  // on its way as they were attached was seen never to load).
  const downloads = ruleOn(run.state, ['download']);
  const requests = holds(run.state) && (watchedOf(run).length > 0 || judgesEffects(run.state));
  for (const t of tabIds) {
    if (requests) await startHolding(t, levelOf(run), downloads).catch(() => undefined);
    else if (downloads) await catchDownloads(t).catch(() => undefined);
  }
}

/**
 * Before an action's input types `text` into the tab: each watched value in it is put into the
 * page now, at home where the tab is (and the frame typed into, when another site's): from now on
 * the tab's requests to other destinations are held, whatever they carry. Done before the first
 * key, since a page can send what it reads on every keystroke.
 */
export async function placeValues(run: WatchedRun, tabId: number, text: string, frameUrl: string | null): Promise<void> {
  await place(run, tabId, watchedOf(run).filter((w) => w.kind !== 'file' && w.value.length >= MIN_SECRET_CHARS && text.includes(w.value)).map((w) => w.value), frameUrl);
}

/** Attached files given to a page's file field (in the document at `url`): watched values from now on, at home where the tab and that document are. */
async function placeFiles(run: WatchedRun, tabId: number, names: string[], url: string): Promise<void> {
  await place(run, tabId, names.map(fileValue), url);
}

async function place(run: WatchedRun, tabId: number, values: string[], frameUrl: string | null): Promise<void> {
  if (!values.length) return;
  const tabUrl = (await chrome.tabs.get(tabId).catch(() => null))?.url ?? '';
  const home = [...new Set([destinationOf(tabUrl), frameUrl ? destinationOf(frameUrl) : null].filter((d): d is string => d !== null))];
  if (!home.length) return;
  for (const value of values) {
    const had = run.placed.find((p) => p.value === value);
    if (had) had.home = [...new Set([...had.home, ...home])];
    else run.placed.push({ value, home, to: [] });
  }
  await keepWatched(run);
  await holdWatched([tabId], run);
  await refuseFor(run, [tabId]);
}

/** The person let a held request go to `dest`: the values in the tab's pages may go there from now on. */
export async function letGo(run: WatchedRun, tabIds: number[], dest: string): Promise<void> {
  for (const p of run.placed) if (!p.to.includes(dest)) p.to.push(dest);
  await keepWatched(run);
  await refuseFor(run, tabIds);
}

/** Where every value in the run's pages may go, and the values' own sites. */
function destinations(run: WatchedRun): { allowed: string[]; homes: string[] } {
  const mayGo = run.placed.map((p) => [...p.home, ...p.to]);
  return { allowed: (mayGo[0] ?? []).filter((d) => mayGo.every((list) => list.includes(d))), homes: [...new Set(run.placed.flatMap((p) => p.home))] };
}

/** What cannot be held is refused (refuse.ts): connections to where not every value in the page may go. */
async function refuseFor(run: WatchedRun, tabIds: number[]): Promise<void> {
  if (!run.placed.length || !holdsValues(run.state)) return;
  const { allowed, homes } = destinations(run);
  for (const t of tabIds) await refuseAway(t, allowed, homes).catch((err) => console.warn('refusing connections failed', err));
}

/**
 * The run ends: a tab still on the site of a value the run typed stays watched (refuse.ts linger:
 * what it sends elsewhere is refused until it leaves the site, closes, or the person releases it),
 * then everything else the run set on it is undone.
 */
export async function endWatch(tabId: number, run: WatchedRun): Promise<void> {
  let kept = false;
  if (run.placed.length && holdsValues(run.state)) {
    const { allowed, homes } = destinations(run);
    const kinds = watchedOf(run).filter((w) => run.placed.some((p) => p.value === w.value)).map((w) => w.kind);
    kept = await linger(tabId, allowed, homes, kinds).then(() => true, (err) => { console.warn('watching the tab after the run failed', err); return false; });
  }
  await unwatchTab(tabId, kept);
}

/**
 * The run left the tab or ended: held requests are blocked, a held dialog cancelled, choosers
 * native again, and (unless `keepRefusing`: endWatch) what was refused is no longer.
 */
export async function unwatchTab(tabId: number, keepRefusing = false): Promise<void> {
  setJudge(tabId, null);
  if (!keepRefusing) await stopRefusing(tabId).catch(() => undefined);
  await stopHolding(tabId).catch(() => undefined);
  await dropDialogs([tabId]).catch(() => undefined);
  await releaseFrames(tabId);
  await unwatchFileChoosers(tabId).catch(() => undefined);
}
