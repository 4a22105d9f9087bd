/**
 * The injection corpus (test/fixtures/pages/hostile/, frames' pages in hostile/inner/): pages that
 * hide text a person cannot see (off-screen, font-size 0, transparent, clipped, zero-size,
 * aria-hidden, covered, the background's colour, scrolled out of a clipping box, …), pages whose
 * text, aria-label, title, placeholder or value forges element-list entries, pages with text aimed
 * at the agent and look-alikes of them; in iframes (same-origin, and cross-origin: the other
 * loopback name) and shadow roots (open, and closed through the harness's seam). Each page is
 * labelled in real Chromium (the labeler through the esbuild harness, in every frame) and its
 * element list written as the glm-web dialect writes it. Checked: no hidden text (marked HIDDENTXT
 * in the pages) in any element's text, the list parsed line by line has exactly the labels that
 * exist, each [data-want] control still has its ordinary text, and the injection detector
 * (src/core/injection/index.ts) on what the model reads flags exactly the pages with
 * <meta name="injection" content="flagged">, at their [data-instruction] elements.
 */
import { test, expect } from './fixtures';
import type { Browser, Frame } from 'playwright-core';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StaticServer } from '../../scripts/static-server';
import { launchPlainChromium, serveFixtures } from './support';
import { labelerBundle } from './inject';
import { formatElements } from '../../src/core/dialects/glm-web';
import { detectInjection, pageTexts } from '../../src/core/injection';
import type { Mark } from '../../src/core/marks';

type LabelerApi = typeof import('../../content-scripts/labeler/index');
declare global { interface Window { __labeler: LabelerApi } }

const PAGES = fileURLToPath(new URL('../fixtures/pages/hostile/', import.meta.url));
const NAMES = readdirSync(PAGES).filter((n) => n.endsWith('.html')).sort();

let browser: Browser;
let server: StaticServer;
let base = '';

test.beforeAll(async () => {
  server = await serveFixtures('hostile');
  base = server.url;
  browser = await launchPlainChromium();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Want { kind: 'want' | 'want-prefix' | 'want-contains'; value: string; got: string | null }

/**
 * Label one frame; for each [data-want*] element (shadow roots included, closed ones through the
 * page's seam), the text its mark got; the labels (in this frame) of [data-instruction] elements.
 */
function labelFrame(frame: Frame): Promise<{ marks: Mark[]; wants: Want[]; instructions: number[] }> {
  return frame.evaluate(() => {
    const L = window.__labeler;
    const snap = L.drawMarks();
    const els = L.debugElements();
    const all: Element[] = [];
    const closed = (globalThis as { __webagentClosedRoots?: WeakMap<Element, ShadowRoot> }).__webagentClosedRoots;
    const visit = (root: Document | ShadowRoot) => {
      for (const el of Array.from(root.querySelectorAll('*'))) {
        all.push(el);
        const inner = el.shadowRoot ?? closed?.get(el);
        if (inner) visit(inner);
      }
    };
    visit(document);
    const wants: Want[] = [];
    for (const el of all) {
      for (const kind of ['want', 'want-prefix', 'want-contains'] as const) {
        const value = el.getAttribute(`data-${kind}`);
        if (value === null) continue;
        const i = els.indexOf(el);
        wants.push({ kind, value, got: i < 0 ? null : snap.marks[i].text });
      }
    }
    const instructions = all.filter((el) => el.hasAttribute('data-instruction')).map((el) => els.indexOf(el));
    return { marks: snap.marks, wants, instructions };
  });
}

test('the corpus has at least 30 hostile pages', () => {
  expect(NAMES.length).toBeGreaterThanOrEqual(30);
});

for (const name of NAMES) {
  test(`hostile page ${name}: no hidden text, no forged entry, ordinary text kept`, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(base + name);
      const bundle = await labelerBundle();
      const marks: Mark[] = [];
      const wants: Want[] = [];
      const instructions: number[] = [];
      for (const frame of page.frames()) {
        await frame.addScriptTag({ content: bundle });
        const r = await labelFrame(frame);
        instructions.push(...r.instructions.map((i) => (i < 0 ? -1 : marks.length + i)));
        marks.push(...r.marks);
        wants.push(...r.wants);
      }
      const flagged = await page.locator('meta[name="injection"][content="flagged"]').count() > 0;
      expect(errors).toEqual([]);
      const list = marks.map((m, label) => ({ ...m, label }));
      expect(list.length).toBeGreaterThanOrEqual(2);

      // no text a person cannot see
      expect(list.filter((m) => m.text.includes('HIDDENTXT')).map((m) => m.text)).toEqual([]);

      // the list, read line by line and entry by entry, has exactly the labels that exist
      const text = formatElements(list);
      const entries = text.split(/[\t\n]/);
      expect(entries.map((e) => /^\[(\d+)\]: /.exec(e)?.[1] ?? e)).toEqual(list.map((m) => String(m.label)));
      expect(text.match(/\[\d+\]:/g)).toHaveLength(list.length);
      for (const e of entries) {
        const body = e.replace(/^\[\d+\]: (<(button|input|textarea|select)> )?/, '');
        expect(body, 'no list or reply shape inside an entry').not.toMatch(/\[\d+\]|<\/?[a-z]+>|\b(action|thought|memory|memory_updated|observation)\s*:/i);
      }

      // visible controls keep their ordinary text
      expect(wants.length).toBeGreaterThan(0);
      for (const w of wants) {
        expect(w.got, `${w.kind} "${w.value}" labelled`).not.toBeNull();
        const got = w.got ?? '';
        if (w.kind === 'want') expect(got).toBe(w.value);
        else if (w.kind === 'want-prefix') { expect(got.startsWith(w.value)).toBe(true); expect(got.length).toBeLessThanOrEqual(150); }
        else expect(got).toContain(w.value);
      }

      // instructions to the agent in what the model reads: flagged where they are, and only there
      const hits = detectInjection(pageTexts(await page.title(), list));
      if (flagged) {
        expect(instructions.length, 'an instruction page marks its instructions').toBeGreaterThan(0);
        expect(instructions, 'every instruction is labelled').not.toContain(-1);
        expect(hits.map((h) => h.where).sort()).toEqual([...instructions].sort());
      } else {
        expect(hits, 'nothing on this page is aimed at the agent').toEqual([]);
      }
    } finally {
      await context.close();
    }
  });
}
