/**
 * The injection screen of the text on screen as a person reads it (docs/labeling.md, "What is
 * drawn: the text a person reads on screen"): screen-text.ts reads the page's text in DOM order, block by block, within
 * caps; a page can make that order differ from what is drawn. This pass reads what is drawn in
 * the viewport, in the order it is drawn:
 * - every text fragment that has a box on screen (a text node's line boxes), placed where it is
 *   drawn: fragments of absolutely positioned blocks, flex `order` / `row-reverse` and grid
 *   placement join into the lines they make on screen;
 * - a bidi override is read in its drawn order (drawn-names.ts visualText);
 * - CSS-generated text (`::before` / `::after` `content`) of every element on screen, where it
 *   stands in its element;
 * - text with no box (display:none, font-size 0, a collapsed or clipped-away box) has no fragment:
 *   hidden text costs nothing against any cap, and what is on screen is read whole.
 * Lines close together make a block; each block is screened (core/injection/index.ts), in windows when
 * long. A block that says something is read again without the fragments a person cannot see
 * (covered, the colour of their background, hidden parts: the labeler's own rules,
 * unseen-text.ts, hidden-text.ts) and counts only when it still says it.
 *
 * Cost: a walk of the text nodes only; one box read per element that holds text, and a line-box
 * read per text node whose element (with what overflows it) meets the viewport; two pseudo-element
 * styles per element on screen that a style sheet rule may give generated text (every element on
 * screen when a sheet cannot be read). `npm run bench`, BENCH_PART=real, "screen".
 */
import { detectInjection, type InjectionKind } from '../../src/core/injection';
import type { TextFinding } from '../../src/core/marks';
import { contentValue, visualText } from '../drawn-names';
import { composedParent, elementFromPointFor, UI_ATTR } from './dom';
import { clipBox, hitReaches, type Box, type ClipMemo } from './visibility';
import { hiddenParts, hidesOwnText } from './hidden-text';
import { CLIPS, leafTextUnseen, unseenTextNodes } from './unseen-text';
import { elementsOfRules, hostSelectors, namesPseudo } from './style-rules';
import { boxOf } from './boxes';

/** a block is screened in windows of this many characters … */
const WINDOW = 4000;
/** … that overlap by this many (a phrase is short) */
const OVERLAP = 300;
/** text smaller than this (CSS px of line height) cannot be read on the screenshot */
const MIN_HEIGHT = 4;

interface Fragment {
  text: string;
  x: number; y: number; right: number; top: number; bottom: number;
  /** the text node (null: generated content, or a bidi override read as drawn) */
  node: Text | null;
  el: Element;
}

const overlapsView = (r: DOMRect, vw: number, vh: number) => r.width >= 1 && r.height >= MIN_HEIGHT && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;

function frag(text: string, r: { left: number; top: number; right: number; bottom: number }, node: Text | null, el: Element): Fragment {
  return { text, x: r.left, y: (r.top + r.bottom) / 2, right: r.right, top: r.top, bottom: r.bottom, node, el };
}

function overrides(el: Element): boolean {
  return /override/.test(getComputedStyle(el).unicodeBidi);
}

/**
 * The elements that may show generated text: those matched by a rule whose selector names
 * ::before or ::after and whose `content` has a string or attr() (style-rules.ts); null when the
 * sheets cannot all be read: then every element on screen is asked.
 */
