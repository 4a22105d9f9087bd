/**
 * Warm browsers for a batch (docs/batch.md): instead of starting Chromium with a fresh profile for
 * every task, a browser that ended a task is reset and given to the next task that asks for the same
 * window (size, headed). What a task can leave behind, and how the reset removes it:
 *
 * - tabs and windows: every page is closed but one new about:blank (the next task opens its own
 *   panel page and the run opens its own tab), so no page, history entry, dialog, phone emulation or
 *   debugger attachment of the last run is left;
 * - the extension's state: its alarms, chrome.storage (local, session, sync: settings, the API
 *   key, run configs, vaults) and declarativeNetRequest session rules are cleared from its worker; its origin's IndexedDB (stored runs,
 *   attached files, learned documentation), Cache Storage and localStorage are deleted through the
 *   DevTools protocol (Storage.clearDataForOrigin, which also closes the worker's open databases);
 *   then its service worker is stopped (ServiceWorker.stopAllWorkers), so the next message starts a
 *   new one with no memory of the last run;
 * - every site's data: cookies, localStorage, IndexedDB, Cache Storage, service workers, file
 *   systems, the HTTP cache, history, downloads' list and form data, all origins and all time,
 *   through chrome.browsingData, from a page of a small helper extension loaded beside the agent
 *   (the agent itself has no browsingData permission); and the permissions granted to sites.
 *
 * Then it is checked: one page, no cookies, nothing in the extension's chrome.storage, no stored
 * run, and the worker is a new one (a mark set in the old one is gone). A browser that fails any
 * step or check, crashed, or ended its task with an error is closed and a fresh one started. Kept
 * between tasks, and so not isolated: the browser process itself (its DNS and HSTS caches, open
 * connections to servers) and the extension's code as it was loaded.
 *
 * The pool is generic (the unit tests drive it with fake browsers); chromiumPool() is the real one.
 */
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DIST, launchWithExtension, type Launched } from '../browser';

/** What a browser is started with; a browser serves only tasks that ask for the same. */
export interface BrowserSpec { width: number; height: number; headed: boolean }

export interface PoolHooks<B> {
  launch(spec: BrowserSpec): Promise<B>;
  /** makes a browser that ended a task as new; throws when it cannot (the browser is then closed) */
  reset(b: B): Promise<void>;
  close(b: B): Promise<void>;
}

export interface PoolStats { launched: number; reused: number; replaced: number }

/** A real reset takes 1-3 s, under load too (measured on a 2-core machine beside two busy loops). */
export const RESET_MS = 30_000;

const keyOf = (s: BrowserSpec) => `${s.width}x${s.height}${s.headed ? ' headed' : ''}`;

interface Entry<B> { b: B; key: string }

/**
 * At most `max` browsers at once (in a task, being reset, or idle). acquire() gives an idle browser
 * of the same spec, else starts one (closing an idle one of another spec when the pool is full),
 * else waits for a release. release() resets the browser in the background (healthy) or closes it.
 */
export class BrowserPool<B> {
  private idle: Entry<B>[] = [];
  private count = 0;
  private resetting = new Set<Promise<void>>();
  private waiters: Array<() => void> = [];
  private closed = false;
  private owner = new Map<B, string>();
  /** browsers being reset, and acquires waiting for one of them, by window */
  private resettingBy = new Map<string, number>();
  private claims = new Map<string, number>();
  readonly stats: PoolStats = { launched: 0, reused: 0, replaced: 0 };

  /**
   * `resetMs`: how long a reset may take before the browser counts as one that failed it (closed,
   * and a new one started when needed). A reset that hangs (a page that will not close, a worker
   * that never answers) would otherwise hold its place in the pool, and every acquire and close()
   * waiting for it, for ever.
   */
  constructor(private hooks: PoolHooks<B>, private max: number, private resetMs = RESET_MS) {}

