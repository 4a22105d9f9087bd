/**
 * The coordinate check (Settings → Check coordinates): the model is sent a generated picture with
 * a few marked targets and asked where they are in its dialect's grammar (Dialect.coordinateCheck);
 * the bounding-box form here is midscene's, as it writes `locate.bbox` when it plans. Each bounding-box convention (action/bbox.ts) reads the
 * answers through the shared mapper; the one that puts every answer on its target is the model's.
 *
 * The picture is not square and the targets sit away from its diagonal and at different distances
 * from the corner, so no two conventions read one answer onto the same target: x-y and y-x swap
 * far-apart values, and thousandths and pixels differ by the image's width and height over 1000.
 * Its sides are multiples of 28, so a pixel model sees it as drawn. Pure: the drawing is in the
 * background (background/calibrate.ts), which follows the layout here.
 */
import { BBOX_CONVENTIONS, spaceOfBbox, type BboxConvention } from './action/bbox';
import { boxCentre, toCss, type CoordinateSpace, type ShotGeometry } from './action/coords';
import { firstObject, isObject } from './dialects/shared/json';
import { boxNumbers } from './dialects/shared/box';

/** The picture's size in pixels (40 × 28 by 25 × 28). */
export const CALIBRATION_SIZE = { width: 1120, height: 700 } as const;

/** A target: a filled square of `size` pixels centred at (x, y), marked with its letter. */
export interface CalibrationTarget { name: string; colour: string; colourName: string; x: number; y: number; size: number }

export const CALIBRATION_TARGETS: readonly CalibrationTarget[] = [
  { name: 'A', colour: '#e00000', colourName: 'red', x: 170, y: 520, size: 56 },
  { name: 'B', colour: '#00a040', colourName: 'green', x: 880, y: 150, size: 56 },
  { name: 'C', colour: '#0040e0', colourName: 'blue', x: 620, y: 600, size: 56 },
];

/** How far from a target's centre an answer's centre may land (pixels, each axis): boxes are rough. */
export const CALIBRATION_TOLERANCE = 40;

/** The first words of the check's request (the fake model recognizes it by them). */
export const CALIBRATION_MARK = 'Coordinate check:';

/** The request's text (model-facing English). */
export function calibrationPrompt(targets: readonly Pick<CalibrationTarget, 'name' | 'colourName'>[] = CALIBRATION_TARGETS): string {
  const list = targets.map((t) => `${t.name} (${t.colourName})`).join(', ');
  const json = `{${targets.map((t) => `"${t.name}": {"bbox": [xmin, ymin, xmax, ymax]}`).join(', ')}}`;
  return `${CALIBRATION_MARK} the image shows ${targets.length} coloured squares, each marked with a letter: ${list}. ` +
    'Locate each square and give its bounding box exactly as you write "bbox" in "locate" when you plan an action ' +
    `(a 2d bounding box [xmin, ymin, xmax, ymax]). Reply with only this JSON: ${json}`;
}

export type CalibrationAnswers = Record<string, number[]>;

/** The boxes of a reply by target name (a name's value: {bbox: [...]}, or the box itself). */
export function readCalibrationReply(text: string, targets: readonly Pick<CalibrationTarget, 'name'>[] = CALIBRATION_TARGETS): CalibrationAnswers {
  const obj = firstObject(String(text ?? ''));
  const out: CalibrationAnswers = {};
  if (!obj.ok) return out;
  const value = obj.value as Record<string, unknown>;
  for (const t of targets) {
    const key = Object.keys(value).find((k) => k.trim().toUpperCase() === t.name);
    if (key === undefined) continue;
    const v = value[key];
    const nums = boxNumbers(isObject(v) ? v.bbox ?? v.box : v);
    if (Array.isArray(nums)) out[t.name] = nums;
  }
  return out;
}

export interface CalibrationResult {
  /** the one convention that puts every answer on its target; null when none (or, never by design, more than one) */
  fits: string | null;
  /** per convention, how many targets it reads the answers onto */
  hits: Record<string, number>;
  /** the dialect's option whose choices the conventions are (midscene's 'bbox', ui-tars' 'coordinates') */
  setting: string;
  /** how many targets the reply gave a box for */
  answered: number;
  /** the reply, shortened, for the person when nothing fits */
  reply: string;
}

const PICTURE: ShotGeometry = { imageWidth: CALIBRATION_SIZE.width, imageHeight: CALIBRATION_SIZE.height, viewport: { ...CALIBRATION_SIZE } };

/** A convention the check tries: its name (the setting's value) and the space it means. */
export interface Convention { name: string; space: CoordinateSpace }

/** The bounding-box conventions (midscene's option "bbox"), the check's default. */
export const BBOX_CHECK: readonly Convention[] = BBOX_CONVENTIONS.map((c) => ({ name: c, space: spaceOfBbox(c) }));

/** Whether an answered box, read in a convention's space, lands on the target. */
export function lands(box: number[], space: CoordinateSpace, t: CalibrationTarget, shot: ShotGeometry = PICTURE): boolean {
  const [a, b] = boxCentre(box);
  const p = toCss([a, b], space, shot);
  return Math.abs(p.x - t.x) <= CALIBRATION_TOLERANCE && Math.abs(p.y - t.y) <= CALIBRATION_TOLERANCE;
}

/** Which convention fits the answers: the one under which every target's box lands on it. */
export function decide(answers: CalibrationAnswers, reply = '', targets: readonly CalibrationTarget[] = CALIBRATION_TARGETS, conventions: readonly Convention[] = BBOX_CHECK, setting = 'bbox'): CalibrationResult {
  const hits: Record<string, number> = Object.fromEntries(conventions.map((c) => [c.name, 0]));
  for (const c of conventions) {
    for (const t of targets) if (answers[t.name] && lands(answers[t.name], c.space, t)) hits[c.name]++;
  }
  const answered = targets.filter((t) => answers[t.name]).length;
  const all = conventions.filter((c) => hits[c.name] === targets.length);
  const short = reply.replace(/\s+/g, ' ').trim();
  return { fits: all.length === 1 ? all[0].name : null, hits, answered, setting, reply: short.length > 200 ? `${short.slice(0, 200)}…` : short };
}

/** A target's box as a model of a convention writes it (the ideal answer; for tests and the fake model). */
export function boxIn(convention: BboxConvention, t: CalibrationTarget, size: { width: number; height: number } = CALIBRATION_SIZE): number[] {
  const h = t.size / 2;
  const px = [t.x - h, t.y - h, t.x + h, t.y + h];
  if (convention === 'pixels') return px;
  const n = [px[0] / size.width, px[1] / size.height, px[2] / size.width, px[3] / size.height].map((v) => Math.round(v * 1000));
  return convention === 'norm-xy' ? n : [n[1], n[0], n[3], n[2]];
}
