/**
 * What a corpus page says must (data-gold) and must not (data-decoy) be labelled, measured in the
 * browser with Playwright, in top-page CSS pixels.
 *
 * 1. Frames: each frame's content box in top-page coordinates (its <iframe>'s boundingBox minus
 *    border and padding) and its clip (that box ∩ the parent's clip; the top clip is the viewport).
 * 2. In each frame, find [data-gold]/[data-decoy] through open shadow roots and through the closed
 *    roots the page lists in window.__benchRoots (a test-only hook: the harness cannot reach a
 *    closed root otherwise).
 * 3. Each element's boundingBox() (top-page coordinates even inside iframes and zoomed containers),
 *    clipped to its frame's clip.
 */
import type { ElementHandle, Frame, JSHandle, Page } from 'playwright-core';
import type { Rect } from '../../src/core/marks';
import { intersect, type TruthItem } from './marks-score';

export interface FrameGeometry {
  frame: Frame;
  /** where the frame's viewport origin sits in the top page */
  origin: { x: number; y: number };
  /** the part of the frame visible in the top viewport, null when none */
  clip: Rect | null;
  depth: number;
}

const toRect = (b: { x: number; y: number; width: number; height: number }): Rect => ({ x: b.x, y: b.y, width: b.width, height: b.height });

export async function frameGeometry(page: Page): Promise<FrameGeometry[]> {
  const vp = await page.evaluate(() => ({ w: innerWidth, h: innerHeight }));
  const out: FrameGeometry[] = [];
  const visit = async (frame: Frame, origin: { x: number; y: number }, clip: Rect | null, depth: number) => {
    out.push({ frame, origin, clip, depth });
    for (const child of frame.childFrames()) {
      const owner = await child.frameElement().catch(() => null);
      const box = owner ? await owner.boundingBox() : null;
      if (!owner || !box) { out.push({ frame: child, origin, clip: null, depth: depth + 1 }); continue; }
      // (no named helpers inside evaluated functions: tsx's keepNames would add __name calls)
      const inset = await owner.evaluate((el) => {
        const s = getComputedStyle(el as Element);
        const [bl, pl, bt, pt, br, pr, bb, pb] = [s.borderLeftWidth, s.paddingLeft, s.borderTopWidth, s.paddingTop, s.borderRightWidth, s.paddingRight, s.borderBottomWidth, s.paddingBottom].map((v) => parseFloat(v) || 0);
        return { l: bl + pl, t: bt + pt, r: br + pr, b: bb + pb };
      });
      const content: Rect = { x: box.x + inset.l, y: box.y + inset.t, width: box.width - inset.l - inset.r, height: box.height - inset.t - inset.b };
      await visit(child, { x: content.x, y: content.y }, clip ? intersect(clip, content) : null, depth + 1);
    }
  };
  await visit(page.mainFrame(), { x: 0, y: 0 }, { x: 0, y: 0, width: vp.w, height: vp.h }, 0);
  return out;
}

interface Meta { kind: 'gold' | 'decoy'; text: string | null; desc: string; closed: boolean }

/** Step 2, in the frame: the marked elements (array handle) and their metadata. */
function findMarked(frame: Frame): Promise<JSHandle<Array<{ el: Element; meta: Meta }>>> {
  return frame.evaluateHandle(() => {
    const out: Array<{ el: Element; meta: Meta }> = [];
    const closedRoots = (window as unknown as { __benchRoots?: ShadowRoot[] }).__benchRoots ?? [];
    // iterative walk (no named helpers inside evaluated functions: tsx's keepNames would add __name calls)
    const stack: Array<{ root: Document | ShadowRoot; closed: boolean }> = [{ root: document, closed: false }, ...closedRoots.map((root) => ({ root, closed: true }))];
    while (stack.length) {
      const { root, closed } = stack.shift()!;
      for (const el of Array.from(root.querySelectorAll('*'))) {
        const gold = el.hasAttribute('data-gold');
        if (gold || el.hasAttribute('data-decoy')) {
          const id = el.id ? `#${el.id}` : '';
          const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/)[0]}` : '';
          const name = el.getAttribute('aria-label') ?? el.getAttribute('data-gold-text') ?? (el as HTMLElement).innerText ?? el.textContent ?? '';
          const desc = `<${el.localName}${id}${cls}> ${name.replace(/\s+/g, ' ').trim().slice(0, 40)}`;
          out.push({ el, meta: { kind: gold ? 'gold' : 'decoy', text: gold ? el.getAttribute('data-gold-text') : null, desc, closed } });
        }
        if (el.shadowRoot) stack.push({ root: el.shadowRoot, closed });
      }
    }
    return out;
  });
}

export async function collectTruth(page: Page): Promise<TruthItem[]> {
  const frames = await frameGeometry(page);
  const items: TruthItem[] = [];
  for (const g of frames) {
    let found: JSHandle<Array<{ el: Element; meta: Meta }>>;
    try {
      found = await findMarked(g.frame);
    } catch (err) {
      if (g.frame.isDetached()) continue; // a frame that went away has nothing to score
      throw err;
    }
    const metas = await found.evaluate((xs) => xs.map((x) => x.meta));
    const elems = await found.evaluateHandle((xs) => xs.map((x) => x.el));
    const props = await elems.getProperties();
    const where = g.depth ? ` [in ${new URL(g.frame.url()).pathname}]` : '';
    for (let i = 0; i < metas.length; i++) {
      const h = props.get(String(i))?.asElement() as ElementHandle<Element> | null;
      const bb = h ? await h.boundingBox() : null;
      const box = bb ? toRect(bb) : null;
      const rect = box && g.clip ? intersect(box, g.clip) : null;
      items.push({ kind: metas[i].kind, desc: metas[i].desc + where, text: metas[i].text, rect, box, inFrame: g.depth > 0, inClosedShadow: metas[i].closed });
    }
    await found.dispose();
    await elems.dispose();
  }
  return items;
}
