/**
 * Quoting the page's visible text inside a box (content-scripts/quote.ts: CogAgent's QUOTE_TEXT),
 * in real headless Chromium (the module bundled with esbuild, no extension): text hidden as the
 * element list hides it is left out, fields give their values but never a password, lines stay
 * lines, and with `all` a lazy list is scrolled to its end and read whole, each row once.
 */
import { test, expect } from './fixtures';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { StaticServer } from '../../scripts/static-server';
import { launchPlainChromium, serveFixtures } from './support';
import type { Rect } from '../../src/core/marks';

type QuoteApi = typeof import('../../content-scripts/quote');
declare global {
  interface Window { __quote: QuoteApi }
}

let browser: Browser;
let site: StaticServer;
let page: Page;
let bundle: string;

test.beforeAll(async () => {
  const entry = fileURLToPath(new URL('../../content-scripts/quote.ts', import.meta.url));
  bundle = (await build({ entryPoints: [entry], bundle: true, format: 'iife', globalName: '__quote', write: false, target: 'chrome120', logLevel: 'silent' })).outputFiles[0].text;
  site = await serveFixtures();
  browser = await launchPlainChromium();
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.goto(`${site.url}quote/quote.html`);
  await page.addScriptTag({ content: bundle });
});

test.afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const boxOf = (sel: string) => page.locator(sel).evaluate((el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; });
const quote = (box: Rect, all = false) => page.evaluate(([b, a]) => window.__quote.quoteBox(b, a), [box, all] as const);

test('the text a person sees in the box, line by line; hidden text and what lies outside left out', async () => {
  const q = await quote(await boxOf('#card'));
  expect(q.text.split('\n')).toEqual(['Blue kettle', 'Price after coupon: 17.00 USD', 'Shown line']);
  expect(q.text).not.toMatch(/Secret|Clipped|Outside/);
  expect(q).toMatchObject({ pages: 1, capped: false });
  // a box around the price alone
  expect((await quote(await boxOf('#card .price'))).text).toBe('17.00');
  // nothing there
  expect((await quote({ x: 800, y: 600, width: 50, height: 50 })).text).toBe('');
});

test('fields give their values, never a password', async () => {
  const q = await quote(await boxOf('#form'));
  expect(q.text).toContain('Ada Lovelace');
  expect(q.text).toContain('Large');
  expect(q.text).not.toContain('hunter2');
});

test('all: a lazy list scrolled to its end, every row once, in order', async () => {
  const box = await boxOf('#list');
  const first = await quote(box);
  // without scrolling: only the rows in view
  expect(first.text.split('\n').length).toBeLessThan(10);
  const q = await quote(box, true);
  expect(q.text.split('\n')).toEqual(Array.from({ length: 100 }, (_, i) => `Row ${i + 1}`));
  expect(q.capped).toBe(false);
  expect(q.pages).toBeGreaterThan(5);
  // the list is left at its end, as a person who scrolled it would leave it
  expect(await page.locator('#list').evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2)).toBe(true);
});
