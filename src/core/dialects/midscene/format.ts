/**
 * An action written as a planner action object, e.g.
 * `{"type": "Tap", "locate": {"bbox": [500, 320, 500, 320], "prompt": ""}}`. A point is written as
 * a degenerate box in the endpoint's convention (via the shared toModel): its centre is the point,
 * so reading it again gives back the same action. The run's end is `null` (the planner's "no
 * action"). Anything the grammar has no words for (a double or middle click, a drag, typing that
 * presses Enter or keeps the field's text, wheel ticks...) is described, never written as
 * something it is not.
 */
import type { Action, Target } from '../../action/action';
import { spaceOfBbox, type BboxConvention } from '../../action/bbox';
import { toModel, type ShotGeometry } from '../../action/coords';
import { describeOther } from '../shared/describe';

function locate(t: Target, shot: ShotGeometry, bbox: BboxConvention | undefined): string | null {
  if (t.kind === 'window' || t.kind === 'none') return 'null';
  if (t.kind !== 'point') return null;
  const [a, b] = toModel(t, spaceOfBbox(bbox), shot);
  return `{"bbox": [${a}, ${b}, ${a}, ${b}], "prompt": ""}`;
}

const SCROLL_TYPE = { down: 'untilBottom', up: 'untilTop', left: 'untilLeft', right: 'untilRight' } as const;

export function formatMidsceneAction(a: Action, shot: ShotGeometry, bbox?: BboxConvention): string {
  const obj = (type: string, loc: string | null, param?: string) =>
    `{"type": "${type}"${loc === null ? '' : `, "locate": ${loc}`}${param ? `, "param": ${param}` : ''}}`;
  switch (a.type) {
    case 'click': {
      const loc = a.target.kind === 'point' ? locate(a.target, shot, bbox) : null;
      if (loc && a.count === 1 && a.button !== 'middle') return obj(a.button === 'left' ? 'Tap' : 'RightClick', loc);
      break;
    }
    case 'hover': {
      const loc = a.target.kind === 'point' ? locate(a.target, shot, bbox) : null;
      if (loc) return obj('Hover', loc);
      break;
    }
    case 'type': {
      if (a.enter || !a.clear || a.target.kind === 'label' || a.target.kind === 'window') break;
      return obj('Input', locate(a.target, shot, bbox), `{"value": ${JSON.stringify(a.text)}}`);
    }
    case 'key': return obj('KeyboardPress', null, `{"value": ${JSON.stringify(a.keys)}}`);
    case 'scroll': {
      if (a.ticks !== undefined || a.target.kind === 'label' || a.target.kind === 'none') break;
      const loc = locate(a.target, shot, bbox);
      if (a.until) return obj('Scroll', loc, `{"direction": "${a.direction}", "scrollType": "${SCROLL_TYPE[a.direction]}", "distance": null}`);
      return obj('Scroll', loc, `{"direction": "${a.direction}", "scrollType": "once", "distance": ${a.pixels ?? null}}`);
    }
    case 'finish':
      if (a.outcome === 'done') return 'null';
      break;
    default: break;
  }
  return describeOther(a);
}
