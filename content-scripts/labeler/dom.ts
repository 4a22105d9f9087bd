/**
 * Shadow-aware DOM helpers shared by the labeler and the select rewrite.
 * Reads only; nothing here writes to the page.
 */
import { RELEASE } from '../../src/core/release';

/** Attribute on our own elements: "overlay" (the marks) or "select-list" (the rewrite's list). */
export const UI_ATTR = 'data-wa-ui';
/** Attribute on the rewrite's option items; the value is the option's index in select.options. */
export const OPTION_ATTR = 'data-wa-option';
/** Attribute the rewrite puts on each <select>: "list" (rewritten) or "native" (left alone). */
export const SELECT_ATTR = 'data-wa-select';

type RootGetter = (el: Element) => ShadowRoot | null;

/**
 * The extension's content script gets closed shadow roots from chrome.dom.openOrClosedShadowRoot
 * (https://developer.chrome.com/docs/extensions/reference/api/dom). The esbuild test harness has no
 * chrome API; there a fixture page may fill a WeakMap (host -> root, by patching attachShadow):
 * a TEST SEAM only, never read when chrome.dom exists, and left out of the release build
 * (`npm run package` builds in mode "release"; scripts/release.ts refuses a build that has it).
 */
function closedRootGetter(): RootGetter | null {
  const g = globalThis as unknown as { chrome?: { dom?: { openOrClosedShadowRoot?: (el: HTMLElement) => ShadowRoot | null } } };
  const api = g.chrome?.dom?.openOrClosedShadowRoot;
  if (typeof api === 'function') {
    return (el) => {
      try {
        return el instanceof HTMLElement ? api(el) ?? null : null;
      } catch {
        return null;
      }
    };
  }
  if (!RELEASE) {
    // the harness's seam: globalThis.__webagentClosedRoots
    const seam = (globalThis as unknown as { __webagentClosedRoots?: WeakMap<Element, ShadowRoot> }).__webagentClosedRoots;
    if (seam instanceof WeakMap) return (el) => seam.get(el) ?? null;
  }
  return null;
}

/**
 * Elements that may host a shadow root, open or closed (https://dom.spec.whatwg.org/#dom-element-attachshadow):
 * custom elements and these tags. Other elements are not asked at all (each call on an element
 * costs, in an extension's isolated world even more than in the page).
 */
const HOST_TAGS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

let closedGetter: RootGetter | null | undefined;
/** closed-root answers during one labeling pass (rememberingRoots), else null */
let rootMemo: Map<Element, ShadowRoot | null> | null = null;

/**
 * Runs `fn` with chrome.dom's answers remembered per element: within one synchronous labeling
 * pass no script runs, so no root can be attached meanwhile, and the hit-tests ask again about
 * the same elements the walk asked about.
 */
export function rememberingRoots<T>(fn: () => T): T {
  const outer = rootMemo;
  rootMemo ??= new Map();
  try {
    return fn();
  } finally {
    rootMemo = outer;
  }
}

/**
 * The element's shadow root, open or closed (see closedRootGetter), or null. Open roots are read
 * on every possible host. chrome.dom costs several µs a call in the isolated world (more than a
 * style read), so a closed root is looked for on custom elements always, and on the plain host
 * tags (div, span, p, section, …) only when they have no light content at all: a closed-root
 * host's content comes from its root. (A closed root on a plain element that also has light
 * children is missed; measured on the heavy page, asking every div and span cost ~25 ms.)
 */
export function shadowRootOf(el: Element, tag = el.localName): ShadowRoot | null {
  const custom = tag.includes('-');
  if (!custom && !HOST_TAGS.has(tag)) return null;
  const open = el.shadowRoot;
  if (open) return open;
  if (closedGetter === undefined) closedGetter = closedRootGetter();
  if (!closedGetter) return null;
  if (!custom && el.firstChild !== null) return null;
  if (!rootMemo) return closedGetter(el);
  let root = rootMemo.get(el);
  if (root === undefined) {
    root = closedGetter(el);
    rootMemo.set(el, root);
  }
  return root;
}

/**
 * Parent in the flat (rendered) tree: the assigned slot, the parent element, or the shadow host.
 * (`assignedSlot` is null for slots in closed roots; the host, the next step up, is used then.)
 */
