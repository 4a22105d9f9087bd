/**
 * The page text screen's reading of a frame (screen-text.ts), and what keeps it between passes.
 *
 * A *group* is one text the screen reads: the text nodes of one block in a row (a text node joins
 * its parent, climbing through inline elements: b, em, a, span, …, so "ignore <b>previous</b>
 * instructions" is one text), or one `alt`, `title` or `aria-label` attribute.
 *
 * What was read stays right while nothing that makes a group changes: the groups' texts are the
 * DOM's characters and its shape, not its styles or layout (those are read again each pass, and
 * only for flagged groups). A MutationObserver on the document and on every shadow root read
 * notes the *scopes* to read again: for a changed text, or nodes added or removed, the block
 * around it (an added block element: itself, its text is its own); for a changed alt, title or
 * aria-label, the block around its element. Every group inside a scope is dropped and the scope
 * read again. Class and style changes are not watched (they change no group's text). A change
 * to the document itself, to <html> or <body>, or more than MAX_SCOPES scopes before the next
 * pass, read everything again.
 */
import { UI_ATTR } from './dom';
import { OVERLAY } from './draw';

export type Channel = 'text' | 'alt' | 'title' | 'aria-label';

/** One text the screen reads. */
export interface Group {
  el: Element;
  channel: Channel;
  text: string;
  /** in <code>, <pre> or <samp>: never an instruction (readGroups keeps no such text group) */
  code: boolean;
  /** the text nodes (channel 'text') */
  nodes: Text[];
  /** the document or shadow root it is in */
  root: Document | ShadowRoot;
}

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'textarea', 'option']);
const INLINE = new Set(['b', 'i', 'em', 'strong', 'span', 'a', 'mark', 'small', 'sub', 'sup', 'u', 's', 'font', 'abbr', 'cite', 'q', 'bdi', 'bdo', 'del', 'ins', 'kbd', 'var', 'time', 'data', 'label']);
const CODE = new Set(['code', 'pre', 'samp']);
const ATTRS = ['alt', 'title', 'aria-label'] as const;
const ATTR_SELECTOR = '[alt],[title],[aria-label]';
const NON_BLANK = /\S/;
/** scopes noted before a pass beyond which the pass reads everything again */
const MAX_SCOPES = 40;
/** groups read in one frame at most (a finding is what is asked for, not a census) */
const MAX_GROUPS = 60_000;

/** The block a text node's words belong to: its parent, through inline parents (at most 4 up). */
function blockOf(el: Element): Element {
  let b = el;
  for (let i = 0; i < 4 && INLINE.has(b.localName) && b.parentElement; i++) b = b.parentElement;
  return b;
}

/** What to read again for a change at `el`: the nearest element above it that is not inline (every group of a text inside it then lies inside it). */
function scopeOf(el: Element): Element {
  let b = el;
  while (INLINE.has(b.localName) && b.parentElement) b = b.parentElement;
  return b;
}

function inCode(el: Element): boolean {
  for (let e: Element | null = el, i = 0; e && i < 6; e = e.parentElement, i++) if (CODE.has(e.localName)) return true;
  return false;
}

function isOurs(n: Node): boolean {
  const el = n instanceof Element ? n : n.parentElement;
  return !!el?.closest(`[${UI_ATTR}="${OVERLAY}"]`);
}

