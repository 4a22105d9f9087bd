/**
 * Waiting for the page: after an action, for what the action set going (settleAction: a
 * navigation, a new tab, requests in flight, a page that is changing), and before an observation,
 * for the page a person would see (settlePage). Event-driven: no fixed pauses (docs/labeling.md,
 * "Settling"; the constants in src/core/settle.ts).
 */
import {
  ACTION_LOOK_MS, ACTION_NEW_TAB_MS, ACTION_QUIET_CAP_MS, ACTION_QUIET_MS, ACTION_ROUNDS, awaitedRequest,
  nothingRendered, READY_CAP_MS, requestsPending, type SettleReport,
} from '../core/settle';
import { attachedTabs } from './cdp';
import { ensureContent, isStuck, sendContent } from './content';
import { CONTENT_ANSWER_MS, within } from '../core/deadline';

/** how often tabComplete asks the tab's status besides listening for it */
const TAB_POLL_MS = 100;

/** Resolves when the tab's status is "complete" (or after capMs). */
export function tabComplete(tabId: number, capMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(onUpd);
      resolve(ok);
    };
    const onUpd = (id: number, info: { status?: string }) => { if (id === tabId && info.status === 'complete') done(true); };
    const timer = setTimeout(() => done(false), capMs);
    chrome.tabs.onUpdated.addListener(onUpd);
    // Asked again while it waits: a frame's load turns the tab's status to "loading" and back
    // without an onUpdated "complete" for the tab (a form or link aimed at a hidden frame).
    const look = () => chrome.tabs.get(tabId).then((t) => { if (t.status === 'complete') done(true); else if (!settled) setTimeout(look, TAB_POLL_MS); }, () => done(false));
    void look();
  });
}

/** What an action set going, as it happens (the debugger's Page and Network events of the tab, and its tabs events). */
export interface ActionWatch {
  readonly tabId: number;
  /** the top document: 'pending' from a navigation's start to its commit (or its end without one) */
  nav: 'none' | 'pending' | 'done';
  /** requests sent since the watch began, not yet ended (id -> when it began) */
  inflight: Map<string, number>;
  /** the page announced a new tab or window (window.open, a target=_blank link; one event or two for the same one) */
  announced: boolean;
  /** tabs the browser opened from this tab */
  opened: number;
  /** how many things began since the watch began (a navigation, a request, a tab): a round that saw none is the last */
  began: number;
  /** resolves when `test` holds (checked at each event and every 50 ms), or after ms */
  until(test: () => boolean, ms: number): Promise<void>;
  /**
   * Resolves once the events the page sent so far have come (a round trip to its main thread:
   * what it began before, a request a frame's callback sent, is known after it). At once without the debugger.
   */
  caughtUp(): Promise<void>;
  stop(): void;
}

/** tab -> its top frame's id in the debugger's events (the same for the tab's life; refreshed on commits) */
const mainFrames = new Map<number, string>();
/** tab -> watches using its Network domain (enabled for the first, disabled after the last) */
const networkUsers = new Map<number, number>();

type Params = Record<string, unknown> & { frameId?: string; requestId?: string; type?: string; loaderId?: string; disposition?: string; frame?: { id: string; parentId?: string } };

/** a page asked to settle answers within the settle's cap and this much more, or it is stuck */
const SETTLE_ANSWER_SLACK_MS = 2000;
/** the round trip that brings the page's events in (caughtUp) waits at most this long */
const CAUGHT_UP_MS = 2000;

const command = (tabId: number, method: string, params?: Record<string, unknown>) =>
  // straight to the debugger: a tab the run has not attached is not attached for a wait
  chrome.debugger.sendCommand({ tabId }, method, params) as Promise<unknown>;

/**
 * Starts watching the tab for what an action sets going: call it before the input. Without the
 * debugger attached (no run in the tab) only the tab's events are seen.
 */
