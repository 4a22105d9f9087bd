/**
 * Denest rule e (docs/labeling.md): one mark per web component. A component's host carries the
 * role, name or cursor the page gave it; its shadow tree implements the control again (an inner
 * <button>, a focusable <div>, an <input>). Slotted light-DOM children are the page's own
 * elements and are not "inside the shadow tree" here. What to keep is decided from the boxes
 * (src/core/component-marks.ts); this file finds the hosts and parts.
 */
import type { Rect } from '../../src/core/marks';
import { componentDrops, wrappedControl } from '../../src/core/component-marks';
import { INTERACTIVE_ROLES, roleOf, type Kind } from './rules';

/** What rule e needs of a candidate (denest's Seen has it). */
export interface Part { el: Element; kind: Kind; rect: Rect; scrollable: boolean }

const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
const NOT_TEXT_INPUTS = new Set(['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'range', 'color', 'file']);

/** A field that takes typed text (an action types into it, so the mark must be on it). */
export function takesText(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'textarea') return true;
  if (tag === 'input') return !NOT_TEXT_INPUTS.has((el as HTMLInputElement).type);
  if (el instanceof HTMLElement && el.isContentEditable) return true;
  return TEXT_ROLES.has(roleOf(el));
}

/** el holds the default <slot> of host's shadow root: it shows the host's own content. */
function showsHostContent(el: Element, host: Element): boolean {
  for (const slot of Array.from(el.querySelectorAll('slot:not([name])'))) {
    if (slot.getRootNode() === el.getRootNode() && (el.getRootNode() as ShadowRoot).host === host) return true;
  }
  return false;
}

/** The shadow hosts above el through shadow roots only, nearest first. */
function hostsAbove(el: Element): Element[] {
  const out: Element[] = [];
  for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) out.push(root.host);
  return out;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v); else m.set(k, [v]);
}

/** host → the candidates in its shadow tree (any depth); rule a asks it about a label's control. */
export function innerCandidates<T extends Part>(seen: T[]): Map<Element, T[]> {
  const out = new Map<Element, T[]>();
  for (const s of seen) for (const h of hostsAbove(s.el)) push(out, h, s);
  return out;
}

/** Rule e on the kept candidates (document order kept). */
export function oneMarkPerComponent<T extends Part>(kept: T[]): T[] {
  const byEl = new Map<Element, T>();
  for (const s of kept) byEl.set(s.el, s);
  const inside = new Map<T, T[]>();
  for (const s of kept) {
    const host = hostsAbove(s.el).map((h) => byEl.get(h)).find(Boolean);
    if (host) push(inside, host, s);
  }
  const drop = new Set<T>();
  for (const [host, parts] of inside) {
    const d = componentDrops(host.rect, parts.map((p) => ({ rect: p.rect, takesText: takesText(p.el), showsHostContent: showsHostContent(p.el, host.el) })));
    if (d === 'host') drop.add(host);
    else for (const i of d) drop.add(parts[i]);
  }
  dropShadowWrappers(kept, drop);
  return drop.size ? kept.filter((s) => !drop.has(s)) : kept;
}

/** Wrappers inside one shadow root around a single semantic control (component-marks.ts). */
function dropShadowWrappers<T extends Part>(kept: T[], drop: Set<T>): void {
  const inRoot = new Map<ShadowRoot, T[]>();
  for (const s of kept) {
    const root = s.el.getRootNode();
    if (root instanceof ShadowRoot && !drop.has(s)) push(inRoot, root, s);
  }
  for (const list of inRoot.values()) {
    if (list.length < 2) continue;
    for (const w of list) {
      if ((w.kind !== 'generic' && w.kind !== 'pointer') || w.scrollable || INTERACTIVE_ROLES.has(roleOf(w.el))) continue;
      const within = list.filter((s) => s !== w && w.el.contains(s.el));
      if (within.length === 1 && within[0].kind === 'semantic' && wrappedControl(w.rect, within[0].rect)) drop.add(w);
    }
  }
}
