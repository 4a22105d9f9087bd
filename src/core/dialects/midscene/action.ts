/**
 * One planner action (the seed's "Supporting actions") to the shared Action model:
 * `{ type: "Tap", locate: { bbox: [..4], prompt }, param? }`. The bbox is read in the endpoint's
 * convention (action/bbox.ts) and the action acts at its centre, rounded to whole units of that
 * convention (so writing a point as a degenerate box and reading it again is exact), mapped with
 * the shared mapper. Errors tell the model what to write instead, with an example.
 */
import type { Action, Direction, Target } from '../../action/action';
import { spaceOfBbox, type BboxConvention } from '../../action/bbox';
import { CLAMPED_NOTE, boxCentre, toCss, type ShotGeometry } from '../../action/coords';
import { normalizeKeys } from '../../action/keys';
import { boxNumbers } from '../shared/box';
import { isObject } from '../shared/json';

export type ActionRead = { ok: true; action: Action; notes: string[] } | { ok: false; error: string };

export const ACTION_TYPES = ['Tap', 'RightClick', 'Hover', 'Input', 'KeyboardPress', 'Scroll'] as const;
export type PlannerType = (typeof ACTION_TYPES)[number];

export const EXAMPLE = '{"type": "Tap", "locate": {"bbox": [100, 100, 200, 200], "prompt": "The \'Yes\' button"}}';

/** Other names models use (lower case, no separators). */
const ALIASES: Record<string, PlannerType> = {
  tap: 'Tap', click: 'Tap', leftclick: 'Tap', rightclick: 'RightClick', hover: 'Hover', input: 'Input', type: 'Input',
  keyboardpress: 'KeyboardPress', keypress: 'KeyboardPress', press: 'KeyboardPress', key: 'KeyboardPress', scroll: 'Scroll',
};

/** scrollType → the direction the content moves and whether it goes on to the end. */
export const SCROLL_TYPES: Record<string, { direction: Direction | null; until: boolean }> = {
  once: { direction: null, until: false },
  untilbottom: { direction: 'down', until: true },
  untiltop: { direction: 'up', until: true },
  untilleft: { direction: 'left', until: true },
  untilright: { direction: 'right', until: true },
};

const DIRECTIONS: readonly string[] = ['up', 'down', 'left', 'right'];

/** A field by any case of its name. */
export function field(obj: Record<string, unknown>, ...names: string[]): unknown {
  for (const n of names) {
    for (const [k, v] of Object.entries(obj)) if (k.trim().toLowerCase() === n.toLowerCase() && v !== undefined) return v;
  }
  return undefined;
}

export function typeOf(v: unknown): PlannerType | null {
  if (typeof v !== 'string') return null;
  return ALIASES[v.trim().toLowerCase().replace(/[\s_-]+/g, '')] ?? null;
}

function textOf(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

function numberOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(v)) return Number(v);
  return null;
}

/** The point of a `locate` ({bbox}, or a bare box); null when locate is null or absent. */
function locateOf(v: unknown, shot: ShotGeometry, bbox: BboxConvention | undefined, notes: string[]): Target | null | { error: string } {
  if (v === null || v === undefined || v === '') return null;
  const raw = isObject(v) ? field(v, 'bbox', 'box', 'bbox_2d', 'box_2d') : v;
  const nums = boxNumbers(raw);
  if (nums === null) return null;
  if (nums === 'bad') return { error: `"locate.bbox" must be 4 numbers [xmin, ymin, xmax, ymax], e.g. ${EXAMPLE}` };
  const [a, b] = boxCentre(nums);
  const p = toCss([Math.round(a), Math.round(b)], spaceOfBbox(bbox), shot);
  if (p.clamped && !notes.includes(CLAMPED_NOTE)) notes.push(CLAMPED_NOTE);
  return { kind: 'point', x: p.x, y: p.y };
}

/** One action object (null is the planner's "no action": the instruction is done). */
export function readAction(obj: Record<string, unknown>, shot: ShotGeometry, bbox: BboxConvention | undefined): ActionRead {
  const rawType = field(obj, 'type', 'action_type', 'name');
  const type = typeOf(rawType);
  if (!type) {
    const shown = (typeof rawType === 'string' ? rawType : JSON.stringify(rawType) ?? '').slice(0, 40);
    return { ok: false, error: `Unknown action type '${shown}'. Use one of: ${ACTION_TYPES.join(', ')}, e.g. ${EXAMPLE}` };
  }
  const notes: string[] = [];
  const ok = (action: Action): ActionRead => ({ ok: true, action, notes });
  const paramRaw = field(obj, 'param', 'params', 'parameters');
  const param = isObject(paramRaw) ? paramRaw : {};
  // `locate` as the seed writes it; a bbox beside the type is read too
  const where = locateOf(field(obj, 'locate', 'location', 'element') ?? field(obj, 'bbox', 'box_2d', 'bbox_2d'), shot, bbox, notes);
  if (where !== null && 'error' in where) return { ok: false, error: where.error };
  const needsPlace = (): ActionRead => ({ ok: false, error: `${type} needs "locate": {"bbox": [xmin, ymin, xmax, ymax], "prompt": "..."}, e.g. ${EXAMPLE}` });
  switch (type) {
    case 'Tap':
    case 'RightClick':
      if (where === null) return needsPlace();
      return ok({ type: 'click', target: where, button: type === 'Tap' ? 'left' : 'right', count: 1 });
    case 'Hover':
      if (where === null) return needsPlace();
      return ok({ type: 'hover', target: where });
    case 'Input': {
      // The seed: `value` is the field's final value (replacing what is there); blank clears it.
      const value = textOf(field(param, 'value', 'text', 'content')) ?? (typeof paramRaw === 'string' ? paramRaw : null);
      if (value === null) return { ok: false, error: 'Input needs "param": {"value": "<the final value of the field>"}' };
      return ok({ type: 'type', target: where === null ? { kind: 'none' } : where, text: value, clear: true, enter: false });
    }
    case 'KeyboardPress': {
      const value = textOf(field(param, 'value', 'key', 'keys')) ?? (typeof paramRaw === 'string' ? paramRaw : null);
      const keys = value === null ? null : normalizeKeys(value);
      if (keys === null) return { ok: false, error: `KeyboardPress needs "param": {"value": "<a key, e.g. Enter or Control+a>"}${value ? `; '${value.slice(0, 30)}' is not a key` : ''}` };
      return ok({ type: 'key', keys });
    }
    case 'Scroll': {
      const st = textOf(field(param, 'scrollType', 'scroll_type'))?.trim().toLowerCase().replace(/[\s_-]+/g, '') || 'once';
      const kind = SCROLL_TYPES[st];
      if (!kind) return { ok: false, error: `Scroll's "scrollType" must be 'once', 'untilBottom', 'untilTop', 'untilRight' or 'untilLeft'` };
      const d = textOf(field(param, 'direction'))?.trim().toLowerCase() || 'down';
      if (!kind.direction && !DIRECTIONS.includes(d)) return { ok: false, error: `Scroll's "direction" must be 'down', 'up', 'right' or 'left'` };
      const target: Target = where === null ? { kind: 'window' } : where;
      if (kind.until) return ok({ type: 'scroll', target, direction: kind.direction!, until: true });
      const distance = numberOf(field(param, 'distance'));
      return ok({ type: 'scroll', target, direction: d as Direction, ...(distance !== null && distance > 0 ? { pixels: distance } : {}) });
    }
  }
}
