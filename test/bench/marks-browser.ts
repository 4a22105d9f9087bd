/**
 * Browsers for the labeling bench: a plain headless Chromium (baseline, and ours through the
 * single-frame harness) and Chromium with the built extension loaded (ours, the real path).
 * Both give pages a 1280x800 CSS viewport and the device pixel ratio the corpus page asks for.
 * A page with <meta name="bench-wait" content="ATTR"> (the web-component pages, wc-load.js) is
 * opened once <html> has that attribute: its components are defined late, and the truth is what
 * a person sees after they are.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from '../../scripts/chromium';
import { launchWithExtension, openPanel, type Launched } from '../../scripts/browser';
import { VIEWPORT } from './marks-corpus';

export interface Session {
  /** a new tab showing url, loaded (load event), at the given device pixel ratio */
  open(url: string, dpr: number): Promise<Page>;
  /** close a page opened with open() */
  done(page: Page): Promise<void>;
  close(): Promise<void>;
}

/** After load: wait for the page's bench-wait attribute, if it names one (at most 20 s). */
async function pageReady(page: Page): Promise<void> {
  const attr = await page.evaluate(() => document.querySelector('meta[name="bench-wait"]')?.getAttribute('content') ?? '');
  if (attr) await page.waitForFunction((a) => document.documentElement.hasAttribute(a), attr, { timeout: 20_000 });
}

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

export async function plainSession(): Promise<Session> {
  const browser: Browser = await chromium.launch({ executablePath: findChromium() ?? undefined, headless: true, args: ARGS });
  const contexts = new Map<Page, BrowserContext>();
  return {
    open: async (url, dpr) => {
      const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: dpr });
      const page = await context.newPage();
      contexts.set(page, context);
      await page.goto(url, { waitUntil: 'load' });
      await pageReady(page);
      return page;
    },
    done: async (page) => {
      await contexts.get(page)?.close();
      contexts.delete(page);
    },
    close: () => browser.close(),
  };
}

export interface ExtensionSession extends Session {
  launched: Launched;
  /** the side panel page (sends view messages to the background) */
  panel: Page;
  /** the tab id of a page opened with open() */
  tabId(page: Page): Promise<number>;
}

export async function extensionSession(): Promise<ExtensionSession> {
  const launched = await launchWithExtension({ width: VIEWPORT.width, height: VIEWPORT.height });
  const panel = await openPanel(launched);
  const ids = new Map<Page, number>();
  return {
    launched,
    panel,
    open: async (url, dpr) => {
      const page = await launched.context.newPage();
      if (dpr !== 1) {
        const cdp = await launched.context.newCDPSession(page);
        await cdp.send('Emulation.setDeviceMetricsOverride', { ...VIEWPORT, deviceScaleFactor: dpr, mobile: false });
      }
      await page.goto(url, { waitUntil: 'load' });
      await pageReady(page);
      return page;
    },
    tabId: async (page) => {
      const known = ids.get(page);
      if (known !== undefined) return known;
      const url = page.url();
      const id = await panel.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? -1, url);
      if (id < 0) throw new Error(`no tab shows ${url}`);
      ids.set(page, id);
      return id;
    },
    done: async (page) => {
      ids.delete(page);
      await page.close();
    },
    close: () => launched.close(),
  };
}
