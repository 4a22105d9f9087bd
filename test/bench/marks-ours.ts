/**
 * Our labeler, two ways:
 * - "extension": the built extension (dist/), view message `marks/label` { tabId } → MarksSnapshot
 *   (all frames merged, overlay drawn, labelMs = time in the page); `marks/clear` { tabId }.
 * - "harness": the labeler bundle (test/e2e/inject.ts) added to the page, `__labeler.drawMarks()`
 *   in the top frame only (no iframes, no closed shadow roots), timed with performance.now.
 * oursMode() picks "extension" once src/core/messages.ts and dist/ both have `marks/label`
 * (OURS=harness|extension overrides).
 *
 * Label tags (for the overlap count) are read from the drawn overlay (<… data-wa-ui="overlay">
 * hosts with an open shadow root, `.l` children), in every frame, offset into top-page
 * coordinates. When no readable overlay is found, they are computed from the marks with the
 * drawing code's own placement (src/core/label-layout.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { MarksSnapshot, Rect } from '../../src/core/marks';
import * as draw from '../../src/core/label-layout';
import { injectLabeler } from '../e2e/inject';
import { extensionSession, plainSession, type ExtensionSession, type Session } from './marks-browser';
import type { LabelResult } from './marks-score';
import { frameGeometry } from './marks-truth';

type LabelerApi = typeof import('../../content-scripts/labeler/index');
declare global {
  interface Window { __labeler: LabelerApi }
}

export type OursMode = 'extension' | 'harness';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Why the extension path is (not) usable yet. */
export function extensionStatus(): { ready: boolean; why: string } {
  const messages = readFileSync(path.join(ROOT, 'src', 'core', 'messages.ts'), 'utf8');
  if (!messages.includes("'marks/label'")) return { ready: false, why: "src/core/messages.ts has no 'marks/label' yet" };
  const assets = path.join(ROOT, 'dist', 'assets');
  if (!existsSync(assets)) return { ready: false, why: 'dist/ is not built' };
  const built = readdirSync(assets).some((f) => f.endsWith('.js') && readFileSync(path.join(assets, f), 'utf8').includes('marks/label'));
  return built ? { ready: true, why: 'extension built with marks/label' } : { ready: false, why: 'dist/ was built without marks/label (run npx vite build)' };
}

export function oursMode(): OursMode {
  const forced = process.env.OURS;
  if (forced === 'extension' || forced === 'harness') return forced;
  return extensionStatus().ready ? 'extension' : 'harness';
}

export interface Ours {
  mode: OursMode;
  session: Session;
  /** open a corpus page ready for labeling */
  open(url: string, dpr: number): Promise<Page>;
  /** one labeling pass; withBoxes also reads the drawn label tags */
  label(page: Page, withBoxes: boolean): Promise<LabelResult>;
  clear(page: Page): Promise<void>;
  close(): Promise<void>;
}

export async function startOurs(mode: OursMode = oursMode()): Promise<Ours> {
  return mode === 'extension' ? extensionOurs(await extensionSession()) : harnessOurs(await plainSession());
}

function toResult(snap: MarksSnapshot, ms: number, boxes: Rect[]): LabelResult {
  const marks = snap.marks.map((m) => ({ label: m.label, tag: m.tag, text: m.text, rect: m.rect }));
  return { marks, labelBoxes: boxes, drawn: marks.length, ms };
}

function harnessOurs(session: Session): Ours {
  return {
    mode: 'harness',
    session,
    open: async (url, dpr) => {
      const page = await session.open(url, dpr);
      await injectLabeler(page);
      return page;
    },
    label: async (page, withBoxes) => {
      const { snap, ms } = await page.evaluate(() => {
        const t0 = performance.now();
        const s = window.__labeler.drawMarks();
        return { snap: s, ms: performance.now() - t0 };
      });
      return toResult(snap, ms, withBoxes ? await labelBoxes(page, snap) : []);
    },
    clear: (page) => page.evaluate(() => window.__labeler.resetMarks()),
    close: () => session.close(),
  };
}

function send<T>(panel: Page, type: string, payload: unknown): Promise<T> {
  type Api = { webagent: { send(t: string, p: unknown): Promise<unknown> } };
  return panel.evaluate(([t, p]) => (window as unknown as Api).webagent.send(t, p), [type, payload] as const) as Promise<T>;
}

function extensionOurs(session: ExtensionSession): Ours {
  return {
    mode: 'extension',
    session,
    open: (url, dpr) => session.open(url, dpr),
    label: async (page, withBoxes) => {
      const tabId = await session.tabId(page);
      const snap = await send<MarksSnapshot>(session.panel, 'marks/label', { tabId });
      return toResult(snap, snap.labelMs ?? NaN, withBoxes ? await labelBoxes(page, snap) : []);
    },
    clear: async (page) => { await send(session.panel, 'marks/clear', { tabId: await session.tabId(page) }); },
    close: () => session.close(),
  };
}

/** The drawn label tags in top-page CSS px: read from the overlay, else computed like draw.ts does. */
export async function labelBoxes(page: Page, snap: MarksSnapshot): Promise<Rect[]> {
  const boxes: Rect[] = [];
  let readable = 0, closed = 0;
  for (const g of await frameGeometry(page)) {
    if (!g.clip) continue;
    const found = await g.frame.evaluate(() => {
      const out: { closed: number; open: number; boxes: Array<{ x: number; y: number; width: number; height: number }> } = { closed: 0, open: 0, boxes: [] };
      for (const host of Array.from(document.querySelectorAll('[data-wa-ui="overlay"]'))) {
        if (!host.shadowRoot) { out.closed++; continue; }
        out.open++;
        for (const l of Array.from(host.shadowRoot.querySelectorAll('.l'))) {
          const r = l.getBoundingClientRect();
          out.boxes.push({ x: r.x, y: r.y, width: r.width, height: r.height });
        }
      }
      return out;
    }).catch(() => ({ closed: 0, open: 0, boxes: [] }));
    readable += found.open;
    closed += found.closed;
    for (const b of found.boxes) boxes.push({ x: b.x + g.origin.x, y: b.y + g.origin.y, width: b.width, height: b.height });
  }
  if (readable && !closed && boxes.length === snap.marks.length) return boxes;
  return computedBoxes(snap);
}

/** The placement both painters use (src/core/label-layout.ts: labelBoxes() when it exports one, else placeLabels()). */
export function computedBoxes(snap: MarksSnapshot): Rect[] {
  const api = draw as unknown as Record<string, unknown>;
  const items = snap.marks.map((m) => ({ label: m.label, rect: m.rect }));
  type Boxish = { x: number; y: number; w?: number; h?: number; width?: number; height?: number };
  const place = (typeof api.labelBoxes === 'function' ? api.labelBoxes : draw.placeLabels) as (i: typeof items, w: number, h: number) => Boxish[];
  return place(items, snap.viewport.width, snap.viewport.height)
    .map((b) => ({ x: b.x, y: b.y, width: b.width ?? b.w ?? 0, height: b.height ?? b.h ?? 0 }));
}
