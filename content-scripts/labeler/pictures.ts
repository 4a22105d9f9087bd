/**
 * The pictures on screen in this frame, whose drawn words the background reads by OCR
 * (src/core/picture-text.ts; docs/labeling.md, "Words in pictures"): images, canvases, videos
 * (a poster or a frame), SVG drawings, image inputs, embedded objects, and elements drawn with a
 * CSS background image (their own or their ::before / ::after's). Each is given as the part of
 * its box inside the viewport, with its tag.
 *
 * Cost: one query for the picture elements, and the elements a style sheet rule or an inline style
 * may give a background image (style-rules.ts); when a sheet cannot be read (another origin's: a
 * web font's sheet is enough), every element's own background instead (ownBackgrounds); a
 * ::before / ::after background from such a sheet is then not seen (reading every element's two
 * pseudo-elements would cost 60-110 ms on the documentation pages of the bench).
 */
import { MIN_PICTURE_HEIGHT, MIN_PICTURE_WIDTH, type PictureBox } from '../../src/core/picture-text';
import { UI_ATTR } from './dom';
import { elementsOfRules, hostSelectors } from './style-rules';
import { boxOf } from './boxes';

const PICTURE_TAGS = 'img, canvas, video, svg, input[type="image" i], object, embed, [style*="url(" i]';
/** a rule draws a picture: a background or mask image, or `content: url(…)` */
const DRAWS = /\b(url|image-set|-webkit-image-set|cross-fade|element)\(/i;

function ruleDrawsPicture(s: CSSStyleDeclaration, selectorText: string): string[] | null {
  if (!DRAWS.test(s.backgroundImage) && !DRAWS.test(s.content) && !DRAWS.test(s.getPropertyValue('mask-image')) && !DRAWS.test(s.getPropertyValue('-webkit-mask-image'))) return null;
  return hostSelectors(selectorText, false);
}

/** The element, its ::before or its ::after draws a background picture. */
function drawsBackground(el: Element): boolean {
  const own = getComputedStyle(el);
  if (DRAWS.test(own.backgroundImage) || DRAWS.test(own.content)) return true;
  for (const p of ['::before', '::after']) {
    const s = getComputedStyle(el, p);
    if (s.content !== 'none' && s.content !== 'normal' && (DRAWS.test(s.backgroundImage) || DRAWS.test(s.content))) return true;
  }
  return false;
}

/**
 * The fallback when a sheet cannot be read: every element of the roots whose box meets the
 * viewport and whose own computed style draws a background picture (a picture off screen is left
 * out below anyway). The boxes are the screen's (boxes.ts: on such a page the drawn-text screen has
 * read every element's already), so only the elements on screen cost a style read: about 14 ms
 * on the 9,000 elements of n-api when every element's style was read, 23 on 15,600; a grid of hit
 * tests over the viewport cost 325–640 ms on the same pages.
 */
function ownBackgrounds(roots: ReadonlyArray<Document | ShadowRoot>, vw: number, vh: number): Set<Element> {
  const out = new Set<Element>();
  for (const root of roots) {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const r = boxOf(el);
      if (r.bottom <= 0 || r.right <= 0 || r.top >= vh || r.left >= vw) continue;
      if (DRAWS.test(getComputedStyle(el).backgroundImage)) out.add(el);
    }
  }
  return out;
}

/** This frame's pictures on screen (`roots`: the shadow roots the labeling walk met). */
export function picturesOnScreen(roots: readonly ShadowRoot[], vw = window.innerWidth, vh = window.innerHeight): PictureBox[] {
  const all: Array<Document | ShadowRoot> = [document, ...roots];
  const tagged = new Set<Element>();
  for (const root of all) root.querySelectorAll(PICTURE_TAGS).forEach((el) => tagged.add(el));
  const styled = elementsOfRules(all, ruleDrawsPicture) ?? ownBackgrounds(all, vw, vh);
  const out: PictureBox[] = [];
  const consider = (el: Element, byStyle: boolean) => {
    if (el.closest(`[${UI_ATTR}]`)) return;
    if (el instanceof SVGElement && el.ownerSVGElement) return; // inside a drawing read whole
    const r = boxOf(el);
    const x = Math.max(0, r.left);
    const y = Math.max(0, r.top);
    const width = Math.min(vw, r.right) - x;
    const height = Math.min(vh, r.bottom) - y;
    if (width < MIN_PICTURE_WIDTH || height < MIN_PICTURE_HEIGHT) return;
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return;
    if (el instanceof HTMLImageElement && !(el.complete && el.naturalWidth > 0)) return; // not drawn (a broken image shows its alt: page text)
    if (byStyle && !drawsBackground(el)) return;
    out.push({ rect: { x, y, width, height }, tag: el.localName });
  };
  for (const el of tagged) consider(el, el.hasAttribute('style') && !/^(img|canvas|video|svg|input|object|embed)$/.test(el.localName));
  for (const el of styled) if (!tagged.has(el)) consider(el, true);
  return out;
}
