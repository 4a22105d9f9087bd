/**
 * An action written as a GLM-4.5V computer call, canonically: `left_click(start_box='[x, y]')`
 * (the point in thousandths, ", " as in the seed's example; no element_info, which we do not
 * know), `key(keys='ctrl+c')`, `type(content='…')` with Python escapes, `scroll(start_box='[x, y]',
 * direction='down', step=5)`, `WAIT()`, `DONE()`, `FAIL()`. Actions this grammar has no words for
 * (another dialect's run) are described in brackets, never written as something they are not.
 */
import type { Action, Point } from '../../action/action';
import { THOUSANDTHS, toModel, type ShotGeometry } from '../../action/coords';
import { describeOther } from '../shared/describe';
import { quotePython } from '../shared/call';

/** Our key names as xdotool / pyautogui write them on Ubuntu (what the model was tuned with). */
const MODEL_KEY: Record<string, string> = {
  Control: 'ctrl', Shift: 'shift', Alt: 'alt', Meta: 'super', Enter: 'enter', Tab: 'tab', Escape: 'esc',
  Backspace: 'backspace', Delete: 'delete', ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
  Home: 'home', End: 'end', PageUp: 'pageup', PageDown: 'pagedown', Space: 'space',
};

/** "Control+Shift+t" -> "ctrl+shift+t"; "Control++" -> "ctrl++". */
export function modelKeys(keys: string): string {
  const parts = keys === '+' ? ['+'] : keys.endsWith('++') ? [...keys.slice(0, -2).split('+'), '+'] : keys.split('+');
  return parts.map((k) => MODEL_KEY[k] ?? (/^F\d{1,2}$/.test(k) ? k.toLowerCase() : k)).join('+');
}

function box(p: Point, shot: ShotGeometry): string {
  const [x, y] = toModel(p, THOUSANDTHS, shot);
  return `'[${x}, ${y}]'`;
}

export function formatPcAction(a: Action, shot: ShotGeometry): string {
  switch (a.type) {
    case 'click': {
      if (a.target.kind !== 'point') break;
      const at = box(a.target, shot);
      if (a.count === 2) {
        if (a.button === 'left') return `left_double_click(start_box=${at})`;
        break;
      }
      return `${a.button}_click(start_box=${at})`;
    }
    case 'hover':
      if (a.target.kind === 'point') return `hover(start_box=${box(a.target, shot)})`;
      break;
    case 'drag':
      if (a.target.kind === 'point') return `left_drag(start_box=${box(a.target, shot)}, end_box=${box(a.to, shot)})`;
      break;
    case 'key': return `key(keys=${quotePython(modelKeys(a.keys))})`;
    case 'type':
      if (a.target.kind === 'none' && !a.clear && !a.enter) return `type(content=${quotePython(a.text)})`;
      break;
    case 'scroll':
      if (a.target.kind === 'point' && a.ticks !== undefined) {
        return `scroll(start_box=${box(a.target, shot)}, direction='${a.direction}', step=${a.ticks})`;
      }
      break;
    case 'wait': return 'WAIT()';
    case 'finish': return a.outcome === 'done' ? 'DONE()' : 'FAIL()';
    default: break;
  }
  return describeOther(a);
}
