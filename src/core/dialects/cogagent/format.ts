/**
 * An action written as a CogAgent Grounded Operation, canonically: a point as the degenerate box
 * `[[x,y,x,y]]` with three-digit thousandths as the model writes them (`CLICK(box=[[086,500,086,500]])`),
 * strings as Python literals, keys in the Windows names of the action space (`Lcontrol`,
 * `Lmenu`, `Lshift`, `Return`, `Up`, letters upper case), a combination as a GESTURE. No
 * element_type / element_info (we do not know them). Reading the result back gives the same
 * action. Actions this grammar has no words for (another dialect's run) are described in
 * brackets, never written as something they are not.
 */
import type { Action, Point } from '../../action/action';
import { THOUSANDTHS, toModel, type ShotGeometry } from '../../action/coords';
import { describeOther } from '../shared/describe';
import { quotePython } from '../shared/call';

/** Our key names as CogAgent writes them on Windows (the platform the query names). */
const MODEL_KEY: Record<string, string> = {
  Control: 'Lcontrol', Shift: 'Lshift', Alt: 'Lmenu', Meta: 'Lwin', Enter: 'Return', Space: 'Space',
  ArrowUp: 'Up', ArrowDown: 'Down', ArrowLeft: 'Left', ArrowRight: 'Right',
};

/** "Control+Shift+t" -> ["Lcontrol", "Lshift", "T"]; "Control++" -> ["Lcontrol", "+"]. */
export function modelKeys(keys: string): string[] {
  const parts = keys === '+' ? ['+'] : keys.endsWith('++') ? [...keys.slice(0, -2).split('+'), '+'] : keys.split('+');
  return parts.map((k) => MODEL_KEY[k] ?? (k.length === 1 ? k.toUpperCase() : k));
}

const three = (v: number) => String(v).padStart(3, '0');

/** A point as the degenerate box "[[x,y,x,y]]". */
function pointBox(p: Point, shot: ShotGeometry): string {
  const [x, y] = toModel(p, THOUSANDTHS, shot);
  return `[[${three(x)},${three(y)},${three(x)},${three(y)}]]`;
}

function keyOperation(keys: string): string {
  const k = modelKeys(keys);
  if (k.length === 1) return `KEY_PRESS(key=${quotePython(k[0])})`;
  const held = k.slice(0, -1);
  const list = [
    ...held.map((h) => `KEY_DOWN(key=${quotePython(h)})`),
    `KEY_PRESS(key=${quotePython(k[k.length - 1])})`,
    ...[...held].reverse().map((h) => `KEY_UP(key=${quotePython(h)})`),
  ];
  return `GESTURE(actions=[${list.join(', ')}])`;
}

export function formatCogAction(a: Action, shot: ShotGeometry): string {
  switch (a.type) {
    case 'click': {
      if (a.target.kind !== 'point' || a.button === 'middle') break;
      const box = pointBox(a.target, shot);
      if (a.count === 2) return a.button === 'left' ? `DOUBLE_CLICK(box=${box})` : describeOther(a);
      return a.button === 'right' ? `RIGHT_CLICK(box=${box})` : `CLICK(box=${box})`;
    }
    case 'hover':
      if (a.target.kind === 'point') return `HOVER(box=${pointBox(a.target, shot)})`;
      break;
    case 'type':
      if (a.clear || a.enter) break;
      if (a.target.kind === 'point') return `TYPE(box=${pointBox(a.target, shot)}, text=${quotePython(a.text)})`;
      if (a.target.kind === 'none') return `TYPE(text=${quotePython(a.text)})`;
      break;
    case 'scroll': {
      if (a.ticks === undefined || a.until || a.pixels !== undefined) break;
      const op = `SCROLL_${a.direction.toUpperCase()}`;
      if (a.target.kind === 'point') return `${op}(box=${pointBox(a.target, shot)}, step_count=${a.ticks})`;
      if (a.target.kind === 'window') return `${op}(step_count=${a.ticks})`;
      break;
    }
    case 'key': return keyOperation(a.keys);
    case 'navigate': return `LAUNCH(app='None', url=${quotePython(a.url)})`;
    case 'openApp': return `LAUNCH(app=${quotePython(a.name)}, url='None')`;
    case 'quote': {
      const [x1, y1] = toModel({ x: a.box.x, y: a.box.y }, THOUSANDTHS, shot);
      const [x2, y2] = toModel({ x: a.box.x + a.box.width, y: a.box.y + a.box.height }, THOUSANDTHS, shot);
      const scroll = a.all ? ', auto_scroll=True' : '';
      return `QUOTE_TEXT(box=[[${three(x1)},${three(y1)},${three(x2)},${three(y2)}]]${scroll}, output=${quotePython(a.output)})`;
    }
    case 'llm': return `LLM(prompt=${quotePython(a.prompt)}, output=${quotePython(a.output)})`;
    case 'clipboard': return `QUOTE_CLIPBOARD(output=${quotePython(a.output)})`;
    case 'finish':
      if (a.outcome === 'done') return 'END()';
      break;
    default: break;
  }
  return describeOther(a);
}
