/**
 * Starts Chromium with the built extension loaded (verified
 * facts): a persistent context with viewport: null, the window sized so the
 * page gets the requested CSS size, and the debugger infobar silenced.
 * `personsBrowser`: Chromium as a person runs it (launchPersonsBrowser).
 */
import { spawn } from 'node:child_process';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureChromium } from './chromium';
import { browserEnv } from './browser-env';

export const DIST = path.resolve(import.meta.dirname, '..', 'dist');
/** Height of headless Chromium's top chrome in CSS px. */
const HEADLESS_CHROME_PX = 87;

export interface Launched {
  context: BrowserContext;
  extensionId: string;
  userDataDir: string;
  close(): Promise<void>;
}

export interface LaunchOptions {
  headed?: boolean; width?: number; height?: number; userDataDir?: string;
  /** the X display of a headed browser (default: $DISPLAY) */
  display?: string;
  /** headed Chromium as a person runs it, hidden tabs throttled: see launchPersonsBrowser */
  personsBrowser?: boolean;
  /**
   * The caller handles Ctrl+C and SIGTERM itself (the runners stop the run and write what they
   * have). Without it Playwright's own handlers close the browser and exit the process (code 130).
   */
  ownSignals?: boolean;
  /** the built extension to load (default dist/): a test may load a copy, so a build during its run cannot change it */
  extensionDir?: string;
  /**
   * More unpacked extensions to load beside it, without a service worker of their own (the batch's
   * browser pool loads its reset helper, scripts/batch/pool.ts: a page with the browsingData permission).
   */
  extraExtensions?: string[];
  /**
   * More Chromium switches (the queue worker's pool sends every request through its reach proxy,
   * scripts/batch/reach-proxy.ts: --proxy-server and --proxy-bypass-list).
   */
  extraArgs?: string[];
}

export async function launchWithExtension(opts: LaunchOptions = {}): Promise<Launched> {
  const dist = opts.extensionDir ?? DIST;
  if (!existsSync(path.join(dist, 'manifest.json'))) {
    throw new Error(`The extension is not built (${dist} has no manifest.json). Run "npm run build" first.`);
  }
  const executablePath = ensureChromium();
  const width = opts.width ?? 1280;
  const height = opts.height ?? 800;
  const own = !opts.userDataDir;
  const userDataDir = opts.userDataDir ?? mkdtempSync(path.join(tmpdir(), 'webagent-profile-'));
  const extensions = [dist, ...(opts.extraExtensions ?? [])].join(',');
  const args = [
    `--disable-extensions-except=${extensions}`,
    `--load-extension=${extensions}`,
    `--window-size=${width},${height + (opts.headed ? 0 : HEADLESS_CHROME_PX)}`,
    '--silent-debugger-extension-api',
    '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-gpu', '--disable-quic', '--no-default-browser-check',
    ...(opts.extraArgs ?? []),
  ];
  // never the runner's whole environment (VLM_API_KEY, JUDGE_API_KEY, …): browser-env.ts
  const env = browserEnv(process.env, opts.display);
  let context: BrowserContext;
  let stop = async () => { await context.close().catch(() => undefined); };
  if (opts.personsBrowser) {
    if (!opts.headed) throw new Error('A person\'s browser is headed: pass headed: true (and a display).');
    ({ context, stop } = await launchPersonsBrowser(executablePath, args, userDataDir, env));
  } else {
    const signals = opts.ownSignals ? { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } : {};
    context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: !opts.headed, viewport: null, args, env, ...signals });
  }
  // A page's alert / confirm / prompt is the extension's to answer during a run (it tells the model,
  // or asks the person: src/background/dialogs.ts). Playwright dismisses every dialog nobody
  // listens for, silently, before the extension sees it; listening leaves them to the extension.
  context.on('dialog', () => undefined);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(worker.url()).host;
  return {
    context, extensionId, userDataDir,
    close: async () => {
      await stop();
      // Chromium's helper processes can still write to the profile for a moment after the browser
      // exits (longer on a busy machine): removed with retries; a profile still in use is left to
      // the system's temporary files rather than failing the caller.
      if (own) {
        try {
          rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        } catch {
          await new Promise((r) => setTimeout(r, 2000));
          try {
            rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 500 });
          } catch (err) {
            console.warn(`could not remove the browser profile ${userDataDir}: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
      }
    },
  };
}

/**
 * Chromium started the way a person's is, then driven over CDP. Playwright's own launch keeps
 * hidden tabs at full speed, so a test of a run in a background tab would pass with no fix:
 * its default switches turn background throttling off (--disable-background-timer-throttling,
 * --disable-backgrounding-occluded-windows, --disable-renderer-backgrounding) and enable
 * CDPScreenshotNewSurface (screenshots of hidden tabs painted on demand), and it turns on focus
 * emulation in every page it attaches to, which keeps the page visible (measured: a tab behind
 * another still said document.visibilityState "visible", timers unthrottled). So: no Playwright
 * switches at all, and a connection with noDefaults (no focus emulation, no other overrides).
 */
async function launchPersonsBrowser(executablePath: string, args: string[], userDataDir: string, env: NodeJS.ProcessEnv) {
  const portFile = path.join(userDataDir, 'DevToolsActivePort');
  rmSync(portFile, { force: true });
  // --no-sandbox as Playwright passes it (root in containers); it does not change throttling.
  const proc = spawn(executablePath, [...args, `--user-data-dir=${userDataDir}`, '--remote-debugging-port=0', '--no-sandbox', 'about:blank'], {
    env, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => { stderr = (stderr + d).slice(-2000); });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const kill = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill();
    await exited;
  };
  try {
    const deadline = Date.now() + 30_000;
    while (!existsSync(portFile) || !readFileSync(portFile, 'utf8').includes('\n')) {
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`Chromium did not start (${proc.exitCode !== null ? `exit code ${proc.exitCode}` : 'no DevTools port after 30 s'}).\n${stderr.trim()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const port = readFileSync(portFile, 'utf8').split('\n')[0];
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { noDefaults: true });
    return { context: browser.contexts()[0], stop: async () => { await browser.close().catch(() => undefined); await kill(); } };
  } catch (err) {
    await kill();
    throw err;
  }
}

/** Opens the side panel page as a tab: the same page and messages a person uses. */
export async function openPanel(l: Launched): Promise<Page> {
  const page = await l.context.newPage();
  await page.goto(`chrome-extension://${l.extensionId}/sidepanel/index.html`);
  await page.waitForFunction(() => 'webagent' in window);
  return page;
}
