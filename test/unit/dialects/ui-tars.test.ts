/**
 * The ui-tars dialect against its reference: ByteDance's own action parser
 * (`@ui-tars/action-parser` 1.2.3, a dev dependency only; see docs/dialects.md for why the
 * product has its own) reads the same replies to the same calls and the same screen points, in
 * both coordinate conventions; the request is a conversation; call_user asks the person.
 */
import { describe, expect, it, vi } from 'vitest';
import { actionParser } from '@ui-tars/action-parser';
import { DIALECTS } from '../../../src/core/dialects/registry';
import { toMessages } from '../../../src/core/dialects/request';
import { isParseError, pointOf, type ParsedStep } from '../../../src/core/action/action';
import { smartResize, toModel } from '../../../src/core/action/coords';
import { CALIBRATION_MARK, CALIBRATION_SIZE, CALIBRATION_TARGETS, decide } from '../../../src/core/calibrate';
import { runOptionsFrom } from '../../../src/core/run-options';
import { golden, replies, shot } from '../../fixtures/dialects/ui-tars/cases';

const uiTars = DIALECTS['ui-tars'];
const screen = { width: shot.imageWidth, height: shot.imageHeight };

/** The reference's reading: the call's name and its start point on the screen (px), or null. */
function reference(raw: string, version: '1.0' | '1.5'): { type: string; at: [number, number] | null; end: [number, number] | null } | null {
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const { parsed } = actionParser({ prediction: raw, factor: [1000, 1000], screenContext: screen, modelVer: version as never });
    const p = parsed[0];
    if (!p?.action_type) return null;
    const coords = (k: string) => {
      const c = (p.action_inputs as Record<string, unknown>)[k];
      return Array.isArray(c) && c.length === 2 ? (c as [number, number]) : null;
    };
    return { type: p.action_type, at: coords('start_coords'), end: coords('end_coords') };
  } finally {
    quiet.mockRestore();
  }
}

const NAMES: Record<string, string[]> = {
  click: ['click', 'left_double', 'right_single'], drag: ['drag'], key: ['hotkey'], type: ['type'], scroll: ['scroll'], wait: ['wait', 'call_user'], finish: ['finished'],
};

const calls = replies.filter((r) => !('error' in r.expect) && r.raw && !r.raw.startsWith('Reflection'));

describe('ui-tars reads replies as its reference parser does', () => {
  for (const version of ['1.5', '1.0'] as const) {
    const options = { dialectOptions: { coordinates: version === '1.5' ? 'resized-pixels' : 'thousandths' } };
    for (const r of calls) {
      it(`${r.name} (UI-TARS ${version})`, () => {
        const ours = uiTars.parseReply(r.raw, null, shot, options);
        const ref = reference(r.raw, version);
        if (isParseError(ours)) throw new Error(ours.error);
        expect(ref).not.toBeNull();
        expect(NAMES[ours.action.type]).toContain(ref!.type);
        const at = pointOf(ours.action);
        if (ref!.at && at) {
          // the reference rounds to a thousandth of a pixel
          expect(at.x).toBeCloseTo(ref!.at[0], 2);
          expect(at.y).toBeCloseTo(ref!.at[1], 2);
        }
        if (ours.action.type === 'drag' && ref!.end) {
          expect(ours.action.to.x).toBeCloseTo(ref!.end[0], 2);
          expect(ours.action.to.y).toBeCloseTo(ref!.end[1], 2);
        }
      });
    }
  }

  it('smart_resize gives the sizes UI-TARS-1.5 points in (1280 × 800 -> 1288 × 812; large screens scaled down)', () => {
    const r = { factor: 28, minPixels: 100 * 28 * 28, maxPixels: 16384 * 28 * 28 };
    expect(smartResize(1280, 800, r)).toEqual({ width: 1288, height: 812 });
    expect(smartResize(1120, 700, r)).toEqual({ width: 1120, height: 700 });
    const big = smartResize(7680, 4320, r);
    expect(big.width % 28 + big.height % 28).toBe(0);
    expect(big.width * big.height).toBeLessThanOrEqual(r.maxPixels);
    expect(smartResize(100, 100, r).width * smartResize(100, 100, r).height).toBeGreaterThanOrEqual(r.minPixels);
  });
});

