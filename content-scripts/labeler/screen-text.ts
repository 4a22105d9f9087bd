/**
 * The injection screen of what the page shows besides its controls (docs/labeling.md, "Between passes: the page text screen"): the
 * element list holds only controls, but the model reads the whole screenshot, so the text of
 * paragraphs, headings, table cells, list items, the `alt` of images and the `title` /
 * `aria-label` of elements are screened too (core/injection/index.ts), in this frame's document and in
 * every shadow root the labeling walk met (open or closed). Each frame screens its own; the
 * background merges the findings with the marks (core/frames.ts).
 *
 * A finding counts when the model can read it now: its element is rendered (checkVisibility:
 * not display:none, visibility:hidden or opacity 0), its box meets the viewport, its own style
 * does not hide its text (hidden-text.ts), and the text a person sees of it (the labeler's
 * reading, text.ts: hidden, covered, same-colour and clipped parts left out) still says it.
 * Those reads are made only for texts the detector flags.
 *
 * Cost (`npm run bench`, BENCH_PART=real and observe): what was screened is kept between passes
 * (text-watch.ts). A text is read again only when a mutation may have changed it (its block's
 * text, an alt, title or aria-label) or its shadow root is new; a pass over a page that only
 * scrolled reads nothing but the few texts the detector flagged. On a page it has not seen, a
 * pass screens the texts on screen (one box read per block) and leaves the rest for idle time
 * right after it (while the model thinks), so the detector's first, unoptimised runs are spent
 * on what the model can see now. Each distinct text is screened once per page and its answer
 * remembered.
 *
 * Text is grouped by its block (text-watch.ts): a text node joins its parent, climbing through
 * inline elements (b, em, a, span, …), so "ignore <b>previous</b> instructions" is read as one text.
 */
import { detectInjection, type InjectionKind } from '../../src/core/injection';
import type { TextFinding } from '../../src/core/marks';
import { boxOf } from './boxes';
import { hiddenParts, hidesOwnText } from './hidden-text';
import { MAX_TEXT as MAX_SEEN } from './text';
import { readGroups, TextWatch, type Group } from './text-watch';
import { leafTextUnseen, unseenTextNodes } from './unseen-text';

/** a text is read up to this many characters (a phrase is short; a huge text node is one page's dump) */
const MAX_TEXT = 4000;
/** idle screening: starts this long after a pass (the screenshot is taken first) … */
const IDLE_DELAY_MS = 300;
/** … in slices this long, ms (the page stays responsive) */
const SLICE_MS = 8;
/** remembered answers (cleared when full) */
const MAX_REMEMBERED = 50_000;

const remembered = new Map<string, { phrase: string; kind: InjectionKind } | null>();

function screen(text: string, code: boolean): { phrase: string; kind: InjectionKind } | null {
  const key = code ? `\u0000${text}` : text;
  const known = remembered.get(key);
  if (known !== undefined) return known;
  const hit = detectInjection([{ text, where: 0, code }])[0];
  const answer = hit ? { phrase: hit.phrase, kind: hit.kind } : null;
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(key, answer);
  return answer;
}

function readable(el: Element, vw: number, vh: number): boolean {
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return false;
  const r = boxOf(el);
  return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 80);

/**
 * A group's text as a person sees it: the labeler's own rules (hidden-text.ts: parts whose
 * style hides their text, aria-hidden; unseen-text.ts: the background's colour, scrolled or
 * pushed out of a clipping box, covered; visibility) leave out what cannot be seen. `nodes` are
 * the group's text nodes, all inside `el`.
 */
