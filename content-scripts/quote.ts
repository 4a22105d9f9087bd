/**
 * The page's visible text inside a box (an action that quotes text: CogAgent's QUOTE_TEXT), read
 * from the DOM, not from pixels. Top frame only: text inside iframes is not read.
 *
 * 1. Every text node of the document, open and closed shadow roots included, in document order
 *    (script, style, template, noscript and our own overlay and lists left out).
 * 2. Seen as in the element list (docs/labeling.md, "The text of an element"): not when an
 *    element from it up to the document hides its text (hidden-text.hidesOwnText: opacity, a
 *    font size of 0, transparent colour, text pushed off by an indent, clip-path, a clipped box),
 *    not when it is not rendered or invisible (checkVisibility), and only the parts of its line
 *    boxes its ancestors' overflow leaves in view (visibility.clipBox).
 * 3. Inside the box: a text node counts when the centre of one of its visible line boxes is in
 *    the box. Form fields in the box give their value (a select its chosen option's text), never
 *    a password field's.
 * 4. Lines: a piece on the previous piece's last line box, to its right, continues its line
 *    (with a space where the page has whitespace or a gap); any other begins a new line.
 * 5. `all` (auto_scroll): the scroll container under the box's centre (the nearest one that can
 *    scroll vertically, else the page) is scrolled down by 80 % of its height at a time, the text
 *    in the box read after each move (lazy lists load as it goes), until it no longer moves and
 *    nothing more arrives at its end within END_WAIT_MS (a list that loads its next rows late, as
 *    over a slow network or on a busy machine, is waited for as a person waits for them), at most
 *    MAX_PAGES times or MAX_CHARS characters. A piece already read (the same node with the same
 *    text) is not read twice, so overlapping views give no duplicates, while a recycled node of a
 *    virtual list with new text is read again. The container is left where it stopped.
 */
import type { Rect } from '../src/core/marks';
import { composedParent, deepElementFromPoint, shadowRootOf, UI_ATTR, upTheTree } from './labeler/dom';
import { hidesOwnText } from './labeler/hidden-text';
import { clipBox } from './labeler/visibility';

const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'meta', 'link']);
const MAX_PAGES = 60;
const MAX_CHARS = 200_000;
/** After a scroll: the page's own handlers and lazy loading get this long before the next read. */
const SETTLE_MS = 150;
/** how long the end of the list is watched for more rows before the quote ends there */
const END_WAIT_MS = 1000;
const TEXT_INPUT = /^(|text|search|email|url|tel|number|date|time|datetime-local|month|week)$/;

export interface Quoted {
  text: string;
  /** pages read (1 without scrolling) */
  pages: number;
  /** the scrolling stopped at MAX_PAGES or MAX_CHARS before the end */
  capped: boolean;
}

interface Piece { key: Node; text: string; top: number; bottom: number; left: number; right: number; gapBefore: boolean; gapAfter: boolean }

/** Step 1: text nodes and form fields in document order (shadow trees in place of their hosts' children). */
function* nodes(root: Node): Generator<Text | Element> {
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === Node.TEXT_NODE) {
      yield n as Text;
      continue;
    }
    if (n.nodeType !== Node.ELEMENT_NODE) continue;
    const el = n as Element;
    const tag = el.localName;
    if (SKIP.has(tag) || el.hasAttribute(UI_ATTR)) continue;
    if (tag === 'input' || tag === 'textarea' || tag === 'select') {
      yield el;
      continue;
    }
    const shadow = shadowRootOf(el, tag);
    yield* nodes(shadow ?? el);
  }
}

/** Step 2 for an element: nothing from it up hides its text (memoised for the read). */
function hidden(el: Element, memo: Map<Element, boolean>): boolean {
  return upTheTree(el, memo, (p) => hidesOwnText(p, getComputedStyle(p)), (p) => p.localName === 'body' || p.localName === 'html');
}

function rendered(el: Element): boolean {
  return typeof el.checkVisibility !== 'function' || el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true });
}

function inBox(r: DOMRect, box: Rect, el: Element): boolean {
  const clip = clipBox(el, getComputedStyle(el));
  const x0 = Math.max(r.left, clip?.x0 ?? -Infinity), x1 = Math.min(r.right, clip?.x1 ?? Infinity);
  const y0 = Math.max(r.top, clip?.y0 ?? -Infinity), y1 = Math.min(r.bottom, clip?.y1 ?? Infinity);
  if (x1 <= x0 || y1 <= y0) return false;
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  return cx >= box.x && cx <= box.x + box.width && cy >= box.y && cy <= box.y + box.height;
}