describe('ui-tars request and replies', () => {
  it('is a conversation: the prompt, then per step a screenshot (user) and the reply (assistant), the current screenshot last', () => {
    const parts = uiTars.buildRequest(golden.ctx);
    const images = parts.filter((p) => p.type === 'image').map((_, i) => `data:image/png;base64,IMG${i}`);
    const messages = toMessages(parts, images);
    expect(messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages[2].content).toBe("Thought: The search box is at the top. I click it.\nAction: click(start_box='(644,60)')");
    const last = messages.at(-1)!.content as Array<{ type: string }>;
    expect(last.map((c) => c.type)).toEqual(['text', 'image_url']);
  });

  it('keeps the last 5 screenshots, the current one included (the SDK\'s MAX_IMAGE_LENGTH)', () => {
    const history = Array.from({ length: 9 }, (_, i) => ({ index: i, thought: `t${i}`, action: 'wait()', observation: 'Success', hasScreenshot: true }));
    const parts = uiTars.buildRequest({ ...golden.ctx, history });
    const images = parts.flatMap((p) => (p.type === 'image' ? [p.of] : []));
    expect(images).toEqual([5, 6, 7, 8, 'current']);
    // every reply is still there, as the SDK keeps them
    expect(parts.filter((p) => p.type === 'turn' && p.role === 'assistant')).toHaveLength(9);
  });

  it('call_user() asks the person with the model\'s thought', () => {
    const r = uiTars.parseReply('Thought: I need the user to log in.\nAction: call_user()', null, shot) as ParsedStep;
    expect(r.asksPerson).toBe(true);
    expect(r.thought).toBe('I need the user to log in.');
  });

  it('writes points back in the run\'s convention', () => {
    const click = uiTars.parseAction("click(start_box='(500,300)')", shot, { dialectOptions: { coordinates: 'thousandths' } });
    if (!click.ok) throw new Error(click.error);
    expect(uiTars.formatAction(click.action, shot, { dialectOptions: { coordinates: 'thousandths' } })).toBe("click(start_box='(500,300)')");
    expect(uiTars.formatAction(click.action, shot, { dialectOptions: { coordinates: 'resized-pixels' } })).toBe("click(start_box='(644,244)')");
  });

  it('the runner takes its option by name and refuses a bad one with the choices', () => {
    const base = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', dialect: 'ui-tars', apps: '', maxSteps: 3, width: 1280, height: 800, headed: false, files: [] };
    const ok = runOptionsFrom({ ...base, dialectOptions: { coordinates: 'thousandths' } });
    expect(ok.ok && ok.run.config.dialectOptions).toEqual({ 'ui-tars': { coordinates: 'thousandths' } });
    const bad = runOptionsFrom({ ...base, dialectOptions: { coordinates: 'inches' } });
    expect(!bad.ok && bad.problem).toMatch(/coordinates must be one of resized-pixels, thousandths/);
    const unknown = runOptionsFrom({ ...base, dialect: 'glm-web', dialectOptions: { coordinates: 'thousandths' } });
    expect(!unknown.ok && unknown.problem).toMatch(/glm-web has no options/);
  });
});

describe('ui-tars Check coordinates', () => {
  const check = uiTars.coordinateCheck!;
  const picture = { imageWidth: CALIBRATION_SIZE.width, imageHeight: CALIBRATION_SIZE.height, viewport: { ...CALIBRATION_SIZE } };
  const choices = uiTars.options!.find((o) => o.name === check.option)!.choices;

  it('asks for one click per square in its own grammar, starting with the check\'s mark', () => {
    const text = check.prompt(CALIBRATION_TARGETS);
    expect(text.startsWith(CALIBRATION_MARK)).toBe(true);
    expect(text).toContain("A: click(start_box='(x,y)')");
  });

  for (const wrote of choices) {
    it(`names ${wrote} for a model clicking in it`, () => {
      const reply = CALIBRATION_TARGETS.map((t) => {
        const [x, y] = toModel({ x: t.x, y: t.y }, check.spaceOf(wrote), picture);
        return `${t.name}: click(start_box='<|box_start|>(${x},${y})<|box_end|>')`;
      }).join('\n');
      const answers = check.read(`Thought: three squares.\n${reply}`, CALIBRATION_TARGETS.map((t) => t.name));
      expect(Object.keys(answers).sort()).toEqual(['A', 'B', 'C']);
      const r = decide(answers, reply, CALIBRATION_TARGETS, choices.map((c) => ({ name: c, space: check.spaceOf(c) })), check.option);
      expect(r.fits).toBe(wrote);
      expect(r.setting).toBe('coordinates');
    });
  }
});
