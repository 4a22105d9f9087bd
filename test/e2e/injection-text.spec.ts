/**
 * The page text screen (content-scripts/labeler/screen-text.ts) in real Chromium, through the
 * labeler's esbuild harness in every frame: what a page shows besides its controls — paragraphs,
 * headings, table cells, list items, words split over inline elements, an image's alt, a
 * tooltip, an accessible name, in open and closed shadow roots and in iframes, in English,
 * Chinese and German — is flagged at the element that says it (pages with
 * <meta name="injection" content="flagged">, their [data-instruction] elements), and nothing else
 * is: not the look-alikes (an article quoting the phrases, an agent's log in code, ordinary
 * interface text) and not what a person cannot see (the same colour as its background, display
 * none, font-size 0, opacity 0, off screen, below the fold, a white span in a visible paragraph).
 * The older hostile corpus (test/fixtures/pages/hostile/) is read the same way: its hidden
 * instructions (HIDDENTXT) are never flagged, its instruction pages are.
 */
import { test, expect } from '@playwright/test';
import type { Browser, Frame, Page } from 'playwright-core';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { launchPlainChromium, serveFixtures } from './support';
import { labelerBundle } from './inject';
import type { TextFinding } from '../../src/core/marks';
import type { StaticServer } from '../../scripts/static-server';

type LabelerApi = typeof import('../../content-scripts/labeler/index');
declare global { interface Window { __labeler: LabelerApi } }

const PAGES = path.join(import.meta.dirname, '..', 'fixtures', 'pages');
const pagesIn = (dir: string) => readdirSync(path.join(PAGES, dir)).filter((n) => n.endsWith('.html')).sort().map((n) => `${dir}/${n}`);
const NAMES = [...pagesIn('hostile-text'), ...pagesIn('hostile')];

let browser: Browser;
let site: StaticServer;
let page: Page;

// one browser, one page for the file: each test loads its page into it (a fresh document, a fresh labeler)
test.beforeAll(async () => {
  site = await serveFixtures();
  browser = await launchPlainChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
});
test.afterAll(async () => {
  await browser?.close();
  await site?.close();
});

interface FrameRead { findings: TextFinding[]; instructions: Array<{ tag: string; words: string }> }

/** Label the frame, screen its text, and list its [data-instruction] elements (shadow roots included, closed ones through the seam). */
function readFrame(frame: Frame): Promise<FrameRead> {
  return frame.evaluate(() => {
    const L = window.__labeler;
    L.drawMarks();
    const findings = L.screenText();
    const closed = (globalThis as { __webagentClosedRoots?: WeakMap<Element, ShadowRoot> }).__webagentClosedRoots;
    const instructions: Array<{ tag: string; words: string }> = [];
    const visit = (root: Document | ShadowRoot) => {
      for (const el of Array.from(root.querySelectorAll('*'))) {
        if (el.hasAttribute('data-instruction')) {
          const words = el.getAttribute('alt') ?? el.getAttribute('title') ?? el.getAttribute('aria-label') ?? el.textContent ?? '';
          instructions.push({ tag: el.localName, words: words.replace(/\s+/g, ' ').trim() });
        }
        const inner = el.shadowRoot ?? closed?.get(el);
        if (inner) visit(inner);
      }
    };
    visit(document);
    return { findings, instructions };
  });
}

test('the page text corpus has its channels and look-alikes', () => {
  expect(pagesIn('hostile-text').length).toBeGreaterThanOrEqual(20);
});

for (const name of NAMES) {
  test(`page text screen: ${name}`, async () => {
    {
      await page.goto(`${site.url}${name}`);
      const bundle = await labelerBundle();
      const findings: TextFinding[] = [];
      const instructions: FrameRead['instructions'] = [];
      for (const frame of page.frames()) {
        await frame.addScriptTag({ content: bundle });
        const r = await readFrame(frame);
        findings.push(...r.findings);
        instructions.push(...r.instructions);
      }
      const flagged = await page.locator('meta[name="injection"][content="flagged"]').count() > 0;
      expect(findings.filter((f) => f.excerpt.includes('HIDDENTXT')), 'nothing a person cannot see').toEqual([]);
      if (!flagged) {
        expect(findings, 'nothing on this page is aimed at the agent').toEqual([]);
        return;
      }
      expect(instructions.length, 'an instruction page marks its instructions').toBeGreaterThan(0);
      // every instruction is found at its element (the older corpus's are in controls: the element list's check finds those, injection.spec.ts)
      if (!name.startsWith('hostile-text/')) return;
      const at = (i: { tag: string; words: string }) => findings.some((f) => f.tag === i.tag && i.words.replace(/\s+/g, ' ').startsWith(f.excerpt.slice(0, 24)));
      for (const i of instructions) expect(at(i), `${i.tag}: ${i.words}`).toBe(true);
      for (const f of findings) expect(f.phrase.length).toBeGreaterThan(0);
    }
  });
}