  async acquire(spec: BrowserSpec): Promise<B> {
    const key = keyOf(spec);
    for (;;) {
      if (this.closed) throw new Error('the browser pool is closed');
      const i = this.idle.findIndex((e) => e.key === key);
      if (i >= 0) {
        const [e] = this.idle.splice(i, 1);
        this.stats.reused++;
        return e.b;
      }
      // a browser of this window being reset is ready sooner than a new one would be
      if ((this.resettingBy.get(key) ?? 0) > (this.claims.get(key) ?? 0)) {
        this.claims.set(key, (this.claims.get(key) ?? 0) + 1);
        await new Promise<void>((r) => this.waiters.push(r));
        this.claims.set(key, (this.claims.get(key) ?? 1) - 1);
        continue;
      }
      if (this.count >= this.max && this.idle.length) {
        // full of idle browsers of another window: one of them makes room
        const [e] = this.idle.splice(0, 1);
        this.count--;
        this.owner.delete(e.b);
        await this.hooks.close(e.b).catch(() => undefined);
      }
      if (this.count < this.max) {
        this.count++;
        try {
          const b = await this.hooks.launch(spec);
          this.stats.launched++;
          this.owner.set(b, key);
          return b;
        } catch (e) {
          this.count--;
          this.wake();
          throw e;
        }
      }
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** Gives a browser back: reset for the next task when `healthy`, else closed (a new one is started when needed). */
  release(b: B, healthy: boolean): void {
    const key = this.owner.get(b);
    if (key === undefined) return;
    const drop = async () => {
      this.owner.delete(b);
      this.count--;
      await this.hooks.close(b).catch(() => undefined);
    };
    const resets = healthy && !this.closed;
    if (resets) this.resettingBy.set(key, (this.resettingBy.get(key) ?? 0) + 1);
    const p = (async () => {
      if (!resets) { await drop(); return; }
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([
          this.hooks.reset(b),
          new Promise<never>((_, fail) => { timer = setTimeout(() => fail(new Error(`the reset took more than ${this.resetMs} ms`)), this.resetMs); }),
        ]);
      } catch {
        this.stats.replaced++;
        await drop();
        return;
      } finally {
        clearTimeout(timer);
      }
      if (this.closed) { await drop(); return; }
      this.idle.push({ b, key });
    })().finally(() => {
      if (resets) this.resettingBy.set(key, (this.resettingBy.get(key) ?? 1) - 1);
      this.resetting.delete(p);
      this.wake();
    });
    this.resetting.add(p);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Closes every browser (those still in a task are closed when released). */
  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    await Promise.all([...this.resetting]);
    const idle = this.idle.splice(0);
    this.count -= idle.length;
    await Promise.all(idle.map((e) => { this.owner.delete(e.b); return this.hooks.close(e.b).catch(() => undefined); }));
  }
}

/** An unpacked extension's id, as Chromium derives it from the folder's absolute path. */
export function unpackedExtensionId(dir: string): string {
  return createHash('sha256').update(dir).digest('hex').slice(0, 32).replace(/./g, (h) => String.fromCharCode(97 + parseInt(h, 16)));
}

/** The reset helper: an extension with one empty page and the browsingData permission (no worker, no content script). */
function writeHelper(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'webagent-reset-helper-')));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({
    manifest_version: 3, name: 'Web Agent batch reset', version: '1.0',
    description: 'Clears every site\'s data between the tasks of a batch (scripts/batch/pool.ts).', permissions: ['browsingData'],
  }, null, 2));
  writeFileSync(path.join(dir, 'wipe.html'), '<!doctype html><meta charset="utf-8"><title>reset</title>\n');
  return dir;
}

/** What every site may have kept, for chrome.browsingData.remove (all origins, all time). */
const SITE_DATA = {
  appcache: true, cache: true, cacheStorage: true, cookies: true, downloads: true, fileSystems: true, formData: true,
  history: true, indexedDB: true, localStorage: true, serviceWorkers: true, webSQL: true,
} as const;

const MARK = '__webagentPoolMark';

function agentWorker(b: Launched) {
  return b.context.serviceWorkers().find((w) => new URL(w.url()).host === b.extensionId);
}

