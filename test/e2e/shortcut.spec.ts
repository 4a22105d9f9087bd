/**
 * The keyboard shortcut that opens the side panel (manifest "commands": open-panel, Ctrl+Shift+Y),
 * pressed for real. Headless Chromium does not pass key presses to the browser's own shortcuts, and
 * neither do the DevTools protocol's key events, so this test starts an X display of its own (Xvfb),
 * runs Chromium headed on it and presses the keys through XTest (test/fixtures/x11-key.py), as a
 * keyboard would. It needs Xvfb and python3, which .ci/run installs; panel-ux.spec.ts also checks
 * that the command is registered and that its listener opens the panel.
 */
import { test, expect } from './fixtures';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { launchWithExtension, type Launched } from '../../scripts/browser';
import { startXvfb, type Display } from '../../scripts/xvfb';
import { ROOT, serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';

let xvfb: Display | null = null;
let display = '';
let site: StaticServer;
let browser: Launched;

test.beforeAll(async () => {
  xvfb = await startXvfb('1280x1024x24');
  display = xvfb.display;
  site = await serveFixtures();
  const before = process.env.DISPLAY;
  process.env.DISPLAY = display; // Chromium inherits it
  try {
    browser = await launchWithExtension({ headed: true });
  } finally {
    if (before === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = before;
  }
});

test.afterAll(async () => {
  await browser?.close();
  await site?.close();
  await xvfb?.close();
});

/** The side panels open now, as the extension itself counts them. */
async function sidePanels(): Promise<{ documentUrl?: string }[]> {
  const sw = browser.context.serviceWorkers()[0];
  return sw.evaluate(async () => (await chrome.runtime.getContexts({ contextTypes: ['SIDE_PANEL' as chrome.runtime.ContextType] }))
    .map((c) => ({ documentUrl: c.documentUrl })));
}

test('Ctrl+Shift+Y on a web page opens the side panel', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${site.url}recipes/index.html`);
  await page.bringToFront();
  await page.locator('body').click(); // the page has the keyboard
  expect(await sidePanels()).toEqual([]);

  const press = spawnSync('python3', [path.join(ROOT, 'test', 'fixtures', 'x11-key.py'), 'Control_L', 'Shift_L', 'y'], { env: { ...process.env, DISPLAY: display }, encoding: 'utf8' });
  expect(press.status, `x11-key.py: ${press.stderr}`).toBe(0);

  await expect.poll(sidePanels, { message: 'a side panel opened', timeout: 15_000 }).toHaveLength(1);
  const [panel] = await sidePanels();
  expect(panel.documentUrl).toMatch(/\/sidepanel\/index\.html$/);
  // It is the side panel, not a tab (the browser has one window: the panel is in the page's).
  expect(browser.context.pages().map((p) => p.url()).filter((u) => u.includes('/sidepanel/'))).toHaveLength(0);
});
