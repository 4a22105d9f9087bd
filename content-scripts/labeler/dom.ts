/**
 * Shadow-aware DOM helpers shared by the labeler and the select rewrite.
 * Reads only; nothing here writes to the page.
 */

/** Attribute on our own elements: "overlay" (the marks) or "select-list" (the rewrite's list). */
export const UI_ATTR = 'data-wa-ui';
/** Attribute on the rewrite's option items; the value is the option's index in select.options. */
export const OPTION_ATTR = 'data-wa-option';
/** Attribute the rewrite puts on each <select>: "list" (rewritten) or "native" (left alone). */
export const SELECT_ATTR = 'data-wa-select';

/** Parent in the flat (rendered) tree: the assigned slot, the parent element, or the shadow host. */
export function composedParent(n: Element): Element | null {
  if (n.assignedSlot) return n.assignedSlot;
  if (n.parentElement) return n.parentElement;
  const root = n.parentNode;
  if (root && root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in root) return (root as ShadowRoot).host;
  return null;
}

/** True when `n` is `ancestor` or lies inside it, across shadow boundaries and slots. */
export function isSelfOrDescendant(n: Element | null, ancestor: Element): boolean {
  for (let cur = n; cur; cur = composedParent(cur)) if (cur === ancestor) return true;
  return false;
}

/**
 * The topmost element at a viewport point, descending into open shadow roots.
 * 1. document.elementFromPoint (skips pointer-events:none, so our overlay never answers);
 * 2. while the hit hosts an open shadow root, ask that root; stop when it answers the host itself.
 */
export function deepElementFromPoint(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/**
 * Pre-order walk of the document including open shadow roots (a host's shadow tree
 * before its light children). `visit` returns false to skip an element's subtree.
 */
export function walkDeep(visit: (el: Element) => boolean): void {
  const start = document.documentElement;
  if (!start) return;
  const stack: Element[] = [start];
  while (stack.length) {
    const el = stack.pop()!;
    if (!visit(el)) continue;
    const light = el.children;
    for (let i = light.length - 1; i >= 0; i--) stack.push(light[i]);
    const shadow = el.shadowRoot;
    if (shadow) for (let i = shadow.children.length - 1; i >= 0; i--) stack.push(shadow.children[i]);
  }
}

/** A short human description for errors, e.g. `<div id="m" class="modal open">`. */
export function describeElement(el: Element | null): string {
  if (!el) return 'nothing';
  let s = '<' + el.localName;
  if (el.id) s += ` id="${el.id.slice(0, 40)}"`;
  const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean).slice(0, 3) : [];
  if (cls.length) s += ` class="${cls.join(' ').slice(0, 60)}"`;
  const role = el.getAttribute('role');
  if (role) s += ` role="${role}"`;
  return s + '>';
}

/** Our own UI (overlay, select list) or something inside it (in the light tree). */
export function isOurUi(el: Element): boolean {
  return el.hasAttribute(UI_ATTR);
}
