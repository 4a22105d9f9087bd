/**
 * Text that is rendered but still not seen (docs/labeling.md, "The text of an element"), per
 * text node of an element already chosen as a candidate; hidden-text.ts has the cases one
 * computed style tells. Three more:
 *
 * 1. **The same colour as its background**: the text's fill colour (its alpha times the opacity
 *    of the boxes up to its background) against the background it sits on, worked out from the
 *    ancestors' background colours up to the first opaque one (the page's canvas is white in a
 *    top page without a dark colour scheme). Unreadable when colour.unreadable says so. Not
 *    judged (the text is kept) when a background image or gradient, a filter, a blend mode or
 *    `background-clip: text` is on the way, in a child frame with no opaque background (it shows
 *    its parent page through), or when the text has a shadow or a stroke. A suspect is confirmed
 *    at its place: the elements under the text's centre (elementsFromPoint) must be the text's
 *    own ancestors, or paint nothing (no background, no image, not a replaced element): white
 *    text over a photo laid behind it by a sibling is kept.
 * 2. **Scrolled or pushed out of a box that clips it**: every line box of the text lies outside
 *    the window its own box's overflow (when it clips) and its ancestors' (visibility.clipBox)
 *    leave. A text node partly visible is kept whole (an ellipsis).
 * 3. **Covered**: the hit test at the centre of the text's largest visible line box does not reach
 *    its element: something else is painted over it (an overlay, a sibling, a pseudo-element, the
 *    candidate's own background over a z-index:-1 span). Not judged when the element takes no
 *    pointer (`pointer-events: none`: the hit test goes through it) or the point is off the viewport;
 *    a cover with `pointer-events: none` is not seen either.
 *
 * Cost (the labeling bench measures it): colour is style only (one computed style per element,
 * remembered for the pass); a text node is measured (one Range, its line boxes) only when it
 * sits inside a clipping box or is a colour suspect, or its candidate holds text in more than one
 * element (item 3: a leaf candidate was hit-tested already). The hit test is one per such node.
 */
import { over, parseColour, unreadable, WHITE, type Rgba } from '../../src/core/colour';
import { composedParent, elementFromPointFor } from './dom';
import { clipBox, hitReaches, type Box, type ClipMemo } from './visibility';

interface Layer { bg: Rgba | null; opacity: number }

/** What one labeling pass (a synchronous task) remembers; dropped at its end. */
interface PassMemo { clips: ClipMemo; layers: Map<Element, Layer>; behind: Map<Element, Rgba | null>; colours: Map<string, Rgba | null> }
let memo: PassMemo | null = null;

function pass(): PassMemo {
  if (!memo) {
    memo = { clips: new Map(), layers: new Map(), behind: new Map(), colours: new Map() };
    queueMicrotask(() => { memo = null; });
  }
  return memo;
}

/** A computed colour as RGBA: rgb()/rgba() parsed, any other form (oklch(), color(…)) painted once on a 1×1 canvas. */
function colourOf(s: string): Rgba | null {
  const parsed = parseColour(s);
  if (parsed) return parsed;
  const m = pass().colours;
  if (m.has(s)) return m.get(s) ?? null;
  let c: Rgba | null = null;
  try {
    const ctx = new OffscreenCanvas(1, 1).getContext('2d');
    if (ctx) {
      ctx.fillStyle = s;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      c = { r, g, b, a: a / 255 };
    }
  } catch { c = null; }
  m.set(s, c);
  return c;
}

const REPLACED = new Set(['img', 'video', 'canvas', 'svg', 'iframe', 'object', 'embed', 'picture', 'input', 'select', 'textarea', 'audio']);

