/**
 * A GLM-4.5V computer call (call.ts) to the shared Action model. Points are thousandths of the
 * screenshot (0–999) and go through the one mapper (coords.ts); a box [x1,y1,x2,y2] where a
 * point was asked acts at its centre.
 */
import type { Action, Direction, Point } from '../../action/action';
import { boxCentre, CLAMPED_NOTE, THOUSANDTHS, toCss, type ShotGeometry } from '../../action/coords';
import { normalizeKeys, unknownKeyIn } from '../../action/keys';
import type { ActionParse } from '../types';

import { FUNCTION_LIST, type Call } from './call';
import { argOf, type Arg } from '../shared/call';
import { normalizeWidth } from '../shared/text';

/** The wheel notches of a scroll without `step` (the action space's default). */
export const DEFAULT_STEP = 5;

const EXAMPLE = "left_click(start_box='[500,300]', element_info='OK button')";

/** How to write a call, for error messages. */
export const CALL_HELP = `Write exactly one call from the action space (${FUNCTION_LIST}), e.g. ${EXAMPLE}`;

const START = ['start_box', 'box', 'start', 'point', 'start_point', 'coordinate', 'coordinates', 'position', 'startbox'];
const END = ['end_box', 'end', 'end_point', 'endbox', 'to'];

type PointRead = { ok: true; point: Point; clamped: boolean } | { ok: false; error: string };

/** The numbers of a box value: "[586, 446]", "[[586,446]]", "(586,446)", "586 446", "［586，446］". */
function numbersOf(value: string): number[] {
  const s = normalizeWidth(value).slice(0, 200);
  return (s.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number).filter(Number.isFinite);
}

function readPoint(arg: Arg | null, fn: string, param: string, shot: ShotGeometry): PointRead {
  const example = param === 'end_box'
    ? "left_drag(start_box='[200,300]', end_box='[600,300]')"
    : `${fn}(start_box='[500,300]')`;
  if (!arg || arg.value.trim() === '') return { ok: false, error: `${fn} needs ${param}, a point '[x,y]' in thousandths (0-999), e.g. ${example}` };
  const n = numbersOf(arg.value);
  if (n.length !== 2 && n.length !== 4) {
    return { ok: false, error: `${param} must be a point '[x,y]' of two integers from 0 to 999, e.g. ${example}` };
  }
  const m = toCss(boxCentre(n) as [number, number], THOUSANDTHS, shot);
  return { ok: true, point: { x: m.x, y: m.y }, clamped: m.clamped };
}

function ok(action: Action, clamped: boolean): ActionParse {
  return { ok: true, action, notes: clamped ? [CLAMPED_NOTE] : [] };
}

/** A keys value: "ctrl+c", or a list "['ctrl', 'c']". */
function keysValue(arg: Arg): string {
  const v = arg.value.trim();
  if (!arg.quoted && /^\[.*\]$/s.test(v)) {
    const items = [...v.slice(1, -1).matchAll(/'([^']*)'|"([^"]*)"|([^,\s'"]+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    if (items.length) return items.join('+');
  }
  return arg.value;
}

function direction(arg: Arg | null): Direction | null {
  const v = (arg?.value ?? '').trim().toLowerCase().replace(/wards?$/, '');
  return v === 'up' || v === 'down' || v === 'left' || v === 'right' ? v : null;
}

function steps(arg: Arg | null): number {
  if (!arg) return DEFAULT_STEP;
  const n = Number(normalizeWidth(arg.value).trim());
  if (!Number.isFinite(n)) return DEFAULT_STEP;
  return Math.min(Math.max(Math.round(n), 1), 100);
}

/**
 * The action of a call. `explanation`: the reply's text around it (DONE's and FAIL's text).
 * Never throws.
 */
export function callToAction(call: Call, explanation: string, shot: ShotGeometry): ActionParse {
  const { args } = call;
  const fn = call.name;
  switch (fn) {
    case 'left_click':
    case 'right_click':
    case 'middle_click':
    case 'left_double_click':
    case 'hover': {
      const p = readPoint(argOf(args, START, 0), fn, 'start_box', shot);
      if (!p.ok) return p;
      const target = { kind: 'point' as const, ...p.point };
      if (fn === 'hover') return ok({ type: 'hover', target }, p.clamped);
      const button = fn === 'right_click' ? 'right' : fn === 'middle_click' ? 'middle' : 'left';
      return ok({ type: 'click', target, button, count: fn === 'left_double_click' ? 2 : 1 }, p.clamped);
    }
    case 'left_drag': {
      const from = readPoint(argOf(args, START, 0), fn, 'start_box', shot);
      if (!from.ok) return from;
      const to = readPoint(argOf(args, END, 1), fn, 'end_box', shot);
      if (!to.ok) return to;
      return ok({ type: 'drag', target: { kind: 'point', ...from.point }, to: to.point }, from.clamped || to.clamped);
    }
    case 'key': {
      const arg = argOf(args, ['keys', 'key', 'hotkey', 'combination'], 0);
      if (!arg || arg.value === '') return { ok: false, error: "key needs keys, e.g. key(keys='ctrl+c') or key(keys='enter')" };
      const written = keysValue(arg);
      const keys = normalizeKeys(written);
      if (keys === null) {
        const bad = unknownKeyIn(written) ?? written;
        return { ok: false, error: `key: '${bad.slice(0, 40)}' is not a key name; write keys joined by '+', e.g. key(keys='ctrl+c'), key(keys='enter'), key(keys='pagedown')` };
      }
      return ok({ type: 'key', keys }, false);
    }
    case 'type': {
      const arg = argOf(args, ['content', 'text', 'value', 'string'], 0);
      if (!arg) return { ok: false, error: "type needs content, e.g. type(content='hello')" };
      return ok({ type: 'type', target: { kind: 'none' }, text: arg.value, clear: false, enter: false }, false);
    }
    case 'scroll': {
      const dirArg = argOf(args, ['direction', 'dir'], 1);
      const dir = direction(dirArg) ?? direction(args.find((a) => a.name === null && direction(a) !== null) ?? null);
      if (!dir) return { ok: false, error: "scroll needs direction='down' or direction='up', e.g. scroll(start_box='[500,500]', direction='down', step=5)" };
      const ticks = steps(argOf(args, ['step', 'steps', 'amount', 'clicks'], 2));
      const boxArg = argOf(args, START, null) ?? args.find((a) => a.name === null && /\d/.test(a.value) && /[[(［（,，\s]/.test(a.value.trim())) ?? null;
      if (!boxArg) return ok({ type: 'scroll', target: { kind: 'window' }, direction: dir, ticks }, false);
      const p = readPoint(boxArg, fn, 'start_box', shot);
      if (!p.ok) return p;
      return ok({ type: 'scroll', target: { kind: 'point', ...p.point }, direction: dir, ticks }, p.clamped);
    }
    case 'wait': return ok({ type: 'wait' }, false);
    case 'done': return ok({ type: 'finish', outcome: 'done', text: explanation }, false);
    case 'fail': return ok({ type: 'finish', outcome: 'failed', text: explanation }, false);
  }
}
