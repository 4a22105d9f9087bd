/**
 * The fake model's midscene side: the request checker accepts what the dialect sends and names
 * each departure (another system prompt, a second image, a JPEG, an unpadded picture in the pixels
 * convention); the player answers boxes, found by colour, that the dialect reads back onto the
 * target in each convention; the coordinate check's stand-in answers what the check decides.
 */
import { describe, expect, it } from 'vitest';
import { midscene } from '../../src/core/dialects/midscene';
import { toMessages } from '../../src/core/dialects/request';
import { isParseError } from '../../src/core/action/action';
import { decide, readCalibrationReply, CALIBRATION_SIZE, CALIBRATION_TARGETS } from '../../src/core/calibrate';
import { parseColour } from '../fixtures/model/locate';
import { checkRequestMidscene, parseRequestMidscene } from '../fixtures/dialects/midscene/request';
import { calibrationAnswer, midscenePlayer } from '../fixtures/dialects/midscene/player';
import { blankImage, fillRect, pngDataUrl } from '../../scripts/png';

const shot = { imageWidth: 1288, imageHeight: 812, viewport: { width: 1288, height: 812 } };
const screen = blankImage(1288, 812);
fillRect(screen, 600, 300, 80, 40, parseColour('#ff00ff'));
const png = pngDataUrl(screen);

function body(parts = midscene.buildRequest({ task: 'press it', site: 'https://a.example/', now: new Date(0), memory: '', marks: [], shot, apps: [], history: [] }), images = [png]) {
  return { model: 'm', max_tokens: 100, temperature: 0.1, messages: toMessages(parts, images) };
}

describe('fake model: midscene requests', () => {
  it('accepts what the dialect sends (padded when the run is in pixels) and reads its parts', () => {
    expect(checkRequestMidscene(body(), 'Bearer sk-zz-91', 'sk-zz-91', true)).toEqual([]);
    expect(parseRequestMidscene(body())).toMatchObject({ task: 'press it', logs: [], screenshot: png });
  });
  it('names each departure', () => {
    const b = body();
    const other = { ...b, messages: [{ role: 'system', content: 'You are helpful.' }, b.messages[1]] };
    expect(checkRequestMidscene(other, 'Bearer sk-zz-91', 'sk-zz-91')).toContain('the system message is not the seed\'s prompt as written');
    const two = body([...midscene.buildRequest({ task: 't', site: '', now: new Date(0), memory: '', marks: [], shot, apps: [], history: [] }), { type: 'image', of: 'current' }], [png, png]);
    expect(checkRequestMidscene(two, undefined, undefined)).toContain('expected exactly one image, got 2');
    const jpeg = body(undefined, ['data:image/jpeg;base64,/9j/4AAQ']);
    expect(checkRequestMidscene(jpeg, undefined, undefined)).toContain('the screenshot is not a PNG data URL');
    const unpadded = body(undefined, [pngDataUrl(blankImage(1280, 800))]);
    expect(checkRequestMidscene(unpadded, undefined, undefined, true)).toContain('the screenshot is 1280x800: not padded to multiples of 28');
    const oneMessage = { ...b, messages: [b.messages[1]] };
    expect(checkRequestMidscene(oneMessage, undefined, undefined)[0]).toMatch(/expected \[system, user\]/);
  });
});

describe('fake model: the midscene player', () => {
  for (const c of ['norm-xy', 'norm-yx', 'pixels'] as const) {
    it(`answers a box found by colour that the dialect reads onto the target (${c})`, () => {
      const r = midscenePlayer([{ do: 'click', colour: '#ff00ff' }], { bbox: c })(parseRequestMidscene(body()));
      const step = midscene.parseReply(r.content, null, shot, { dialectOptions: { bbox: c } });
      if (isParseError(step)) throw new Error(step.error);
      expect(step.action.type).toBe('click');
      const t = (step.action as { target: { x: number; y: number } }).target;
      expect(Math.abs(t.x - 640)).toBeLessThanOrEqual(2);
      expect(Math.abs(t.y - 320)).toBeLessThanOrEqual(2);
    });
  }
  it('the coordinate check stand-in answers what the check decides', () => {
    const img = blankImage(CALIBRATION_SIZE.width, CALIBRATION_SIZE.height);
    for (const t of CALIBRATION_TARGETS) fillRect(img, t.x - t.size / 2, t.y - t.size / 2, t.size, t.size, parseColour(t.colour));
    const picture = pngDataUrl(img);
    for (const c of ['norm-xy', 'norm-yx', 'pixels'] as const) expect(decide(readCalibrationReply(calibrationAnswer(picture, c))).fits).toBe(c);
    expect(decide(readCalibrationReply(calibrationAnswer(picture, 'nonsense'))).fits).toBeNull();
  });
});
