/**
 * Key names, shared by every dialect. A `key` action's `keys` are our names joined by "+":
 * Control, Shift, Alt, Meta, Enter, Tab, Escape, Backspace, Delete, ArrowUp, ArrowDown,
 * ArrowLeft, ArrowRight, Home, End, PageUp, PageDown, Space, F1–F12, or one printable character
 * (letters lower-case: "Control+c"; "+" itself is a character too: "Control++").
 *
 * Models write keys as xdotool / pyautogui / DOM do ("ctrl+c", "Return", "pgdn", "cmd+shift+t",
 * "Page_Down", "arrow up"); normalizeKeys reads all of those. Pure: no chrome, no DOM.
 */

/** Our names, in the order the docs list them. */
export const KEY_NAMES = [
  'Control', 'Shift', 'Alt', 'Meta', 'Enter', 'Tab', 'Escape', 'Backspace', 'Delete',
  'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown', 'Space',
  'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10', 'F11', 'F12',
] as const;

export type KeyName = (typeof KEY_NAMES)[number];

/** Aliases, lower-case with spaces, "_" and "-" removed. */
const ALIASES: Record<string, KeyName> = {
  ctrl: 'Control', control: 'Control', ctl: 'Control', lctrl: 'Control', rctrl: 'Control',
  ctrlleft: 'Control', ctrlright: 'Control', controlleft: 'Control', controlright: 'Control', leftctrl: 'Control', rightctrl: 'Control',
  // CogAgent's Windows names (Lcontrol / Rcontrol) and macOS names (Control / Right Control)
  lcontrol: 'Control', rcontrol: 'Control', leftcontrol: 'Control', rightcontrol: 'Control',
  shift: 'Shift', lshift: 'Shift', rshift: 'Shift', shiftleft: 'Shift', shiftright: 'Shift', leftshift: 'Shift', rightshift: 'Shift',
  alt: 'Alt', option: 'Alt', opt: 'Alt', lalt: 'Alt', ralt: 'Alt', altleft: 'Alt', altright: 'Alt', leftalt: 'Alt', rightalt: 'Alt',
  // Windows' virtual-key names for Alt (VK_LMENU / VK_RMENU), as CogAgent writes them
  lmenu: 'Alt', rmenu: 'Alt', leftoption: 'Alt', rightoption: 'Alt',
  meta: 'Meta', cmd: 'Meta', command: 'Meta', super: 'Meta', win: 'Meta', windows: 'Meta', lwin: 'Meta', rwin: 'Meta',
  metaleft: 'Meta', metaright: 'Meta', superl: 'Meta', superr: 'Meta', os: 'Meta', '⌘': 'Meta',
  leftcommand: 'Meta', rightcommand: 'Meta', lcommand: 'Meta', rcommand: 'Meta', lcmd: 'Meta', rcmd: 'Meta',
  enter: 'Enter', return: 'Enter', ret: 'Enter', kpenter: 'Enter', numpadenter: 'Enter', '↵': 'Enter', '⏎': 'Enter',
  tab: 'Tab',
  escape: 'Escape', esc: 'Escape',
  backspace: 'Backspace', bksp: 'Backspace', backspce: 'Backspace',
  delete: 'Delete', del: 'Delete',
  up: 'ArrowUp', arrowup: 'ArrowUp', uparrow: 'ArrowUp', '↑': 'ArrowUp',
  down: 'ArrowDown', arrowdown: 'ArrowDown', downarrow: 'ArrowDown', '↓': 'ArrowDown',
  left: 'ArrowLeft', arrowleft: 'ArrowLeft', leftarrow: 'ArrowLeft', '←': 'ArrowLeft',
  right: 'ArrowRight', arrowright: 'ArrowRight', rightarrow: 'ArrowRight', '→': 'ArrowRight',
  home: 'Home', end: 'End',
  pageup: 'PageUp', pgup: 'PageUp', prior: 'PageUp',
  pagedown: 'PageDown', pgdn: 'PageDown', pgdown: 'PageDown', next: 'PageDown',
  space: 'Space', spacebar: 'Space',
};

/**
 * One key to our name, or null when it is not a key we know. Single characters stay themselves
 * (letters lower-case); whitespace alone is Space.
 */
export function normalizeKey(raw: string): string | null {
  const s = String(raw ?? '');
  if (s !== '' && s.trim() === '') return 'Space';
  const t = s.trim();
  const chars = Array.from(t);
  if (chars.length === 1) {
    const alias = ALIASES[t];
    if (alias) return alias;
    return /\p{L}/u.test(t) ? t.toLowerCase() : t;
  }
  const k = t.toLowerCase().replace(/[\s_-]+/g, '');
  if (ALIASES[k]) return ALIASES[k];
  const f = /^f([1-9]|1[0-2])$/.exec(k);
  if (f) return `F${f[1]}`;
  // "Control" or "ArrowUp" written as we write them
  const own = KEY_NAMES.find((n) => n.toLowerCase() === k);
  return own ?? null;
}

/** The parts of a combination as written: "ctrl+c", "ctrl + shift + t", "ctrl++" (the plus key). */
function splitCombo(s: string): string[] {
  const t = s.trim();
  if (t === '+') return ['+'];
  if (t.endsWith('++')) return [...splitCombo(t.slice(0, -2)), '+'].filter((p) => p !== '');
  return t.split('+').map((p) => p.trim());
}

/**
 * A key or combination as models write it to our names joined by "+" ("ctrl+c" -> "Control+c",
 * "Return" -> "Enter", "cmd+shift+t" -> "Meta+Shift+t"), or null when it is empty or names a key
 * we do not know. Without "+", "ctrl c" and "ctrl-c" are read as combinations too.
 */
export function normalizeKeys(keys: string): string | null {
  const raw = String(keys ?? '');
  if (raw === '') return null;
  if (raw.trim() === '') return 'Space';
  const whole = normalizeKey(raw);
  if (whole !== null && !raw.trim().includes('+')) return whole;
  let parts = splitCombo(raw);
  if (parts.length === 1) {
    const t = parts[0];
    if (/\s/.test(t)) parts = t.split(/\s+/);
    else if (/^[^-]+(?:-[^-]+)+$/.test(t)) parts = t.split('-');
  }
  if (parts.length === 0 || parts.some((p) => p === '')) return null;
  const out: string[] = [];
  for (const p of parts) {
    const k = normalizeKey(p);
    if (k === null) return null;
    out.push(k);
  }
  return out.join('+');
}

/** The first part of a combination that is not a key we know (for an error message), or null. */
export function unknownKeyIn(keys: string): string | null {
  const raw = String(keys ?? '');
  if (raw.trim() === '') return null;
  for (const p of splitCombo(raw)) if (p !== '' && normalizeKey(p) === null) return p;
  return null;
}