function fieldValue(el: Element): string {
  if (el instanceof HTMLSelectElement) return [...el.selectedOptions].map((o) => o.text).join(', ');
  if (el instanceof HTMLTextAreaElement) return el.value;
  if (el instanceof HTMLInputElement && TEXT_INPUT.test(el.type)) return el.value;
  return '';
}

/** Steps 1–3: the pieces of text seen in the box, in document order. */
function piecesIn(box: Rect): Piece[] {
  const out: Piece[] = [];
  const memo = new Map<Element, boolean>();
  const range = document.createRange();
  const body = document.body ?? document.documentElement;
  for (const n of nodes(body)) {
    if (n.nodeType === Node.TEXT_NODE) {
      const raw = n.nodeValue ?? '';
      const text = raw.replace(/\s+/g, ' ').trim();
      const p = (n as Text).parentElement;
      if (!text || !p || hidden(p, memo) || !rendered(p)) continue;
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0 && inBox(r, box, p));
      if (!rects.length) continue;
      const first = rects[0], last = rects[rects.length - 1];
      out.push({ key: n, text, top: last.top, bottom: last.bottom, left: first.left, right: last.right, gapBefore: /^\s/.test(raw), gapAfter: /\s$/.test(raw) });
    } else {
      const el = n as Element;
      const value = fieldValue(el).replace(/\s+/g, ' ').trim();
      if (!value || hidden(el, memo) || !rendered(el)) continue;
      const r = el.getBoundingClientRect();
      if (!inBox(r, box, el)) continue;
      out.push({ key: el, text: value, top: r.top, bottom: r.bottom, left: r.left, right: r.right, gapBefore: true, gapAfter: true });
    }
  }
  return out;
}

/**
 * Step 4: a piece continues the line when it sits on the previous piece's last line box, to its
 * right; a space goes between them where the page has whitespace or a gap.
 */
function linesOf(pieces: Piece[]): string[] {
  const lines: string[] = [];
  let prev: Piece | null = null;
  for (const p of pieces) {
    const sameLine = prev && p.top < prev.bottom - 1 && p.bottom > prev.top + 1 && p.left >= prev.right - 1;
    if (!prev || !sameLine) lines.push(p.text);
    else lines[lines.length - 1] += (p.gapBefore || prev.gapAfter || p.left - prev.right > 1 ? ' ' : '') + p.text;
    prev = p;
  }
  return lines;
}

/** Step 5's container: the nearest element under the point that scrolls vertically, else the page. */
function scrollerAt(x: number, y: number): Element {
  const page = document.scrollingElement ?? document.documentElement;
  for (let el = deepElementFromPoint(x, y); el; el = composedParent(el)) {
    if (el === page || el.localName === 'body' || el.localName === 'html') break;
    if (el.scrollHeight > el.clientHeight + 8 && /(auto|scroll|overlay)/.test(getComputedStyle(el).overflowY)) return el;
  }
  return page;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether `scroller`'s content grows within `ms` (a lazy list adding rows at its end). */
async function grows(scroller: Element, ms: number): Promise<boolean> {
  const height = scroller.scrollHeight;
  for (const end = performance.now() + ms; performance.now() < end;) {
    await pause(50);
    if (scroller.scrollHeight > height) return true;
  }
  return false;
}

/** The text in `box` (viewport CSS px of this frame); with `all`, the whole list scrolled through. */
export async function quoteBox(box: Rect, all: boolean): Promise<Quoted> {
  if (!all) return { text: linesOf(piecesIn(box)).join('\n'), pages: 1, capped: false };
  const scroller = scrollerAt(box.x + box.width / 2, box.y + box.height / 2);
  const seen = new Map<Node, Set<string>>();
  const lines: string[] = [];
  let chars = 0;
  let pages = 0;
  for (;;) {
    pages++;
    const fresh = piecesIn(box).filter((p) => !seen.get(p.key)?.has(p.text));
    for (const p of fresh) {
      const s = seen.get(p.key) ?? new Set<string>();
      s.add(p.text);
      seen.set(p.key, s);
    }
    for (const line of linesOf(fresh)) {
      lines.push(line);
      chars += line.length + 1;
    }
    if (chars >= MAX_CHARS || pages >= MAX_PAGES) return { text: lines.join('\n'), pages, capped: true };
    const before = scroller.scrollTop;
    const height = scroller.scrollHeight;
    scroller.scrollTop = before + Math.max(40, Math.round(scroller.clientHeight * 0.8));
    await pause(SETTLE_MS);
    // at the end only when it did not move and nothing arrived: rows a lazy list added during the
    // pause (loaded by an earlier scroll, late on a busy machine) are below it, to be read next
    const stuck = Math.abs(scroller.scrollTop - before) < 1 && scroller.scrollHeight <= height;
    if (stuck && !(await grows(scroller, END_WAIT_MS))) return { text: lines.join('\n'), pages, capped: false };
  }
}
