/**
 * One GLM mobile action, read leniently: the JSON object of the seed's calling rules
 * (`{"action_type": "click", "box_2d": [[xmin,ymin,xmax,ymax]]}`), written with double quotes or
 * as a Python dict (single quotes, True/False/None), with trailing commas, bare keys or
 * full-width punctuation; `box_2d` as `[[x1,y1,x2,y2]]`, `[x1,y1,x2,y2]`, a point `[x,y]` or the
 * same as a string. The action acts at the box centre, rounded to whole thousandths (so
 * formatting a point as `[[x,y,x,y]]` and reading it again is exact) and mapped with the shared
 * mapper. Errors say what the model should write instead, with an example.
 */
import type { Action, Direction, Target } from '../../action/action';
import { CLAMPED_NOTE, THOUSANDTHS, boxCentre, toCss, type ShotGeometry } from '../../action/coords';

import { balancedSpan } from '../shared/reply-text';
import { repairJson, quoteBareKeys, isObject } from '../shared/json';
import { normalizeWidth } from '../shared/text';
import { boxNumbers, OPPOSITE, tryParse } from '../shared/box';

export type ActionRead = { ok: true; action: Action; notes: string[] } | { ok: false; error: string };

export const ACTION_TYPES = [
  'status', 'answer', 'click', 'long_press', 'input_text', 'keyboard_enter', 'navigate_home', 'navigate_back', 'swipe', 'open_app', 'wait',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const EXAMPLE = '{"action_type": "click", "box_2d": [[100,200,300,250]]}';

export const NOTE_OVERRIDE_DEFAULT = 'input_text had no "override" (true or false); the field was cleared before typing.';
export const NOTE_NO_TEXT_BOX = 'input_text had no "box_2d"; the text was typed into the focused field.';

/** Other names models use for an action_type (lower case, "_" for spaces and dashes). */
const ALIASES: Record<string, ActionType> = {
  tap: 'click', longpress: 'long_press', long_click: 'long_press', long_tap: 'long_press',
  type: 'input_text', enter: 'keyboard_enter', back: 'navigate_back', home: 'navigate_home',
  open: 'open_app', finish: 'status',
};

const fail = (error: string): ActionRead => ({ ok: false, error });

export type ObjectRead = { ok: true; value: Record<string, unknown>; end: number } | { ok: false; error: string };

/** The first JSON object in `text` (the Action section, or an action a person wrote). */
export function readObject(text: string): ObjectRead {
  const open = text.indexOf('{');
  if (open < 0) return { ok: false, error: `The action must be one JSON object, e.g. Action: ${EXAMPLE}` };
  let span = balancedSpan(text, open);
  if (span === null) {
    const close = text.lastIndexOf('}');
    if (close < open) return { ok: false, error: `The action JSON is not closed; write the whole object, e.g. Action: ${EXAMPLE}` };
    span = text.slice(open, close + 1);
  }
  let value: unknown;
  for (const candidate of [span, normalizeWidth(span)]) {
    value = tryParse(candidate);
    if (value === undefined) value = tryParse(repairJson(candidate));
    if (value === undefined) value = tryParse(quoteBareKeys(repairJson(candidate)));
    if (value !== undefined) break;
  }
  if (Array.isArray(value) && isObject(value[0])) value = value[0];
  if (!isObject(value)) {
    return { ok: false, error: `The action is not a valid JSON object; write it like ${EXAMPLE}` };
  }
  return { ok: true, value, end: open + span.length };
}

/** The object's fields by lower-case name. */
function fieldsOf(obj: Record<string, unknown>): Map<string, unknown> {
  const m = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) {
    const key = k.trim().toLowerCase();
    if (!m.has(key)) m.set(key, v);
  }
  return m;
}

function pick(f: Map<string, unknown>, ...names: string[]): unknown {
  for (const n of names) if (f.has(n) && f.get(n) !== undefined) return f.get(n);
  return undefined;
}

const BOX_FORM = '[[xmin,ymin,xmax,ymax]] (integers 0-999)';

/** The point a box or point value acts at (the box centre), or null when absent. */
function targetOf(v: unknown, shot: ShotGeometry, notes: string[], verb: string): Target | null | string {
  const nums = boxNumbers(v);
  if (nums === null) return null;
  if (nums === 'bad') return `${verb}'s "box_2d" must be ${BOX_FORM}, e.g. ${exampleOf(verb)}`;
  const [cx, cy] = boxCentre(nums);
  const p = toCss([Math.round(cx), Math.round(cy)], THOUSANDTHS, shot);
  if (p.clamped && !notes.includes(CLAMPED_NOTE)) notes.push(CLAMPED_NOTE);
  return { kind: 'point', x: p.x, y: p.y };
}

function exampleOf(verb: string): string {
  switch (verb) {
    case 'long_press': return '{"action_type": "long_press", "box_2d": [[100,200,300,250]]}';
    case 'input_text': return '{"action_type": "input_text", "text": "hello", "box_2d": [[100,200,900,250]], "override": true}';
    case 'swipe': return '{"action_type": "swipe", "direction": "up"}';
    case 'open_app': return '{"action_type": "open_app", "app_name": "<name>"}';
    case 'answer': return '{"action_type": "answer", "text": "<answer_text>"}';
    case 'status': return '{"action_type": "status", "goal_status": "complete"}';
    default: return EXAMPLE;
  }
}

