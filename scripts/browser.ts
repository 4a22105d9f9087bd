/**
 * Starts Chromium with the built extension loaded (verified
 * facts): a persistent context with viewport: null, the window sized so the
 * page gets the requested CSS size, and the debugger infobar silenced.
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureChromium } from './chromium';

export const DIST = path.resolve(import.meta.dirname, '..', 'dist');
/** Height of headless Chromium's top chrome in CSS px. */
const HEADLESS_CHROME_PX = 87;

export interface Launched {
  context: BrowserContext;
  extensionId: string;
  userDataDir: string;
  close(): Promise<void>;
}

export interface LaunchOptions { headed?: boolean; width?: number; height?: number; userDataDir?: string }

export async function launchWithExtension(opts: LaunchOptions = {}): Promise<Launched> {
  if (!existsSync(path.join(DIST, 'manifest.json'))) {
    throw new Error(`The extension is not built (${DIST} has no manifest.json). Run "npm run build" first.`);
  }
  const executablePath = ensureChromium();
  const width = opts.width ?? 1280;
  const height = opts.height ?? 800;
  const own = !opts.userDataDir;
  const userDataDir = opts.userDataDir ?? mkdtempSync(path.join(tmpdir(), 'webagent-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: !opts.headed,
    viewport: null,
    args: [
      `--disable-extensions-except=${DIST}`,
      `--load-extension=${DIST}`,
      `--window-size=${width},${height + (opts.headed ? 0 : HEADLESS_CHROME_PX)}`,
      '--silent-debugger-extension-api',
      '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-gpu', '--disable-quic', '--no-default-browser-check',
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(worker.url()).host;
  return {
    context, extensionId, userDataDir,
    close: async () => {
      await context.close().catch(() => undefined);
      if (own) rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Opens the side panel page as a tab: the same page and messages a person uses. */
export async function openPanel(l: Launched): Promise<Page> {
  const page = await l.context.newPage();
  await page.goto(`chrome-extension://${l.extensionId}/sidepanel/index.html`);
  await page.waitForFunction(() => 'webagent' in window);
  return page;
}
