/**
 * Candidate rules (docs/labeling.md): what makes an element worth a label, from its tag and
 * attributes (cheap, no layout) plus its computed cursor. Exclusions that need layout or style
 * (disabled, pointer-events:none, invisible) are applied later, only to elements in the viewport.
 *
 * Kinds:
 * - "semantic": native controls (a[href], button, input except hidden, select, textarea, summary,
 *   details without a summary, video/audio with controls), interactive ARIA roles,
 *   contenteditable, our select-list options;
 * - "label": a <label> with a control (marked only when its control cannot be, e.g. a styled
 *   checkbox that is visually hidden);
 * - "generic": tabindex >= 0, an on* handler attribute (onclick, onmousedown, …), a framework
 *   click hook (src/core/click-hooks.ts: jQuery UI data-handler, ng-click, @click, hx-get,
 *   data-action, jsaction, data-bs-toggle, …), a custom element in a roving-tabindex group
 *   (rovingItem), or an <a> without href drawn as something to click (scriptAnchor);
 * - "pointer": only computed cursor:pointer (not on html/body);
 * - "scroll": only a scrollable container (decided later from its overflow and sizes).
 */
import { hasClickHook, hookName, tooltipToggle } from '../../src/core/click-hooks';
import { OPTION_ATTR, UI_ATTR } from './dom';

export type Kind = 'semantic' | 'label' | 'generic' | 'pointer' | 'scroll';

export const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem',
]);

/**
 * Handler attributes that mean "something happens on click / press" (not onload, onerror, …):
 * the ones pages use for that; onkeyup / ontouchend / onkeypress come with one of these.
 */
const HANDLERS = ['onclick', 'ondblclick', 'onmousedown', 'onmouseup', 'onpointerdown', 'onpointerup', 'ontouchstart', 'onkeydown'];
const HANDLER_SET = new Set(HANDLERS);

const CONTROL_TAGS = new Set(['button', 'select', 'textarea', 'summary']);

/**
 * Every element classify() can say something about besides its cursor: these tags, and elements
 * with an attribute ATTR_NAMES has (both checked in the walk from the tag and the attribute names,
 * which is cheaper than a selector query with one attribute selector per name). ATTR_NAMES.has
 * also answers for the framework click hooks (click-hooks.hookName: one more Set lookup, and
 * prefix checks only for `@…` and `…:…` names), whose names are not a fixed list (`@click.prevent`).
 */
export const TAGS = new Set(['a', 'button', 'input', 'select', 'textarea', 'summary', 'details', 'video', 'audio', 'label']);
class AttrNames extends Set<string> {
  override has(name: string): boolean {
    return super.has(name) || hookName(name);
  }
}
export const ATTR_NAMES: ReadonlySet<string> = new AttrNames(['role', 'tabindex', 'contenteditable', 'inert', OPTION_ATTR, UI_ATTR, ...HANDLERS]);

/** Never labelled themselves: frames are entered instead (their contents get labels). */
const NEVER = new Set(['iframe', 'frame', 'object', 'embed', 'html', 'body', 'slot']);

/** A candidate only because of its cursor (the element has no tag or attribute of interest). */
export function pointerKind(tag: string, pointer: boolean): Kind | null {
  return pointer && !NEVER.has(tag) ? 'pointer' : null;
}

export function roleOf(el: Element): string {
  return (el.getAttribute('role') ?? '').trim().split(/\s+/)[0].toLowerCase();
}

/** What the attribute scan found (one pass over getAttributeNames instead of many hasAttribute). */
export interface Attrs { inert: boolean; ui: boolean; kind: Kind | null }

const NO_ATTRS: Attrs = { inert: false, ui: false, kind: null };

/**
 * Tag rules, then attribute rules (the cursor rule is pointerKind, applied by the caller).
 * `names`: el.getAttributeNames() when the caller has them already (null: no attributes).
 */
export function classify(el: Element, tag: string, names: string[] | null | undefined = undefined): Attrs {
  if (names === undefined) names = el.hasAttributes() ? el.getAttributeNames() : null;
  let inert = false, ui = false, role = false, tabindex = false, editable = false, handler = false;
  let href = false, controls = false, option = false, titled = false, named = false;
  let hooks: string[] | null = null;
  if (names) {
    for (const n of names) {
      switch (n) {
        case 'inert': inert = true; break;
        case UI_ATTR: ui = true; break;
        case 'role': role = true; break;
        case 'tabindex': tabindex = true; break;
        case 'contenteditable': editable = true; break;
        case 'href': href = true; break;
        case 'controls': controls = true; break;
        case OPTION_ATTR: option = true; break;
        case 'title': case 'aria-label': titled = true; break;
        case 'name': named = true; break;
        default:
          if (HANDLER_SET.has(n)) handler = true;
          else if (hookName(n)) (hooks ??= []).push(n);
      }
    }
  }
  // `ui`: the caller skips it when it is really ours (draw.isOurOverlay); a page element that only
  // copies the attribute is classified like any other
  if (inert) return { inert, ui, kind: null };
  if (tag === 'body' || tag === 'html') return editableDocument(el) ? { inert, ui, kind: 'semantic' } : NO_ATTRS;
  if (NEVER.has(tag)) return NO_ATTRS;
  let kind: Kind | null = null;
  if (option) kind = 'semantic';
  else if (tag === 'a' || tag === 'area') kind = href && tag === 'a' ? 'semantic' : null;
  else if (tag === 'input') kind = (el as HTMLInputElement).type === 'hidden' ? null : 'semantic';
  else if (CONTROL_TAGS.has(tag)) kind = 'semantic';
  else if (tag === 'details') kind = el.querySelector(':scope > summary') ? null : 'semantic';
  else if (tag === 'video' || tag === 'audio') kind = controls ? 'semantic' : null;
  else if (tag === 'label') kind = (el as HTMLLabelElement).control ? 'label' : null;
  if (!kind && role && INTERACTIVE_ROLES.has(roleOf(el))) kind = 'semantic';
  if (!kind && editable && el.getAttribute('contenteditable') !== 'false') kind = 'semantic';
  if (!kind && (handler || (tabindex && ((el as HTMLElement).tabIndex >= 0 || rovingItem(el, tag))))) kind = 'generic';
  if (!kind && hooks && hasClickHook(tag, hooks, (n) => el.getAttribute(n))) kind = 'generic';
  if (!kind && tag === 'a' && !href && titled && !named && scriptAnchor(el)) kind = 'generic';
  return kind ? { inert, ui, kind } : NO_ATTRS;
}

