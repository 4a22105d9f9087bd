/**
 * An action written in the GLM mobile grammar: one JSON object per the seed's calling rules,
 * double quotes, keys in the calling rule's order, boxes written like the rules write them
 * (`[[xmin,ymin,xmax,ymax]]`, no spaces), e.g. `{"action_type": "click", "box_2d": [[500,320,500,320]]}`.
 *
 * A point is written as a degenerate box `[[x,y,x,y]]` (thousandths, via the shared toModel):
 * its centre is the point itself, so formatting and parsing again gives back exactly the same
 * action (the parser rounds a box centre to whole thousandths, see action.ts). Actions this
 * grammar has no words for (a label target, a double or right click, ticks, a drag, another
 * key...) are described with describeOther, never written as something they are not.
 *
 * The prompt's history shows actions as Python dict reprs, as the seed's example does
 * (`{'action_type': 'open_app', 'app_name': 'Broccoli'}`): pythonDictOf re-renders one.
 */
import type { Action, Target } from '../../action/action';
import { THOUSANDTHS, toModel, type ShotGeometry } from '../../action/coords';
import { describeOther } from '../shared/describe';
import { OPPOSITE } from '../shared/box';

type Value = string | number | boolean | number[][];

/** `{"k": v, ...}` with JSON strings; number lists without spaces, as the calling rules write them. */
function jsonObject(entries: Array<[string, Value]>): string {
  const value = (v: Value): string =>
    Array.isArray(v) ? `[${v.map((row) => `[${row.join(',')}]`).join(',')}]` : JSON.stringify(v);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${value(v)}`).join(', ')}}`;
}

/** A point target as `[[x,y,x,y]]` in thousandths; null for any other target. */
function boxOf(t: Target, shot: ShotGeometry): number[][] | null {
  if (t.kind !== 'point') return null;
  const [x, y] = toModel(t, THOUSANDTHS, shot);
  return [[x, y, x, y]];
}

export function formatMobileAction(a: Action, shot: ShotGeometry): string {
  switch (a.type) {
    case 'click': {
      const box = boxOf(a.target, shot);
      if (box && a.button === 'left' && a.count === 1) return jsonObject([['action_type', 'click'], ['box_2d', box]]);
      break;
    }
    case 'press': {
      const box = boxOf(a.target, shot);
      if (box) return jsonObject([['action_type', 'long_press'], ['box_2d', box]]);
      break;
    }
    case 'type': {
      if (!a.enter) break; // input_text always presses Enter
      if (a.target.kind === 'none') return jsonObject([['action_type', 'input_text'], ['text', a.text], ['override', a.clear]]);
      const box = boxOf(a.target, shot);
      if (box) return jsonObject([['action_type', 'input_text'], ['text', a.text], ['box_2d', box], ['override', a.clear]]);
      break;
    }
    case 'scroll': {
      if (a.ticks !== undefined) break; // a swipe has no length
      const finger = OPPOSITE[a.direction]; // the finger moves against the content
      if (a.target.kind === 'window') return jsonObject([['action_type', 'swipe'], ['direction', finger]]);
      const box = boxOf(a.target, shot);
      if (box) return jsonObject([['action_type', 'swipe'], ['direction', finger], ['box_2d', box]]);
      break;
    }
    case 'key':
      if (a.keys === 'Enter') return jsonObject([['action_type', 'keyboard_enter']]);
      break;
    case 'goBack': return jsonObject([['action_type', 'navigate_back']]);
    case 'goHome': return jsonObject([['action_type', 'navigate_home']]);
    case 'wait': return jsonObject([['action_type', 'wait']]);
    case 'openApp': return jsonObject([['action_type', 'open_app'], ['app_name', a.name]]);
    case 'reply': return jsonObject([['action_type', 'answer'], ['text', a.text]]);
    case 'finish':
      return jsonObject([['action_type', 'status'], ['goal_status', a.outcome === 'done' ? 'complete' : 'infeasible']]);
    default: break;
  }
  return describeOther(a);
}

/** Python's repr() of a str: single quotes unless the text has ' and no ", escapes as Python writes them. */
export function pythonStr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += '\\' + q;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || (c >= 0x7f && c <= 0xa0)) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + q;
}

/** Python's repr() of a JSON value (dict, list, str, int, bool, None). */
export function pythonRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'None';
  if (typeof v === 'string') return pythonStr(v);
  if (Array.isArray(v)) return `[${v.map(pythonRepr).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pythonStr(k)}: ${pythonRepr(x)}`).join(', ')}}`;
  }
  return pythonStr(String(v));
}

/**
 * An action as the prompt's history shows it: this grammar's JSON re-rendered as a Python dict
 * (`{'action_type': 'open_app', 'app_name': 'Broccoli'}`); anything else (a describeOther
 * description, an empty action) as it is.
 */
export function pythonDictOf(actionText: string): string {
  const s = String(actionText ?? '').trim();
  if (!s.startsWith('{')) return s;
  try {
    const v: unknown = JSON.parse(s);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? pythonRepr(v) : s;
  } catch {
    return s;
  }
}
