/**
 * The text shown for a mark. Not quoted or cut for display here (the dialect does that; page text
 * is data and is returned raw), only whitespace-collapsed and capped at MAX_TEXT characters.
 *
 * Visible text first (docs/labeling.md, "The text of an element"): text a person cannot see
 * (hidden-text.ts, aria-hidden parts) is left out, and the accessible name, cut to MAX_NAME,
 * stands in only for an element that shows no words of its own or whose name says the same words.
 * Order (first non-empty wins):
 * 1. not for form fields: the visible text, unless icon-only ("×", "B") or the name's words;
 * 2. the accessible name: aria-labelledby (referenced elements' text, in order), aria-label,
 *    associated labels (label[for] and a wrapping label; the control's own text excluded);
 *    for a <select> the selected option's text is appended: "Country: France";
 * 3. for a <select>: the selected option's text;
 * 4. button-like inputs: their value ("Submit" / "Reset" by default);
 * 5. placeholder, title, alt;
 * 6. the value of a text-like input (never a password);
 * 7. icon-only controls: alt of the only img inside, aria-label of the only labelled descendant,
 *    or an svg <title>; media without a name say "video" / "audio"; last, the text with its
 *    hidden parts.
 *
 * `stableText` is what a re-resolve compares (docs/labeling.md): the same text, except that for
 * controls holding a value (inputs, textarea, select, contenteditable) it is the name only, so
 * typing into a field or choosing an option does not count as the element changing; for a
 * scroll container it is the name only too (its content is what scrolling changes).
 */
import { OPTION_ATTR, shadowRootOf } from './dom';
import { hiddenParts, hidesOwnText } from './hidden-text';
import { leafTextUnseen, unseenTextNodes } from './unseen-text';

export const MAX_TEXT = 1000;
/** Longest name given to an element that shows no text of its own (its text is not seen). */
export const MAX_NAME = 150;

/** Labels by control, built once per pass (reading `el.labels` scans the whole document each time). */
export type LabelIndex = Map<Element, HTMLLabelElement[]>;

export function collapse(s: string | null | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}

function cap(s: string): string {
  return s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) : s;
}

function rendered(el: Element): string {
  const t = el instanceof HTMLElement ? el.innerText : '';
  return collapse(t || el.textContent);
}

/**
 * Name from content: the rendered text without aria-hidden parts (an icon glyph next to an
 * sr-only word: "♡ Wishlist" is named "Wishlist"). Each hidden part's own text is cut out of
 * the element's innerText once (no layout writes, no per-node walk when nothing is hidden).
 */
function contentText(el: Element, style?: CSSStyleDeclaration, visibleOnly = true): string {
  if (!(el instanceof HTMLElement)) return collapse(el.textContent);
  const s = style ?? getComputedStyle(el);
  // text a person cannot see is no text (hidden-text.ts); without visibleOnly, the name from
  // content: only the aria-hidden parts are left out ("sr-only" text is part of the name)
  if (visibleOnly && hidesOwnText(el, s)) return '';
  // text only (no element inside): innerText is the text itself, unless CSS transforms its case
  // or hides it; textContent is far cheaper than innerText's walk over the layout
  if (el.firstElementChild === null) {
    if (visibleOnly && leafTextUnseen(el, s)) return '';
    if (s.textTransform === 'none' && s.visibility === 'visible') {
      const own = collapse(el.textContent);
      if (own || !el.localName.includes('-')) return own;
    }
  }
  let t = collapse(el.innerText);
  if (!t) return slottedText(el, visibleOnly) || shadowText(el, visibleOnly);
  const styleHidden = visibleOnly ? hiddenParts(el) : [];
  const unseen = visibleOnly && el.firstElementChild !== null ? unseenTextNodes(el, s, styleHidden) : [];
  const hidden: Node[] = [...styleHidden, ...Array.from(el.querySelectorAll('[aria-hidden="true"]')), ...unseen];
  for (const h of hidden) {
    // a hidden part inside another hidden part goes with the outer one
    if (h.parentElement?.closest('[aria-hidden="true"]') !== el.closest('[aria-hidden="true"]')) continue;
    const cut = collapse(h instanceof HTMLElement ? h.innerText : h.nodeValue);
    const at = cut ? t.indexOf(cut) : -1;
    if (at >= 0) t = `${t.slice(0, at)} ${t.slice(at + cut.length)}`;
  }
  return collapse(t);
}

/**
 * A component host with no text of its own shows the text its shadow tree holds (`<x-chip
 * label="Billing">` drawing its label in its shadow root), which innerText does not enter.
 */