/**
 * An <a> without href (not a link, never a candidate on its own) that has a title or aria-label
 * (handlers, framework hooks and tabindex made it a candidate already): a script control drawn as
 * an icon or a word to click, like jQuery UI's datepicker arrows (`<a title="Prev">` holding a
 * sprite). Not when it is a target rather than a control: a named anchor (`<a name>`, checked by
 * the caller), one whose title is a Bootstrap tooltip, one wrapping a heading (a section target),
 * or one whose title and aria-label are blank. Anchors with only an id (fragment targets, the
 * empty index anchors of generated manuals) have no title and never get here.
 */
function scriptAnchor(el: Element): boolean {
  const named = (el.getAttribute('aria-label') ?? '').trim() || (el.getAttribute('title') ?? '').trim();
  if (!named || tooltipToggle((n) => el.getAttribute(n))) return false;
  return el.querySelector('h1, h2, h3, h4, h5, h6') === null;
}

/**
 * A custom element out of the tab order (tabindex -1) beside a same-tag sibling in it: the other
 * items of a roving-tabindex widget (tabs, toolbar buttons) whose role lives in ElementInternals,
 * unseen from outside (Material's md-primary-tab: only the selected tab has tabindex 0).
 */
function rovingItem(el: Element, tag: string): boolean {
  if (!tag.includes('-') || !el.parentElement) return false;
  for (let sib = el.parentElement.firstElementChild; sib; sib = sib.nextElementSibling) {
    if (sib !== el && sib.localName === tag && (sib as HTMLElement).tabIndex >= 0 && sib.hasAttribute('tabindex')) return true;
  }
  return false;
}

/**
 * The editing area of an iframe editor (TinyMCE-style): a contenteditable body, or a document in
 * designMode. Otherwise html and body are never marks (a page-wide cursor or handler says nothing).
 */
export function editableDocument(el: Element): boolean {
  return el.localName === 'body' && (document.designMode === 'on' || (el as HTMLElement).isContentEditable);
}

/**
 * Disabled, aria-disabled, or a label whose control is disabled. For a candidate that is not a
 * control itself (generic, pointer: an icon inside a disabled button inheriting its cursor) a
 * disabled ancestor counts too: clicking it does nothing either.
 */
export function isDisabled(el: Element, kind?: Kind): boolean {
  if ((kind === 'generic' || kind === 'pointer') && el.closest(':disabled, [aria-disabled="true"]')) return true;
  if (el.getAttribute('aria-disabled') === 'true') return true;
  if (el.localName === 'label') {
    const control = (el as HTMLLabelElement).control;
    return !control || isDisabled(control);
  }
  return el.matches(':disabled');
}

/** A kept link or button swallows what is inside it, except distinct controls (docs/labeling.md). */
export function isContainer(el: Element): boolean {
  const tag = el.localName;
  if ((tag === 'a' && el.hasAttribute('href')) || tag === 'button' || tag === 'label') return true;
  const role = roleOf(el);
  return role === 'button' || role === 'link';
}

const DISTINCT_ROLES = new Set(['checkbox', 'radio', 'switch', 'textbox', 'searchbox', 'combobox', 'slider', 'spinbutton', 'link']);

/**
 * Distinct controls keep their own label inside a kept link/button/label: form fields, checkboxes
 * and friends, nested links, and a native <button> nested in a link (invalid HTML, yet common:
 * "Add to cart" inside a product link does something else than the link).
 */
export function isDistinct(el: Element, container: Element): boolean {
  const tag = el.localName;
  if (tag === 'input' || tag === 'select' || tag === 'textarea') return true;
  if (tag === 'a' && el.hasAttribute('href')) return true;
  if (tag === 'button' && container.localName === 'a') return true;
  if (el.hasAttribute(OPTION_ATTR)) return true;
  if (el instanceof HTMLElement && el.isContentEditable && el.getAttribute('contenteditable') !== null) return true;
  return DISTINCT_ROLES.has(roleOf(el));
}
