/**
 * The text shown for a mark. Not quoted or cut for display here (the dialect does that);
 * only whitespace-collapsed and capped at MAX_TEXT characters.
 *
 * Order (first non-empty wins):
 * 1. aria-labelledby (referenced elements' text, in order);
 * 2. aria-label;
 * 3. associated labels (label[for] and a wrapping label; the control's own text excluded);
 *    for a <select> the selected option's text is appended: "Country: France";
 * 4. for a <select>: the selected option's text;
 * 5. innerText (not for input/textarea/select);
 * 6. placeholder, title, alt (own, else of a single descendant img), value of button-like inputs;
 * 7. a single descendant's aria-label or an svg <title> (icon-only controls).
 */
import { OPTION_ATTR } from './dom';

export const MAX_TEXT = 1000;

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

/** Text of `root` without the text inside `skip` (a label wrapping its own control). */
function textWithout(root: Element, skip: Element): string {
  const parts: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || skip.contains(n)) continue;
    if (parent.closest('script,style,select,textarea')) continue;
    parts.push(n.nodeValue ?? '');
  }
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

function labelsText(el: Element): string {
  const labels = (el as HTMLInputElement).labels;
  if (!labels || !labels.length) return '';
  return collapse(Array.from(labels).map((l) => textWithout(l, el)).join(' '));
}

const BUTTON_INPUTS = new Set(['button', 'submit', 'reset', 'image']);
const DEFAULT_VALUE: Record<string, string> = { submit: 'Submit', reset: 'Reset' };

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
  return '';
}

export function elementText(el: Element): string {
  return cap(rawText(el));
}

function rawText(el: Element): string {
  const tag = el.localName;
  const isSelect = tag === 'select';

  if (el.hasAttribute(OPTION_ATTR)) return rendered(el);

  const labelledBy = el.getAttribute('aria-labelledby');
  let name = labelledBy ? byIds(el, labelledBy) : '';
  if (!name) name = collapse(el.getAttribute('aria-label'));
  if (!name) name = labelsText(el);
  if (isSelect) {
    const chosen = selectedText(el as HTMLSelectElement);
    if (name && chosen) return `${name}: ${chosen}`;
    return name || chosen;
  }
  if (name) return name;

  const isInput = tag === 'input';
  const input = el as HTMLInputElement;
  if (isInput && BUTTON_INPUTS.has(input.type)) {
    const v = collapse(input.value) || DEFAULT_VALUE[input.type] || '';
    if (v && input.type !== 'image') return v;
  }
  if (!isInput && tag !== 'textarea') {
    const inner = rendered(el);
    if (inner) return inner;
  }
  const attrs = [el.getAttribute('placeholder'), el.getAttribute('title'), el.getAttribute('alt')];
  for (const a of attrs) {
    const t = collapse(a);
    if (t) return t;
  }
  if (isInput && input.type === 'image') return collapse(input.value) || 'Submit';
  return iconText(el);
}
