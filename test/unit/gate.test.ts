/**
 * The gate (src/core/guards/gate.ts + guards/index.ts guardCheckReached): an action is judged by the elements
 * its input would activate, whatever its form: a click, a long press, both ends of a drag, Enter
 * or Space on the focused element, typing at something that is not a field, a <select> option;
 * and a button is judged by its form (a card form pays, a message form sends) and all its names.
 */
import { describe, expect, it } from 'vitest';
import { at, type Action } from '../../src/core/action/action';
import { activations, keyPressesEnter, keyPressesSpace } from '../../src/core/guards/gate';
import { DEFAULT_GUARDS, guardCheck, guardCheckReached, type GuardTarget, type Reached } from '../../src/core/guards';
import type { FieldInfo, FormInfo } from '../../src/core/guards/fields';

const ctx = { site: 'https://shop.example/', searchStartPage: 'https://www.bing.com/' };
const judge = (a: Action, reached: Reached[]) => guardCheckReached(a, reached, ctx, DEFAULT_GUARDS)?.id ?? null;

const button = (text: string, more: Partial<GuardTarget> = {}): GuardTarget => ({ tag: 'button', text, editable: false, ...more });
const field = (label: string, more: Partial<FieldInfo> = {}): FieldInfo => ({ tag: 'input', type: 'text', label, ...more });
const textBox = (label: string, form?: FormInfo): GuardTarget => ({ tag: 'input', text: label, inputType: 'text', editable: true, field: field(label), ...(form ? { form } : {}) });

const cardForm: FormInfo = { submit: 'Continue', fields: [field('Name on card', { autocomplete: 'cc-name' }), field('Card number', { autocomplete: 'cc-number', inputmode: 'numeric' }), field('Expiry', { autocomplete: 'cc-exp' })] };
const loginForm: FormInfo = { submit: 'Submit', fields: [field('Username', { autocomplete: 'username' }), field('Password', { type: 'password' })] };
const contactForm: FormInfo = { submit: 'Submit', fields: [field('Your e-mail', { type: 'email' }), { tag: 'textarea', label: 'Your message', name: 'message' }] };
const searchForm: FormInfo = { submit: 'Go', fields: [field('Search', { type: 'search' })] };
const dateForm: FormInfo = { submit: 'Submit', fields: [field('Date', { type: 'date' })] };

const click: Action = { type: 'click', target: at.label(1), button: 'left', count: 1 };
const press: Action = { type: 'press', target: at.point(10, 10) };
const drag: Action = { type: 'drag', target: at.point(10, 10), to: { x: 200, y: 10 } };
const enter: Action = { type: 'key', keys: 'Enter' };
const space: Action = { type: 'key', keys: 'Space' };
const typeAt: Action = { type: 'type', target: at.point(50, 50), text: 'hello', clear: false, enter: false };

describe('activations: every action form says what it can activate', () => {
  it('presses, both ends of a drag, typing, Enter and Space', () => {
    expect(activations(click)).toEqual([{ how: 'press', where: { at: 'target' } }]);
    expect(activations(press)).toEqual([{ how: 'press', where: { at: 'target' } }]);
    expect(activations(drag)).toEqual([{ how: 'press', where: { at: 'target' } }, { how: 'press', where: { at: 'point', point: { x: 200, y: 10 } } }]);
    expect(activations({ type: 'type', target: at.none(), text: 'x', clear: false, enter: true })).toEqual([{ how: 'type', where: { at: 'focused' } }, { how: 'enter', where: { at: 'focused' } }]);
    expect(activations(enter)).toEqual([{ how: 'enter', where: { at: 'focused' } }]);
    expect(activations(space)).toEqual([{ how: 'space', where: { at: 'focused' } }]);
    expect(activations({ type: 'key', keys: 'Control+a' })).toEqual([]);
    expect(activations({ type: 'scroll', target: at.window(), direction: 'down' })).toEqual([]);
    expect(activations({ type: 'hover', target: at.point(1, 1) })).toEqual([]);
  });

  it('reads Enter and Space however they are written', () => {
    for (const k of ['Enter', 'Return', 'Control+Enter', 'NumpadEnter']) expect(keyPressesEnter(k), k).toBe(true);
    for (const k of ['Space', ' ', 'Shift+Space']) expect(keyPressesSpace(k), k).toBe(true);
    for (const k of ['Tab', 'Control+a', 'Escape']) {
      expect(keyPressesEnter(k)).toBe(false);
      expect(keyPressesSpace(k)).toBe(false);
    }
  });
});