function shadowText(el: HTMLElement, visibleOnly: boolean): string {
  const root = shadowRootOf(el);
  if (!root) return '';
  const parts: string[] = [];
  for (let c = root.firstElementChild; c; c = c.nextElementSibling) {
    if (c.localName !== 'style' && c.localName !== 'script') parts.push(contentText(c, undefined, visibleOnly));
  }
  return collapse(parts.join(' '));
}

/**
 * Inside a shadow root, the text a person sees in a control often comes through its <slot>s
 * (a component's inner <button> holding `<slot></slot>`), which innerText does not follow: the
 * text of the nodes assigned to its slots, in order.
 */
function slottedText(el: HTMLElement, visibleOnly: boolean, fallback = true): string {
  if (!(el.getRootNode() instanceof ShadowRoot)) return '';
  const slots = el.localName === 'slot' ? [el as HTMLSlotElement] : Array.from(el.querySelectorAll('slot'));
  const parts: string[] = [];
  for (const slot of slots) {
    // `fallback`: a slot with nothing assigned shows its own content (flatten); without it, only what is assigned
    for (const n of slot.assignedNodes({ flatten: fallback })) {
      if (n instanceof Element) parts.push(contentText(n, undefined, visibleOnly));
      else if (n instanceof Text && !(visibleOnly && textUnseen(n))) parts.push(n.nodeValue ?? '');
    }
  }
  return collapse(parts.join(' '));
}

/** A slotted text node a person cannot see: its parent hides its text, or it is unseen there (unseen-text.ts). */
function textUnseen(n: Text): boolean {
  const parent = n.parentElement;
  if (!parent) return true;
  const s = getComputedStyle(parent);
  if (hidesOwnText(parent, s) || parent.closest('[aria-hidden="true"]')) return true;
  return unseenTextNodes(parent, s, hiddenParts(parent)).includes(n);
}

/** Text of `root` without the text inside `skip` (a label wrapping its own control). */
function textWithout(root: Element, skip: Element): string {
  const parts: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || skip.contains(n)) continue;
    if (parent.closest('script,style,select,textarea,[aria-hidden="true"]')) continue;
    parts.push(n.nodeValue ?? '');
  }
  // a label in a shadow root whose words come through a <slot> (`<label><input><slot></slot></label>`);
  // a slot's own fallback content is in the walk already
  if (root instanceof HTMLElement) parts.push(slottedText(root, true, false));
  return collapse(parts.join(' '));
}

function byIds(el: Element, ids: string): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  const find = (id: string) => (typeof root.getElementById === 'function' ? root.getElementById(id) : document.getElementById(id));
  return collapse(ids.split(/\s+/).filter(Boolean).map((id) => {
    const ref = find(id);
    return ref ? rendered(ref) : '';
  }).join(' '));
}

function selectedText(sel: HTMLSelectElement): string {
  const opts = Array.from(sel.selectedOptions);
  return collapse(opts.map((o) => o.label || o.text).join(', '));
}

function labelsText(el: Element, index?: LabelIndex): string {
  const labels = index ? index.get(el) : (el as HTMLInputElement).labels;
  if (!labels || !labels.length) return '';
  return collapse(Array.from(labels).map((l) => textWithout(l, el)).join(' '));
}

const BUTTON_INPUTS = new Set(['button', 'submit', 'reset', 'image']);
const DEFAULT_VALUE: Record<string, string> = { submit: 'Submit', reset: 'Reset' };
const NO_VALUE_INPUTS = new Set(['password', 'checkbox', 'radio', 'file', 'hidden', 'image']);

/** Alt of the only image inside, aria-label of the only labelled descendant, or an svg title. */
function iconText(el: Element): string {
  const imgs = el.querySelectorAll('img[alt]');
  if (imgs.length === 1) {
    const alt = collapse(imgs[0].getAttribute('alt'));
    if (alt) return alt;
  }
  const labelled = el.querySelectorAll('[aria-label]');
  if (labelled.length === 1) {
    const t = collapse(labelled[0].getAttribute('aria-label'));
    if (t) return t;
  }
  const titles = el.querySelectorAll('svg title');
  if (titles.length === 1) return collapse(titles[0].textContent);
  if (el.localName === 'svg') return collapse(el.querySelector('title')?.textContent);
  return '';
}

/** Step 1 without the select suffix. */
function accessibleName(el: Element, index?: LabelIndex): string {
  const labelledBy = el.getAttribute('aria-labelledby');
  let name = labelledBy ? byIds(el, labelledBy) : '';
  if (!name) name = collapse(el.getAttribute('aria-label'));
  if (!name) name = labelsText(el, index);
  if (!name && holdsValue(el)) name = hostName(el, index);
  return name;
}

