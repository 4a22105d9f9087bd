/**
 * A `key` action's keys as Input.dispatchKeyEvent parameters (pure; cdp.keyEvents sends them).
 *
 * 1. Read the keys with the shared names (core/action/keys.ts: "ctrl+c" → "Control+c").
 * 2. Modifiers go down first, in the order written, each with the modifier bits held so far
 *    (Alt 1, Control 2, Meta 4, Shift 8); then each other key down and up with all of them;
 *    then the modifiers up in reverse.
 * 3. A key that types (letters, digits, punctuation, Space, Enter) is a "keyDown" with its text
 *    (shifted with Shift) unless Control, Alt or Meta is held: then a "rawKeyDown" without text,
 *    as a keyboard does (no keypress, nothing typed).
 * 4. Editing shortcuts carry Chromium's editing command (select all, copy, cut, paste, undo,
 *    redo, delete): dispatched key events do not reach the platform's key bindings on macOS, so
 *    without the command Cmd+C copies nothing there (Playwright does the same for macOS:
 *    https://github.com/microsoft/playwright/blob/main/packages/playwright-core/src/server/macEditingCommands.ts).
 *    Where the renderer maps the key itself (Linux, Windows) the command replaces that mapping:
 *    it runs once (checked: one paste, one deleted character; test/e2e/point-input.spec.ts).
 *    A page that prevents the keydown prevents the command too.
 * Layout: US keys (code and keyCode); other characters are sent as their text.
 */
import { normalizeKeys } from '../../core/action/keys';
import { splitKeys } from '../../core/action/shortcuts';

interface KeyDef { key: string; code: string; keyCode: number; text?: string; shifted?: string; location?: number }

export const MODIFIER_BITS: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

const MODIFIERS: Record<string, KeyDef> = {
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 },
};

const NAMED: Record<string, KeyDef> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
};
for (let n = 1; n <= 12; n++) NAMED[`F${n}`] = { key: `F${n}`, code: `F${n}`, keyCode: 111 + n };

/** US punctuation: character, code, keyCode, the character with Shift. */
const PUNCTUATION: Array<[string, string, number, string]> = [
  ['-', 'Minus', 189, '_'], ['=', 'Equal', 187, '+'], ['[', 'BracketLeft', 219, '{'], [']', 'BracketRight', 221, '}'],
  ['\\', 'Backslash', 220, '|'], [';', 'Semicolon', 186, ':'], ["'", 'Quote', 222, '"'], [',', 'Comma', 188, '<'],
  ['.', 'Period', 190, '>'], ['/', 'Slash', 191, '?'], ['`', 'Backquote', 192, '~'],
];
const SHIFTED_DIGITS = ')!@#$%^&*(';

const CHARS = new Map<string, KeyDef>();
for (let c = 97; c <= 122; c++) {
  const ch = String.fromCharCode(c);
  CHARS.set(ch, { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: c - 32, text: ch, shifted: ch.toUpperCase() });
}
for (let d = 0; d <= 9; d++) CHARS.set(String(d), { key: String(d), code: `Digit${d}`, keyCode: 48 + d, text: String(d), shifted: SHIFTED_DIGITS[d] });
for (const [ch, code, keyCode, shifted] of PUNCTUATION) CHARS.set(ch, { key: ch, code, keyCode, text: ch, shifted });
// A shifted character written as itself ("+", "?", "A") is that key's shifted side.
for (const def of Array.from(CHARS.values())) {
  if (def.shifted && !CHARS.has(def.shifted)) CHARS.set(def.shifted, { key: def.shifted, code: def.code, keyCode: def.keyCode, text: def.shifted });
}

function keyDef(name: string): KeyDef | null {
  if (NAMED[name]) return NAMED[name];
  const known = CHARS.get(name);
  if (known) return known;
  // any other single character (é, ß, …): its text, no key code
  return Array.from(name).length === 1 ? { key: name, code: '', keyCode: 0, text: name } : null;
}

/** Step 4: the editing command for a key with the modifier bits held, if any. */
function commandFor(name: string, bits: number): string | null {
  const ctrlOrMeta = (bits & (MODIFIER_BITS.Control | MODIFIER_BITS.Meta)) !== 0;
  const shift = (bits & MODIFIER_BITS.Shift) !== 0;
  if (ctrlOrMeta && !(bits & MODIFIER_BITS.Alt)) {
    switch (name.toLowerCase()) {
      case 'a': return shift ? null : 'selectAll';
      case 'c': return shift ? null : 'copy';
      case 'x': return shift ? null : 'cut';
      case 'v': return shift ? null : 'paste';
      case 'z': return shift ? 'redo' : 'undo';
      case 'y': return shift ? null : 'redo';
    }
    return null;
  }
  if (bits & ~MODIFIER_BITS.Shift) return null;
  if (name === 'Backspace') return 'deleteBackward';
  if (name === 'Delete') return 'deleteForward';
  return null;
}

export type KeyEvents = { ok: true; events: Record<string, unknown>[] } | { ok: false; error: string };

function event(type: string, def: KeyDef, bits: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const e: Record<string, unknown> = { type, key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers: bits, ...extra };
  if (def.location) e.location = def.location;
  return e;
}

/** Steps 1–3: the events for `keys`, or why they cannot be pressed. */
export function keyEventsFor(keys: string): KeyEvents {
  const parts = splitKeys(normalizeKeys(keys) ?? String(keys ?? ''));
  if (!parts.length) return { ok: false, error: 'No key was given.' };
  const mods: string[] = [];
  const mains: Array<{ name: string; def: KeyDef }> = [];
  for (const p of parts) {
    if (MODIFIERS[p]) { if (!mods.includes(p)) mods.push(p); continue; }
    const def = keyDef(p);
    if (!def) return { ok: false, error: `"${p}" is not a key this agent knows; keys are joined by "+", e.g. "Enter", "Control+a", "Shift+Tab", "PageDown".` };
    mains.push({ name: p, def });
  }
  const events: Record<string, unknown>[] = [];
  let bits = 0;
  for (const m of mods) {
    bits |= MODIFIER_BITS[m];
    events.push(event('rawKeyDown', MODIFIERS[m], bits));
  }
  const typing = (bits & ~MODIFIER_BITS.Shift) === 0;
  const shift = (bits & MODIFIER_BITS.Shift) !== 0;
  for (const { name, def } of mains) {
    const key = shift && def.shifted ? def.shifted : def.key;
    const text = typing ? (shift && def.shifted ? def.shifted : def.text) : undefined;
    const command = commandFor(name, bits);
    const down: Record<string, unknown> = {};
    if (text) { down.text = text; down.unmodifiedText = def.text ?? text; }
    if (command) down.commands = [command];
    const used = { ...def, key };
    events.push(event(text ? 'keyDown' : 'rawKeyDown', used, bits, down));
    events.push(event('keyUp', used, bits));
  }
  for (const m of [...mods].reverse()) {
    bits &= ~MODIFIER_BITS[m];
    events.push(event('keyUp', MODIFIERS[m], bits));
  }
  return { ok: true, events };
}
