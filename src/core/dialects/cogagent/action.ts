/**
 * A CogAgent Grounded Operation (operation.ts) to the shared Action model. Boxes are
 * `[[a,b,c,d]]` in thousandths of the screenshot (000–999, often with leading zeros); an
 * operation acts at the box's centre, rounded to whole thousandths (so writing the point back
 * as a box and reading it again gives the same point), mapped by the one mapper (coords.ts).
 * `element_type`, `element_info` and `result=` are not used: we compute the real values.
 */
import type { Action, Box, Direction, Point } from '../../action/action';
import { CLAMPED_NOTE, THOUSANDTHS, toCss, type ShotGeometry } from '../../action/coords';
import { normalizeKeys, unknownKeyIn } from '../../action/keys';

import type { ActionParse } from '../types';
import { isNone, isTrue, numbersOf, OPERATION_LIST, type Operation } from './operation';
import { argOf, type Arg } from '../shared/call';
import { normalizeWidth } from '../shared/text';

/** Wheel notches of a scroll that gives no step_count (the action space's example uses 5). */
export const DEFAULT_STEPS = 5;

/** A run variable's name as CogAgent writes it: `__CogName_` + word characters + `__`. */
export const VARIABLE = /__CogName_\w+?__/g;
const WHOLE_VARIABLE = /^__CogName_\w+?__$/;

const EXAMPLE = "CLICK(box=[[387,248,727,317]], element_info='Search')";

/** How to write an operation, for error messages. */
export const OPERATION_HELP = `Write one operation of the action space (${OPERATION_LIST}), e.g. ${EXAMPLE}`;

type PointRead = { ok: true; point: Point; corners: [Point, Point]; clamped: boolean } | { ok: false; error: string };

function readBox(arg: Arg | null, op: string, shot: ShotGeometry): PointRead {
  const example = `${op}(box=[[387,248,727,317]]${op === 'TYPE' ? ", text='CogAgent'" : ''})`;
  if (!arg || arg.value.trim() === '') return { ok: false, error: `${op} needs box=[[x1,y1,x2,y2]] in thousandths of the screenshot (000-999), e.g. ${example}` };
  const n = numbersOf(arg.value);
  if (n.length !== 4 && n.length !== 2) return { ok: false, error: `box must be [[x1,y1,x2,y2]], four integers from 000 to 999, e.g. ${example}` };
  const [a, b, c, d] = n.length === 4 ? n : [n[0], n[1], n[0], n[1]];
  const centre = toCss([Math.round((a + c) / 2), Math.round((b + d) / 2)], THOUSANDTHS, shot);
  const p1 = toCss([a, b], THOUSANDTHS, shot);
  const p2 = toCss([c, d], THOUSANDTHS, shot);
  return {
    ok: true,
    point: { x: centre.x, y: centre.y },
    corners: [{ x: p1.x, y: p1.y }, { x: p2.x, y: p2.y }],
    clamped: centre.clamped || p1.clamped || p2.clamped,
  };
}

function ok(action: Action, clamped = false): ActionParse {
  return { ok: true, action, notes: clamped ? [CLAMPED_NOTE] : [] };
}

/** A box in CSS px from its two corners (in either order). */
function cssBox([p, q]: [Point, Point]): Box {
  const x = Math.min(p.x, q.x);
  const y = Math.min(p.y, q.y);
  return { x, y, width: Math.abs(q.x - p.x), height: Math.abs(q.y - p.y) };
}

function steps(arg: Arg | null): number {
  if (!arg) return DEFAULT_STEPS;
  const n = Number(normalizeWidth(arg.value).trim());
  if (!Number.isFinite(n)) return DEFAULT_STEPS;
  return Math.min(Math.max(Math.round(n), 1), 100);
}

/** LAUNCH's url as the browser needs it: https:// added when no scheme is written. */
export function launchUrl(url: string): string {
  const u = url.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(u) || /^about:/i.test(u)) return u;
  return `https://${u.replace(/^\/+/, '')}`;
}

