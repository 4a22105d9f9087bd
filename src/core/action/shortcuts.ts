/**
 * Browser shortcuts a desktop-trained model presses. Keys sent through the debugger
 * (Input.dispatchKeyEvent) reach the page, never the browser: Alt+Left does not go back, Ctrl+T
 * opens no tab, Ctrl+F opens no find bar. So the background does what the common ones mean and
 * answers the rest with a clear observation. Pure.
 *
 * `keys`: our names joined by "+" (core/action/keys.ts), e.g. "Control+t", "Alt+ArrowLeft",
 * "F5", "Control++" (the plus key). Case and the modifiers' order do not matter.
 *
 * Keys pages commonly handle themselves stay page keys (null) even where the browser has a
 * meaning for them too: Ctrl+S (editors save), Ctrl+O, Ctrl+K and Ctrl+E (command palettes,
 * link dialogs), the editing keys Ctrl+A / B / C / I / V / X / Y / Z.
 */
export type Shortcut = 'back' | 'forward' | 'reload' | 'newTab' | 'closeTab' | 'address' | 'other-browser';

const TABLE: Record<string, Shortcut> = {
  'alt+arrowleft': 'back', 'meta+[': 'back', 'meta+arrowleft': 'back', 'browserback': 'back',
  'alt+arrowright': 'forward', 'meta+]': 'forward', 'meta+arrowright': 'forward', 'browserforward': 'forward',
  'f5': 'reload', 'control+f5': 'reload', 'shift+f5': 'reload', 'control+r': 'reload', 'meta+r': 'reload',
  'control+shift+r': 'reload', 'shift+meta+r': 'reload', 'browserrefresh': 'reload',
  'control+t': 'newTab', 'meta+t': 'newTab',
  'control+w': 'closeTab', 'meta+w': 'closeTab', 'control+f4': 'closeTab', 'control+shift+w': 'closeTab',
  'shift+meta+w': 'closeTab', 'alt+f4': 'closeTab', 'meta+q': 'closeTab', 'control+shift+q': 'closeTab',
  'control+l': 'address', 'meta+l': 'address', 'alt+d': 'address', 'f6': 'address',
};

/** Browser-only keys that do nothing through debugger key events (windows, tabs, menus, tools, zoom, find). */
const OTHER = new Set([
  // windows and tabs
  'control+n', 'meta+n', 'control+shift+n', 'shift+meta+n', 'control+shift+t', 'shift+meta+t',
  'control+tab', 'control+shift+tab', 'control+pagedown', 'control+pageup', 'alt+meta+arrowright', 'alt+meta+arrowleft',
  'control+1', 'control+2', 'control+3', 'control+4', 'control+5', 'control+6', 'control+7', 'control+8', 'control+9',
  'meta+1', 'meta+2', 'meta+3', 'meta+4', 'meta+5', 'meta+6', 'meta+7', 'meta+8', 'meta+9',
  'alt+1', 'alt+2', 'alt+3', 'alt+4', 'alt+5', 'alt+6', 'alt+7', 'alt+8', 'alt+9',
  'f11', 'control+meta+f', 'meta+m', 'meta+h', 'alt+home',
  // history, downloads, bookmarks, print, find, settings, developer tools, page source
  'control+h', 'meta+y', 'control+j', 'shift+meta+j', 'control+d', 'meta+d', 'control+shift+d', 'control+shift+b', 'shift+meta+b',
  'control+shift+o', 'alt+meta+b', 'control+p', 'meta+p', 'control+shift+p', 'control+f', 'meta+f', 'control+g', 'meta+g',
  'control+shift+g', 'shift+meta+g', 'f3', 'shift+f3', 'control+shift+delete', 'shift+meta+backspace',
  'f12', 'control+shift+i', 'control+shift+j', 'control+shift+c', 'alt+meta+i', 'alt+meta+j', 'alt+meta+c',
  'control+u', 'alt+meta+u', 'meta+,', 'shift+escape', 'control+shift+m', 'alt+f', 'alt+e', 'f10', 'alt+shift+i',
  // zoom
  'control++', 'control+=', 'control+-', 'control+0', 'meta++', 'meta+=', 'meta+-', 'meta+0',
  'control+shift++', 'control+shift+=', 'shift+meta++', 'shift+meta+=',
]);

const MODIFIERS = ['control', 'alt', 'shift', 'meta'];
const ALIASES: Record<string, string> = { ctrl: 'control', cmd: 'meta', command: 'meta', option: 'alt', plus: '+' };

/** The keys of a combination as written: "Control+t", "Control++" (the plus key), "+". */
export function splitKeys(keys: string): string[] {
  const t = keys.trim();
  if (t === '+') return ['+'];
  if (t.endsWith('++')) return [...splitKeys(t.slice(0, -2)), '+'].filter((k) => k !== '');
  return t.split('+').map((k) => k.trim()).filter(Boolean);
}

/** Lower case, modifiers first in a fixed order, so "Shift+Control+R" and "control+shift+r" are one key. */
export function canonicalKeys(keys: string): string {
  const parts = splitKeys(String(keys ?? '')).map((k) => ALIASES[k.toLowerCase()] ?? k.toLowerCase());
  const mods = MODIFIERS.filter((m) => parts.includes(m));
  const rest = parts.filter((k) => !MODIFIERS.includes(k));
  return [...mods, ...rest].join('+');
}

/** What a key combination means to the browser, or null for a key meant for the page. */
export function browserShortcut(keys: string): Shortcut | null {
  const k = canonicalKeys(keys);
  return TABLE[k] ?? (OTHER.has(k) ? 'other-browser' : null);
}
