/**
 * The injection screen of what the page shows besides its controls (docs/injection.md): the
 * element list holds only controls, but the model reads the whole screenshot, so the text of
 * paragraphs, headings, table cells, list items, the `alt` of images and the `title` /
 * `aria-label` of elements are screened too (core/injection.ts), in this frame's document and in
 * every shadow root the labeling walk met (open or closed). Each frame screens its own; the
 * background merges the findings with the marks (core/frames.ts).
 *
 * A finding counts when the model can read it now: its element is rendered (checkVisibility:
 * not display:none, visibility:hidden or opacity 0), its box meets the viewport, its own style
 * does not hide its text (hidden-text.ts), and the text a person sees of it (the labeler's
 * reading, text.ts: hidden, covered, same-colour and clipped parts left out) still says it.
 * Those reads are made only for texts the detector flags, so a pass costs a walk over the text
 * nodes and a look-up per text: each distinct text is screened once and its answer remembered
 * (the page's text rarely changes between two steps).
 *
 * Text is grouped by its block: a text node joins its parent, climbing through inline elements
 * (b, em, a, span, …), so "ignore <b>previous</b> instructions" is read as one text.
 */
import { detectInjection, type InjectionKind } from '../../src/core/injection';
import type { TextFinding } from '../../src/core/marks';
import { hiddenParts, hidesOwnText } from './hidden-text';
import { MAX_TEXT as MAX_SEEN } from './text';
import { leafTextUnseen, unseenTextNodes } from './unseen-text';


const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'textarea', 'option']);
const INLINE = new Set(['b', 'i', 'em', 'strong', 'span', 'a', 'mark', 'small', 'sub', 'sup', 'u', 's', 'font', 'abbr', 'cite', 'q', 'bdi', 'bdo', 'del', 'ins', 'kbd', 'var', 'time', 'data', 'label']);
const CODE = new Set(['code', 'pre', 'samp']);
/** a text is read up to this many characters (a phrase is short; a huge text node is one page's dump) */
const MAX_TEXT = 4000;
/** texts screened in one pass at most (the rest is left: a finding is what is asked for, not a census) */
const MAX_TEXTS = 60_000;
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

/** The block a text node's words belong to: its parent, through inline parents (at most 4 up). */
function blockOf(el: Element): Element {
  let b = el;
  for (let i = 0; i < 4 && INLINE.has(b.localName) && b.parentElement; i++) b = b.parentElement;
  return b;
}

function readable(el: Element, vw: number, vh: number): boolean {
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
}

function inCode(el: Element): boolean {
  for (let e: Element | null = el, i = 0; e && i < 6; e = e.parentElement, i++) if (CODE.has(e.localName)) return true;
  return false;
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

/** The findings of this frame (document and `roots`), for the texts the model can read now. */
export function screenPageText(roots: readonly ShadowRoot[], vw = window.innerWidth, vh = window.innerHeight): TextFinding[] {
  const findings: TextFinding[] = [];
  const flagged = new Set<Element>();
  let budget = MAX_TEXTS;
  const report = (el: Element, text: string, channel: TextFinding['channel'], code = false, nodes: readonly Text[] = []) => {
    if (budget-- <= 0) return;
    const raw = screen(text.slice(0, MAX_TEXT), code);
    if (!raw || (channel !== 'text' && flagged.has(el)) || !readable(el, vw, vh)) return;
    if (hidesOwnText(el, getComputedStyle(el))) return;
    // shown text: what a person sees of the block (the labeler's own reading: hidden, covered,
    // same-colour and clipped parts left out) must still say it; a block longer than that reading
    // keeps the raw finding (a miss would be worse than asking)
    let hit = raw;
    let shown = text;
    if (channel === 'text') {
      shown = shownText(el, nodes);
      const seen = screen(shown, code);
      if (!seen && text.length <= MAX_SEEN) return;
      hit = seen ?? raw;
    }
    flagged.add(el);
    findings.push({ ...hit, channel, tag: el.localName, excerpt: oneLine(shown || text) });
  };
  for (const root of [document as Document | ShadowRoot, ...roots]) {
    // shown text, grouped by block in document order
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let block: Element | null = null;
    let nodes: Text[] = [];
    const flush = () => {
      if (block && nodes.length) {
        const text = nodes.map((n) => n.data).join('');
        if (/\S/.test(text)) report(block, text, 'text', inCode(block), nodes);
      }
      nodes = [];
    };
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || SKIP.has(parent.localName)) continue;
      const b = blockOf(parent);
      if (b !== block) { flush(); block = b; }
      nodes.push(n as Text);
    }
    flush();
    // words shown beside the text: an image's alt, a tooltip, an accessible name
    for (const el of root.querySelectorAll('[alt],[title],[aria-label]')) {
      if (SKIP.has(el.localName)) continue;
      for (const channel of ['alt', 'title', 'aria-label'] as const) {
        const v = el.getAttribute(channel);
        if (v && /\S/.test(v)) report(el, v, channel);
      }
    }
  }
  return findings;
}