describe('the guards judge what the input would activate', () => {
  it('a long press and a tap on "Place order" / "Delete account" ask', () => {
    expect(judge(press, [{ how: 'press', target: button('Place order') }])).toBe('payment');
    expect(judge(press, [{ how: 'press', target: button('Delete account') }])).toBe('delete');
  });

  it('a drag that starts or ends on "Place order" asks; a drag between harmless places does not', () => {
    expect(judge(drag, [{ how: 'press', target: button('Slider') }, { how: 'press', target: button('Place order') }])).toBe('payment');
    expect(judge(drag, [{ how: 'press', target: button('Place order') }, { how: 'press', target: null }])).toBe('payment');
    expect(judge(drag, [{ how: 'press', target: button('Slider') }, { how: 'press', target: button('Track') }])).toBeNull();
  });

  it('Enter or Space with a focused "Place order" button asks; Space in a text field does not', () => {
    expect(judge(enter, [{ how: 'enter', target: button('Place order') }])).toBe('payment');
    expect(judge(space, [{ how: 'space', target: button('Place order') }])).toBe('payment');
    expect(judge(space, [{ how: 'space', target: textBox('Delete reason') }])).toBeNull();
    expect(judge(enter, [{ how: 'enter', target: { tag: 'a', text: 'Delete my account', href: 'https://shop.example/account/delete', editable: false } }])).toBe('delete');
  });

  it('typing at a button is judged as pressing it; typing into a field is not a press', () => {
    expect(judge(typeAt, [{ how: 'type', target: button('Place order') }])).toBe('payment');
    expect(judge(typeAt, [{ how: 'type', target: textBox('Place order notes') }])).toBeNull();
  });

  it('the legacy form (one target) reaches the same elements', () => {
    expect(guardCheck(space, button('Place order'), ctx, DEFAULT_GUARDS)?.id).toBe('payment');
    expect(guardCheck(press, button('Delete account'), ctx, DEFAULT_GUARDS)?.id).toBe('delete');
  });
});

describe('a button is judged by its form and every name it has', () => {
  it('"Continue" / "Next" / "Weiter" of a card form pays, of a login, search or date form does not', () => {
    for (const words of ['Continue', 'Next', 'Weiter']) {
      expect(judge(click, [{ how: 'press', target: button(words, { buttonOf: { ...cardForm, submits: true } }) }]), words).toBe('payment');
      expect(judge(click, [{ how: 'press', target: button(words, { buttonOf: { ...cardForm, submits: false } }) }]), `${words} (a script's button)`).toBe('payment');
    }
    for (const [f, words] of [[loginForm, 'Submit'], [loginForm, 'OK'], [searchForm, 'Go'], [dateForm, 'Submit'], [dateForm, 'Next']] as const) {
      expect(judge(click, [{ how: 'press', target: button(words, { buttonOf: { ...f, submits: true } }) }]), words).toBeNull();
    }
  });

  it('the submit button of a form with a message box sends; Enter in its one-line field too', () => {
    expect(judge(click, [{ how: 'press', target: button('Submit', { buttonOf: { ...contactForm, submits: true } }) }])).toBe('send');
    // a plain button of the same form (a script may do anything, but a message form's other buttons are common: emoji, preview)
    expect(judge(click, [{ how: 'press', target: button('Preview', { buttonOf: { ...contactForm, submits: false } }) }])).toBeNull();
    expect(judge(enter, [{ how: 'enter', target: textBox('Your e-mail', contactForm) }])).toBe('send');
    expect(judge(enter, [{ how: 'enter', target: textBox('Username', loginForm) }])).toBeNull();
  });

  it('CSS-drawn text, an image button\'s alt, a title: any name that says "Place order" asks', () => {
    expect(judge(click, [{ how: 'press', target: button('', { names: ['Place order'] }) }])).toBe('payment');
    expect(judge(click, [{ how: 'press', target: { tag: 'input', inputType: 'image', text: '', names: ['Delete account'], editable: false } }])).toBe('delete');
    expect(judge(click, [{ how: 'press', target: button('→', { names: ['Order history'] }) }])).toBeNull();
  });

  it('choosing a select option by typing is judged as that option', () => {
    const select: GuardTarget = { tag: 'select', text: 'Action', options: ['Keep', 'Delete account'], editable: false };
    expect(judge({ type: 'type', target: at.label(3), text: 'Delete', clear: false, enter: false }, [{ how: 'type', target: select }])).toBe('delete');
    expect(judge({ type: 'type', target: at.label(3), text: 'Keep', clear: false, enter: false }, [{ how: 'type', target: select }])).toBeNull();
  });
});
