/**
 * npm run demo: serve the bundled demo site and run the demo task end to end
 * in Chromium with the built extension. Uses VLM_BASE_URL (+ VLM_API_KEY,
 * VLM_MODEL) when set, else the bundled scripted demo model (no key, no network).
 * With --keep (headed only) the browser, the shop and the model stay up after the run: the
 * extension's Settings point at the model (a profile named "Demo (scripted, not a model)" for the
 * scripted one) and the side panel is open beside the shop, until the browser is closed.
 */
import path from 'node:path';
import { serveDir } from './static-server';
import { runAgent } from './run-agent';
import { launchWithExtension, type Launched } from './browser';
import { DEMO_MODEL, DEMO_PROFILE, DEMO_SITE, DEMO_TASK, demoArgs, demoSettings, startDemoModel } from './demo-model';

type Send = (type: string, payload: unknown) => Promise<unknown>;

/** Leaves the browser to the person: settings saved, the shop in a tab, the side panel open beside it. */
async function handOver(browser: Launched, shopUrl: string, settings: Record<string, unknown>): Promise<boolean> {
  for (const p of browser.context.pages()) if (p.url().startsWith('chrome-extension://')) await p.close();
  const shop = browser.context.pages().find((p) => p.url().startsWith(shopUrl)) ?? await browser.context.newPage();
  await shop.goto(shopUrl);
  for (const p of browser.context.pages()) if (p !== shop && p.url() === 'about:blank') await p.close().catch(() => undefined);
  await shop.bringToFront();
  // chrome.sidePanel.open needs a user gesture: Playwright's evaluate runs with one. The page that
  // asks is an extension page of its own, closed once the panel is open.
  const helper = await browser.context.newPage();
  await helper.goto(`chrome-extension://${browser.extensionId}/sidepanel/index.html`);
  await helper.waitForFunction(() => 'webagent' in window);
  await helper.evaluate((s) => (window as unknown as { webagent: { send: Send } }).webagent.send('settings/patch', { set: s }), settings);
  const opened = await helper.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url: `${url}*` });
    if (!tab?.windowId) return false;
    try {
      await chrome.sidePanel.open({ windowId: tab.windowId });
      // as the extension counts them: a side panel is open now (its page registers a moment after
      // open() resolves, so asked for up to 3 s; asked once, it said "not open" while it was)
      for (let i = 0; i < 30; i++) {
        if ((await chrome.runtime.getContexts({ contextTypes: ['SIDE_PANEL' as chrome.runtime.ContextType] })).length > 0) return true;
        await new Promise((r) => setTimeout(r, 100));
      }
      return false;
    } catch {
      return false;
    }
  }, shopUrl).catch(() => false);
  await helper.close();
  await shop.bringToFront();
  return opened;
}

async function main() {
  const { keep } = demoArgs(process.argv.slice(2));
  const headed = !!process.env.DISPLAY && process.env.CI !== 'true';
  if (keep && !headed) throw new Error('--keep leaves the browser open for you, so it needs a display (DISPLAY is not set, or CI=true).');
  const site = await serveDir(DEMO_SITE);
  const real = process.env.VLM_BASE_URL;
  const demoModel = real ? null : await startDemoModel();
  console.log(real
    ? `Model: ${process.env.VLM_MODEL ?? 'glm-4.5v'} at ${real}`
    : 'Model: the bundled SCRIPTED DEMO MODEL (not a real model: it follows a fixed plan by reading the element list). Set VLM_BASE_URL, VLM_API_KEY and VLM_MODEL to use a real one.');
  console.log(`Site: ${site.url} (bundled demo bookshop), ${headed ? 'headed' : 'headless'}`);
  console.log(`Task: ${DEMO_TASK}\n`);
  const config = real
    ? { baseUrl: real, apiKey: process.env.VLM_API_KEY ?? '', model: process.env.VLM_MODEL ?? 'glm-4.5v', maxSteps: 15 }
    : { baseUrl: demoModel!.baseUrl, apiKey: '', model: DEMO_MODEL, maxSteps: 15 };
  const browser = keep ? await launchWithExtension({ headed: true, width: 1280, height: 800, ownSignals: true }) : undefined;
  try {
    const r = await runAgent(browser ?? null, { task: DEMO_TASK, url: site.url, config, traceFile: path.join('traces', 'demo.json'), width: 1280, height: 800, headed });
    process.exitCode = r.status === 'finished' ? 0 : 1;
    if (browser) {
      // the runner speaks English (runAgent sets it); the person's panel follows the browser again
      const settings = { language: 'auto', ...(real ? { baseUrl: config.baseUrl, apiKey: config.apiKey, model: config.model } : demoSettings(config.baseUrl)) };
      const opened = await handOver(browser, site.url, settings);
      console.log([
        '',
        'The browser stays open for you to try the side panel (close the browser, or Ctrl+C here, to end):',
        `  Demo bookshop: ${site.url}`,
        real ? `  Model: ${config.model} at ${config.baseUrl}` : `  Model: the scripted demo model at ${config.baseUrl} (Settings profile "${DEMO_PROFILE}"): it only plays the shop's tasks, any book, paperback, hardcover or e-book`,
        `  Try: ${DEMO_TASK.replace('The Pragmatic Programmer', 'Clean Code')}`,
        opened ? '  The side panel is open beside the shop.' : '  Open the side panel with the extension\'s toolbar button (the puzzle piece: Web Agent) or Ctrl+Shift+Y.',
      ].join('\n'));
      await new Promise<void>((resolve) => {
        browser.context.once('close', () => resolve());
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
    }
  } finally {
    await browser?.close();
    await demoModel?.close();
    await site.close();
  }
}

main().catch((e) => {
  console.error(`Demo failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
