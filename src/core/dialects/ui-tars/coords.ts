/**
 * Where UI-TARS points. Its versions write boxes in two conventions (the SDK's action parser):
 * UI-TARS-1.5 in pixels of the screenshot as Qwen2.5-VL's processor resized it (`smart_resize`:
 * sides multiples of 28, at most 16384 × 28 × 28 pixels), UI-TARS 1.0 and its 7B-DPO in
 * thousandths of the screenshot (the SDK's factors 1000). The person chooses which in Settings
 * (the dialect's "coordinates" option); both go through the one mapper (action/coords.ts).
 */
import { THOUSANDTHS, type CoordinateSpace } from '../../action/coords';
import { CALIBRATION_MARK } from '../../calibrate';
import { argOf } from '../shared/call';
import type { CoordinateCheck, DialectOption, ParseOptions } from '../types';
import { boxOf, findCall } from './action';

/** UI-TARS-1.5's resize (the SDK's IMAGE_FACTOR, MIN_PIXELS and MAX_PIXELS_V1_5). */
export const RESIZED_PIXELS: CoordinateSpace = { normalizedBy: null, order: 'xy', resized: { factor: 28, minPixels: 100 * 28 * 28, maxPixels: 16384 * 28 * 28 } };

export const COORDINATES: DialectOption = {
  name: 'coordinates',
  choices: ['resized-pixels', 'thousandths'],
  default: 'resized-pixels',
  label: 'uitarsCoordinates',
  help: 'uitarsCoordinatesHelp',
  choiceLabels: { 'resized-pixels': 'uitarsCoordinatesPixels', thousandths: 'uitarsCoordinatesThousandths' },
};

/** The space the run's option names (UI-TARS-1.5's unless the person chose thousandths). */
export function spaceOf(options?: ParseOptions): CoordinateSpace {
  return options?.dialectOptions?.[COORDINATES.name] === 'thousandths' ? THOUSANDTHS : RESIZED_PIXELS;
}

/**
 * Check coordinates: UI-TARS is asked to click each marked square, one line each, as it writes a
 * click; the choice whose space puts every click on its square is its version's.
 */
export const coordinateCheck: CoordinateCheck = {
  option: COORDINATES.name,
  spaceOf: (choice) => spaceOf({ dialectOptions: { [COORDINATES.name]: choice } }),
  prompt: (targets) => `${CALIBRATION_MARK} the image shows ${targets.length} coloured squares, each marked with a letter: ${targets.map((t) => `${t.name} (${t.colourName})`).join(', ')}. ` +
    `For each square, write the action that clicks it, one line each, e.g.\n${targets.map((t) => `${t.name}: click(start_box='(x,y)')`).join('\n')}`,
  read: (reply, names) => {
    const out: Record<string, number[]> = {};
    for (const line of String(reply ?? '').split('\n')) {
      const m = /^\W*([A-Za-z])\W*[:：]\s*(.*)$/.exec(line.replace(/<\|box_(?:start|end)\|>/g, ''));
      const name = m?.[1].toUpperCase();
      if (!m || !name || !names.includes(name) || out[name]) continue;
      const call = findCall(m[2]);
      const box = call ? boxOf(argOf(call.args, ['start_box', 'point', 'start_point'], 0)?.value ?? '') : null;
      if (box) out[name] = box;
    }
    return out;
  },
};
