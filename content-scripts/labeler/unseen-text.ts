/**
 * Text that is rendered but still not seen (docs/labeling.md, "The text of an element"), per
 * text node of an element already chosen as a candidate; hidden-text.ts has the cases one
 * computed style tells. Three more:
 *
 * 1. **The same colour as its background**: the text's fill colour (alpha included) against the
 *    background it sits on, worked out from the ancestors' background colours up to the first
 *    opaque one (the canvas of a top page is white unless its colour scheme is dark).
 *    Unreadable when colour.unreadable says so. Not judged (the text is kept) when a background
 *    image or gradient is on the way, a filter, a blend mode or `background-clip: text` between
 *    the text and that background, in a child frame with no opaque background (it shows its
 *    parent page through), or when the text has a shadow or a stroke. A suspect is confirmed at
 *    its place: the elements under the text's centre (elementsFromPoint) must be the text's own
 *    ancestors or paint nothing (no background, not a replaced element): white text over a photo
 *    laid behind it by a sibling is kept.
 * 2. **Scrolled or pushed out of a box that clips it**: every line box of the text lies outside
 *    the window its own box's overflow (when it clips) and its ancestors' (visibility.clipBox)
 *    leave. A text node partly visible is kept whole (an ellipsis).
 * 3. **Covered**: the hit test at the centre of the text's largest visible line box does not reach
 *    its element: something else is painted over it (an overlay, a sibling, a pseudo-element, the
 *    candidate's own background over a z-index:-1 span). Asked only when a box from the text's
 *    element up to the candidate is positioned or transformed; not when the element takes no
 *    pointer (the hit test goes through it) or the point is off the viewport.
 *
 * Cost (the labeling bench measures it): one computed style per element a pass (styleOf), two
 * background properties per ancestor up to an opaque background, remembered for the pass. A text
 * node is measured (one Range, its line boxes) only when it is a colour suspect, can be covered
 * (3), or a clipping box can cut it: one between it and the candidate, or the candidate's own box
 * is not wholly inside its ancestors' window or its content overflows it (rootOf).
 */
import { over, parseColour, unreadable, WHITE, type Rgba } from '../../src/core/colour';
import { composedParent, elementFromPointFor } from './dom';
import { clipBox, hitReaches, type Box, type ClipMemo } from './visibility';

interface Layer { bg: Rgba | null }

/** What one labeling pass (a synchronous task) remembers; dropped at its end. */
interface PassMemo { styles: Map<Element, CSSStyleDeclaration>; clips: ClipMemo; layers: Map<Element, Layer>; behind: Map<Element, Rgba | null>; colours: Map<string, Rgba | null>; flows: Map<Element, Flow> }
let memo: PassMemo | null = null;
/** the Range text nodes are measured with (largestSeen), made once per pass */
let range: Range | null = null;

/** Forget what the last pass read (a labeling pass starts with it: the page may have changed in the same task). */
export function beginTextPass(): void {
  endTextPass();
}

/** Drops the pass's memo and the Range it measured with (which holds the last text node). */
function endTextPass(): void {
  memo = null;
  range = null;
}

function pass(): PassMemo {
  if (!memo) {
    memo = { styles: new Map(), clips: new Map(), layers: new Map(), behind: new Map(), colours: new Map(), flows: new Map() };
    queueMicrotask(endTextPass);
  }
  return memo;
}

/** The element's computed style, asked once a pass (the object is live: read it during the pass only). */
function styleOf(el: Element): CSSStyleDeclaration {
  const m = pass().styles;
  let s = m.get(el);
  if (!s) { s = getComputedStyle(el); m.set(el, s); }
  return s;
}

/** A computed colour as RGBA: rgb()/rgba() parsed, any other form (oklch(), color(…)) painted once on a 1×1 canvas. */
function colourOf(s: string): Rgba | null {
  const m = pass().colours;
  const known = m.get(s);
  if (known !== undefined) return known;
  let c = parseColour(s);
  if (!c) {
    try {
      const ctx = new OffscreenCanvas(1, 1).getContext('2d');
      if (ctx) {
        ctx.fillStyle = s;
        ctx.fillRect(0, 0, 1, 1);
        const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
        c = { r, g, b, a: a / 255 };
      }
    } catch { c = null; }
  }
  m.set(s, c);
  return c;
}

const REPLACED = new Set(['img', 'video', 'canvas', 'svg', 'iframe', 'object', 'embed', 'picture', 'input', 'select', 'textarea', 'audio']);

function layerOf(el: Element): Layer {
  const m = pass().layers;
  let l = m.get(el);
  if (l) return l;
  const s = styleOf(el);
  l = { bg: s.backgroundImage !== 'none' ? null : colourOf(s.backgroundColor) };
  m.set(el, l);
  return l;
}

/** A filter, blend mode or background-clip:text changes what is painted: colours say nothing then. */
function hasEffects(el: Element): boolean {
  const s = styleOf(el);
  return s.filter !== 'none' || s.mixBlendMode !== 'normal' || (s.getPropertyValue('backdrop-filter') || 'none') !== 'none'
    || s.backgroundClip === 'text' || s.getPropertyValue('-webkit-background-clip') === 'text';
}

/** How a box sits among others: moved out of the flow (positioned, transformed: it may lie over or under other boxes), clipping its content. */
interface Flow { moved: boolean; clips: boolean }

