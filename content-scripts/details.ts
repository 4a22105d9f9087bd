/**
 * What the guards (src/core/guards.ts) need to know about a label's element that the mark does not
 * carry: the link it is or is inside (absolute URL) and whether that link downloads.
 * linkDetails serves an element found at a point (point.ts) the same way.
 */
import { composedParent } from './labeler/dom';
import { state } from './labeler/state';

export interface LinkDetails { href: string | null; download: boolean }

/** The absolute URL of an <a href> / <area href> (SVG links too: their href is not a string). */
function hrefOf(link: Element): string | null {
  if (link instanceof HTMLAnchorElement || link instanceof HTMLAreaElement) return link.href || null;
  const raw = link.getAttribute('href') ?? link.getAttribute('xlink:href');
  try {
    return raw ? new URL(raw, link.ownerDocument.baseURI).href : null;
  } catch {
    return null;
  }
}

/** The link `el` is or is inside, in the flat tree (through slots and shadow hosts); null when none. */
export function linkOf(el: Element): Element | null {
  for (let n: Element | null = el; n; n = composedParent(n)) {
    if ((n.localName === 'a' || n.localName === 'area') && (n.hasAttribute('href') || n.hasAttribute('xlink:href'))) return n;
  }
  return null;
}

export function linkDetails(el: Element): LinkDetails {
  const link = linkOf(el);
  return link ? { href: hrefOf(link), download: link.hasAttribute('download') } : { href: null, download: false };
}

export function markDetails(label: number): (LinkDetails & NavDetails) | null {
  const e = state().entries[label];
  if (!e) return null;
  const own = linkDetails(e.el);
  const link = own.href !== null || e.owner === e.el ? own : linkDetails(e.owner);
  const nav = navDetails(e.el);
  return { ...link, ...(nav.formAction === null && nav.navigatesTo === null && e.owner !== e.el ? navDetails(e.owner) : nav) };
}

/**
 * Where the element sends the page besides a link, for the leave-site guard: the URL its form is
 * submitted to when it is clicked (a submit button) or Enter is pressed in it (a field of a form),
 * and a URL its inline click handler navigates to. Read through the prototypes: a hostile form can
 * shadow `form.getAttribute` or `form.elements` with a field of that name.
 */
export interface NavDetails { formAction: string | null; navigatesTo: string | null }

const getAttr = (el: Element, name: string): string | null => Element.prototype.getAttribute.call(el, name);
const hasAttr = (el: Element, name: string): boolean => Element.prototype.hasAttribute.call(el, name);
const formElements = Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, 'elements')!.get!;

function isSubmitButton(el: Element): el is HTMLButtonElement | HTMLInputElement {
  return (el instanceof HTMLButtonElement && el.type === 'submit') || (el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'image'));
}

/** A field where Enter submits its form (implicit submission): a one-line input, not a box or a button. */
function submitsOnEnter(el: Element): el is HTMLInputElement {
  return el instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'hidden', 'image', 'range', 'color'].includes(el.type);
}

function absolute(raw: string, el: Element): string | null {
  try {
    return new URL(raw, el.ownerDocument.baseURI).href;
  } catch {
    return null;
  }
}

/** Where submitting `form` through `button` (its default button for Enter, when it has one) goes; null for method=dialog. */
function submitUrl(form: HTMLFormElement, button: Element | null): string | null {
  const method = (button && hasAttr(button, 'formmethod') ? getAttr(button, 'formmethod') : getAttr(form, 'method')) ?? 'get';
  if (method.trim().toLowerCase() === 'dialog') return null;
  const raw = (button && hasAttr(button, 'formaction') ? getAttr(button, 'formaction') : getAttr(form, 'action')) ?? '';
  return absolute(raw.trim(), form);
}

function formActionOf(el: Element): string | null {
  for (let n: Element | null = el; n; n = composedParent(n)) {
    if (isSubmitButton(n)) return n.form ? submitUrl(n.form, n) : null;
    if (submitsOnEnter(n)) {
      const form = n.form;
      if (!form) return null;
      const fields = Array.from(formElements.call(form) as HTMLFormControlsCollection);
      return submitUrl(form, fields.find(isSubmitButton) ?? null);
    }
    if (n instanceof HTMLTextAreaElement || n instanceof HTMLSelectElement || n.localName === 'a') return null;
  }
  return null;
}

const SCRIPT_NAV = /(?:\blocation(?:\.href)?\s*=|\blocation\.(?:assign|replace)\s*\(|\bopen\s*\()\s*(['"`])([^'"`]+)\1/;

/** A URL the inline onclick of the element (or of the button / link it is in) sends the page to. */
function scriptNavOf(el: Element): string | null {
  let n: Element | null = el;
  for (let depth = 0; n && depth < 4; depth++, n = composedParent(n)) {
    const m = SCRIPT_NAV.exec(getAttr(n, 'onclick') ?? '');
    if (m) return absolute(m[2], n);
  }
  return null;
}

export function navDetails(el: Element): NavDetails {
  return { formAction: formActionOf(el), navigatesTo: scriptNavOf(el) };
}