/** An output variable: `__CogName_…__`, else an error telling the form. */
function output(args: Arg[], op: string, example: string): { ok: true; name: string } | { ok: false; error: string } {
  const arg = argOf(args, ['output', 'out', 'variable'], null);
  const name = arg?.value.trim() ?? '';
  if (!WHOLE_VARIABLE.test(name)) {
    return { ok: false, error: `${op} needs output='__CogName_Name__', the variable to store the result in (letters, digits and _), e.g. ${example}` };
  }
  return { ok: true, name };
}

/** The keys a GESTURE list presses together: held KEY_DOWN keys plus the KEY_PRESS key ("Control+f"). */
function gestureKeys(list: string): { ok: true; keys: string } | { ok: false; error: string } {
  const help = "GESTURE needs actions=[KEY_DOWN(key='Lcontrol'), KEY_PRESS(key='F'), KEY_UP(key='Lcontrol')]: keys held down, one key pressed, then released";
  const items = [...list.slice(0, 2000).matchAll(/(KEY_DOWN|KEY_PRESS|KEY_UP)[ \t]*[(（][ \t]*(?:key[ \t]*[=＝][ \t]*)?(?:'([^']*)'|"([^"]*)"|([^)'",\s]+))[ \t]*[)）]/gi)]
    .map((m) => ({ kind: m[1].toUpperCase(), key: m[2] ?? m[3] ?? m[4] ?? '' }));
  if (!items.length) return { ok: false, error: help };
  const held: string[] = [];
  const pressed: string[][] = [];
  for (const it of items) {
    if (it.kind === 'KEY_DOWN') held.push(it.key);
    else if (it.kind === 'KEY_UP') {
      const i = held.lastIndexOf(it.key);
      if (i >= 0) held.splice(i, 1);
    } else pressed.push([...held, it.key]);
  }
  if (pressed.length > 1) return { ok: false, error: `GESTURE presses one key combination per step; ${help}` };
  // no KEY_PRESS: the keys held down together are the combination ([KEY_DOWN ctrl, KEY_DOWN f, KEY_UP …])
  const chord = pressed[0] ?? items.filter((i) => i.kind === 'KEY_DOWN').map((i) => i.key);
  const written = [...new Set(chord)].join('+');
  const keys = normalizeKeys(written);
  if (keys === null) return { ok: false, error: `GESTURE: '${(unknownKeyIn(written) ?? written).slice(0, 40)}' is not a key name; ${help}` };
  return { ok: true, keys };
}

/**
 * The action of an operation. `sentence`: the reply's Action sentence (END's text: for a
 * question it is the run's answer). Never throws.
 */
export function operationToAction(op: Operation, sentence: string, shot: ShotGeometry): ActionParse {
  const { args } = op;
  const name = op.name;
  if (name === null) return { ok: false, error: `Unknown operation '${op.written.slice(0, 40)}'. ${OPERATION_HELP}` };
  switch (name) {
    case 'CLICK':
    case 'DOUBLE_CLICK':
    case 'RIGHT_CLICK':
    case 'HOVER': {
      const p = readBox(argOf(args, ['box', 'bbox'], 0), name, shot);
      if (!p.ok) return p;
      const target = { kind: 'point' as const, ...p.point };
      if (name === 'HOVER') return ok({ type: 'hover', target }, p.clamped);
      return ok({ type: 'click', target, button: name === 'RIGHT_CLICK' ? 'right' : 'left', count: name === 'DOUBLE_CLICK' ? 2 : 1 }, p.clamped);
    }
    case 'TYPE': {
      const text = argOf(args, ['text', 'content', 'value'], null);
      if (!text) return { ok: false, error: "TYPE needs text, e.g. TYPE(box=[[387,249,727,317]], text='CogAgent', element_info='Search')" };
      const boxArg = argOf(args, ['box', 'bbox'], 0);
      if (!boxArg) return ok({ type: 'type', target: { kind: 'none' }, text: text.value, clear: false, enter: false });
      const p = readBox(boxArg, name, shot);
      if (!p.ok) return p;
      return ok({ type: 'type', target: { kind: 'point', ...p.point }, text: text.value, clear: false, enter: false }, p.clamped);
    }
    case 'SCROLL_UP':
    case 'SCROLL_DOWN':
    case 'SCROLL_LEFT':
    case 'SCROLL_RIGHT': {
      const direction = name.slice('SCROLL_'.length).toLowerCase() as Direction;
      const ticks = steps(argOf(args, ['step_count', 'steps', 'step', 'count'], null));
      const boxArg = argOf(args, ['box', 'bbox'], 0);
      if (!boxArg) return ok({ type: 'scroll', target: { kind: 'window' }, direction, ticks });
      const p = readBox(boxArg, name, shot);
      if (!p.ok) return p;
      return ok({ type: 'scroll', target: { kind: 'point', ...p.point }, direction, ticks }, p.clamped);
    }
    case 'KEY_PRESS': {
      const arg = argOf(args, ['key', 'keys'], 0);
      if (!arg || arg.value.trim() === '') return { ok: false, error: "KEY_PRESS needs key, e.g. KEY_PRESS(key='Return')" };
      const keys = normalizeKeys(arg.value);
      if (keys === null) {
        return { ok: false, error: `KEY_PRESS: '${(unknownKeyIn(arg.value) ?? arg.value).slice(0, 40)}' is not a key name, e.g. KEY_PRESS(key='Return'); for a combination write GESTURE(actions=[KEY_DOWN(key='Lcontrol'), KEY_PRESS(key='F'), KEY_UP(key='Lcontrol')])` };
      }
      return ok({ type: 'key', keys });
    }
    case 'GESTURE': {
      const arg = argOf(args, ['actions'], 0);
      const g = gestureKeys(arg?.value ?? '');
      if (!g.ok) return g;
      return ok({ type: 'key', keys: g.keys });
    }
    case 'LAUNCH': {
      const url = argOf(args, ['url', 'link'], 1);
      if (!isNone(url)) return ok({ type: 'navigate', url: launchUrl(url!.value) });
      const app = argOf(args, ['app', 'app_name', 'name'], 0);
      if (!isNone(app)) return ok({ type: 'openApp', name: app!.value.trim() });
      return { ok: false, error: "LAUNCH needs url or app, e.g. LAUNCH(app='None', url='baidu.com') or LAUNCH(app='Settings', url='None')" };
    }
    case 'QUOTE_TEXT': {
      const example = "QUOTE_TEXT(box=[[387,249,727,317]], element_info='Price', output='__CogName_ProductPrice__')";
      const p = readBox(argOf(args, ['box', 'bbox'], 0), name, shot);
      if (!p.ok) return p;
      const out = output(args, name, example);
      if (!out.ok) return out;
      const all = isTrue(argOf(args, ['auto_scroll', 'autoscroll'], null));
      return ok({ type: 'quote', target: { kind: 'point', ...p.point }, box: cssBox(p.corners), all, output: out.name }, p.clamped);
    }
    case 'LLM': {
      const example = "LLM(prompt='Summarize the following content: __CogName_TechnicalReport__', output='__CogName_Summary__')";
      const prompt = argOf(args, ['prompt', 'text'], 0);
      if (!prompt || prompt.value.trim() === '') return { ok: false, error: `LLM needs prompt, e.g. ${example}` };
      const out = output(args, name, example);
      if (!out.ok) return out;
      return ok({ type: 'llm', prompt: prompt.value, output: out.name });
    }
    case 'QUOTE_CLIPBOARD': {
      const out = output(args, name, "QUOTE_CLIPBOARD(output='__CogName_QuickSortCode__')");
      if (!out.ok) return out;
      return ok({ type: 'clipboard', output: out.name });
    }
    case 'END':
      return ok({ type: 'finish', outcome: 'done', text: sentence });
  }
}
