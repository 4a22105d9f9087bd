/**
 * What the guards (src/core/guards/index.ts) need to know about a label's element that the mark does not
 * carry: the link it is or is inside (absolute URL) and whether that link downloads; for a form
 * field, its own attributes (guards/fields.ts), the form it is in (the default submit button's text
 * and a few attributes of each field) and, for a <select>, its options' texts.
 * linkDetails serves an element found at a point (point.ts) the same way; fieldDetails serves the
 * focused field (point/focused).
 */
import type { FieldInfo, FormInfo } from '../src/core/guards/fields';
import { drawnText, labelledControl, showsWordPicture, visualText } from './drawn-names';
import { composedParent } from './labeler/dom';
import { state } from './labeler/state';
import { collapse, elementText, stableText } from './labeler/text';

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

export interface FieldDetails { field?: FieldInfo; form?: FormInfo; options?: string[] }

const MAX_FIELDS = 16;
const MAX_OPTIONS = 50;
const short = (s: string | null | undefined, n = 60) => collapse(s).slice(0, n) || undefined;

function fieldInfo(el: Element): FieldInfo {
  const out: FieldInfo = { tag: el.localName };
  if (el instanceof HTMLInputElement) out.type = el.type;
  for (const [key, attr] of [['autocomplete', 'autocomplete'], ['name', 'name'], ['id', 'id'], ['inputmode', 'inputmode']] as const) {
    const v = short(el.getAttribute(attr));
    if (v) out[key] = v;
  }
  const label = short(stableText(el));
  if (label) out.label = label;
  return out;
}

const FIELD_TAGS = new Set(['input', 'select', 'textarea']);
const NOT_FIELDS = new Set(['hidden', 'submit', 'button', 'reset', 'image']);

/** The button Enter clicks (implicit submission: the form's first submit button in tree order). */
function defaultButton(form: HTMLFormElement): HTMLButtonElement | HTMLInputElement | null {
  return controlsOf(form).find(isSubmitButton) ?? null;
}

/** The form's controls, read through the prototype (a field named "elements" cannot shadow them). */
function controlsOf(form: HTMLFormElement): Element[] {
  return Array.from(formElements.call(form) as HTMLFormControlsCollection);
}

function formInfo(form: HTMLFormElement): FormInfo {
  const button = defaultButton(form);
  const text = button ? short(elementText(button) || (button as HTMLInputElement).value || button.getAttribute('aria-label'), 80) : undefined;
  const fields = controlsOf(form)
    .filter((f) => FIELD_TAGS.has(f.localName) && !(f instanceof HTMLInputElement && NOT_FIELDS.has(f.type)))
    .slice(0, MAX_FIELDS)
    .map(fieldInfo);
  return { submit: text ?? null, fields };
}

/** A form field's attributes, its form and a select's options (nothing for other elements). */
export function fieldDetails(el: Element): FieldDetails {
  if (!FIELD_TAGS.has(el.localName) && !(el instanceof HTMLElement && el.isContentEditable)) return {};
  const out: FieldDetails = { field: fieldInfo(el) };
  let form: HTMLFormElement | null = (el as HTMLInputElement).form ?? null;
  for (let n: Element | null = el; !form && n; n = composedParent(n)) if (n instanceof HTMLFormElement) form = n;
  if (form) out.form = formInfo(form);
  if (el instanceof HTMLSelectElement) out.options = Array.from(el.options).filter((o) => !o.disabled).slice(0, MAX_OPTIONS).map((o) => collapse(o.text).slice(0, 80));
  return out;
}

export function markDetails(label: number): (LinkDetails & FieldDetails & NavDetails & GateDetails) | null {
  const e = state().entries[label];
  if (!e) return null;
  const own = linkDetails(e.el);
  const link = own.href !== null || e.owner === e.el ? own : linkDetails(e.owner);
  const nav = navDetails(e.el);
  const gate = gateDetails(e.el);
  return {
    ...link, ...(nav.formAction === null && nav.navigatesTo === null && e.owner !== e.el ? navDetails(e.owner) : nav), ...fieldDetails(e.el),
    ...gate, ...(!gate.buttonOf && e.owner !== e.el ? { buttonOf: gateDetails(e.owner).buttonOf } : {}),
  };
}

/**
 * What the gate (src/core/guards/gate.ts, guards/index.ts) reads besides the visible text: every other name
 * the element shows or is announced by, and the form it is a button of.
 */
export interface GateDetails { names?: string[]; picture?: boolean; buttonOf?: FormInfo & { submits: boolean } }

const MAX_NAMES = 16;

/** The element's own names: its characters as drawn, its text with generated text, aria-label, title, alt, a button input's value. */
function ownNames(el: Element): (string | null)[] {
  const names = [visualText(el), drawnText(el), getAttr(el, 'aria-label'), getAttr(el, 'title'), getAttr(el, 'alt')];
  if (el instanceof HTMLInputElement && ['submit', 'button', 'reset', 'image'].includes(el.type)) names.push(el.value);
  return names;
}

/** The names of the images and icons inside the element: alt, aria-label, an SVG's title. */
function imageNames(el: Element): (string | null)[] {
  return Array.from(el.querySelectorAll('img[alt], [aria-label], svg title')).slice(0, 4)
    .map((img) => (img.localName === 'title' ? img.textContent : getAttr(img, 'alt') ?? getAttr(img, 'aria-label')));
}

/**
 * Every name of the element that is not its visible text in DOM order: its own (ownNames: its
 * characters as drawn and its text with CSS-generated text at any depth, drawn-names.ts), for a
 * label the text and names of the control it presses, then its images' names.
 */
function otherNames(el: Element): string[] {
  const names = ownNames(el);
  const control = labelledControl(el);
  if (control) names.push(collapse(control.textContent), ...ownNames(control));
  names.push(...imageNames(el));
  const seen = new Set<string>([collapse(elementText(el))]);
  const out: string[] = [];
  for (const n of names) {
    const t = collapse(n).slice(0, 300);
    if (t && !seen.has(t)) { seen.add(t); out.push(t); }
  }
  return out.slice(0, MAX_NAMES);
}

/** A button (or what is inside one) of a form: that form, and whether pressing the button submits it. */
function buttonOfForm(el: Element): (FormInfo & { submits: boolean }) | undefined {
  for (let n: Element | null = el, depth = 0; n && depth < 4; n = composedParent(n), depth++) {
    const button = n instanceof HTMLButtonElement || (n instanceof HTMLInputElement && ['submit', 'button', 'image'].includes(n.type));
    if (!button) continue;
    const form = (n as HTMLButtonElement | HTMLInputElement).form;
    if (!form || (n instanceof HTMLButtonElement && n.type === 'reset')) return undefined;
    return { ...formInfo(form), submits: isSubmitButton(n) };
  }
  return undefined;
}

export function gateDetails(el: Element): GateDetails {
  const out: GateDetails = {};
  const names = otherNames(el);
  if (names.length) out.names = names;
  const control = labelledControl(el);
  if (showsWordPicture(el) || (control && showsWordPicture(control))) out.picture = true;
  const form = buttonOfForm(el) ?? (control ? buttonOfForm(control) : undefined);
  if (form) out.buttonOf = form;
  return out;
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
      return submitUrl(form, defaultButton(form));
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
