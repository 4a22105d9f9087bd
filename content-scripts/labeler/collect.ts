/**
 * Candidate collection (reads the DOM and layout only; writes nothing).
 *
 * 1. Walk the document in order, into open shadow roots; skip our overlay, [inert] subtrees,
 *    and non-rendered containers (head, script, style, template, noscript).
 * 2. For each element read its computed style once; remember whether its cursor is "pointer".
 * 3. Classify: "semantic" (native control tag, interactive ARIA role, contenteditable, our
 *    select-list option) or "generic" (tabindex >= 0, onclick attribute, cursor:pointer).
 *    Drop disabled, aria-disabled="true" and pointer-events:none.
 * 4. Keep candidates whose clipped rect is big enough, rendered, and hit-testable (visibility.ts).
 * 5. De-nest in document order (ancestors come first):
 *    a. inside a kept a[href] / button / role=link / role=button keep only semantic controls;
 *    b. a candidate only because of cursor:pointer inherited from its parent is dropped when an
 *       ancestor in that unbroken cursor:pointer chain was kept (one mark per clickable card), or
 *       when the chain reaches <body>/<html> (a page-wide cursor:pointer marks nothing).
 */
import type { Rect } from '../../src/core/marks';
import { composedParent, isOurUi, OPTION_ATTR, walkDeep } from './dom';
import { bigEnough, clipToViewport, hitTest, isRendered } from './visibility';

export interface Candidate {
  el: Element;
  /** clipped to the viewport */
  rect: Rect;
}

const SKIP_TAGS = new Set(['head', 'script', 'style', 'template', 'noscript', 'link', 'meta']);
const CONTROL_TAGS = new Set(['button', 'select', 'textarea', 'summary']);
export const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem',
]);
const CONTAINER_ROLES = new Set(['button', 'link']);

type Kind = 'semantic' | 'generic' | 'pointer' | null;

function role(el: Element): string {
  return (el.getAttribute('role') ?? '').trim().split(/\s+/)[0].toLowerCase();
}

/** Step 3. "pointer" = a candidate only because of computed cursor:pointer. */
function classify(el: Element, style: CSSStyleDeclaration): Kind {
  const tag = el.localName;
  let kind: Kind = null;
  if (el.hasAttribute(OPTION_ATTR)) kind = 'semantic';
  else if (tag === 'a' && el.hasAttribute('href')) kind = 'semantic';
  else if (tag === 'input') kind = (el as HTMLInputElement).type === 'hidden' ? null : 'semantic';
  else if (CONTROL_TAGS.has(tag)) kind = 'semantic';
  else if (INTERACTIVE_ROLES.has(role(el))) kind = 'semantic';
  else if (el.hasAttribute('contenteditable') && el.getAttribute('contenteditable') !== 'false') kind = 'semantic';
  else if (el.hasAttribute('onclick')) kind = 'generic';
  else if (el.hasAttribute('tabindex') && (el as HTMLElement).tabIndex >= 0) kind = 'generic';
  else if (style.cursor === 'pointer' && tag !== 'html' && tag !== 'body') kind = 'pointer';
  if (!kind) return null;
  if (el.getAttribute('aria-disabled') === 'true') return null;
  if (el.matches(':disabled')) return null;
  if (style.pointerEvents === 'none') return null;
  return kind;
}

function isContainer(el: Element): boolean {
  const tag = el.localName;
  return (tag === 'a' && el.hasAttribute('href')) || tag === 'button' || CONTAINER_ROLES.has(role(el));
}

export function collectCandidates(): Candidate[] {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const pointer = new Map<Element, boolean>();
  const found: Array<{ el: Element; kind: Kind; style: CSSStyleDeclaration }> = [];

  // Steps 1–3.
  walkDeep((el) => {
    if (SKIP_TAGS.has(el.localName)) return false;
    if (el.hasAttribute('inert')) return false;
    if (isOurUi(el) && el.getAttribute('data-wa-ui') === 'overlay') return false;
    const style = getComputedStyle(el);
    if (style.display === 'none') return false;
    pointer.set(el, style.cursor === 'pointer');
    const kind = classify(el, style);
    if (kind) found.push({ el, kind, style });
    return true;
  });

  // Step 4.
  const visible: Array<{ el: Element; kind: Kind; rect: Rect }> = [];
  for (const c of found) {
    const rect = clipToViewport(c.el.getBoundingClientRect(), vw, vh);
    if (!rect || !bigEnough(rect) || !isRendered(c.el, c.style)) continue;
    if (!hitTest(c.el, rect).point) continue;
    visible.push({ el: c.el, kind: c.kind, rect });
  }

  // Step 5.
  const kept = new Set<Element>();
  const out: Candidate[] = [];
  for (const c of visible) {
    if (c.kind !== 'semantic' && insideKeptContainer(c.el, kept)) continue;
    if (c.kind === 'pointer' && inheritsPointerFromKept(c.el, kept, pointer)) continue;
    kept.add(c.el);
    out.push({ el: c.el, rect: c.rect });
  }
  return out;
}

function insideKeptContainer(el: Element, kept: Set<Element>): boolean {
  for (let p = composedParent(el); p; p = composedParent(p)) if (kept.has(p) && isContainer(p)) return true;
  return false;
}

function inheritsPointerFromKept(el: Element, kept: Set<Element>, pointer: Map<Element, boolean>): boolean {
  for (let p = composedParent(el); p; p = composedParent(p)) {
    const isPointer = pointer.get(p) ?? getComputedStyle(p).cursor === 'pointer';
    if (!isPointer) return false;
    // kept ancestor: the card already has its mark; body/html: a page-wide cursor means nothing
    if (kept.has(p) || p.localName === 'body' || p.localName === 'html') return true;
  }
  return false;
}
