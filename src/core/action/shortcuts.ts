/**
 * Browser shortcuts a desktop-trained model presses. Keys sent through the debugger reach the
 * page, never the browser: Alt+Left does not go back, Ctrl+T opens no tab. So the background
 * does what the common ones mean and answers the rest with a clear observation. Pure.
 * `keys`: our names joined by "+", e.g. "Control+t", "Alt+ArrowLeft", "F5".
 */
export type Shortcut = 'back' | 'forward' | 'reload' | 'newTab' | 'closeTab' | 'address' | 'other-browser';

const TABLE: Record<string, Shortcut> = {
  'alt+arrowleft': 'back', 'meta+[': 'back', 'browserback': 'back', 'meta+arrowleft': 'back',
  'alt+arrowright': 'forward', 'meta+]': 'forward', 'browserforward': 'forward', 'meta+arrowright': 'forward',
  'f5': 'reload', 'control+r': 'reload', 'meta+r': 'reload', 'control+shift+r': 'reload', 'shift+meta+r': 'reload', 'control+f5': 'reload', 'shift+f5': 'reload',
  'control+t': 'newTab', 'meta+t': 'newTab', 'control+n': 'newTab', 'meta+n': 'newTab',
  'control+w': 'closeTab', 'meta+w': 'closeTab', 'control+f4': 'closeTab', 'alt+f4': 'closeTab', 'meta+q': 'closeTab',
  'control+l': 'address', 'meta+l': 'address', 'alt+d': 'address', 'f6': 'address', 'control+k': 'address', 'control+e': 'address',
};

const OTHER = new Set([
  'control+shift+t', 'meta+shift+t', 'control+tab', 'control+shift+tab', 'control+pagedown', 'control+pageup',
  'control+h', 'meta+y', 'control+j', 'control+shift+j', 'control+d', 'meta+d', 'control+p', 'meta+p', 'control+s', 'meta+s',
  'control+f', 'meta+f', 'f3', 'f11', 'f12', 'control+shift+i', 'meta+alt+i', 'control+shift+delete', 'control+shift+n', 'control+shift+b',
  'control+o', 'meta+o', 'control+u', 'meta+alt+u', 'control+plus', 'control+=', 'control+-', 'control+0', 'alt+f', 'alt+e', 'alt+home',
  'control+1', 'control+2', 'control+3', 'control+4', 'control+5', 'control+6', 'control+7', 'control+8', 'control+9',
]);

/** Modifiers first in a fixed order, so "Shift+Control+R" and "control+shift+r" are one key. */
function canonical(keys: string): string {
  const order = ['control', 'alt', 'shift', 'meta'];
  const parts = keys.toLowerCase().split('+').map((k) => k.trim()).filter(Boolean);
  const mods = order.filter((m) => parts.includes(m));
  const rest = parts.filter((k) => !order.includes(k));
  // "shift+meta+r" is listed for macOS habits; keep the table simple by trying both orders.
  return [...mods, ...rest].join('+');
}

export function browserShortcut(keys: string): Shortcut | null {
  const k = canonical(keys);
  const alt = k.replace(/^(control\+)?(alt\+)?shift\+meta\+/, (_m, c = '', a = '') => `${c}${a}shift+meta+`);
  return TABLE[k] ?? TABLE[alt] ?? (OTHER.has(k) ? 'other-browser' : null);
}