function flowOf(el: Element): Flow {
  const m = pass().flows;
  let f = m.get(el);
  if (!f) {
    const s = styleOf(el);
    f = { moved: s.position !== 'static' || s.transform !== 'none', clips: CLIPS.has(s.overflowX) || CLIPS.has(s.overflowY) };
    m.set(el, f);
  }
  return f;
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

/** The element whose background is the first opaque one from `el` up (null: the canvas). */
function provider(el: Element): Element | null {
  for (let e: Element | null = el; e; e = composedParent(e)) {
    const l = layerOf(e);
    if (l.bg && l.bg.a >= 1) return e;
  }
  return null;
}

/** Style only: is `p`'s own text painted in (nearly) its background's colour? */
function colourSuspect(p: Element, s: CSSStyleDeclaration): boolean {
  const fill = colourOf(s.getPropertyValue('-webkit-text-fill-color') || s.color);
  if (!fill) return false;
  const bg = behind(p);
  if (!bg) return false;
  if (!unreadable(fill, bg)) return false;
  const at = provider(p);
  if (s.textShadow !== 'none' || parseFloat(s.getPropertyValue('-webkit-text-stroke-width')) > 0) return false;
  for (let e: Element | null = p; e; e = composedParent(e)) {
    if (hasEffects(e)) return false;
    if (e === at) break;
  }
  return true;
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

/** overflow values that clip what overflows (seen-text.ts too) */
export const CLIPS = new Set(['hidden', 'auto', 'scroll', 'overlay', 'clip']);

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


/** The text node's line boxes cut to `win` and to the viewport: the largest one left, or null. */
function largestSeen(n: Text, win: Box | null): { seen: boolean; probe: { x: number; y: number } | null } {
  range ??= document.createRange();
  range.selectNodeContents(n);
  const vw = window.innerWidth, vh = window.innerHeight;
  let seen = false, best = 0, probe: { x: number; y: number } | null = null;
  const rects = range.getClientRects();
  for (let i = 0; i < rects.length; i++) {
    const r = rects[i];
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

/** What a text node needs to know about the element holding it (the same for all its text nodes). */
interface Part { suspect: boolean; win: Box | null; measure: boolean; coverable: boolean; takesPointer: boolean }

/**
 * The candidate's own facts: the window its text is seen through, and whether its text fits in
 * it for sure (its box is inside the window and its content does not overflow its box), so text
 * in the flow inside it needs no measuring.
 */
interface Root { el: Element; win: Box | null; fits: boolean }

function rootOf(el: Element, s: CSSStyleDeclaration): Root {
  const win = textWindow(el, s);
  if (!win) return { el, win, fits: true };
  const r = el.getBoundingClientRect();
  const inside = r.left >= win.x0 && r.right <= win.x1 && r.top >= win.y0 && r.bottom <= win.y1;
  const h = el as HTMLElement;
  const fits = inside && h.clientWidth > 0 && h.scrollWidth <= h.clientWidth + 1 && h.scrollHeight <= h.clientHeight + 1;
  return { el, win, fits };
}

function partOf(p: Element, s: CSSStyleDeclaration, root: Root): Part {
  // boxes from the text's element up to the candidate: moved ones may cover or be covered; clipping ones cut
  let coverable = false, innerClip = false;
  for (let e: Element | null = p; e; e = composedParent(e)) {
    const f = flowOf(e);
    coverable ||= f.moved;
    if (e === root.el) break;
    innerClip ||= f.clips;
  }
  const suspect = colourSuspect(p, s);
  const win = innerClip ? textWindow(p, s) : root.win;
  const measure = suspect || coverable || (win !== null && (innerClip || !root.fits));
  return { suspect, win, measure, coverable, takesPointer: s.pointerEvents !== 'none' };
}

/** Is this text node (in `p`) not seen? */
function unseenNode(n: Text, p: Element, part: Part): boolean {
  if (!part.measure) return false;
  const { seen, probe } = largestSeen(n, part.win);
  if (!seen) return true;
  if (!probe) return part.suspect;
  if (part.suspect && onlyAncestorsBelow(p, probe.x, probe.y)) return true;
  if (!part.coverable || !part.takesPointer) return false;
  return !hitReaches(elementFromPointFor(p, probe.x, probe.y), p, false);
}

/**
 * A leaf candidate (text only, no element inside): is its text unseen? Colour and its own
 * clipping box only; whether it is covered was its own hit test.
 */
export function leafTextUnseen(el: Element, s: CSSStyleDeclaration): boolean {
  pass().styles.set(el, s);
  const suspect = colourSuspect(el, s);
  const clips = CLIPS.has(s.overflowX) || CLIPS.has(s.overflowY);
  if (!suspect && !clips) return false;
  const win = clips ? textWindow(el, s) : null;
  let any = false;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== Node.TEXT_NODE || !(n.nodeValue ?? '').trim()) continue;
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
  pass().styles.set(root, rootStyle);
  const parts = new Map<Element, Part | null>();
  const top = rootOf(root, rootStyle);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!p || !(n.nodeValue ?? '').trim()) continue;
    let part = parts.get(p);
    if (part === undefined) {
      const skip = hidden.some((h) => h.contains(p)) || p.closest('script,style,noscript,template,[aria-hidden="true"]') !== null;
      part = skip ? null : partOf(p, p === root ? rootStyle : styleOf(p), top);
      parts.set(p, part);
    }
    if (part && unseenNode(n as Text, p, part)) out.push(n as Text);
  }
  return out;
}