/**
 * A field inside a component's shadow root with no name of its own: the component's (its host's
 * aria-label or labels: `<label for="title">` names `<fluent-text-input id="title">`, whose
 * inner <input> is what gets the mark).
 */
function hostName(el: Element, index?: LabelIndex): string {
  const root = el.getRootNode();
  if (!(root instanceof ShadowRoot) || !root.host.localName.includes('-')) return '';
  const host = root.host;
  const name = collapse(host.getAttribute('aria-label'));
  if (name) return name;
  const labels = index?.get(host) ?? (host.id ? Array.from(host.ownerDocument.querySelectorAll(`label[for="${CSS.escape(host.id)}"]`)) : []);
  return collapse(labels.map((l) => textWithout(l, host)).join(' '));
}

function attrText(el: Element): string {
  for (const a of ['placeholder', 'title', 'alt']) {
    const t = collapse(el.getAttribute(a));
    if (t) return t;
  }
  return '';
}

/** `style`: the element's computed style when the caller has it (saves reading it again). */
export function elementText(el: Element, index?: LabelIndex, style?: CSSStyleDeclaration): string {
  return cap(rawText(el, index, style));
}

function holdsValue(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'select' || tag === 'textarea') return true;
  if (tag === 'input') return !BUTTON_INPUTS.has((el as HTMLInputElement).type);
  return el instanceof HTMLElement && el.isContentEditable;
}

/**
 * What a re-resolve compares: see the header. `nameOnly` for scroll containers (content moves).
 * `text`: elementText(el, index) when the caller has it already (it is the answer for most elements).
 */
export function stableText(el: Element, index?: LabelIndex, nameOnly = false, text?: string): string {
  if (!nameOnly && !holdsValue(el)) return text ?? elementText(el, index);
  return cap(accessibleName(el, index) || attrText(el));
}

/** Roles whose content is a value (the name says what the control is). */
const VALUE_ROLES = new Set(['combobox', 'textbox', 'searchbox', 'spinbutton', 'slider']);

const words = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** At most two letters or digits in all: a glyph, an emoji, an initial ("B", "JD", "CC"). */
function iconOnly(s: string): boolean {
  return s.replace(/[^\p{L}\p{N}]/gu, '').length <= 2;
}

/** The same words, ignoring case, symbols and punctuation. */
function sameWords(a: string, b: string): boolean {
  return words(a) === words(b);
}

function short(s: string): string {
  const chars = Array.from(s);
  return chars.length > MAX_NAME ? chars.slice(0, MAX_NAME).join('') : s;
}

function rawText(el: Element, index?: LabelIndex, style?: CSSStyleDeclaration): string {
  const tag = el.localName;
  if (el.hasAttribute(OPTION_ATTR)) return contentText(el, style);

  const isInput = tag === 'input';
  const field = holdsValue(el) || VALUE_ROLES.has(el.getAttribute('role') ?? '');
  const name = short(accessibleName(el, index));
  // the text a person sees first; the name only for an element that shows no words of its own
  // (an icon button: "×", "⚙", "B") or whose name says the same words ("♡ Wishlist" → "Wishlist")
  if (!field) {
    const inner = contentText(el, style);
    if (inner && !(name && (iconOnly(inner) || sameWords(inner, name)))) {
      // a glyph with a tooltip ("🗄" titled "Archive"): the tooltip is what it does
      const title = iconOnly(inner) && !isInput ? collapse(el.getAttribute('title')) : '';
      return title ? short(title) : inner;
    }
  }
  if (tag === 'select') {
    const chosen = selectedText(el as HTMLSelectElement);
    if (name && chosen) return `${name}: ${chosen}`;
    return name || chosen;
  }
  if (name) return name;
  // a contenteditable or a value role without a name: its content; any other element showing no
  // text: the name from its content (an icon with "sr-only" text), cut short
  if (!isInput && tag !== 'textarea') {
    const inner = field ? contentText(el, style) : short(contentText(el, style, false));
    if (inner) return inner;
  }

  const input = el as HTMLInputElement;
  if (isInput && BUTTON_INPUTS.has(input.type)) {
    const v = collapse(input.value) || DEFAULT_VALUE[input.type] || '';
    if (v && input.type !== 'image') return v;
  }
  const attr = short(attrText(el));
  if (attr) return attr;
  if (isInput && input.type === 'image') return collapse(input.value) || 'Submit';
  if ((isInput && !NO_VALUE_INPUTS.has(input.type)) || tag === 'textarea') {
    const v = collapse(input.value);
    if (v) return v;
  }
  if (tag === 'video' || tag === 'audio') return tag;
  if (tag === 'details') return 'Details';
  // last resort, hidden glyphs included, cut short: better "♡" than nothing
  return short(iconText(el) || (field ? '' : rendered(el)));
}