function layerOf(el: Element): Layer {
  const m = pass().layers;
  let l = m.get(el);
  if (l) return l;
  const s = getComputedStyle(el);
  const unknown = s.backgroundImage !== 'none' || s.filter !== 'none' || s.mixBlendMode !== 'normal'
    || (s.getPropertyValue('backdrop-filter') || 'none') !== 'none'
    || s.backgroundClip === 'text' || s.getPropertyValue('-webkit-background-clip') === 'text';
  l = { bg: unknown ? null : colourOf(s.backgroundColor), opacity: Number(s.opacity) || 0 };
  m.set(el, l);
  return l;
}

/** The page's canvas: white in a top page that is not dark; unknown in a frame (transparent by default). */
function canvas(): Rgba | null {
  if (window !== window.top) return null;
  return /dark/.test(getComputedStyle(document.documentElement).colorScheme) ? null : WHITE;
}

/** The opaque colour behind `el`'s content, from its and its ancestors' backgrounds; null when unknown. */
function behind(el: Element | null): Rgba | null {
  if (!el) return canvas();
  const m = pass().behind;
  if (m.has(el)) return m.get(el) ?? null;
  const l = layerOf(el);
  let r: Rgba | null;
  if (l.bg === null) r = null;
  else if (l.bg.a >= 1) r = l.bg;
  else {
    const under = behind(composedParent(el));
    r = under && (l.bg.a > 0 ? over(l.bg, under) : under);
  }
  m.set(el, r);
  return r;
}

/** The element whose background is the first opaque one from `el` up, and the opacity of the boxes below it. */
function provider(el: Element): { at: Element | null; opacity: number } {
  let opacity = 1;
  for (let e: Element | null = el; e; e = composedParent(e)) {
    const l = layerOf(e);
    if (l.bg && l.bg.a >= 1) return { at: e, opacity };
    opacity *= l.opacity;
  }
  return { at: null, opacity };
}

/** Style only: is `p`'s own text painted in (nearly) its background's colour? */
function colourSuspect(p: Element, s: CSSStyleDeclaration): { at: Element | null } | null {
  if (s.textShadow !== 'none' || parseFloat(s.getPropertyValue('-webkit-text-stroke-width')) > 0) return null;
  const fill = colourOf(s.getPropertyValue('-webkit-text-fill-color') || s.color);
  if (!fill) return null;
  const bg = behind(p);
  if (!bg) return null;
  const { at, opacity } = provider(p);
  return unreadable(fill, bg, opacity) ? { at } : null;
}

function isAncestor(a: Element, of: Element): boolean {
  for (let e = composedParent(of); e; e = composedParent(e)) if (e === a) return true;
  return false;
}

/** At the text's place, is anything but its own ancestors painted under it? (Then its background is not known.) */
function onlyAncestorsBelow(p: Element, x: number, y: number): boolean {
  const root = p.getRootNode() as Document | ShadowRoot;
  const stack = typeof root.elementsFromPoint === 'function' ? root.elementsFromPoint(x, y) : document.elementsFromPoint(x, y);
  for (const e of stack) {
    if (hitReaches(e, p, false) || isAncestor(e, p)) continue;
    if (REPLACED.has(e.localName)) return false;
    const l = layerOf(e);
    if (l.bg === null || l.bg.a > 0) return false;
  }
  return true;
}

const CLIPS = new Set(['hidden', 'auto', 'scroll', 'overlay', 'clip']);

/** The window `p`'s text can be seen through: its own box when its overflow clips, and its ancestors' clips. */
function textWindow(p: Element, s: CSSStyleDeclaration): Box | null {
  let box = clipBox(p, s, pass().clips);
  if (CLIPS.has(s.overflowX) || CLIPS.has(s.overflowY)) {
    const r = p.getBoundingClientRect();
    const own = {
      x0: CLIPS.has(s.overflowX) ? r.left : -Infinity, x1: CLIPS.has(s.overflowX) ? r.right : Infinity,
      y0: CLIPS.has(s.overflowY) ? r.top : -Infinity, y1: CLIPS.has(s.overflowY) ? r.bottom : Infinity,
    };
    box = box ? { x0: Math.max(box.x0, own.x0), y0: Math.max(box.y0, own.y0), x1: Math.min(box.x1, own.x1), y1: Math.min(box.y1, own.y1) } : own;
  }
  return box;
}

