/**
 * midscene's "bbox" option: the endpoint's bounding-box convention (action/bbox.ts), the one
 * setting of the planner's grammar that depends on the model behind it. The person chooses it in
 * Settings (or finds it with Check coordinates), the runner takes `--dialect-option bbox=…` (or
 * its alias `--bbox`), and the run reads and writes `locate.bbox` in it. With 'pixels' the
 * screenshot is padded to multiples of 28, as a Qwen2.5-VL model sees it.
 */
import { BBOX_CONVENTIONS, DEFAULT_BBOX, isBboxConvention, spaceOfBbox, type BboxConvention } from '../../action/bbox';
import { calibrationPrompt, readCalibrationReply } from '../../calibrate';
import type { CoordinateCheck, DialectOption, DialectOptionValues, ParseOptions } from '../types';

export const BBOX: DialectOption = {
  name: 'bbox',
  choices: BBOX_CONVENTIONS,
  default: DEFAULT_BBOX,
  label: 'fieldBbox',
  help: 'fieldBboxHelp',
  choiceLabels: { 'norm-xy': 'bboxNormXy', 'norm-yx': 'bboxNormYx', pixels: 'bboxPixels' },
};

/** The run's convention (the default when the option is absent or not one of its choices). */
export function bboxOf(options: ParseOptions | undefined): BboxConvention {
  const v = options?.dialectOptions?.[BBOX.name];
  return isBboxConvention(v) ? v : DEFAULT_BBOX;
}

/** A model that reads boxes in image pixels is sent its screenshot padded to multiples of 28. */
export function padsScreenshot(options: DialectOptionValues): boolean {
  return bboxOf({ dialectOptions: options }) === 'pixels';
}

/** Check coordinates: the squares' boxes, asked for as the planner writes `locate.bbox`. */
export const coordinateCheck: CoordinateCheck = {
  option: BBOX.name,
  spaceOf: (choice) => spaceOfBbox(isBboxConvention(choice) ? choice : DEFAULT_BBOX),
  prompt: (targets) => calibrationPrompt(targets),
  read: (reply, names) => readCalibrationReply(reply, names.map((name) => ({ name }))),
};
