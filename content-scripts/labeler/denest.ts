/**
 * De-nesting (docs/labeling.md): one mark per target. In document order (ancestors first):
 * a. a label is kept only when its control cannot be marked itself (hidden, transparent, off
 *    screen: e.g. a styled checkbox); a transparent form control is dropped when its label is kept;
 * b. inside a kept link / button / label only distinct controls stay (rules.isDistinct) and
 *    scroll containers;
 * c. a candidate only because of cursor:pointer inherited from its parent is dropped when an
 *    ancestor in that unbroken chain is kept or is a label, or when the chain reaches
 *    <body>/<html> (a page-wide cursor:pointer marks nothing);
 * d. innermost wins: a generic / pointer wrapper whose kept descendant covers >= 80% of its area
 *    is dropped (both are the same target; the inner one says more);
 * e. one mark per web component (shadow.ts): a kept host and the kept candidates inside its
 *    shadow tree are one control when they are the same target; rule a counts a control whose
 *    host is not a candidate but whose shadow tree holds one as marked.
 */
import type { Rect } from '../../src/core/marks';
import { composedParent } from './dom';
import { isContainer, isDistinct, type Kind } from './rules';
import { innerCandidates, oneMarkPerComponent } from './shadow';

export interface Seen {
  el: Element;
  owner: Element;
  kind: Kind;
  /** clipped to the viewport */
  rect: Rect;
  /** opacity 0 (a form control laid over something styled) */
  transparent: boolean;
  scrollable: boolean;
  /** document order */
  order: number;
  /** el's computed style */
  style: CSSStyleDeclaration;
}

const WRAPPER_COVER = 0.8;

export function denest(seen: Seen[], pointer: Set<Element>): Seen[] {
  const visible = new Map<Element, Seen>();
  for (const s of seen) visible.set(s.el, s);
  // each candidate's visible ancestors, nearest first: one walk up per candidate serves rules b and d
  const above = new Map<Seen, Seen[]>();
  for (const s of seen) {
    let list: Seen[] | null = null;
    for (let p = composedParent(s.el); p; p = composedParent(p)) {
      const v = visible.get(p);
      if (v) (list ??= []).push(v);
    }
    if (list) above.set(s, list);
  }
  const labelled = new Set<Element>();
  const kept = new Map<Element, Seen>();
  const inner = innerCandidates(seen);
  for (const s of seen) {
    if (s.kind === 'label') {
      const control = (s.el as HTMLLabelElement).control;
      const own = control ? visible.get(control) ?? inner.get(control)?.find((c) => !c.transparent) : undefined;
      if (own && !own.transparent) continue;
      if (control) labelled.add(control);
    } else if (s.transparent && labelled.has(s.el)) {
      continue;
    }
    const ancestors = above.get(s);
    if (ancestors && s.kind !== 'scroll' && !s.scrollable && insideKeptContainer(s, ancestors, kept)) continue;
    if (s.kind === 'pointer' && inheritsPointer(s.el, kept, pointer)) continue;
    kept.set(s.el, s);
  }
  // rule a for a transparent control that comes before its label (label[for] after the input)
  for (const el of labelled) kept.delete(el);
  return oneMarkPerComponent(dropWrappers(kept, above));
}

/** Rule b; `ancestors`: the visible ones, nearest first (kept ones are among them). */
function insideKeptContainer(s: Seen, ancestors: Seen[], kept: Map<Element, Seen>): boolean {
  for (const a of ancestors) {
    const k = kept.get(a.el);
    if (!k || k.kind === 'scroll' || k.owner === s.owner || !isContainer(k.owner)) continue;
    return !isDistinct(s.owner, k.owner);
  }
  return false;
}

function inheritsPointer(el: Element, kept: Map<Element, Seen>, pointer: Set<Element>): boolean {
  for (let p = composedParent(el); p; p = composedParent(p)) {
    // clicking anything in a label clicks the label: its control (or the label) has the mark
    if (p.localName === 'label') return true;
    if (!pointer.has(p)) return false;
    if (kept.has(p) || p.localName === 'body' || p.localName === 'html') return true;
  }
  return false;
}

/** Rule d. */
function dropWrappers(kept: Map<Element, Seen>, above: Map<Seen, Seen[]>): Seen[] {
  const out = Array.from(kept.values());
  const drop = new Set<Element>();
  const area = (r: Rect) => r.width * r.height;
  for (const s of out) {
    for (const a of above.get(s) ?? []) {
      const k = kept.get(a.el);
      if (!k || k.scrollable || (k.kind !== 'generic' && k.kind !== 'pointer')) continue;
      if (area(s.rect) >= WRAPPER_COVER * area(k.rect)) drop.add(a.el);
    }
  }
  return drop.size ? out.filter((s) => !drop.has(s.el)) : out;
}