/** The groups under `scope` (a whole root, or an element of it), in document order: texts first, then the attributes. */
export function readGroups(scope: Document | ShadowRoot | Element, root: Document | ShadowRoot, out: Group[]): void {
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  let block: Element | null = null;
  let nodes: Text[] = [];
  let texts: string[] = [];
  // a group holds words when one of its nodes does (tested per node: no joined text for a blank group)
  let words = false;
  // text in <code>, <pre> or <samp> is never an instruction (core/injection/index.ts skips it): such a
  // group is not kept at all, and its nodes are not read (a manual's code blocks are much of its text)
  let code = false;
  const flush = () => {
    if (block && words) {
      const text = texts.length === 1 ? texts[0] : texts.join('');
      out.push({ el: block, channel: 'text', text, code: false, nodes, root });
    }
    nodes = [];
    texts = [];
    words = false;
  };
  // consecutive text nodes mostly share their parent: its block (or skip) is looked up once
  let lastParent: Element | null = null;
  let lastBlock: Element | null = null;
  for (let n = walker.nextNode() as Text | null; n && out.length < MAX_GROUPS; n = walker.nextNode() as Text | null) {
    const parent = n.parentElement;
    if (!parent) continue;
    if (parent !== lastParent) {
      lastParent = parent;
      lastBlock = SKIP.has(parent.localName) ? null : blockOf(parent);
    }
    if (!lastBlock) continue;
    if (lastBlock !== block) { flush(); block = lastBlock; code = inCode(block); }
    if (code) continue;
    const data = n.data;
    nodes.push(n);
    texts.push(data);
    if (!words && NON_BLANK.test(data)) words = true;
  }
  flush();
  const attributed = Array.from(scope.querySelectorAll(ATTR_SELECTOR));
  if (scope instanceof Element && scope.matches(ATTR_SELECTOR)) attributed.unshift(scope);
  for (const el of attributed) {
    if (SKIP.has(el.localName) || isOurs(el)) continue;
    for (const channel of ATTRS) {
      const v = el.getAttribute(channel);
      if (v && /\S/.test(v)) out.push({ el, channel, text: v, code: false, nodes: [], root });
    }
  }
}

/** The scopes to read again, noted from mutations since the last pass. */
export class TextWatch {
  /** read every root again */
  all = true;
  scopes = new Set<Element>();
  /** shadow roots whose own top level changed: read whole */
  wholeRoots = new Set<ShadowRoot>();
  private watched = new WeakSet<Document | ShadowRoot>();
  private observer = new MutationObserver((records) => this.note(records));

  /** Watch `root` from now on; false when it was watched already. */
  watch(root: Document | ShadowRoot): boolean {
    if (this.watched.has(root)) return false;
    this.watched.add(root);
    this.observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: [...ATTRS] });
    return true;
  }

  stop(): void {
    this.observer.disconnect();
  }

  /** Start the next pass's notes (what the observer holds is taken first). */
  take(): { all: boolean; scopes: Element[]; wholeRoots: ShadowRoot[] } {
    this.note(this.observer.takeRecords());
    const out = { all: this.all, scopes: outermost([...this.scopes]), wholeRoots: [...this.wholeRoots] };
    this.all = false;
    this.scopes.clear();
    this.wholeRoots.clear();
    return out;
  }

  private add(at: Node | null, own = false): void {
    if (this.all || !at) return;
    if (at instanceof ShadowRoot) { this.wholeRoots.add(at); return; }
    if (!(at instanceof Element)) { this.all = true; return; }
    const scope = own ? at : scopeOf(at);
    const tag = scope.localName;
    if (tag === 'html' || tag === 'body' || tag === 'head' || this.scopes.size >= MAX_SCOPES) { this.all = true; return; }
    this.scopes.add(scope);
  }

  private note(records: MutationRecord[]): void {
    for (const r of records) {
      if (this.all) return;
      if (isOurs(r.target)) continue;
      if (r.type === 'characterData') {
        this.add(r.target.parentElement ?? r.target.parentNode);
        continue;
      }
      if (r.type === 'attributes') {
        this.add(r.target);
        continue;
      }
      // an added block element brings its own texts; a removed one takes its own away (its
      // groups are no longer connected); text and inline elements change their parent's block
      const block = (n: Node) => n instanceof Element && !INLINE.has(n.localName);
      for (const n of r.addedNodes) if (!isOurs(n)) this.add(block(n) ? n : r.target, block(n));
      for (const n of r.removedNodes) if (!isOurs(n) && !block(n)) this.add(r.target);
    }
  }
}

/** The scopes none of the others holds. */
function outermost(scopes: Element[]): Element[] {
  return scopes.filter((s) => s.isConnected && !scopes.some((o) => o !== s && o.contains(s)));
}