export function composedParent(n: Element): Element | null {
  if (n.assignedSlot) return n.assignedSlot;
  if (n.parentElement) return n.parentElement;
  const root = n.parentNode;
  if (root && root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in root) return (root as ShadowRoot).host;
  return null;
}

/**
 * Whether `test` holds for the element or an ancestor (across shadow boundaries), walking up
 * until a known answer in `memo`, a hit, or an element `stop` ends the walk at; every element
 * walked gets the answer in `memo`, so a pass over many elements walks each ancestor once.
 */
export function upTheTree(el: Element, memo: Map<Element, boolean>, test: (p: Element) => boolean, stop?: (p: Element) => boolean): boolean {
  const chain: Element[] = [];
  let answer = false;
  for (let p: Element | null = el; p; p = composedParent(p)) {
    const known = memo.get(p);
    if (known !== undefined) { answer = known; break; }
    chain.push(p);
    if (stop?.(p)) break;
    if (test(p)) { answer = true; break; }
  }
  for (const p of chain) memo.set(p, answer);
  return answer;
}

/**
 * The topmost element at a viewport point, descending into shadow roots (open and closed).
 * 1. document.elementFromPoint (skips pointer-events:none, so our overlay never answers);
 * 2. while the hit hosts a shadow root, ask that root; stop when it answers the host itself.
 */
export function deepElementFromPoint(x: number, y: number): Element | null {
  return deepenHit(document.elementFromPoint(x, y), x, y);
}

/** Step 2 of deepElementFromPoint, from a hit already known at (x, y). */
export function deepenHit(hit: Element | null, x: number, y: number): Element | null {
  for (let root = hit && shadowRootOf(hit); hit && root; root = shadowRootOf(hit)) {
    const inner = root.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/**
 * The element at a viewport point as seen from `el`'s tree (its document or shadow root, open or
 * closed): one hit-test, where deepElementFromPoint makes one per shadow level. A tree's
 * elementFromPoint retargets the hit into that tree (DOM: retargeting; Chromium returns the hit
 * itself when it is in no tree at or below that one), so the answer is `el` or its descendant
 * (a host whose shadow content was hit counts: it is in `el`'s subtree) exactly when the deep
 * hit is. Enough to ask "does the hit reach `el`"; deepenHit gives the deep hit when needed.
 */
export function elementFromPointFor(el: Element, x: number, y: number): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  return typeof root.elementFromPoint === 'function' ? root.elementFromPoint(x, y) : deepElementFromPoint(x, y);
}

/**
 * Pre-order walk of the document including shadow roots (a host's shadow tree before its light
 * children). `visit` (given the element and its localName) returns false to skip its subtree; `onRoot` sees each shadow root
 * before its contents. Iterative (no recursion limit); firstElementChild/nextElementSibling is
 * the cheapest way through a large tree.
 */
export function walkDeep(
  visit: (el: Element, tag: string) => boolean,
  start: Element | null = document.documentElement,
  onRoot?: (root: ShadowRoot) => void,
): void {
  if (!start) return;
  const stack: Array<Element | null> = [start];
  let first = true;
  while (stack.length) {
    const el = stack.pop();
    if (!el) continue;
    if (!first) stack.push(el.nextElementSibling);
    first = false;
    const tag = el.localName;
    if (!visit(el, tag)) continue;
    stack.push(el.firstElementChild);
    const root = shadowRootOf(el, tag);
    if (root) {
      onRoot?.(root);
      stack.push(root.firstElementChild);
    }
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

/** A frame element's content box in this viewport (border and padding excluded). */
export function contentBox(frame: Element, r = frame.getBoundingClientRect(), s = getComputedStyle(frame)): { x: number; y: number; width: number; height: number } {
  const px = (v: string) => parseFloat(v) || 0;
  const left = px(s.borderLeftWidth) + px(s.paddingLeft);
  const top = px(s.borderTopWidth) + px(s.paddingTop);
  return {
    x: r.left + left,
    y: r.top + top,
    width: Math.max(0, r.width - left - px(s.borderRightWidth) - px(s.paddingRight)),
    height: Math.max(0, r.height - top - px(s.borderBottomWidth) - px(s.paddingBottom)),
  };
}