function text(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

function bool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
  }
  return null;
}

/** The action_type as one of ACTION_TYPES, or null. */
export function typeOf(v: unknown): ActionType | null {
  if (typeof v !== 'string') return null;
  const t = v.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if ((ACTION_TYPES as readonly string[]).includes(t)) return t as ActionType;
  for (const k of [t, t.replace(/_/g, '')]) if (Object.hasOwn(ALIASES, k)) return ALIASES[k];
  return null;
}

/**
 * The action an object names. `reason`: the reply's Reason, the text of an infeasible status
 * (so the person learns why).
 */
export function readAction(obj: Record<string, unknown>, shot: ShotGeometry, reason: string): ActionRead {
  const f = fieldsOf(obj);
  // Function-call style ({"name": "click", "arguments": {...}}): the arguments are fields too.
  for (const inner of [f.get('arguments'), f.get('parameters'), f.get('args')]) {
    if (isObject(inner)) for (const [k, v] of fieldsOf(inner)) if (!f.has(k)) f.set(k, v);
  }
  const rawType = pick(f, 'action_type', 'action', 'type', 'name');
  if (rawType === undefined) return fail(`The action has no "action_type"; write e.g. ${EXAMPLE}`);
  const type = typeOf(rawType);
  if (!type) {
    const shown = (typeof rawType === 'string' ? rawType : JSON.stringify(rawType) ?? '').slice(0, 40);
    return fail(`Unknown action_type '${shown}'. Use one of: ${ACTION_TYPES.join(', ')}; e.g. ${EXAMPLE}`);
  }
  const notes: string[] = [];
  const ok = (action: Action): ActionRead => ({ ok: true, action, notes });
  const box = pick(f, 'box_2d', 'box', 'bbox', 'point', 'coordinate');

  switch (type) {
    case 'click':
    case 'long_press': {
      const t = targetOf(box, shot, notes, type);
      if (typeof t === 'string') return fail(t);
      if (t === null) return fail(`${type} needs "box_2d": ${BOX_FORM}, e.g. ${exampleOf(type)}`);
      return ok(type === 'click' ? { type: 'click', target: t, button: 'left', count: 1 } : { type: 'press', target: t });
    }
    case 'input_text': {
      const s = text(pick(f, 'text', 'content', 'value'));
      if (s === null) return fail(`input_text needs "text", e.g. ${exampleOf(type)}`);
      const t = targetOf(box, shot, notes, type);
      if (typeof t === 'string') return fail(t);
      if (t === null) notes.push(NOTE_NO_TEXT_BOX);
      // The seed requires override. When it is missing the field is cleared: typing into a field
      // that already holds text almost always means replacing it (the seed's notes tell the model
      // to delete default text first), and it is what the web grammar's Type does.
      let clear = bool(pick(f, 'override', 'clear'));
      if (clear === null) {
        clear = true;
        notes.push(NOTE_OVERRIDE_DEFAULT);
      }
      return ok({ type: 'type', target: t ?? { kind: 'none' }, text: s, clear, enter: true });
    }
    case 'keyboard_enter': return ok({ type: 'key', keys: 'Enter' });
    case 'navigate_home': return ok({ type: 'goHome' });
    case 'navigate_back': return ok({ type: 'goBack' });
    case 'wait': return ok({ type: 'wait' });
    case 'swipe': {
      const d = text(pick(f, 'direction'))?.trim().toLowerCase() ?? '';
      if (!Object.hasOwn(OPPOSITE, d)) return fail(`swipe needs "direction": "up", "down", "left" or "right" (the finger's direction), e.g. ${exampleOf(type)}`);
      const t = targetOf(box, shot, notes, type);
      if (typeof t === 'string') return fail(t);
      return ok({ type: 'scroll', target: t ?? { kind: 'window' }, direction: OPPOSITE[d as Direction] });
    }
    case 'open_app': {
      const name = text(pick(f, 'app_name', 'app', 'name'))?.trim() ?? '';
      if (!name) return fail(`open_app needs "app_name", one of the supported apps, e.g. ${exampleOf(type)}`);
      return ok({ type: 'openApp', name });
    }
    case 'answer': {
      const s = text(pick(f, 'text', 'answer', 'content'));
      if (s === null || s.trim() === '') return fail(`answer needs "text", e.g. ${exampleOf(type)}`);
      return ok({ type: 'reply', text: s.trim() });
    }
    case 'status': {
      const g = text(pick(f, 'goal_status', 'status'))?.trim().toLowerCase() ?? '';
      if (['complete', 'completed', 'done', 'success', 'successful'].includes(g)) return ok({ type: 'finish', outcome: 'done', text: '' });
      if (['infeasible', 'impossible', 'failed', 'fail', 'failure'].includes(g)) return ok({ type: 'finish', outcome: 'failed', text: reason.trim() });
      return fail(`status needs "goal_status": "complete" or "infeasible", e.g. ${exampleOf(type)}`);
    }
  }
}
