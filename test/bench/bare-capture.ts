/**
 * A bare capture of a run's page, the yardstick of the observe step (its budget: 1.3× one): the
 * page captured by its own CDP session as observe takes it (PNG encoded for speed, the viewport),
 * in the same browser and run, with nothing else asked of the page.
 */
import type { BrowserContext } from 'playwright-core';

/** `n` bare captures of the run's page (PNG as observe takes it, by its own CDP session), ms each. */
export async function bareCaptures(context: BrowserContext, n: number): Promise<number[]> {
  const page = context.pages().find((p) => p.url().startsWith('http'));
  if (!page) return [];
  const cdp = await context.newCDPSession(page);
  const out: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, captureBeyondViewport: false });
      out.push(performance.now() - t);
    }
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  return out;
}

