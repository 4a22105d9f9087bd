/** What a mark says about its element: tag, input type, texts, editability. */
import { OPTION_ATTR } from './dom';
import { elementText, stableText, type LabelIndex } from './text';

export function tagOf(el: Element): string {
  return el.hasAttribute(OPTION_ATTR) ? 'option' : el.localName.toLowerCase();
}

export function inputTypeOf(el: Element): string | undefined {
  return el instanceof HTMLInputElement ? el.type : undefined;
}

/**
 * The mark's text and its stable part (text.ts). `el` has the box; `owner` is the element the
 * rules chose (a display:contents ancestor whose text stands in when the box's own is empty).
 * `nameOnly`: the stable part is the name only (scroll containers). `style`: el's computed style,
 * when the caller has it.
 */
export function textsOf(el: Element, owner: Element, labels?: LabelIndex, nameOnly = false, style?: CSSStyleDeclaration): { text: string; stable: string } {
  const text = elementText(el, labels, style);
  if (text || el === owner) return { text, stable: stableText(el, labels, nameOnly, text) };
  const ownText = elementText(owner, labels);
  return { text: ownText, stable: stableText(owner, labels, nameOnly, ownText) };
}

const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color', 'hidden']);

export function isEditable(el: Element): boolean {
  if (el instanceof HTMLTextAreaElement) return !el.readOnly && !el.disabled;
  if (el instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(el.type) && !el.readOnly && !el.disabled;
  return el instanceof HTMLElement && el.isContentEditable;
}