function pseudoHosts(roots: ReadonlyArray<Document | ShadowRoot>): Set<Element> | null {
  return elementsOfRules(roots, (style, selectorText) => {
    if (!namesPseudo(selectorText)) return null;
    if (!/["']|attr\(/.test(style.content) || /^(["'])\1$/.test(style.content.trim())) return null;
    return hostSelectors(selectorText, true);
  });
}

/** never read: not drawn, or fields (the element list's), or code (never an instruction: screen-text.ts), or ours */
const UNREAD = `script, style, noscript, template, textarea, select, option, code, pre, samp, [aria-hidden="true"], [${UI_ATTR}]`;

/** The drawn fragments of `roots` in the viewport. */
function fragments(roots: ReadonlyArray<Document | ShadowRoot>, vw: number, vh: number): Fragment[] {
  const out: Fragment[] = [];
  const range = document.createRange();
  // per element holding text: does its box, with what overflows it (its scroll size), meet the
  // viewport, and is it read at all (an element without a box has a zero box: not near)
  const near = new Map<Element, boolean>();
  const nearView = (el: Element): boolean => {
    let ok = near.get(el);
    if (ok === undefined) {
      const r = boxOf(el);
      // what overflows a box goes right and down: only a box above or left of the viewport needs its scroll size
      const right = r.right > 0 ? r.right : Math.max(r.right, r.left + el.scrollWidth);
      const bottom = r.bottom > 0 ? r.bottom : Math.max(r.bottom, r.top + el.scrollHeight);
      const boxed = r.width > 0 || r.height > 0 || el.getClientRects().length > 0;
      // display:contents has no box of its own: its text is drawn in its parent's
      const contents = !boxed && getComputedStyle(el).display === 'contents';
      const parent = contents ? composedParent(el) : null;
      ok = parent ? nearView(parent) && el.closest(UNREAD) === null
        : boxed && bottom > 0 && right > 0 && r.top < vh && r.left < vw && el.closest(UNREAD) === null
          && (typeof el.checkVisibility !== 'function' || el.checkVisibility({ opacityProperty: true, visibilityProperty: true }));
      near.set(el, ok);
    }
    return ok;
  };
  const overridden = new Set<Element>();
  // text: only the text nodes (no element is visited for itself), each read when its element is near
  for (const root of roots) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      const el = n.parentElement;
      // blank text first: no box is asked of an element that holds only blank text (the
      // indentation between blocks: one element in eight of those holding text on n-api)
      if (!el || !n.data.trim() || overridden.has(el) || !nearView(el)) continue;
      range.selectNodeContents(n);
      const rects = Array.from(range.getClientRects()).filter((r) => overlapsView(r, vw, vh));
      if (!rects.length) continue;
      if (overrides(el)) {
        // a bidi override: its characters as drawn, once for the element
        overridden.add(el);
        out.push(frag(visualText(el), boxOf(el), null, el));
        continue;
      }
      if (rects.length === 1) out.push(frag(n.data, rects[0], n, el));
      // a node over several lines: its characters are cut where its lines are
      else out.push(...lineParts(n, rects, range, el));
    }
  }
  // generated text: the elements a style sheet rule may give it (every element when a sheet cannot be read)
  const hosts = pseudoHosts(roots) ?? roots.flatMap((r) => Array.from(r.querySelectorAll('*')));
  for (const el of hosts) {
    const r = boxOf(el);
    if (!overlapsView(r, vw, vh) || el.closest(UNREAD) !== null) continue;
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const before = contentValue(getComputedStyle(el, '::before').content, el);
    const after = contentValue(getComputedStyle(el, '::after').content, el);
    if (before.trim()) out.push(frag(before, { left: r.left, top: r.top, right: r.left + 1, bottom: Math.min(r.bottom, r.top + 2 * MIN_HEIGHT * 4) }, null, el));
    if (after.trim()) out.push(frag(after, { left: r.right - 1, top: Math.max(r.top, r.bottom - 2 * MIN_HEIGHT * 4), right: r.right, bottom: r.bottom }, null, el));
  }
  range.detach();
  return out;
}

/** A text node drawn over several line boxes, one fragment a line box (the characters found by their boxes' order). */
function lineParts(t: Text, rects: DOMRect[], range: Range, el: Element): Fragment[] {
  const out: Fragment[] = [];
  let start = 0;
  for (let i = 0; i < rects.length; i++) {
    let end = t.data.length;
    if (i < rects.length - 1) {
      // the first character whose box starts below this line's middle
      const mid = (rects[i].top + rects[i].bottom) / 2;
      let lo = start;
      let hi = t.data.length;
      while (lo < hi) {
        const m = (lo + hi) >> 1;
        range.setStart(t, m);
        range.setEnd(t, Math.min(m + 1, t.data.length));
        const b = range.getBoundingClientRect();
        if (b.height && b.top > mid) hi = m;
        else lo = m + 1;
      }
      end = lo;
    }
    if (end > start) out.push(frag(t.data.slice(start, end), rects[i], t, el));
    start = end;
  }
  return out;
}

interface Block { frags: Fragment[]; text: string }

/** Fragments into lines (by where they are drawn), lines into blocks; each block's text as read. */
function blocks(frags: Fragment[]): Block[] {
  const sorted = [...frags].sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: Fragment[][] = [];
  for (const f of sorted) {
    const line = lines[lines.length - 1];
    // same line: its middle is inside the line's first fragment's band
    if (line && f.y >= line[0].top && f.y <= line[0].bottom) line.push(f);
    else lines.push([f]);
  }
  const out: Block[] = [];
  let cur: { frags: Fragment[]; bottom: number; lines: string[] } | null = null;
  for (const line of lines) {
    line.sort((a, b) => a.x - b.x);
    let text = '';
    let prev: Fragment | null = null;
    for (const f of line) {
      // a gap wider than a quarter of the line's height is a word space
      if (prev && f.x - prev.right > (f.bottom - f.top) / 4 && !/\s$/.test(text)) text += ' ';
      text += f.text;
      prev = f;
    }
    const top = Math.min(...line.map((f) => f.top));
    const height = Math.max(...line.map((f) => f.bottom - f.top));
    if (cur && top - cur.bottom <= height) {
      cur.frags.push(...line);
      cur.lines.push(text);
      cur.bottom = Math.max(cur.bottom, ...line.map((f) => f.bottom));
    } else {
      if (cur) out.push({ frags: cur.frags, text: cur.lines.join(' ') });
      cur = { frags: [...line], bottom: Math.max(...line.map((f) => f.bottom)), lines: [text] };
    }
  }
  if (cur) out.push({ frags: cur.frags, text: cur.lines.join(' ') });
  return out.map((b) => ({ ...b, text: b.text.replace(/\s+/g, ' ').trim() }));
}

