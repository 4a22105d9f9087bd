/**
 * An action written as a UI-TARS call: `click(start_box='(x,y)')` with the point in the run's
 * convention (coords.ts), `hotkey(key='ctrl c')`, `type(content='…\n')` with Python escapes,
 * `scroll(start_box='(x,y)', direction='down')`, `wait()`, `finished(content='…')`. Actions this
 * grammar has no words for (another dialect's run) are described in brackets.
 */
import type { Action, Point } from '../../action/action';
import { toModel, type CoordinateSpace, type ShotGeometry } from '../../action/coords';
import { quotePython } from '../shared/call';
import { describeOther } from '../shared/describe';

/** Our key names as UI-TARS writes them (pyautogui's). */
const MODEL_KEY: Record<string, string> = {
  Control: 'ctrl', Shift: 'shift', Alt: 'alt', Meta: 'cmd', Enter: 'enter', Escape: 'esc', Tab: 'tab', Space: 'space',
  Backspace: 'backspace', Delete: 'delete', ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
  Home: 'home', End: 'end', PageUp: 'pageup', PageDown: 'pagedown', Insert: 'insert',
};

/** "Control+Shift+t" -> "ctrl shift t" (UI-TARS joins a hotkey's keys with spaces). */
export function modelKeys(keys: string): string {
  const parts = keys === '+' ? ['+'] : keys.endsWith('++') ? [...keys.slice(0, -2).split('+'), '+'] : keys.split('+');
  return parts.map((k) => MODEL_KEY[k] ?? (/^F\d{1,2}$/.test(k) ? k.toLowerCase() : k)).join(' ');
}

function box(p: Point, space: CoordinateSpace, shot: ShotGeometry): string {
  const [x, y] = toModel(p, space, shot);
  return `'(${x},${y})'`;
}

export function formatUiTarsAction(a: Action, space: CoordinateSpace, shot: ShotGeometry): string {
  switch (a.type) {
    case 'click': {
      if (a.target.kind !== 'point') break;
      const at = box(a.target, space, shot);
      if (a.count === 2) return a.button === 'left' ? `left_double(start_box=${at})` : describeOther(a);
      if (a.button === 'left') return `click(start_box=${at})`;
      if (a.button === 'right') return `right_single(start_box=${at})`;
      break;
    }
    case 'hover':
      if (a.target.kind === 'point') return `hover(start_box=${box(a.target, space, shot)})`;
      break;
    case 'drag':
      if (a.target.kind === 'point') return `drag(start_box=${box(a.target, space, shot)}, end_box=${box(a.to, space, shot)})`;
      break;
    case 'key': return `hotkey(key=${quotePython(modelKeys(a.keys))})`;
    case 'type':
      if (a.target.kind === 'none' && !a.clear) return `type(content=${quotePython(a.enter ? `${a.text}\n` : a.text)})`;
      break;
    case 'scroll':
      if (a.ticks === undefined && a.pixels === undefined && !a.until) {
        if (a.target.kind === 'point') return `scroll(start_box=${box(a.target, space, shot)}, direction='${a.direction}')`;
        if (a.target.kind === 'window') return `scroll(direction='${a.direction}')`;
      }
      break;
    case 'wait': return 'wait()';
    case 'finish':
      if (a.outcome === 'done') return a.text ? `finished(content=${quotePython(a.text)})` : 'finished()';
      break;
    default: break;
  }
  return describeOther(a);
}