export async function watchAction(tabId: number): Promise<ActionWatch> {
  const debug = attachedTabs().includes(tabId);
  const wakers = new Set<() => void>();
  const wake = () => { for (const w of wakers) w(); };
  let docRequest = '';
  const w: ActionWatch = {
    tabId, nav: 'none', inflight: new Map(), announced: false, opened: 0, began: 0,
    until: (test, ms) => new Promise<void>((resolve) => {
      if (test() || ms <= 0) return resolve();
      const check = () => { if (test()) finish(); };
      const finish = () => { clearTimeout(timer); clearInterval(poll); wakers.delete(check); resolve(); };
      const timer = setTimeout(finish, ms);
      const poll = setInterval(check, 50);
      wakers.add(check);
    }),
    caughtUp: async () => {
      // a round trip to the page: the events sent before it are in (a page whose script is stuck never answers: not waited on long)
      if (debug) await within(command(tabId, 'Runtime.evaluate', { expression: '0', silent: true }), CAUGHT_UP_MS).catch(() => undefined);
    },
    stop: () => {
      chrome.debugger.onEvent.removeListener(onEvent);
      chrome.tabs.onCreated.removeListener(onCreated);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      wakers.clear();
      if (debug) {
        const n = (networkUsers.get(tabId) ?? 1) - 1;
        if (n > 0) networkUsers.set(tabId, n);
        else {
          networkUsers.delete(tabId);
          if (attachedTabs().includes(tabId)) void command(tabId, 'Network.disable').catch(() => undefined);
        }
      }
    },
  };
  const navStarts = () => { if (w.nav !== 'pending') { w.nav = 'pending'; w.began++; } };
  const navEnds = () => { if (w.nav === 'pending') w.nav = 'done'; };
  const isMain = (frameId: unknown) => typeof frameId === 'string' && frameId === mainFrames.get(tabId);
  const onEvent = (source: chrome.debugger.Debuggee, method: string, raw?: object) => {
    if (source.tabId !== tabId) return;
    const p = (raw ?? {}) as Params;
    switch (method) {
      case 'Network.requestWillBeSent':
        if (p.type === 'Document' && isMain(p.frameId) && p.requestId === p.loaderId) {
          docRequest = p.requestId ?? '';
          navStarts();
        } else if (awaitedRequest(p.type) && p.requestId && !w.inflight.has(p.requestId)) {
          w.inflight.set(p.requestId, Date.now());
          w.began++;
        }
        break;
      case 'Network.loadingFinished':
      case 'Network.loadingFailed':
        if (p.requestId && p.requestId === docRequest) navEnds();
        if (p.requestId) w.inflight.delete(p.requestId);
        break;
      case 'Page.frameRequestedNavigation':
        if (!isMain(p.frameId)) break;
        if (p.disposition === 'currentTab') navStarts();
        else if (p.disposition !== 'download') { w.announced = true; w.began++; }
        break;
      case 'Page.windowOpen':
        w.announced = true;
        w.began++;
        break;
      case 'Page.frameStartedLoading':
        if (isMain(p.frameId)) navStarts();
        break;
      case 'Page.frameNavigated':
        if (p.frame && !p.frame.parentId) {
          mainFrames.set(tabId, p.frame.id);
          navEnds();
        }
        break;
      case 'Page.navigatedWithinDocument':
      case 'Page.frameStoppedLoading':
        if (isMain(p.frameId)) navEnds();
        break;
      case 'Page.downloadWillBegin':
        navEnds();
        break;
      default:
        return;
    }
    wake();
  };
  const onCreated = (t: chrome.tabs.Tab) => { if (t.openerTabId === tabId) { w.opened++; wake(); } };
  const onUpdated = (id: number, info: { status?: string }) => { if (id === tabId && info.status) wake(); };
  chrome.debugger.onEvent.addListener(onEvent);
  chrome.tabs.onCreated.addListener(onCreated);
  chrome.tabs.onUpdated.addListener(onUpdated);
  if (debug) {
    const users = networkUsers.get(tabId) ?? 0;
    networkUsers.set(tabId, users + 1);
    const frameTree = mainFrames.has(tabId) ? null : command(tabId, 'Page.getFrameTree').then((r) => {
      const id = (r as { frameTree?: { frame?: { id?: string } } }).frameTree?.frame?.id;
      if (id) mainFrames.set(tabId, id);
    }, () => undefined);
    // no response bodies kept: only when requests begin and end is wanted
    const network = users ? null : command(tabId, 'Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0, maxPostDataSize: 0 }).catch(() => undefined);
    await Promise.all([frameTree, network, command(tabId, 'Page.enable').catch(() => undefined)]);
  }
  return w;
}

/** What an action's settle waited for (ms each; a part that was not needed is 0). */
export interface ActionSettle { ms: number; look: number; navigation: number; requests: number; page: number; rounds: number }

/**
 * After the input (`watch` started before it), until what it set going has ended, at most capMs:
 * first, for `lookMs` at most, a first sign of a reaction (a late one: typing, hovering); then
 * rounds of: a navigation of the top document to its new document loaded; a tab the page
 * announced opened; the requests sent since the input ended (each for at most
 * ACTION_REQUESTS_CAP_MS); the page quiet (content-scripts/settle.ts waitForQuiet: at once
 * when nothing changes in a frame or two). A round in which nothing new began is the last. Stops the watch.
 */
export async function settleAction(watch: ActionWatch, capMs: number, lookMs = 0): Promise<ActionSettle> {
  const { tabId } = watch;
  const started = Date.now();
  const deadline = started + capMs;
  const left = () => Math.max(0, deadline - Date.now());
  const spent: ActionSettle = { ms: 0, look: 0, navigation: 0, requests: 0, page: 0, rounds: 0 };
  const timed = async (part: 'look' | 'navigation' | 'requests' | 'page', f: () => Promise<unknown>) => {
    const t = Date.now();
    try {
      await f();
    } finally {
      spent[part] += Date.now() - t;
    }
  };
  // a function, not a narrowed property: the events change it while this waits
  const navigating = () => watch.nav === 'pending';
  const unopened = () => watch.announced && !watch.opened;
  const reacting = () => navigating() || watch.inflight.size > 0 || unopened();
  try {
    if (lookMs > 0) await timed('look', () => watch.until(() => reacting() || watch.began > 0, Math.min(lookMs, left())));
    for (let round = 0; round < ACTION_ROUNDS && left() > 0; round++) {
      spent.rounds++;
      const began = watch.began;
      const tab = await chrome.tabs.get(tabId).catch(() => null);
      if (!tab) break; // the action closed it
      if (navigating() || tab.status === 'loading') {
        await timed('navigation', async () => {
          await watch.until(() => !navigating(), left());
          await tabComplete(tabId, left());
        });
      }
      if (unopened()) await timed('navigation', () => watch.until(() => !unopened(), Math.min(ACTION_NEW_TAB_MS, left())));
      if (watch.inflight.size) await timed('requests', () => watch.until(() => navigating() || !requestsPending(watch.inflight.values(), Date.now()), left()));
      if (navigating()) continue;
      let answered = true;
      let stuckPage = false;
      await timed('page', async () => {
        // its answer comes within the settle's own cap (and a little more); a page that gives none in that time is stuck
        const ask = () => sendContent(tabId, 'page/settle', { quietMs: ACTION_QUIET_MS, capMs: Math.min(ACTION_QUIET_CAP_MS, left()) }, 0, Math.min(CONTENT_ANSWER_MS, left() + SETTLE_ANSWER_SLACK_MS));
        // the content script is asked first; only when it does not answer (a new document) is it made
        // sure of; a page whose script is stuck is not waited on again (the observation says so)
        await ask().catch(async (err: unknown) => {
          if (isStuck(err)) throw err;
          await ensureContent(tabId);
          await ask();
        }).catch((err: unknown) => { answered = false; stuckPage = isStuck(err); });
        // a request the page's frames sent while it was looked at (a lazy list seen by its observer) is known now
        if (!stuckPage) await watch.caughtUp();
      });
      if (stuckPage) break;
      if (answered && watch.began === began && !navigating() && !requestsPending(watch.inflight.values(), Date.now())) break;
    }
  } finally {
    watch.stop();
  }
  spent.ms = Date.now() - started;
  return spent;
}

/**
 * Load finished and the page quiet, at most capMs in all, for a caller that did not watch its
 * input (after a dialog was answered, a step back, a person's action): what began before this
 * call is not seen, so the page is looked at for ACTION_LOOK_MS for a first reaction.
 */
export async function settle(tabId: number, capMs: number): Promise<void> {
  const started = Date.now();
  const watch = await watchAction(tabId);
  await settleAction(watch, Math.max(0, capMs - (Date.now() - started)), ACTION_LOOK_MS);
}

/**
 * Before an observation: the tab loaded (at most loadCapMs), then the page a person would see
 * (content script pageReady, at most READY_CAP_MS: custom elements defined and rendered, fonts
 * ready, network quiet), measured. A page that cannot answer (it navigated meanwhile) gets a report of the load
 * wait only; the labeling pass after it says what is wrong, if anything.
 */
export async function settlePage(tabId: number, loadCapMs: number): Promise<SettleReport> {
  const started = Date.now();
  await tabComplete(tabId, loadCapMs);
  const load = Date.now() - started;
  await ensureContent(tabId);
  const ready = await sendContent(tabId, 'page/ready', { capMs: READY_CAP_MS }).catch(() => null);
  const none = { defined: { ms: 0, pending: [] }, rendered: nothingRendered(), fonts: { ms: 0, ok: false }, network: { ms: 0, quiet: false } };
  return { ...(ready ?? none), load, ms: Date.now() - started };
}