let range: Range | null = null;

/** The text node's line boxes cut to `win` and to the viewport: the largest one left, or null. */
function largestSeen(n: Text, win: Box | null): { seen: boolean; probe: { x: number; y: number } | null } {
  range ??= document.createRange();
  range.selectNodeContents(n);
  const vw = window.innerWidth, vh = window.innerHeight;
  let seen = false, best = 0, probe: { x: number; y: number } | null = null;
  for (const r of Array.from(range.getClientRects())) {
    if (r.width <= 0 || r.height <= 0) continue;
    const x0 = Math.max(r.left, win?.x0 ?? -Infinity), x1 = Math.min(r.right, win?.x1 ?? Infinity);
    const y0 = Math.max(r.top, win?.y0 ?? -Infinity), y1 = Math.min(r.bottom, win?.y1 ?? Infinity);
    if (x1 - x0 < 1 || y1 - y0 < 1) continue;
    seen = true;
    const vx0 = Math.max(0, x0), vx1 = Math.min(vw, x1), vy0 = Math.max(0, y0), vy1 = Math.min(vh, y1);
    const area = (vx1 - vx0) * (vy1 - vy0);
    if (vx1 > vx0 && vy1 > vy0 && area > best) { best = area; probe = { x: (vx0 + vx1) / 2, y: (vy0 + vy1) / 2 }; }
  }
  range.detach();
  return { seen, probe };
}

/** Is this text node (in `p`, whose style is `s`) not seen? `hitTest`: also ask whether it is covered. */
function unseenNode(n: Text, p: Element, s: CSSStyleDeclaration, hitTest: boolean): boolean {
  const suspect = colourSuspect(p, s);
  const win = textWindow(p, s);
  if (!suspect && !win && !hitTest) return false;
  const { seen, probe } = largestSeen(n, win);
  if (!seen) return true;
  if (!probe) return suspect !== null;
  if (suspect && onlyAncestorsBelow(p, probe.x, probe.y)) return true;
  if (!hitTest || s.pointerEvents === 'none') return false;
  return !hitReaches(elementFromPointFor(p, probe.x, probe.y), p, false);
}

/**
 * A leaf candidate (text only, no element inside): is its text unseen? Colour and its own
 * clipping box only; whether it is covered was its own hit test.
 */
export function leafTextUnseen(el: Element, s: CSSStyleDeclaration): boolean {
  const suspect = colourSuspect(el, s);
  const clips = CLIPS.has(s.overflowX) || CLIPS.has(s.overflowY);
  if (!suspect && !clips) return false;
  let any = false;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== Node.TEXT_NODE || !(n.nodeValue ?? '').trim()) continue;
    const win = clips ? textWindow(el, s) : null;
    const { seen, probe } = largestSeen(n as Text, win);
    if (!seen) continue;
    if (suspect && (!probe || onlyAncestorsBelow(el, probe.x, probe.y))) continue;
    any = true;
  }
  return !any;
}

/**
 * The text nodes inside `root` (an element with elements inside) that are rendered but not
 * seen, outside the `hidden` parts already found (hidden-text.hiddenParts).
 */
export function unseenTextNodes(root: Element, rootStyle: CSSStyleDeclaration, hidden: Element[]): Text[] {
  const out: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let lastParent: Element | null = null, lastStyle: CSSStyleDeclaration = rootStyle;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!p || !(n.nodeValue ?? '').trim()) continue;
    if (hidden.some((h) => h.contains(p))) continue;
    if (p.closest('script,style,noscript,template,[aria-hidden="true"]')) continue;
    if (p !== lastParent) { lastParent = p; lastStyle = p === root ? rootStyle : getComputedStyle(p); }
    if (unseenNode(n as Text, p, lastStyle, true)) out.push(n as Text);
  }
  return out;
}
