/**
 * Choosing an option as a person would, and checking that the choice took.
 *
 * applyChoice:
 * 1. single select: set selectedIndex; `multiple`: set option.selected (toggle, as a ctrl-click
 *    does, or add). Both through the prototype's setter: a framework may shadow the property on
 *    the element itself, and we want the browser's behaviour, not the framework's bookkeeping.
 * 2. only when something changed (as natively): dispatch `input` (bubbles, composed, as native)
 *    then `change` (bubbles). The page's handlers run synchronously inside dispatchEvent.
 * 3. then read the select back, in the same task: ok only when it still holds the choice (a
 *    page handler may have reset it); `actual` reports what it holds.
 * findOption: the usable (enabled, not hidden) option a text names: exact text, then value,
 *    then prefix, then substring; whitespace collapsed, case-insensitive.
 */
import type { SelectPick } from '../src/core/messages';
import { isOptionDisabled, isOptionHidden } from './labeler/select-list';

/** SelectPick plus what a multiple select needs: whether the option should now be selected; seq grows with every choice. */
export interface SelectChoice extends SelectPick { multiple: boolean; selected: boolean; seq: number }

export type ChoiceMode = 'toggle' | 'add';

export function isOptionUsable(opt: HTMLOptionElement): boolean {
  return !isOptionDisabled(opt) && !isOptionHidden(opt);
}

function setNative<T>(proto: object, prop: string, el: T, value: unknown): void {
  const setter = Object.getOwnPropertyDescriptor(proto, prop)?.set;
  if (setter) setter.call(el, value);
  else (el as Record<string, unknown>)[prop] = value;
}

function selectedValues(sel: HTMLSelectElement): string {
  return Array.from(sel.selectedOptions, (o) => o.value).join(', ');
}

/** Steps 1–3. `mode` matters for multiple selects only (a single select always selects). */
export function applyChoice(sel: HTMLSelectElement, opt: HTMLOptionElement, mode: ChoiceMode): Omit<SelectChoice, 'seq'> {
  const multiple = sel.multiple;
  const want = multiple && mode === 'toggle' ? !opt.selected : true;
  const changed = multiple ? opt.selected !== want : sel.selectedIndex !== opt.index;
  if (changed) {
    if (multiple) setNative(HTMLOptionElement.prototype, 'selected', opt, want);
    else setNative(HTMLSelectElement.prototype, 'selectedIndex', sel, opt.index);
    sel.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    sel.dispatchEvent(new Event('change', { bubbles: true }));
  }
  // Step 3. A handler may also have replaced the options: then the value is what counts.
  const ok = multiple
    ? (opt.isConnected ? opt.selected === want : Array.from(sel.selectedOptions).some((o) => o.value === opt.value) === want)
    : sel.value === opt.value && (!opt.isConnected || opt.selected);
  return {
    ok, expected: opt.value, actual: multiple ? selectedValues(sel) : sel.value, text: opt.text,
    changed, multiple, selected: want,
  };
}

const norm = (t: string) => t.trim().replace(/\s+/g, ' ').toLowerCase();

/** The option `text` names, and the texts of all usable options (for an error message). */
export function findOption(sel: HTMLSelectElement, text: string): { hit: HTMLOptionElement | null; options: string[] } {
  const want = norm(text);
  const usable = Array.from(sel.options).filter(isOptionUsable);
  const hit = usable.find((o) => norm(o.text) === want) ?? usable.find((o) => norm(o.value) === want)
    ?? (want ? usable.find((o) => norm(o.text).startsWith(want)) ?? usable.find((o) => norm(o.text).includes(want)) : undefined);
  return { hit: hit ?? null, options: usable.map((o) => o.text.trim()) };
}
