/**
 * Actions at a point, content-script side: what is under a point of this frame's viewport, what
 * has focus, and the crosshair the approval card shows on the page.
 *
 * inspectPoint (the "point/inspect" message), in this frame:
 * 1. deep hit test: document.elementFromPoint, then each shadow root's own elementFromPoint, open
 *    and closed (dom.ts);
 * 2. an <iframe>/<frame> hit inside its content box is reported as a frame, with that content box
 *    (border and padding excluded) in this viewport: the background asks that frame next;
 * 3. otherwise the element a person would say they used: the nearest interactive ancestor of the
 *    hit in the flat tree (the labeler's candidate rules: links, controls, labels, interactive
 *    roles, click handlers and framework click hooks, contenteditable, tabindex >= 0), else the
 *    outermost of the hit's cursor:pointer ancestors (stopping at one button of a row under a
 *    toolbar's cursor), else the hit itself; described with the labeler's rules (describe.ts, text.ts, fingerprint.ts,
 *    details.ts).
 */
import type { HitElement, PointHit, Rect } from '../src/core/marks';
import { fieldDetails, gateDetails, linkDetails, navDetails, type FieldDetails } from './details';
import { inputTypeOf, isEditable, tagOf } from './labeler/describe';
import { composedParent, contentBox, deepElementFromPoint, shadowRootOf, UI_ATTR } from './labeler/dom';
import { OVERLAY, showOnTop } from './labeler/draw';
import { PathCache } from './labeler/fingerprint';
import { classify } from './labeler/rules';
import { isRowItem } from './labeler/rows';
import { collapse, elementText } from './labeler/text';
import { clipToViewport } from './labeler/visibility';

const MAX_HIT_TEXT = 200;
const FRAME_TAGS = new Set(['iframe', 'frame']);

/**
 * Step 3's first rule: what a person uses on purpose, by the labeler's candidate rules (rules.ts:
 * native controls, labels, interactive roles, handlers and framework click hooks, contenteditable,
 * tabindex, anchors drawn as controls); an image map's area with an href too.
 */
function isInteractive(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'area') return el.hasAttribute('href');
  return classify(el, tag).kind !== null;
}

function isPageRoot(el: Element): boolean {
  return el.localName === 'body' || el.localName === 'html';
}

/** Step 3: the element a person would say they used. */
export function usedElement(hit: Element): Element {
  for (let n: Element | null = hit; n && !isPageRoot(n); n = composedParent(n)) {
    if (isInteractive(n)) return n;
  }
  // A card or row made clickable by script shows a pointer over all of it: take the outermost,
  // unless the chain passes one button of a row under a toolbar's cursor (labeler/rows.ts)
  let owner: Element | null = null;
  for (let n: Element | null = hit; n && !isPageRoot(n); n = composedParent(n)) {
    if (getComputedStyle(n).cursor !== 'pointer') break;
    owner = n;
    if (isRowItem(n)) break;
  }
  return owner ?? hit;
}

function inside(r: Rect, x: number, y: number): boolean {
  return x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height;
}

function cap(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) : s;
}

/** The element's box in this viewport, clipped to it (as marks are) when it reaches inside. */
function boxOf(el: Element): Rect {
  const r = el.getBoundingClientRect();
  return clipToViewport(r, window.innerWidth, window.innerHeight) ?? { x: r.x, y: r.y, width: r.width, height: r.height };
}

/**
 * The element's text by the labeler's rules; when that is empty, the text of what was hit inside
 * it (a shadow-tree button whose label is slotted: innerText does not follow slots).
 */
function shownText(el: Element, hit: Element): string {
  const own = elementText(el);
  if (own) return own;
  for (let n: Element | null = hit; n && n !== el; n = composedParent(n)) {
    const t = elementText(n);
    if (t) return t;
  }
  return '';
}

/** What the guards, the approval card and replay need about an element (labeler rules); `hit`: what the hit test found in it. */
export function describeHit(el: Element, hit: Element = el): Omit<HitElement, 'frameId'> {
  const tag = tagOf(el);
  const full = elementText(el);
  const out: Omit<HitElement, 'frameId'> = {
    tag,
    text: cap(full || shownText(el, hit), MAX_HIT_TEXT),
    rect: boxOf(el),
    fingerprint: { tag, text: full, path: new PathCache().path(el) },
    ...linkDetails(el),
    ...navDetails(el),
    editable: isEditable(el),
    ...fieldDetails(el),
    ...gateDetails(el),
  };
  const type = inputTypeOf(el);
  if (type !== undefined) out.inputType = type;
  return out;
}

/** The "point/inspect" message: see the header. */
export function inspectPoint(x: number, y: number): PointHit {
  if (!Number.isFinite(x) || !Number.isFinite(y)) return { kind: 'none' };
  const hit = deepElementFromPoint(x, y);
  if (!hit) return { kind: 'none' };
  if (FRAME_TAGS.has(hit.localName)) {
    const box = contentBox(hit);
    if (inside(box, x, y)) return { kind: 'frame', box };
  }
  return { kind: 'element', element: describeHit(usedElement(hit), hit) };
}

