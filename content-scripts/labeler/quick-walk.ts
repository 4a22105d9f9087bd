/**
 * The quick pass: a page the labeler has not seen, read from selectors instead of a style per
 * element (docs/labeling.md, "A pass on a page it has not seen"). It finds the same candidates as
 * the walk (walk.ts), and the walk builds the page index right after it (page-index.ts), so
 * anything it could not decide is the walk's next time.
 *
 * 1. Scan: the document and every shadow root in document order (a host's shadow root before its
 *    light children), attribute names only, no style and no box. It numbers every element (the
 *    walk's order), finds the tag and attribute candidates (rules.ts), the iframes, the shadow
 *    roots, the open modal dialogs and popovers (their UA style scrolls), and the elements whose
 *    inline style sets a cursor, an overflow or display:contents. [inert] subtrees, the skipped
 *    tags and our overlay are left out as the walk leaves them.
 * 2. The style sheets (the document's, every shadow root's, adopted ones; style-rules.ts): every
 *    element matched by a rule that sets a cursor, an overflow, or display:contents (or any of them
 *    through `var()` or `all`). A sheet that cannot be read (another origin's) or a selector that
 *    cannot be queried: the pass is the walk's.
 * 3. The elements whose cursor may be pointer: those matched in 1–2 that may set it, and links
 *    (the browser's own sheet gives them a pointer), and everything inside them (the cursor is
 *    inherited: the walk's pointer candidates inside a clickable card).
 * 4. Each element found, in document order: a box off screen ends it (unless it has none: it may
 *    be display:contents, whose children then stand in for it); the rest is the walk's own step 2
 *    (Walker.visitOne), with the context its parent gives (its cursor, and a display:contents
 *    candidate's kind), read from the parent's style when the parent was not visited itself.
 * 5. The pointer chain (denest rule 3, rows) asks about ancestors the pass never read: their cursor
 *    is read when asked (PointerSet).
 *
 * When step 3 would box more than a share of the page (a rule gives every element a cursor, `* {
 * cursor: default }`), the walk is cheaper and the pass is the walk's.
 */
import { isOurOverlay } from './draw';
import { shadowRootOf, UI_ATTR } from './dom';
import { ATTR_NAMES, editableDocument, TAGS } from './rules';
import { elementsOfRules, splitSelectors } from './style-rules';
import { labelsOf, PLAIN, POINTER, SKIP_TAGS, Walker, type Ctx, type Walk } from './walk';

/** Past this share of the page's elements to box (and this many), the walk is cheaper. */
const MAX_SHARE = 0.3;
const MAX_ALWAYS = 500;

