/**
 * One UI-TARS call read into the shared action model: `click(start_box='(x,y)')` and its kin,
 * leniently as its versions write them (a point or a box, in "(x,y)", "[x1, y1, x2, y2]",
 * `<|box_start|>…<|box_end|>`, `<point>x y</point>` or `<bbox>…</bbox>`; `point=` for
 * `start_box=`; hotkeys joined by spaces or "+"). A box acts at its centre, mapped with the shared
 * mapper in the run's convention (coords.ts).
 */
import type { Action, Direction, Target } from '../../action/action';
import { CLAMPED_NOTE, boxCentre, toCss, type CoordinateSpace, type ShotGeometry } from '../../action/coords';
import { argOf, readArgs, type Arg } from '../shared/call';
import { CALL_LIST, CALLS } from './template';

export type CallRead = { ok: true; action: Action; notes: string[]; asksPerson?: true } | { ok: false; error: string };

export const CALL_HELP = `Write one call of the action space (${CALL_LIST}), e.g. click(start_box='(100,200)').`;

/** A call as found in a reply: its name, arguments and text. */
export interface Call { name: string; args: Arg[]; text: string }

const CALL_START = new RegExp(String.raw`(?<![A-Za-z0-9_])(${CALLS.join('|')})[ \t]*\(`, 'i');

/** The first call of the action space in `text`, or null. */
export function findCall(text: string): Call | null {
  const m = CALL_START.exec(text);
  if (!m) return null;
  const r = readArgs(text, m.index + m[0].length);
  return { name: m[1].toLowerCase(), args: r.args, text: text.slice(m.index, r.end).trim() };
}

/** The numbers of a box or point value: 2 or 4 of them, else null. */
export function boxOf(value: string): number[] | null {
  const nums = value.replace(/<\|box_(?:start|end)\|>|<\/?(?:point|bbox)>/g, ' ').match(/-?\d+(?:\.\d+)?/g);
  return nums && (nums.length === 2 || nums.length === 4) ? nums.map(Number) : null;
}

function pointAt(arg: Arg | null, space: CoordinateSpace, shot: ShotGeometry, notes: string[]): Target | null | 'bad' {
  if (!arg || !arg.value.trim()) return null;
  const box = boxOf(arg.value);
  if (!box) return 'bad';
  const p = toCss(boxCentre(box), space, shot);
  if (p.clamped && !notes.includes(CLAMPED_NOTE)) notes.push(CLAMPED_NOTE);
  return { kind: 'point', x: p.x, y: p.y };
}

/** Key names as UI-TARS writes them (pyautogui's), to ours. */
const KEYS: Record<string, string> = {
  ctrl: 'Control', control: 'Control', shift: 'Shift', alt: 'Alt', option: 'Alt', cmd: 'Meta', command: 'Meta', meta: 'Meta',
  win: 'Meta', super: 'Meta', enter: 'Enter', return: 'Enter', esc: 'Escape', escape: 'Escape', tab: 'Tab', space: 'Space',
  backspace: 'Backspace', delete: 'Delete', del: 'Delete', up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight',
  arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight', home: 'Home', end: 'End',
  pageup: 'PageUp', pagedown: 'PageDown', insert: 'Insert',
};

/** "ctrl c", "ctrl+c", "Ctrl + Shift + T" -> "Control+c", "Control+Shift+t"; null when empty. */
export function ourKeys(value: string): string | null {
  const parts = value.trim().split(/\s*\+\s*|\s+/).filter(Boolean);
  if (!parts.length) return null;
  return parts.map((k) => KEYS[k.toLowerCase()] ?? (/^f\d{1,2}$/i.test(k) ? k.toUpperCase() : k.length === 1 ? k.toLowerCase() : k)).join('+');
}

const DIRECTIONS: readonly Direction[] = ['up', 'down', 'left', 'right'];

const bad = (name: string, what: string): CallRead => ({ ok: false, error: `${name}'s ${what}. ${CALL_HELP}` });

/** A call as an action; `thought` is what a call_user() or finished() without content reports. */
export function callToAction(call: Call, thought: string, space: CoordinateSpace, shot: ShotGeometry): CallRead {
  const notes: string[] = [];
  const start = pointAt(argOf(call.args, ['start_box', 'point', 'start_point'], 0), space, shot, notes);
  if (start === 'bad') return bad(call.name, "start_box must be a point '(x,y)' or a box '[x1, y1, x2, y2]'");
  const needsStart = (a: (t: Target) => Action): CallRead => (start ? { ok: true, action: a(start), notes } : bad(call.name, "start_box is missing"));
  switch (call.name) {
    case 'click':
    case 'left_single': return needsStart((target) => ({ type: 'click', target, button: 'left', count: 1 }));
    case 'left_double': return needsStart((target) => ({ type: 'click', target, button: 'left', count: 2 }));
    case 'right_single': return needsStart((target) => ({ type: 'click', target, button: 'right', count: 1 }));
    case 'hover': return needsStart((target) => ({ type: 'hover', target }));
    case 'drag':
    case 'select': {
      const end = pointAt(argOf(call.args, ['end_box', 'end_point'], 1), space, shot, notes);
      if (end === 'bad' || end === null || end.kind !== 'point') return bad(call.name, "end_box must be a point '(x,y)' or a box '[x1, y1, x2, y2]'");
      return needsStart((target) => ({ type: 'drag', target, to: { x: end.x, y: end.y } }));
    }
    case 'hotkey':
    case 'press': {
      const keys = ourKeys(argOf(call.args, ['key', 'keys', 'hotkey'], 0)?.value ?? '');
      return keys ? { ok: true, action: { type: 'key', keys }, notes } : bad(call.name, "key is empty (e.g. hotkey(key='ctrl c'))");
    }
    case 'type': {
      const content = argOf(call.args, ['content', 'text'], 0)?.value ?? '';
      // "\n" at the end submits (the action space's note); a real line break, or the two characters.
      const m = /(?:\n|\\n)+$/.exec(content);
      const text = m ? content.slice(0, m.index) : content;
      if (!text && !m) return bad(call.name, 'content is empty');
      return { ok: true, action: { type: 'type', target: { kind: 'none' }, text, clear: false, enter: !!m }, notes };
    }
    case 'scroll': {
      const d = (argOf(call.args, ['direction'], 1)?.value ?? '').trim().toLowerCase() as Direction;
      if (!DIRECTIONS.includes(d)) return bad(call.name, "direction must be 'up', 'down', 'left' or 'right'");
      return { ok: true, action: { type: 'scroll', target: start ?? { kind: 'window' }, direction: d }, notes };
    }
    case 'wait': return { ok: true, action: { type: 'wait' }, notes };
    case 'finished': {
      const content = argOf(call.args, ['content', 'text', 'answer'], 0)?.value.trim() ?? '';
      return { ok: true, action: { type: 'finish', outcome: 'done', text: content || thought }, notes };
    }
    case 'call_user':
      // The person is asked (the panel's approval card; the runner's prompt, or it stops); a wait
      // then gives the model a new screenshot of what they did.
      return { ok: true, action: { type: 'wait' }, notes, asksPerson: true };
    case 'error_env': return { ok: true, action: { type: 'finish', outcome: 'failed', text: thought || 'The model reported an error in its environment.' }, notes };
    default: return { ok: false, error: `There is no call ${call.name}. ${CALL_HELP}` };
  }
}