function hitIn(text: string): { phrase: string; kind: InjectionKind; at: number } | null {
  for (let at = 0; at < text.length; at += WINDOW - OVERLAP) {
    const hit = detectInjection([{ text: text.slice(at, at + WINDOW), where: 0 }])[0];
    if (hit) return { phrase: hit.phrase, kind: hit.kind, at };
    if (at + WINDOW >= text.length) break;
  }
  return null;
}

/** Something else is drawn over the fragment's middle (an ancestor hit counts as seen: text that takes no pointer). */
function covered(f: Fragment, vw: number, vh: number): boolean {
  const x = Math.min(Math.max((f.x + f.right) / 2, 0), vw - 1);
  const y = Math.min(Math.max(f.y, 0), vh - 1);
  const hit = elementFromPointFor(f.el, x, y);
  if (!hit || hitReaches(hit, f.el, false)) return false;
  for (let cur: Element | null = f.el; cur; cur = composedParent(cur)) if (cur === hit) return false;
  return true;
}

/** The fragment is cut away by the boxes that clip it (its own element's and its ancestors' overflow). */
function clippedAway(f: Fragment, style: CSSStyleDeclaration, memo: ClipMemo): boolean {
  let win: Box | null = clipBox(f.el, style, memo);
  if (f.node && (CLIPS.has(style.overflowX) || CLIPS.has(style.overflowY))) {
    const r = f.el.getBoundingClientRect();
    const own = { x0: r.left, y0: r.top, x1: r.right, y1: r.bottom };
    win = win ? { x0: Math.max(win.x0, own.x0), y0: Math.max(win.y0, own.y0), x1: Math.min(win.x1, own.x1), y1: Math.min(win.y1, own.y1) } : own;
  }
  if (!win) return false;
  return Math.min(f.right, win.x1) - Math.max(f.x, win.x0) < 1 || Math.min(f.bottom, win.y1) - Math.max(f.top, win.y0) < 1;
}

/** The element or one above it hides its text by its own style (opacity under 5 %, zero size, transparent, clipped or pushed away: hidden-text.ts). */
function hiddenByStyle(el: Element, memo: Map<Element, boolean>): boolean {
  for (let cur: Element | null = el; cur && cur.localName !== 'body'; cur = composedParent(cur)) {
    let h = memo.get(cur);
    if (h === undefined) memo.set(cur, (h = hidesOwnText(cur, getComputedStyle(cur))));
    if (h) return true;
  }
  return false;
}

/** Whether a person can see the fragment's text (the labeler's rules for covered, same-colour, clipped and hidden parts). */
function seen(f: Fragment, vw: number, vh: number, memo: { clip: ClipMemo; hidden: Map<Element, boolean> }): boolean {
  const el = f.el;
  const style = getComputedStyle(el);
  if (hiddenByStyle(el, memo.hidden) || clippedAway(f, style, memo.clip) || covered(f, vw, vh)) return false;
  if (!f.node) return true;
  if (el.closest('[aria-hidden="true"]') || hiddenParts(el).some((h) => h.contains(f.node!))) return false;
  if (!el.firstElementChild) return !leafTextUnseen(el, style);
  return !unseenTextNodes(el, style, hiddenParts(el)).includes(f.node);
}

const oneLine = (s: string, at: number, phrase: string) => {
  const i = Math.max(0, s.toLowerCase().indexOf(phrase.toLowerCase(), at));
  return s.slice(Math.max(0, i - 20), i + 60).replace(/\s+/g, ' ').trim();
};

/**
 * The findings in what is drawn in the viewport (this frame's document and `roots`, the shadow
 * roots the labeling walk met), besides those of `known` (the DOM-order screen's, by phrase).
 */
export function screenSeenText(roots: ReadonlyArray<Document | ShadowRoot>, known: readonly TextFinding[], vw = window.innerWidth, vh = window.innerHeight): TextFinding[] {
  const found: TextFinding[] = [];
  const memo = { clip: new Map() as ClipMemo, hidden: new Map<Element, boolean>() };
  for (const b of blocks(fragments([document, ...roots.filter((r) => r !== document)], vw, vh))) {
    if (!b.text) continue;
    const hit = hitIn(b.text);
    if (!hit || known.some((k) => k.phrase === hit.phrase)) continue;
    // what a person sees of the block must still say it
    const visible = blocks(b.frags.filter((f) => seen(f, vw, vh, memo))).map((x) => x.text).join(' ');
    const still = hitIn(visible);
    if (!still || known.some((k) => k.phrase === still.phrase) || found.some((f) => f.phrase === still.phrase)) continue;
    found.push({ phrase: still.phrase, kind: still.kind, channel: 'text', tag: b.frags[0].el.localName, excerpt: oneLine(visible, still.at, still.phrase) });
  }
  return found;
}
