/**
 * Where UI-TARS points. Its versions write boxes in two conventions (the SDK's action parser):
 * UI-TARS-1.5 in pixels of the screenshot as Qwen2.5-VL's processor resized it (`smart_resize`:
 * sides multiples of 28, at most 16384 × 28 × 28 pixels), UI-TARS 1.0 and its 7B-DPO in
 * thousandths of the screenshot (the SDK's factors 1000). The person chooses which in Settings
 * (the dialect's "coordinates" option); both go through the one mapper (action/coords.ts).
 */
import { THOUSANDTHS, type CoordinateSpace } from '../../action/coords';
import type { DialectOption, ParseOptions } from '../types';

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