/** The focused element, through shadow roots (open and closed) and same-origin frames. */
export function deepActiveElement(): Element | null {
  let el: Element | null = document.activeElement;
  for (let i = 0; el && i < 32; i++) {
    const root = shadowRootOf(el);
    if (root?.activeElement) { el = root.activeElement; continue; }
    if (FRAME_TAGS.has(el.localName)) {
      let inner: Document | null = null;
      try {
        inner = (el as HTMLIFrameElement).contentDocument;
      } catch {
        inner = null; // cross-origin: that frame's own script knows
      }
      if (inner?.activeElement) { el = inner.activeElement; continue; }
    }
    break;
  }
  return el;
}

/** `formAction`: where Enter in it submits its form (content-scripts/details.ts), absent when none */
export interface Focused extends FieldDetails { tag: string; text: string; inputType?: string; editable: boolean; formAction?: string | null }

/**
 * The "point/focused" message: the focused field when it is editable. A focused cross-origin
 * frame is answered as {tag: 'iframe', editable: false}: the field is inside it, out of reach
 * from here (the background asks every frame then: focusState).
 */
export function focusedField(): Focused | null {
  const el = deepActiveElement();
  if (!el) return null;
  if (FRAME_TAGS.has(el.localName)) return { tag: el.localName, text: collapse(el.getAttribute('title') ?? el.getAttribute('name')), editable: false };
  // a designMode document or a contenteditable body (iframe editors) is a field too: isEditable says so
  return isEditable(el) ? describeFocused(el) : null;
}

function describeFocused(el: Element): Focused {
  // the field's form and attributes too: a Key Enter there is judged by them (guards)
  const out: Focused = { tag: tagOf(el), text: cap(elementText(el), MAX_HIT_TEXT), editable: true, ...fieldDetails(el) };
  const formAction = navDetails(el).formAction;
  if (formAction) out.formAction = formAction;
  const type = inputTypeOf(el);
  if (type !== undefined) out.inputType = type;
  return out;
}

/**
 * The "point/active" message: the focused element whatever it is (a button Enter or Space would
 * press, a field whose form Enter would submit), described for the gate; null when only the page
 * itself has the focus.
 */
export function activeElement(): (Omit<HitElement, 'frameId'>) | null {
  const el = deepActiveElement();
  if (!el || el === document.body || el === document.documentElement) return null;
  return describeHit(el);
}

/** For every frame at once (chrome.scripting): this frame's focused field, and whether focus is in a child frame. */
export function focusState(): { field: Focused | null; inChild: boolean; hasFocus: boolean } {
  const field = focusedField();
  const inChild = !!field && FRAME_TAGS.has(field.tag) && !field.editable;
  return { field: inChild ? null : field, inChild, hasFocus: document.hasFocus() };
}

const POINT_ATTR = 'data-wa-point';
const HOST_STYLE = [
  'position:fixed', 'inset:0', 'width:auto', 'height:auto', 'margin:0', 'padding:0', 'border:0',
  'background:transparent', 'overflow:hidden', 'display:block', 'pointer-events:none',
  'z-index:2147483647', 'opacity:1', 'visibility:visible', 'transform:none', 'filter:none',
].map((d) => d + ' !important').join(';');
const CSS = `
:host { all: initial; }
div { position: absolute; box-sizing: border-box; pointer-events: none; }
.box { border: 2px dashed #d0021b; outline: 1px solid rgba(255,255,255,.95); box-shadow: inset 0 0 0 1px rgba(0,0,0,.5); }
.h, .v { background: #d0021b; box-shadow: 0 0 0 1px #fff; }
.ring { width: 14px; height: 14px; border: 2px solid #d0021b; border-radius: 50%; box-shadow: 0 0 0 1px #fff, inset 0 0 0 1px #fff; }
`;

/**
 * The "point/mark" message (top frame): a crosshair at `point` and a dashed outline of `box`, in
 * a host of our overlay (UI_ATTR = overlay, top layer, pointer-events none), so "marks/hide" and
 * "marks/reset" remove it with the labels. A null point removes it.
 */
export function markPoint(point: { x: number; y: number } | null, box: Rect | null): null {
  if (window !== window.top) return null;
  for (const el of Array.from(document.querySelectorAll(`[${POINT_ATTR}]`))) el.remove();
  if (!point) return null;
  const host = document.createElement('webagent-point');
  host.setAttribute(UI_ATTR, OVERLAY);
  host.setAttribute(POINT_ATTR, '');
  host.setAttribute('aria-hidden', 'true');
  host.setAttribute('style', HOST_STYLE);
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = CSS;
  root.appendChild(style);
  const part = (cls: string, css: string) => {
    const d = document.createElement('div');
    d.className = cls;
    d.style.cssText = css;
    root.appendChild(d);
  };
  if (box) part('box', `left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px`);
  const { x, y } = point;
  part('h', `left:${x - 14}px;top:${y - 1}px;width:28px;height:2px`);
  part('v', `left:${x - 1}px;top:${y - 14}px;width:2px;height:28px`);
  part('ring', `left:${x - 7}px;top:${y - 7}px`);
  // The top layer, so the crosshair also shows over modal dialogs (as the labels do).
  showOnTop(host);
  return null;
}
