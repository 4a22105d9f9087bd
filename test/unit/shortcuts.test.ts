import { describe, expect, it } from 'vitest';
import { browserShortcut, canonicalKeys } from '../../src/core/action/shortcuts';

describe('browserShortcut', () => {
  it.each([
    ['Alt+ArrowLeft', 'back'], ['Meta+[', 'back'], ['BrowserBack', 'back'], ['Meta+ArrowLeft', 'back'],
    ['Alt+ArrowRight', 'forward'], ['Meta+]', 'forward'],
    ['F5', 'reload'], ['Control+r', 'reload'], ['Meta+r', 'reload'], ['Control+Shift+r', 'reload'], ['Shift+Control+R', 'reload'], ['Control+F5', 'reload'],
    ['Control+t', 'newTab'], ['Meta+t', 'newTab'],
    ['Control+w', 'closeTab'], ['Meta+w', 'closeTab'], ['Control+F4', 'closeTab'], ['Alt+F4', 'closeTab'],
    ['Control+l', 'address'], ['Meta+l', 'address'], ['Alt+d', 'address'], ['F6', 'address'],
  ] as const)('%s → %s', (keys, want) => {
    expect(browserShortcut(keys)).toBe(want);
  });

  it.each([
    'Control+n', 'Control+Shift+t', 'Control+Tab', 'Control+Shift+Tab', 'Control+PageDown', 'Control+PageUp',
    'Control+h', 'Control+j', 'Control+d', 'Control+p', 'Control+f', 'Meta+f', 'F3', 'F11', 'F12',
    'Control+Shift+i', 'Control+Shift+j', 'Control+u', 'Control+1', 'Control+9', 'Control++', 'Control+=', 'Control+-', 'Control+0',
    'Shift+Escape', 'Alt+Home',
  ])('%s is a browser key the page cannot use', (keys) => {
    expect(browserShortcut(keys)).toBe('other-browser');
  });

  it.each([
    'Control+a', 'Control+c', 'Control+v', 'Control+x', 'Control+z', 'Control+Shift+z', 'Control+y', 'Meta+a', 'Meta+c',
    'Control+b', 'Control+i', 'Control+s', 'Control+k', 'Control+e', 'Control+o',
    'Enter', 'Tab', 'Escape', 'Backspace', 'Delete', 'ArrowLeft', 'PageDown', 'Space', 'Home', 'End',
    'Shift+Tab', 'Control+ArrowLeft', 'Control+Backspace', 'Control+Enter', 'a', '+', 'F1', 'F2', 'Control+Home',
  ])('%s is a page key', (keys) => {
    expect(browserShortcut(keys)).toBeNull();
  });

  it('reads modifiers in any order and case, and the plus key', () => {
    expect(canonicalKeys('Shift+Control+T')).toBe('control+shift+t');
    expect(canonicalKeys('Meta+Alt+i')).toBe('alt+meta+i');
    expect(canonicalKeys('Control++')).toBe('control++');
    expect(canonicalKeys('+')).toBe('+');
    expect(canonicalKeys('ctrl+w')).toBe('control+w');
    expect(browserShortcut('shift+control+t')).toBe('other-browser');
    expect(browserShortcut('ctrl+l')).toBe('address');
  });
});