/** What the next task would inherit, or null when there is nothing (the check after a reset). */
export async function leftovers(b: Launched): Promise<string | null> {
  const problems: string[] = [];
  if (b.context.pages().length !== 1) problems.push(`${b.context.pages().length} pages open`);
  const cookies = await b.context.cookies();
  if (cookies.length) problems.push(`${cookies.length} cookie(s)`);
  const sw = agentWorker(b);
  // a worker that Chrome stopped may be gone from the list: any message starts it again, which is what a new task does
  if (sw) {
    const state = await sw.evaluate(async (mark) => {
      // `installed` is the version of the extension that last started (background/stores.ts), no task's data
      const local = Object.keys(await chrome.storage.local.get(null)).filter((k) => k !== 'installed');
      const session = Object.keys(await chrome.storage.session.get(null));
      let runs = 0;
      for (const d of await indexedDB.databases()) {
        if (d.name !== 'webagent' || !d.version) continue;
        const db = await new Promise<IDBDatabase>((ok, fail) => { const r = indexedDB.open(d.name!, d.version); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
        try {
          if (db.objectStoreNames.contains('runs')) {
            runs = await new Promise<number>((ok, fail) => { const r = db.transaction('runs').objectStore('runs').count(); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
          }
        } finally {
          db.close();
        }
      }
      return { local, session, runs, marked: mark in globalThis };
    }, MARK);
    if (state.local.length) problems.push(`chrome.storage.local holds ${state.local.join(', ')}`);
    if (state.session.length) problems.push(`chrome.storage.session holds ${state.session.length} key(s)`);
    if (state.runs) problems.push(`${state.runs} stored run(s)`);
    if (state.marked) problems.push('the extension\'s worker was not restarted');
  }
  return problems.length ? problems.join('; ') : null;
}

/** Resets a Chromium that ended a task (the steps in the header); throws when any step or the check fails. */
export async function resetChromium(b: Launched, helperId: string): Promise<void> {
  const { context } = b;
  const blank = await context.newPage();
  for (const p of context.pages()) if (p !== blank) await p.close();
  const cdp = await context.newCDPSession(blank);
  try {
    const sw = agentWorker(b);
    if (sw) {
      await sw.evaluate(async (mark) => {
        await chrome.alarms.clearAll();
        await Promise.all([chrome.storage.local.clear(), chrome.storage.session.clear(), chrome.storage.sync.clear()]);
        // rules a run left (refuse.ts): they outlive the worker
        const rules = await chrome.declarativeNetRequest.getSessionRules();
        await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: rules.map((r) => r.id) });
        (globalThis as Record<string, unknown>)[mark] = true;
      }, MARK);
    }
    await cdp.send('Storage.clearDataForOrigin', { origin: `chrome-extension://${b.extensionId}`, storageTypes: 'all' });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await cdp.send('ServiceWorker.disable');
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  await blank.goto(`chrome-extension://${helperId}/wipe.html`);
  await blank.evaluate((what) => chrome.browsingData.remove({ since: 0, originTypes: { unprotectedWeb: true, protectedWeb: true } }, what), SITE_DATA);
  await blank.goto('about:blank');
  await context.clearPermissions();
  const left = await leftovers(b);
  if (left) throw new Error(`the browser kept ${left}`);
}

/**
 * The batch's pool of real browsers: `max` at most, each with the agent and the reset helper
 * loaded. The agent is loaded from a copy of the built extension taken now, so every task of the
 * batch runs the same build: a warm browser keeps the files it loaded, and a build during the batch
 * (which replaces dist/'s hashed file names) would leave it naming files that are gone.
 * `extraArgs`: more Chromium switches (the queue worker's reach proxy; the local batch passes none).
 */
export function chromiumPool(max: number, o: { extensionDir?: string; extraArgs?: string[] } = {}): BrowserPool<Launched> & { helperDir: string } {
  const helperDir = writeHelper();
  const helperId = unpackedExtensionId(helperDir);
  const extensionDir = path.join(realpathSync(mkdtempSync(path.join(tmpdir(), 'webagent-extension-'))), 'dist');
  cpSync(o.extensionDir ?? DIST, extensionDir, { recursive: true });
  const pool = new BrowserPool<Launched>({
    launch: (spec) => launchWithExtension({ ...spec, ownSignals: true, extensionDir, extraExtensions: [helperDir], ...(o.extraArgs ? { extraArgs: o.extraArgs } : {}) }),
    reset: (b) => resetChromium(b, helperId),
    close: (b) => b.close(),
  }, max);
  const close = pool.close.bind(pool);
  return Object.assign(pool, {
    helperDir,
    close: async () => {
      await close();
      rmSync(helperDir, { recursive: true, force: true });
      rmSync(path.dirname(extensionDir), { recursive: true, force: true });
    },
  });
}
