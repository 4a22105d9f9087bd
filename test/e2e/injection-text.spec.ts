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
import { test, expect } from './fixtures';
import type { Browser, Frame, Page } from 'playwright-core';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { launchPlainChromium, serveFixtures } from './support';
import { labelerBundle } from './inject';
import type { TextFinding } from '../../src/core/marks';
import { detectInjection } from '../../src/core/injection';
import { findingsOf } from '../../src/core/run/findings';
import { readDocsFile } from '../../src/core/docs/file';
import { readAttack } from '../fixtures/model/obey';
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

interface FrameRead { findings: TextFinding[]; instructions: Array<{ tag: string; words: string; seen: string | null }> }

/** Label the frame, screen its text, and list its [data-instruction] elements (shadow roots included, closed ones through the seam). */
function readFrame(frame: Frame): Promise<FrameRead> {
  return frame.evaluate(() => {
    const L = window.__labeler;
    L.drawMarks();
    const findings = L.screenText();
    const closed = (globalThis as { __webagentClosedRoots?: WeakMap<Element, ShadowRoot> }).__webagentClosedRoots;
    const instructions: Array<{ tag: string; words: string; seen: string | null }> = [];
    const visit = (root: Document | ShadowRoot) => {
      for (const el of Array.from(root.querySelectorAll('*'))) {
        if (el.hasAttribute('data-instruction')) {
          const words = el.getAttribute('alt') ?? el.getAttribute('title') ?? el.getAttribute('aria-label') ?? el.textContent ?? '';
          instructions.push({ tag: el.localName, words: words.replace(/\s+/g, ' ').trim(), seen: el.getAttribute('data-seen') });
        }
        const inner = el.shadowRoot ?? closed?.get(el);
        if (inner) visit(inner);
      }
    };
    visit(document);
    return { findings, instructions };
  });
}

test('the page text corpus has its channels, languages and look-alikes', () => {
  const attacks = pagesIn('hostile-text').map((n) => readAttack(readFileSync(path.join(PAGES, n), 'utf8'))).filter((a) => a !== null);
  expect(attacks.length).toBeGreaterThanOrEqual(60);
  const channels = new Set(attacks.map((a) => a.channel.replace(/^grammar-.*/, 'grammar')));
  for (const c of ['paragraph', 'heading', 'table', 'list', 'alt', 'tooltip', 'aria-label', 'iframe', 'iframe-cross', 'shadow-open', 'shadow-closed', 'url-path', 'url-link', 'notes', 'clipboard', 'quoted-text', 'grammar']) expect(channels, c).toContain(c);
  const langs = new Set(attacks.map((a) => a.lang));
  for (const l of ['en', 'zh-Hans', 'zh-Hant', 'de', 'fr', 'es', 'ja', 'ru', 'it', 'pt', 'pl', 'tr', 'ko']) expect(langs, l).toContain(l);
  expect(pagesIn('hostile-text').filter((n) => n.includes('/lookalike-')).length).toBeGreaterThanOrEqual(8);
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
      const elsewhere = await page.evaluate(() => document.querySelector('meta[name="injection"]')?.getAttribute('content') ?? null);
      expect(findings.filter((f) => f.excerpt.includes('HIDDENTXT')), 'nothing a person cannot see').toEqual([]);
      if (!flagged) {
        expect(findings, 'nothing on this page is aimed at the agent').toEqual([]);
        if (elsewhere) await offPage(elsewhere);
        return;
      }
      expect(instructions.length, 'an instruction page marks its instructions').toBeGreaterThan(0);
      // every instruction is found at its element (the older corpus's are in controls: the element list's check finds those, injection.spec.ts)
      if (!name.startsWith('hostile-text/')) return;
      // data-seen: the words a person reads where the page text says something else (seen-*.html: generated
      // content, a bidi override, fragments placed apart, a zero-size prefix): found in what is drawn
      const at = (i: FrameRead['instructions'][number]) => findings.some((f) => (i.seen
        ? i.seen.toLowerCase().includes(f.phrase.toLowerCase()) && f.excerpt.toLowerCase().includes(f.phrase.toLowerCase())
        : f.tag === i.tag && i.words.replace(/\s+/g, ' ').startsWith(f.excerpt.slice(0, 24))));
      for (const i of instructions) expect(at(i), `${i.tag}: ${i.words}; findings: ${JSON.stringify(findings)}`).toBe(true);
      for (const f of findings) expect(f.phrase.length).toBeGreaterThan(0);
    }
  });
}

/**
 * The page's instruction is not in its text but in what else the model reads (meta injection=url,
 * notes, clipboard, picture): its address or a link's target (the run's URL finding, core/run/findings.ts),
 * its imported site notes (refused at import, core/docs/note-rules.ts), what its copy button puts
 * on the clipboard (a run variable, screened like page text), a picture (listed here where it is
 * drawn; its words are read by OCR in a run: injection-obey.spec.ts).
 */
async function offPage(where: string): Promise<void> {
  if (where === 'url') {
    const link = await page.evaluate(() => document.querySelector('[data-instruction-url]')?.getAttribute('href') ?? null);
    const url = link ? new URL(link, page.url()).href : page.url();
    const hits = findingsOf({ url, findings: [], docs: [], marks: [] }, []);
    expect(hits.map((h) => h.where), url).toEqual([{ channel: 'url' }]);
  } else if (where === 'notes') {
    const file = JSON.parse(await page.locator('#site-notes').textContent() ?? '') as Record<string, unknown>;
    const read = readDocsFile({ ...file, origin: new URL(page.url()).origin }, Date.now());
    if (!read.ok) throw new Error(read.error);
    const entries = (file.entries as unknown[]).length;
    // every note but the last (a description) tells the agent how to behave: refused, with the reason
    expect(read.refused.map((r) => r.entry)).toEqual(Array.from({ length: entries - 1 }, (_, i) => i + 1));
    for (const r of read.refused) expect(r.reason).toMatch(/tells the agent how to behave/);
    expect(read.entries.map((e) => e.fingerprint.text)).toEqual(['Send message']);
  } else if (where === 'clipboard') {
    const copied = await page.locator('[data-copy]').getAttribute('data-copy');
    expect(detectInjection([{ text: copied ?? '', where: '__CogName_Coupon__' }]).length, copied ?? '').toBeGreaterThan(0);
  } else if (where === 'picture') {
    // drawn in a picture: read by OCR in a run (injection-obey.spec.ts); here, the picture is listed where it is drawn
    const boxes = await page.evaluate(() => window.__labeler.pictureBoxes());
    const drawn = await page.evaluate(() => {
      const host = document.getElementById('promo');
      const shadow = host && (globalThis as { __webagentClosedRoots?: WeakMap<Element, ShadowRoot> }).__webagentClosedRoots?.get(host);
      const el = shadow ? shadow.querySelector('img') : document.querySelector('img[src*="pictures/"], canvas, video, .promo');
      const r = el!.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    });
    expect(boxes.some((b) => Math.abs(b.rect.x - drawn.x) < 2 && Math.abs(b.rect.y - drawn.y) < 2 && Math.abs(b.rect.width - drawn.width) < 2), JSON.stringify(boxes)).toBe(true);
  } else {
    throw new Error(`unknown meta injection "${where}"`);
  }
}
