/** What a mark says about its element: tag, input type, texts, editability. */
import { OPTION_ATTR } from './dom';
import { elementText, MAX_NAME, stableText, type LabelIndex } from './text';

export function tagOf(el: Element): string {
  return el.hasAttribute(OPTION_ATTR) ? 'option' : el.localName.toLowerCase();
}

export function inputTypeOf(el: Element): string | undefined {
  return el instanceof HTMLInputElement ? el.type : undefined;
}

/**
 * The mark's text and its stable part (text.ts). `el` has the box; `owner` is the element the
 * rules chose (a display:contents ancestor whose text stands in when the box's own is empty).
 * `nameOnly`: a scroll container. Its stable part is the name only, and so is its text when it has
 * a name: the words inside it belong to the elements it holds (labelled on their own), none are its
 * own (docs/labeling.md). `style`: el's computed style, when the caller has it.
 */
export function textsOf(el: Element, owner: Element, labels?: LabelIndex, nameOnly = false, style?: CSSStyleDeclaration): { text: string; stable: string } {
  if (nameOnly) {
    const name = stableText(el, labels, true);
    if (name) return { text: name.slice(0, MAX_NAME), stable: name };
  }
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
