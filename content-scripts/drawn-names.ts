/**
 * The names a person reads on an element, where they differ from its text in DOM order
 * (docs/guards.md, "every name it has"):
 * - visualText: its characters in the order they are drawn, line by line, left to right (right to
 *   left for Hebrew and Arabic): "redro ecalP" drawn by `unicode-bidi: bidi-override` reads
 *   "Place order", flex `row-reverse` or `order` and grid placement read as laid out;
 * - drawnText: its text with the CSS-generated text (`::before` / `::after` `content`) of every
 *   element inside it, at any depth, where each stands;
 * - labelledControl: for a <label> (or what is inside one), the control a press on it activates;
 * - showsWordPicture: it shows a picture shaped like words (an image button, a banner-like <img>,
 *   canvas or SVG, a CSS background image), which the background reads by OCR (src/background/ocr.ts).
 */
import { composedParent } from './labeler/dom';
import { collapse } from './labeler/text';

const MAX_GLYPHS = 400;
const MAX_ELEMENTS = 600;

const getAttr = (el: Element, name: string): string | null => Element.prototype.getAttribute.call(el, name);

/** The text nodes under `el` in tree order, through open shadow roots; at most `max` characters' worth. */
function textNodes(el: Element, max: number): Text[] {
  const out: Text[] = [];
  let chars = 0;
  const walk = (root: Node) => {
    for (let n = root.firstChild; n && chars < max; n = n.nextSibling) {
      if (n.nodeType === Node.TEXT_NODE) {
        out.push(n as Text);
        chars += (n as Text).data.length;
      } else if (n.nodeType === Node.ELEMENT_NODE) {
        const shadow = (n as Element).shadowRoot;
        if (shadow) walk(shadow);
        else walk(n);
      }
    }
  };
  const shadow = el.shadowRoot;
  walk(shadow ?? el);
  return out;
}

interface Glyph { c: string; x: number; y: number; w: number; h: number }

const RTL = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}]/u;

/** `el`'s characters as drawn: lines top to bottom, each in its reading direction; '' when there is nothing drawn. */
export function visualText(el: Element): string {
  const range = el.ownerDocument.createRange();
  const glyphs: Glyph[] = [];
  for (const node of textNodes(el, MAX_GLYPHS * 2)) {
    const parent = node.parentElement;
    if (parent && getComputedStyle(parent).visibility !== 'visible') continue;
    const data = node.data;
    for (let i = 0; i < data.length && glyphs.length < MAX_GLYPHS; ) {
      const c = String.fromCodePoint(data.codePointAt(i)!);
      range.setStart(node, i);
      range.setEnd(node, i + c.length);
      i += c.length;
      const r = range.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) glyphs.push({ c: /\s/.test(c) ? ' ' : c, x: r.left, y: r.top + r.height / 2, w: r.width, h: r.height });
    }
  }
  if (!glyphs.length) return '';
  const rtl = glyphs.filter((g) => RTL.test(g.c)).length * 2 > glyphs.filter((g) => /\p{L}/u.test(g.c)).length;
  glyphs.sort((a, b) => a.y - b.y);
  const lines: Glyph[][] = [];
  for (const g of glyphs) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(g.y - line[0].y) < Math.min(g.h, line[0].h) / 2) line.push(g);
    else lines.push([g]);
  }
  const out: string[] = [];
  for (const line of lines) {
    line.sort((a, b) => (rtl ? b.x + b.w - (a.x + a.w) : a.x - b.x));
    let text = '';
    for (let i = 0; i < line.length; i++) {
      const g = line[i];
      const prev = line[i - 1];
      // Words drawn apart with no space character between them (flex gaps, margins) are two words.
      const gap = prev ? (rtl ? prev.x - (g.x + g.w) : g.x - (prev.x + prev.w)) : 0;
      if (prev && gap > g.h * 0.2) text += ' ';
      text += g.c;
    }
    out.push(text);
  }
  return collapse(out.join(' '));
}

/** The text of a CSS `content` value: its strings and attr() values ("none", counters, images: nothing). */
export function contentValue(value: string, el: Element): string {
  if (!value || value === 'none' || value === 'normal') return '';
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([\w-]+)\s*\)/g;
  for (let m = re.exec(value); m; m = re.exec(value)) {
    if (m[3]) out.push(getAttr(el, m[3]) ?? '');
    else out.push((m[1] ?? m[2] ?? '').replace(/\\([0-9a-f]{1,6})\s?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16))).replace(/\\(.)/g, '$1'));
  }
  return out.join('');
}

/**
 * `el`'s text with the generated text of every element in it (at most MAX_ELEMENTS, through open
 * shadow roots) where it is drawn; elements not displayed are left out. '' when nothing in it is
 * generated: its text alone is already one of its names.
 */
export function drawnText(el: Element): string {
  const parts: string[] = [];
  let elements = 0;
  let generated = false;
  const visit = (n: Element) => {
    if (++elements > MAX_ELEMENTS) return;
    const style = getComputedStyle(n);
    if (style.display === 'none') return;
    const before = contentValue(getComputedStyle(n, '::before').content, n);
    const after = contentValue(getComputedStyle(n, '::after').content, n);
    if (before || after) generated = true;
    parts.push(before);
    const root: Node = n.shadowRoot ?? n;
    for (let c = root.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === Node.TEXT_NODE) parts.push((c as Text).data);
      else if (c.nodeType === Node.ELEMENT_NODE) visit(c as Element);
    }
    parts.push(after);
  };
  visit(el);
  return generated ? collapse(parts.join(' ')) : '';
}

/**
 * The control a press on `el` activates through a <label> it is or is inside (`label.control`:
 * its `for` target or the control in it), when that is another element than `el` and not inside
 * it; null otherwise. A label "Show order details" pointing at a hidden "Place order" button
 * presses that button.
 */
export function labelledControl(el: Element): HTMLElement | null {
  for (let n: Element | null = el, depth = 0; n && depth < 6; n = composedParent(n), depth++) {
    if (n instanceof HTMLLabelElement) {
      const control = n.control;
      return control && control !== el && !el.contains(control) ? control : null;
    }
  }
  return null;
}

const PICTURE_TAGS = new Set(['img', 'canvas', 'svg', 'picture', 'object', 'embed', 'video']);

/** A box shaped like a line of words, not an icon: at least 32 × 10 px and at least 1.5 times as wide as tall. */
function wordShaped(r: DOMRect): boolean {
  return r.width >= 32 && r.height >= 10 && r.width >= r.height * 1.5;
}

function hasBackgroundImage(el: Element): boolean {
  return /url\(|image-set\(/.test(getComputedStyle(el).backgroundImage);
}

/**
 * `el` shows a picture that may hold words a person reads as its name: it is an image input, or
 * it or one of its first descendants (MAX_PICTURE_PARTS) is an <img>, a canvas, an SVG or the
 * like, or has a CSS background image, in a word-shaped box (icons are left alone).
 */
export function showsWordPicture(el: Element): boolean {
  if (el instanceof HTMLInputElement) return el.type === 'image';
  const parts = [el, ...Array.from(el.querySelectorAll('*')).slice(0, MAX_PICTURE_PARTS)];
  return parts.some((n) => (PICTURE_TAGS.has(n.localName) || hasBackgroundImage(n)) && wordShaped(n.getBoundingClientRect()));
}

const MAX_PICTURE_PARTS = 40;