/** Declarations that may give an element a cursor, a scroller or display:contents. */
const STYLED = /(?:^|[;\s{])(?:cursor|overflow(?:-[xy])?|all)\s*:|display\s*:\s*(?:contents|var\()/i;
/** …of which these may set a cursor */
const CURSOR = /(?:^|[;\s{])(?:cursor|all)\s*:/i;
/** `:host`, `:host(…)` (brackets nested up to three deep), `:host-context(…)` and the combinator after it: the rest is inside the shadow tree */
const HOST = /:host(?:-context)?(?:\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?\s*[>+~]?\s*/g;

/**
 * A rule's selector list as selectors to query in `root`, each part without its pseudo-element
 * (the element it styles). What a shadow root's rule styles outside its tree is put in `outside`:
 * `:host` the host, `::slotted()` the host's children; `::part()` (an outer rule styling elements
 * inside shadow trees) every element with a `part` (`parts`: partElements, read once a pass).
 */
function elementSelectors(selectorText: string, root: Document | ShadowRoot, outside: Set<Element>, parts: (root: Document | ShadowRoot) => Element[]): string[] {
  const out: string[] = [];
  for (const raw of splitSelectors(selectorText)) {
    let part = raw;
    if (root instanceof ShadowRoot && part.includes(':host')) {
      part = part.replace(HOST, '');
      if (!part.trim()) outside.add(root.host);
    }
    if (part.includes('::slotted') && root instanceof ShadowRoot) for (const c of root.host.children) outside.add(c);
    if (part.includes('::part')) for (const el of parts(root)) outside.add(el);
    part = part.replace(/::?(?:before|after|first-line|first-letter)\b|::[\w-]+(?:\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?/gi, '').trim();
    if (part) out.push(part);
  }
  return out;
}

/** The elements with a `part` in the shadow trees below `root`. */
function partElements(root: Document | ShadowRoot): Element[] {
  const out: Element[] = [];
  const hosts = [...root.querySelectorAll('*')];
  for (const h of hosts) {
    const r = shadowRootOf(h);
    if (!r) continue;
    out.push(...r.querySelectorAll('[part]'));
    hosts.push(...r.querySelectorAll('*'));
  }
  return out;
}

/**
 * The walk's parent: the parent element, or the host of the shadow root the element is in (the
 * tree the walk goes down; dom.ts composedParent is the flat tree's, a slot first).
 */
function walkParent(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.parentNode;
  return root && root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in root ? (root as ShadowRoot).host : null;
}

/**
 * The walk's pointer set, answered for any element: what the pass read, and the cursor of the
 * others read when asked (denest and rows walk up the chain of pointer ancestors).
 */
class PointerSet extends Set<Element> {
  private readonly not = new WeakSet<Element>();
  override has(el: Element): boolean {
    if (super.has(el)) return true;
    if (this.not.has(el)) return false;
    if (getComputedStyle(el).cursor === 'pointer') {
      super.add(el);
      return true;
    }
    this.not.add(el);
    return false;
  }
}

interface Scan {
  order: Map<Element, number>;
  /** tag and attribute candidates, inline-styled elements, modal dialogs and popovers */
  found: Element[];
  /** of those, the ones that may have a pointer cursor of their own (inline style) */
  cursor: Element[];
  frames: Element[];
  roots: ShadowRoot[];
  modals: Element[];
}

/**
 * Step 1. Each tree's elements come from one native query in document order; a shadow tree's are
 * numbered inside its host's gap (between the host and its first light child), as the walk meets
 * them. What lies inside a skipped element is passed over as one run of the list.
 */
function scan(): Scan {
  const s: Scan = { order: new Map(), found: [], cursor: [], frames: [], roots: [], modals: [] };
  const trees: Array<{ list: ArrayLike<Element>; base: number; span: number }> = [{ list: document.getElementsByTagName('*'), base: 0, span: 1 }];
  for (let t = 0; t < trees.length; t++) {
    const { list, base, span } = trees[t];
    const count = list.length;
    // document elements are numbered 1, 2, …; a shadow tree's fit between its host and the next
    const step = t === 0 ? 1 : span / (count + 1);
    let skipped: Element | null = null;
    for (let i = 0; i < count; i++) {
      const el = list[i];
      if (skipped) {
        if (skipped.contains(el)) continue;
        skipped = null;
      }
      const tag = el.localName;
      if (SKIP_TAGS.has(tag)) { skipped = el; continue; }
      let found = TAGS.has(tag);
      if (el.hasAttributes()) {
        const names = el.getAttributeNames();
        for (let k = 0; k < names.length; k++) {
          const a = names[k];
          if (a === 'inert' || (a === UI_ATTR && isOurOverlay(el))) { skipped = el; break; }
          if (a === 'style') {
            const css = el.getAttribute('style') ?? '';
            if (STYLED.test(css)) found = true;
            if (CURSOR.test(css)) s.cursor.push(el);
          } else if (a === 'popover' || ATTR_NAMES.has(a)) found = true;
        }
        if (skipped) continue;
      }
      const order = base + (i + 1) * step;
      s.order.set(el, order);
      if (tag === 'iframe' || tag === 'frame') s.frames.push(el);
      else if (tag === 'body' && editableDocument(el)) found = true;
      else if (tag === 'dialog') {
        found = true;
        if (el.matches(':modal')) s.modals.push(el);
      }
      if (found) s.found.push(el);
      const shadow = shadowRootOf(el, tag);
      if (shadow) {
        s.roots.push(shadow);
        trees.push({ list: shadow.querySelectorAll('*'), base: order, span: step });
      }
    }
  }
  // shadow trees were read after the document: the iframes in the walk's order (frames.ts links them in it)
  if (s.roots.length) s.frames.sort((a, b) => s.order.get(a)! - s.order.get(b)!);
  return s;
}

/** The quick pass over the viewport (steps 1–5), or null when the walk must do it. */
export function quickWalk(vw: number, vh: number): Walk | null {
  const s = scan();
  const roots: Array<Document | ShadowRoot> = [document, ...s.roots];
  // one read of the rules: the styled ones queried there, the cursor ones' selectors kept apart
  // and queried here, once (a selector the browser cannot query: the walk's pass)
  const cursorRules = new Set<Element>();
  const styledOutside = new Set<Element>();
  const cursorSelectors: Array<{ root: Document | ShadowRoot; sel: string }> = [];
  const partsOf = new Map<Document | ShadowRoot, Element[]>();
  const parts = (root: Document | ShadowRoot) => partsOf.get(root) ?? partsOf.set(root, partElements(root)).get(root)!;
  const styled = elementsOfRules(roots, (style, sel, root) => {
    const css = style.cssText;
    if (!STYLED.test(css)) return null;
    if (!CURSOR.test(css)) return elementSelectors(sel, root, styledOutside, parts);
    for (const one of elementSelectors(sel, root, cursorRules, parts)) cursorSelectors.push({ root, sel: one });
    return null;
  }, true);
  if (!styled) return null;
  try {
    for (const { root, sel } of cursorSelectors) for (const el of root.querySelectorAll(sel)) cursorRules.add(el);
  } catch {
    return null;
  }
  for (const el of [...cursorRules, ...styledOutside]) styled.add(el);
  const wanted = new Set<Element>(s.found);
  for (const el of styled) wanted.add(el);
  // step 3: what may have a pointer cursor, and everything inside it
  const pointerRoots = new Set<Element>([...cursorRules, ...s.cursor]);

  // `maybe`: what may have a pointer cursor (its own or inherited); only what is inside the
  // pointer elements counts against the limit (links are boxed as candidates anyway)
  const maybe = new Set<Element>(pointerRoots);
  let limit = Math.max(MAX_ALWAYS, s.order.size * MAX_SHARE) + pointerRoots.size;
  const add = (el: Element): boolean => {
    maybe.add(el);
    for (const d of el.getElementsByTagName('*')) maybe.add(d);
    return maybe.size <= limit;
  };
  for (const el of pointerRoots) if (!add(el)) return null;
  // links (the browser's own sheet gives them a pointer; they are boxed as candidates anyway) and
  // what is inside them: one query a root
  for (const r of roots) {
    limit += r.querySelectorAll(':any-link').length;
    for (const el of r.querySelectorAll(':any-link, :any-link *')) maybe.add(el);
    if (maybe.size > limit) return null;
  }
  // shadow trees inside it inherit the cursor too (roots are listed outer first), and so do the
  // elements a slot in it shows
  for (const r of s.roots) {
    if (!maybe.has(r.host)) continue;
    for (const d of r.querySelectorAll('*')) maybe.add(d);
    if (maybe.size > limit) return null;
  }
  for (const el of [...maybe]) {
    if (el.localName !== 'slot') continue;
    for (const a of (el as HTMLSlotElement).assignedElements({ flatten: true })) if (!add(a)) return null;
  }
  for (const el of maybe) wanted.add(el);

  const w = new Walker({ left: 0, top: 0, right: vw, bottom: vh });
  // the context each visited element gives its children (null: a subtree the walk skips)
  const given = new Map<Element, Ctx | null>();
  const ctxOf = (el: Element): Ctx | null | undefined => {
    const p = walkParent(el);
    if (!p) return PLAIN;
    if (given.has(p)) return given.get(p);
    if (!s.order.has(p)) return null; // inside an [inert] or skipped subtree
    const style = getComputedStyle(p);
    if (style.display === 'none') return null;
    return style.cursor === 'pointer' ? POINTER : PLAIN;
  };
  const onScreen = (el: Element): boolean => {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return true; // no box: display:contents, or none (the style tells)
    return r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh;
  };
  let todo = [...wanted].filter((el) => s.order.has(el)).sort((a, b) => s.order.get(a)! - s.order.get(b)!);
  while (todo.length) {
    const more: Element[] = [];
    for (const el of todo) {
      // off screen ends it, unless a display:contents parent hands it its kind (boxes first: a
      // parent's style is read only for what is on screen)
      const inContents = (given.get(walkParent(el) as Element) ?? null)?.contents;
      if (!inContents && !onScreen(el)) continue;
      const ctx = ctxOf(el);
      if (ctx === null || ctx === undefined) { given.set(el, null); continue; }
      const inner = w.visitOne(el, ctx, s.order.get(el)!);
      given.set(el, inner);
      // a display:contents candidate: its children are candidates in its name (walk step 2d)
      if (inner?.contents) {
        for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (!given.has(c) && s.order.has(c)) more.push(c);
        const shadow = shadowRootOf(el);
        if (shadow) for (let c = shadow.firstElementChild; c; c = c.nextElementSibling) if (!given.has(c)) more.push(c);
      }
    }
    todo = more;
  }
  const byOrder = (a: { order: number }, b: { order: number }) => a.order - b.order;
  w.found.sort(byOrder);
  w.deferred.sort(byOrder);
  const pointer = new PointerSet(w.pointer);
  return { found: w.found, deferred: w.deferred, pointer, labels: labelsOf(s.roots), modals: s.modals, walked: { frames: s.frames, roots: s.roots } };
}