function shownText(el: Element, nodes: readonly Text[]): string {
  const style = getComputedStyle(el);
  if (!el.firstElementChild) return leafTextUnseen(el, style) ? '' : nodes.map((n) => n.data).join('');
  const hidden = hiddenParts(el);
  const unseen = new Set(unseenTextNodes(el, style, hidden));
  const parts: string[] = [];
  for (const n of nodes) {
    const p = n.parentElement;
    if (!p || unseen.has(n) || hidden.some((h) => h.contains(p)) || p.closest('[aria-hidden="true"]')) continue;
    if (p !== el && typeof p.checkVisibility === 'function' && !p.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    parts.push(n.data);
  }
  return parts.join('');
}

/** A group with the detector's answer: what the screen keeps between passes. */
type Flagged = Group & { hit: { phrase: string; kind: InjectionKind } };

/** What this frame's screen keeps between passes (text-watch.ts says when it is still right). */
const kept = {
  watch: null as TextWatch | null,
  /** groups not screened yet (off screen when read): screened in idle time, or when on screen */
  pending: [] as Group[],
  /** groups the detector flagged (whether the model can read them is asked each pass) */
  flagged: [] as Flagged[],
  idle: 0,
};

function onScreen(el: Element, vw: number, vh: number): boolean {
  const r = boxOf(el);
  return r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
}

/** Screen a group whose answer is known, or (`now`) any: false when it is left pending. */
function settle(g: Group, now: boolean): boolean {
  const text = g.text.slice(0, MAX_TEXT);
  if (!now && !remembered.has(g.code ? `\u0000${text}` : text)) return false;
  const hit = screen(text, g.code);
  if (hit) kept.flagged.push({ ...g, hit });
  return true;
}

/** Screen what is left pending, a slice at a time, while the page is idle (the model thinks). */
function screenLater(delay = IDLE_DELAY_MS): void {
  if (kept.idle || !kept.pending.length) return;
  kept.idle = window.setTimeout(() => {
    kept.idle = 0;
    const end = performance.now() + SLICE_MS;
    let i = 0;
    while (i < kept.pending.length && performance.now() < end) settle(kept.pending[i++], true);
    kept.pending = kept.pending.slice(i);
    screenLater(0);
  }, delay);
}

/**
 * Bring the kept groups up to date with the DOM: read again what changed (text-watch.ts) and
 * every root met for the first time; drop the groups inside what is read again.
 */
function update(roots: ReadonlyArray<Document | ShadowRoot>): void {
  const watch = (kept.watch ??= new TextWatch());
  const fresh = roots.filter((r) => watch.watch(r));
  const { all, scopes, wholeRoots } = watch.take();
  const read: Group[] = [];
  if (all) {
    kept.pending = [];
    kept.flagged = [];
    for (const root of roots) readGroups(root, root, read);
  } else {
    const again = new Set<Document | ShadowRoot>([...fresh, ...wholeRoots]);
    const stale = (g: Group) => !g.el.isConnected || again.has(g.root) || scopes.some((s) => s.contains(g.el));
    kept.pending = kept.pending.filter((g) => !stale(g));
    kept.flagged = kept.flagged.filter((g) => !stale(g));
    for (const root of again) readGroups(root, root, read);
    for (const scope of scopes) {
      const root = scope.getRootNode();
      if (root instanceof Document || root instanceof ShadowRoot) readGroups(scope, root, read);
    }
  }
  // nothing screened yet (a page seen for the first time): every group waits
  if (!remembered.size) for (const g of read) kept.pending.push(g);
  else for (const g of read) if (!settle(g, false)) kept.pending.push(g);
}

/** Test-only: the findings of a screen that keeps nothing from earlier passes (what is kept is left as it was). */
export function screenAfresh(roots: readonly ShadowRoot[], vw = window.innerWidth, vh = window.innerHeight): TextFinding[] {
  const saved = { ...kept };
  Object.assign(kept, { watch: null, pending: [], flagged: [] });
  try {
    return screenPageText(roots, vw, vh);
  } finally {
    kept.watch?.stop();
    Object.assign(kept, saved);
  }
}

/** The order findings are given in: the document's before shadow roots', texts before attributes, then document order. */
function inOrder(a: Group, b: Group): number {
  if (a.root !== b.root) return a.root === document ? -1 : b.root === document ? 1 : 0;
  if ((a.channel === 'text') !== (b.channel === 'text')) return a.channel === 'text' ? -1 : 1;
  if (a.el === b.el) return 0;
  return a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}

/**
 * The findings of this frame (document and `roots`, the shadow roots the labeling walk met), for
 * the texts the model can read now.
 */
export function screenPageText(roots: readonly ShadowRoot[], vw = window.innerWidth, vh = window.innerHeight): TextFinding[] {
  const inPass = new Set<Document | ShadowRoot>([document, ...roots]);
  update([...inPass]);
  // what is on screen and not screened yet is screened now; the rest after the pass (one box read
  // per element: an element's text and its attributes are groups of their own)
  const shown = new Map<Element, boolean>();
  const isShown = (el: Element) => {
    let on = shown.get(el);
    if (on === undefined) shown.set(el, (on = onScreen(el, vw, vh)));
    return on;
  };
  kept.pending = kept.pending.filter((g) => !(isShown(g.el) && settle(g, true)));
  screenLater();
  const findings: TextFinding[] = [];
  const flagged = new Set<Element>();
  for (const g of kept.flagged.length > 1 ? [...kept.flagged].sort(inOrder) : kept.flagged) {
    const { el, channel, text, code, nodes } = g;
    if (!inPass.has(g.root) || (channel !== 'text' && flagged.has(el)) || !readable(el, vw, vh)) continue;
    if (hidesOwnText(el, getComputedStyle(el))) continue;
    // shown text: what a person sees of the block (the labeler's own reading: hidden, covered,
    // same-colour and clipped parts left out) must still say it; a block longer than that reading
    // keeps the raw finding (a miss would be worse than asking)
    let hit = g.hit;
    let shown = text;
    if (channel === 'text') {
      shown = shownText(el, nodes);
      const seen = screen(shown, code);
      if (!seen && text.length <= MAX_SEEN) continue;
      hit = seen ?? hit;
    }
    flagged.add(el);
    findings.push({ ...hit, channel, tag: el.localName, excerpt: oneLine(shown || text) });
  }
  return findings;
}
