/**
 * Denest rule e (docs/labeling.md): one mark per web component. A component's host carries the
 * role, name or cursor the page gave it; its shadow tree implements the control again (an inner
 * <button>, a focusable <div>, an <input>). Slotted light-DOM children are the page's own
 * elements and are not "inside the shadow tree" here.
 *
 * For a kept host H and the kept candidates whose shadow-tree chain reaches H (the nearest kept
 * host above them, through shadow roots only):
 * 1. exactly one such candidate lying (>= 80 % of its area) inside H: one control, one mark —
 *    the inner one when it takes text (typing needs the field itself), else H;
 * 2. several: each one that is the same target as H (IoU >= 0.5) is dropped, unless it takes
 *    text; smaller distinct parts (a tab's close button) keep their own marks.
 * And within one shadow root, a generic / pointer wrapper whose only kept descendant in that root
 * is a semantic control covering >= 40 % of it is dropped (a select's box around its combobox).
 */
import type { Rect } from '../../src/core/marks';
import type { Seen } from './denest';
import { INTERACTIVE_ROLES, roleOf } from './rules';

const INSIDE = 0.8;
const SAME_TARGET = 0.5;
const WRAPPED = 0.4;
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
const NOT_TEXT_INPUTS = new Set(['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'range', 'color', 'file']);

export const area = (r: Rect) => Math.max(0, r.width) * Math.max(0, r.height);

export function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export function iou(a: Rect, b: Rect): number {
  const i = overlap(a, b);
  return i ? i / (area(a) + area(b) - i) : 0;
}

/** A field that takes typed text (an action types into it, so the mark must be on it). */
export function takesText(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'textarea') return true;
  if (tag === 'input') return !NOT_TEXT_INPUTS.has((el as HTMLInputElement).type);
  if (el instanceof HTMLElement && el.isContentEditable) return true;
  return TEXT_ROLES.has(roleOf(el));
}

/** The shadow hosts above el through shadow roots only, nearest first. */
function hostsAbove(el: Element): Element[] {
  const out: Element[] = [];
  for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) out.push(root.host);
  return out;
}

/** host → the candidates in its shadow tree (any depth), for candidates inside shadow roots. */
export function innerCandidates(seen: Seen[]): Map<Element, Seen[]> {
  const out = new Map<Element, Seen[]>();
  for (const s of seen) {
    for (const h of hostsAbove(s.el)) {
      const list = out.get(h);
      if (list) list.push(s); else out.set(h, [s]);
    }
  }
  return out;
}

export function oneMarkPerComponent(kept: Seen[]): Seen[] {
  const byEl = new Map<Element, Seen>();
  for (const s of kept) byEl.set(s.el, s);
  const inside = new Map<Seen, Seen[]>();
  for (const s of kept) {
    const host = hostsAbove(s.el).map((h) => byEl.get(h)).find(Boolean);
    if (!host) continue;
    const list = inside.get(host);
    if (list) list.push(s); else inside.set(host, [s]);
  }
  const drop = new Set<Seen>();
  for (const [host, parts] of inside) {
    if (parts.length === 1) {
      const part = parts[0];
      if (overlap(part.rect, host.rect) < INSIDE * area(part.rect)) continue;
      drop.add(takesText(part.el) ? host : part);
      continue;
    }
    for (const part of parts) if (!takesText(part.el) && iou(part.rect, host.rect) >= SAME_TARGET) drop.add(part);
  }
  dropShadowWrappers(kept, drop);
  return drop.size ? kept.filter((s) => !drop.has(s)) : kept;
}

const isSemantic = (s: Seen) => s.kind === 'semantic';

/** The last paragraph of the header: wrappers inside one shadow root. */
function dropShadowWrappers(kept: Seen[], drop: Set<Seen>): void {
  const inRoot = new Map<ShadowRoot, Seen[]>();
  for (const s of kept) {
    const root = s.el.getRootNode();
    if (!(root instanceof ShadowRoot) || drop.has(s)) continue;
    const list = inRoot.get(root);
    if (list) list.push(s); else inRoot.set(root, [s]);
  }
  for (const list of inRoot.values()) {
    if (list.length < 2) continue;
    for (const w of list) {
      if (w.kind !== 'generic' && w.kind !== 'pointer') continue;
      if (w.scrollable || INTERACTIVE_ROLES.has(roleOf(w.el))) continue;
      const within = list.filter((s) => s !== w && w.el.contains(s.el));
      if (within.length === 1 && isSemantic(within[0]) && area(within[0].rect) >= WRAPPED * area(w.rect)) drop.add(w);
    }
  }
}
