/**
 * An action written in AppAgent's grammar: `tap(N)`, `text("…")`, `long_press(N)`,
 * `swipe(N, "up", "medium")`, `FINISH`, with N = label + 1 (tags count from 1). The text is a JSON
 * string (double quotes, escapes), which the parser reads back exactly. What the grammar has no
 * words for (a point, a double click, typing into a named field or pressing Enter, a scroll that
 * is not one of the three swipe distances, going back, a failed finish…) is described in brackets
 * (describe.ts, a label as its tag), never written as something it is not.
 */
import { withTarget, type Action } from '../../action/action';
import type { ShotGeometry } from '../../action/coords';
import { describeOther } from '../shared/describe';

import { distanceOf } from './action';
import { OPPOSITE } from '../shared/box';

export function formatAppAgentAction(a: Action, shot: ShotGeometry): string {
  switch (a.type) {
    case 'click':
      if (a.target.kind === 'label' && a.button === 'left' && a.count === 1) return `tap(${a.target.label + 1})`;
      break;
    case 'press':
      if (a.target.kind === 'label') return `long_press(${a.target.label + 1})`;
      break;
    case 'type':
      if (a.target.kind === 'none' && !a.clear && !a.enter && a.text) return `text(${JSON.stringify(a.text)})`;
      break;
    case 'scroll': {
      if (a.target.kind !== 'label' || a.pixels === undefined || a.ticks !== undefined || a.until) break;
      const finger = OPPOSITE[a.direction]; // the finger moves against the content
      const dist = distanceOf(finger, a.pixels, shot);
      if (dist) return `swipe(${a.target.label + 1}, "${finger}", "${dist}")`;
      break;
    }
    case 'finish':
      if (a.outcome === 'done') return 'FINISH';
      break;
    default: break;
  }
  // a label in the description is written as its tag too, so the model reads the number it saw
  const t = 'target' in a ? a.target : null;
  return describeOther(t?.kind === 'label' ? withTarget(a, { kind: 'label', label: t.label + 1 }) : a);
}
