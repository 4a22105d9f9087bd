/**
 * A row of buttons under one cursor (docs/labeling.md, "De-nesting", rule c'): an e-mail
 * toolbar `<div style="cursor:pointer"><span>Reply</span><span>Forward</span></div>` whose
 * children only inherit the pointer would be one mark "Reply Forward" whose centre hits neither
 * (rule c keeps the outermost of a pointer chain). A person sees two buttons. The parent is
 * replaced by its children when they are a row of separate controls:
 * - the parent is a candidate only because of its cursor (no role, no handler attribute: a
 *   parent with a handler of its own is one control, whatever is inside), with no text of its
 *   own, and every element child of it is one of the row;
 * - two or more children of the same tag, each with a button's few words of its own (at most
 *   three words, 24 characters; or an aria-label or title), no two alike;
 * - each passes the visibility checks and its own hit test (the centre of each lands in each);
 * - side by side in one row: no two overlap, each pair shares at least half the smaller height,
 *   and no item is more than twice as tall as another.
 * A clickable card (an image, a title and a price stacked) is none of this and keeps one mark; a
 * list row "Name · $99" split in two still clicks the row through either.
 */
import type { Rect } from '../../src/core/marks';
import type { Seen } from './denest';

/** a button's words: "Reply", "Mark as read"; a list row's subject line or preview is longer */
const MAX_TEXT = 24;
const MAX_WORDS = 3;
const ROW_OVERLAP = 0.5;
const HEIGHT_RATIO = 2;

export interface Split { drop: Set<Element>; add: Seen[] }

/**
 * `parents`: the visible pointer-only candidates; `kids`: deferred pointer children (their
 * chain has a visible ancestor); `measure`: step 4 for one of them (null: not seen).
 */
export function splitRows<F extends { el: Element }>(parents: Map<Element, Seen>, kids: F[], measure: (f: F) => Seen | null): Split {
  const groups = new Map<Element, F[]>();
  for (const k of kids) {
    const p = k.el.parentElement;
    if (!p || !parents.has(p)) continue;
    const g = groups.get(p);
    if (g) g.push(k);
    else groups.set(p, [k]);
  }
  const out: Split = { drop: new Set(), add: [] };
  for (const [p, group] of groups) {
    const row = rowOf(p, group, measure);
    if (!row) continue;
    out.drop.add(p);
    out.add.push(...row);
  }
  return out;
}

function rowOf<F extends { el: Element }>(p: Element, group: F[], measure: (f: F) => Seen | null): Seen[] | null {
  if (!rowShape(p, group.map((f) => f.el))) return null;
  const seen: Seen[] = [];
  for (const f of group) {
    const s = measure(f);
    if (!s) return null;
    seen.push(s);
  }
  return inOneRow(seen.map((s) => s.rect)) ? seen : null;
}

/** Everything but the geometry: `items` are all of `p`'s element children, of one tag, each with a button's few words. */
function rowShape(p: Element, items: Element[]): boolean {
  if (items.length < 2 || p.childElementCount !== items.length || p.shadowRoot) return false;
  const tag = items[0].localName;
  if (items.some((el) => el.localName !== tag)) return false;
  for (const n of p.childNodes) if (n.nodeType === Node.TEXT_NODE && n.textContent!.trim()) return false;
  const texts = new Set<string>();
  for (const el of items) {
    const t = ownText(el);
    if (!t || t.length > MAX_TEXT || t.split(' ').length > MAX_WORDS || texts.has(t)) return false;
    texts.add(t);
  }
  return true;
}

/**
 * For a point action (content-scripts/point.ts): is `el` one button of such a row under its
 * parent's cursor? Then a click on it used the button, not the whole toolbar.
 */
export function isRowItem(el: Element): boolean {
  const p = el.parentElement;
  if (!p || !rowShape(p, Array.from(p.children))) return false;
  return inOneRow(Array.from(p.children, (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  }));
}

function ownText(el: Element): string {
  const t = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  return t || (el.getAttribute('aria-label') ?? el.getAttribute('title') ?? '').trim();
}

function inOneRow(rects: Rect[]): boolean {
  for (let i = 0; i < rects.length; i++) {
    for (let j = i + 1; j < rects.length; j++) {
      const a = rects[i], b = rects[j];
      const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (w > 1 && h > 1) return false;
      const low = Math.min(a.height, b.height), high = Math.max(a.height, b.height);
      if (h < ROW_OVERLAP * low || high > HEIGHT_RATIO * low) return false;
    }
  }
  return true;
}
