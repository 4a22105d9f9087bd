/**
 * One AppAgent action (the task template's functions), read leniently: `tap(5)`, `text("Hello,
 * world!")`, `long_press(5)`, `swipe(21, "up", "medium")` or `FINISH`, with keyword arguments
 * (`tap(element=5)`), single or curly quotes, backticks or markdown around, a call cut off before
 * its `)`. Tags count from 1 on the screenshot (the labels are drawn so: observes.labelStyle
 * 'centre-from-1'), so tag N is our label N − 1.
 *
 * A swipe moves the finger; the content scrolls the other way (glm-mobile's OPPOSITE: a swipe up
 * scrolls down). Its distance is AppAgent's controller's (and_controller.py swipe): a unit of a
 * tenth of the screen width, ×1 short, ×2 medium, ×3 long, and twice that for up and down; here
 * of the viewport's CSS width, as pixels of a scroll of the tagged element.
 */
import type { Action, Direction } from '../../action/action';
import type { ShotGeometry } from '../../action/coords';
import { OPPOSITE } from '../shared/box';

export type CallRead = { ok: true; action: Action; notes: string[] } | { ok: false; error: string };

export const FORMS = 'tap(5), text("Hello, world!"), long_press(5), swipe(21, "up", "medium") or FINISH';

export const DISTANCES = ['short', 'medium', 'long'] as const;
export type Distance = (typeof DISTANCES)[number];

export const NOTE_NO_DIST = 'swipe had no distance; "medium" was used.';

const CALL = /\b(tap|text|long[_ -]?press|swipe)\s*\(/i;
const FINISH = /\bFINISH\b/;

/** Pixels a swipe of `dist` in the finger's direction `finger` scrolls, on this screenshot. */
export function swipePixels(finger: Direction, dist: Distance, shot: ShotGeometry): number {
  const unit = Math.max(1, Math.floor((shot.viewport?.width || 0) / 10)) * (DISTANCES.indexOf(dist) + 1);
  return finger === 'up' || finger === 'down' ? 2 * unit : unit;
}

/** The distance whose pixels these are (for writing a scroll back as a swipe), or null. */
export function distanceOf(finger: Direction, pixels: number, shot: ShotGeometry): Distance | null {
  return DISTANCES.find((d) => swipePixels(finger, d, shot) === pixels) ?? null;
}

/** The arguments' text: from after `(` to the matching `)` outside quotes, or to the line's end when cut off. */
function argsFrom(s: string, open: number): string {
  let quote: string | null = null;
  for (let i = open + 1; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote || (quote === '“' && c === '”')) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '“') quote = c;
    else if (c === ')') return s.slice(open + 1, i);
    else if (c === '\n' && !quote) return s.slice(open + 1, i);
  }
  return s.slice(open + 1).split('\n')[0];
}

/** Split on commas outside quotes. */
function splitArgs(s: string): string[] {
  const out: string[] = [];
  let quote: string | null = null;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\' && i + 1 < s.length) { cur += c + s[++i]; continue; }
      if (c === quote || (quote === '“' && c === '”')) quote = null;
    } else if (c === '"' || c === "'" || c === '“') quote = c;
    else if (c === ',' || c === '，') { out.push(cur); cur = ''; continue; }
    cur += c;
  }
  out.push(cur);
  return out.map((a) => a.trim().replace(/^[A-Za-z_]+\s*[=:]\s*/, '')); // element=5, direction="up"
}

/** A string argument without its quotes (JSON escapes read when it is a JSON string). */
function unquote(raw: string): string {
  const s = raw.trim();
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) {
    try {
      const v: unknown = JSON.parse(s);
      if (typeof v === 'string') return v;
    } catch { /* not JSON: take what is between the quotes */ }
    return s.slice(1, -1);
  }
  if (s.length >= 2 && ((s.startsWith("'") && s.endsWith("'")) || (s.startsWith('“') && s.endsWith('”')))) {
    return s.slice(1, -1).replace(/\\'/g, "'");
  }
  return s.replace(/^["'“]/, ''); // a string cut off before its closing quote
}

/** The tag an element argument names (1-based), or an error. */
function tagOf(raw: string | undefined, verb: string): number | string {
  const m = /^[[("'`\s]*(-?\d+)/.exec(raw ?? '');
  if (!m) return `${verb} needs the numeric tag of an element, e.g. ${verb === 'swipe' ? 'swipe(21, "up", "medium")' : `${verb}(5)`}`;
  const n = Number(m[1]);
  if (!Number.isSafeInteger(n) || n < 1) return `There is no element tagged ${m[1]}: the numeric tags start from 1`;
  return n;
}

/**
 * The action one Action field names. FINISH wins when it comes before any call (AppAgent checks for
 * it first); a call before it wins, so `text("FINISH the form")` types. `answer`: the finish's text.
 */
export function readCall(section: string, shot: ShotGeometry, answer: string): CallRead {
  const s = String(section ?? '');
  const call = CALL.exec(s);
  const fin = FINISH.exec(s) ?? (/^[\s*_#>`-]*finish[\s*_.!`]*$/i.test(s.split('\n')[0] ?? '') ? { index: 0 } : null);
  if (fin && (!call || fin.index < call.index)) return { ok: true, action: { type: 'finish', outcome: 'done', text: answer }, notes: [] };
  if (!call) return { ok: false, error: `The Action must be one function call or FINISH: ${FORMS}` };
  const verb = call[1].toLowerCase().replace(/[ -]/g, '_').replace(/^longpress$/, 'long_press');
  const args = splitArgs(argsFrom(s, call.index + call[0].length - 1));
  const notes: string[] = [];
  switch (verb) {
    case 'tap':
    case 'long_press': {
      const n = tagOf(args[0], verb);
      if (typeof n === 'string') return { ok: false, error: n };
      const target = { kind: 'label' as const, label: n - 1 };
      return { ok: true, action: verb === 'tap' ? { type: 'click', target, button: 'left', count: 1 } : { type: 'press', target }, notes };
    }
    case 'text': {
      const text = unquote(args.join(','));
      if (!text) return { ok: false, error: 'text needs the string to insert, wrapped with double quotation marks, e.g. text("Hello, world!")' };
      // Into the focused field, as AppAgent's `input text`: nothing cleared, no Enter.
      return { ok: true, action: { type: 'type', target: { kind: 'none' }, text, clear: false, enter: false }, notes };
    }
    default: {
      const n = tagOf(args[0], 'swipe');
      if (typeof n === 'string') return { ok: false, error: n };
      const finger = unquote(args[1] ?? '').trim().toLowerCase();
      if (!Object.hasOwn(OPPOSITE, finger)) return { ok: false, error: 'swipe needs a direction: "up", "down", "left" or "right", e.g. swipe(21, "up", "medium")' };
      let dist = unquote(args[2] ?? '').trim().toLowerCase();
      if (!dist) {
        dist = 'medium'; // the controller's default
        notes.push(NOTE_NO_DIST);
      }
      if (!(DISTANCES as readonly string[]).includes(dist)) return { ok: false, error: 'swipe\'s distance must be "short", "medium" or "long", e.g. swipe(21, "up", "medium")' };
      const f = finger as Direction;
      return {
        ok: true,
        action: { type: 'scroll', target: { kind: 'label', label: n - 1 }, direction: OPPOSITE[f], pixels: swipePixels(f, dist as Distance, shot) },
        notes,
      };
    }
  }
}
