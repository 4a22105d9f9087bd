/**
 * Text a person cannot see (docs/labeling.md, "The text of an element"): the parts of an element's
 * rendered text that are transparent (opacity below 0.05, a colour with alpha 0 not painted by a
 * background-clip:text), zero-size (font-size 0), clipped away (clip / clip-path that leave
 * nothing, a box of 1 px or less that hides its overflow), pushed off the page (a positioned or
 * transformed box outside the document, text-indent of -500 px or more). visibility:hidden and
 * display:none text is already missing from innerText; aria-hidden parts are cut by text.ts.
 * Covered text, text the colour of its background and text scrolled out of a clipping box are
 * unseen-text.ts's.
 *
 * Cheap: one computed style per element above a text node (remembered for one element's text),
 * and a box read only for elements whose style can move or clip them.
 */

export type HiddenMemo = Map<Element, boolean>;

const OFF_INDENT = -500;
/** Below this opacity text is not seen (black at 5 % on white is #f2f2f2). */
const MIN_OPACITY = 0.05;

function transparentColour(c: string): boolean {
  if (c === 'transparent') return true;
  const m = /^rgba\(.*,\s*([\d.]+)\)$/.exec(c);
  return m !== null && Number(m[1]) === 0;
}

function clipLeavesNothing(clip: string): boolean {
  const m = /^rect\(([-\d.]+)px,?\s*([-\d.]+)px,?\s*([-\d.]+)px,?\s*([-\d.]+)px\)$/.exec(clip);
  if (!m) return false;
  const [top, right, bottom, left] = m.slice(1).map(Number);
  return right - left <= 1 || bottom - top <= 1;
}

function clipPathLeavesNothing(cp: string): boolean {
  if (cp === 'none') return false;
  const inset = /^inset\(([\d.]+)%/.exec(cp);
  if (inset && Number(inset[1]) >= 50) return true;
  return /^(circle|ellipse)\(0(px|%)?[\s)]/.test(cp);
}

/** Does this element's own style hide the text inside it? */
export function hidesOwnText(el: Element, s: CSSStyleDeclaration): boolean {
  if (parseFloat(s.opacity) < MIN_OPACITY) return true;
  if (parseFloat(s.fontSize) < 1) return true;
  // transparent text painted by its background (background-clip: text) is seen
  if (transparentColour(s.color) && s.backgroundClip !== 'text' && s.getPropertyValue('-webkit-background-clip') !== 'text') return true;
  if (parseFloat(s.textIndent) <= OFF_INDENT) return true;
  if (clipPathLeavesNothing(s.clipPath)) return true;
  const positioned = s.position === 'absolute' || s.position === 'fixed';
  if (positioned && clipLeavesNothing(s.clip)) return true;
  if (!positioned && s.transform === 'none' && s.overflowX === 'visible') return false;
  const r = el.getBoundingClientRect();
  if ((s.overflowX !== 'visible' || s.overflowY !== 'visible') && (r.width <= 1 || r.height <= 1)) return true;
  if (positioned || s.transform !== 'none') {
    const doc = document.documentElement;
    const sx = window.scrollX, sy = window.scrollY;
    if (r.right + sx <= 0 || r.bottom + sy <= 0) return true;
    if (r.left + sx >= Math.max(doc.scrollWidth, window.innerWidth) || r.top + sy >= Math.max(doc.scrollHeight, window.innerHeight)) return true;
  }
  return false;
}

function hiddenOwn(el: Element, memo: HiddenMemo): boolean {
  let h = memo.get(el);
  if (h === undefined) {
    h = hidesOwnText(el, getComputedStyle(el));
    memo.set(el, h);
  }
  return h;
}

/**
 * The outermost descendants of `root` (root excluded) whose style hides the text inside them,
 * looked for only above text nodes that hold something.
 */
export function hiddenParts(root: Element, memo: HiddenMemo = new Map()): Element[] {
  const out = new Set<Element>();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let last: Element | null = null;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || parent === root || parent === last || !(n.nodeValue ?? '').trim()) continue;
    last = parent;
    let top: Element | null = null;
    for (let p: Element | null = parent; p && p !== root; p = p.parentElement) {
      if (hiddenOwn(p, memo)) top = p;
    }
    if (top) out.add(top);
  }
  return Array.from(out);
}
