/**
 * The coordinate check's pure parts: the targets' layout keeps the conventions apart, a reply in
 * each convention is recognised as that one, and nonsense or a partial answer fits none.
 */
import { describe, expect, it } from 'vitest';
import { BBOX_CONVENTIONS, spaceOfBbox } from '../../src/core/action/bbox';
import {
  CALIBRATION_MARK, CALIBRATION_SIZE, CALIBRATION_TARGETS, boxIn, calibrationPrompt, decide, lands, readCalibrationReply,
} from '../../src/core/calibrate';

const replyIn = (c: (typeof BBOX_CONVENTIONS)[number]) =>
  JSON.stringify(Object.fromEntries(CALIBRATION_TARGETS.map((t) => [t.name, { bbox: boxIn(c, t) }])));

describe('coordinate check', () => {
  it('the picture is not square and its sides are multiples of 28', () => {
    expect(CALIBRATION_SIZE.width).not.toBe(CALIBRATION_SIZE.height);
    expect(CALIBRATION_SIZE.width % 28).toBe(0);
    expect(CALIBRATION_SIZE.height % 28).toBe(0);
  });

  it('no target is read onto itself under another convention (the layout keeps them apart)', () => {
    for (const t of CALIBRATION_TARGETS) {
      for (const wrote of BBOX_CONVENTIONS) {
        for (const read of BBOX_CONVENTIONS) expect(lands(boxIn(wrote, t), spaceOfBbox(read), t), `${t.name} written ${wrote}, read ${read}`).toBe(wrote === read);
      }
    }
  });

  for (const c of BBOX_CONVENTIONS) {
    it(`names ${c} for a model answering in it`, () => {
      const r = decide(readCalibrationReply(replyIn(c)), replyIn(c));
      expect(r.fits).toBe(c);
      expect(r.answered).toBe(CALIBRATION_TARGETS.length);
      expect(r.hits[c]).toBe(CALIBRATION_TARGETS.length);
    });
  }

  it('reads a rough, fenced answer with bare boxes and lower-case names', () => {
    const [a, b, c] = CALIBRATION_TARGETS.map((t) => boxIn('norm-yx', t).map((v, i) => v + (i % 2 ? 12 : -9)));
    const text = `Sure:\n\`\`\`json\n{"a": [${a}], "b": {"bbox": [${b}]}, 'c': [${c}],}\n\`\`\``;
    expect(decide(readCalibrationReply(text)).fits).toBe('norm-yx');
  });

  it('fits none for nonsense, for boxes elsewhere and for a partial answer', () => {
    expect(decide(readCalibrationReply('I see three squares.')).fits).toBeNull();
    expect(decide(readCalibrationReply('{"A": [10, 10, 20, 20], "B": [10, 10, 20, 20], "C": [10, 10, 20, 20]}')).fits).toBeNull();
    const partial = JSON.stringify({ A: boxIn('pixels', CALIBRATION_TARGETS[0]), B: boxIn('pixels', CALIBRATION_TARGETS[1]) });
    const r = decide(readCalibrationReply(partial));
    expect(r.fits).toBeNull();
    expect(r.answered).toBe(2);
    // answers mixing conventions fit none either
    const mixed = JSON.stringify({ A: boxIn('pixels', CALIBRATION_TARGETS[0]), B: boxIn('norm-xy', CALIBRATION_TARGETS[1]), C: boxIn('norm-yx', CALIBRATION_TARGETS[2]) });
    expect(decide(readCalibrationReply(mixed)).fits).toBeNull();
  });

  it('the prompt names every target and starts with the mark', () => {
    const p = calibrationPrompt();
    expect(p.startsWith(CALIBRATION_MARK)).toBe(true);
    for (const t of CALIBRATION_TARGETS) expect(p).toContain(`${t.name} (${t.colourName})`);
  });
});
