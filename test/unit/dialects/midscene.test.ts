/**
 * The midscene dialect beyond the conformance cases: the three bounding-box conventions read the
 * same target onto the same CSS point (through the shared mapper, at any image/viewport ratio, the
 * pixels convention in pixels of the padded image), tolerant JSON, and the reply's run fields
 * (endsAfter, sleepMs, warning, the answer of action null).
 */
import { describe, expect, it } from 'vitest';
import { midscene } from '../../../src/core/dialects/midscene';
import { isParseError, type ParsedStep } from '../../../src/core/action/action';
import { paddedSize, type BboxConvention } from '../../../src/core/action/bbox';
import type { ShotGeometry } from '../../../src/core/action/coords';
import { toMessages, promptTextOf } from '../../../src/core/dialects/request';
import { MIDSCENE_SYSTEM_PROMPT } from '../../../src/core/dialects/midscene/template';
import { seedPrompt } from '../../fixtures/dialects/midscene/cases';

const parse = (raw: string, shot: ShotGeometry, bbox?: BboxConvention): ParsedStep => {
  const r = midscene.parseReply(raw, null, shot, bbox ? { dialectOptions: { bbox } } : undefined);
  if (isParseError(r)) throw new Error(r.error);
  return r;
};
const tap = (box: number[], extra = '') =>
  `{"what_the_user_wants_to_do_next_by_instruction": "open it", "log": "Tap the kettle", "more_actions_needed_by_instruction": true, "action": {"type": "Tap", "locate": {"bbox": [${box.join(', ')}], "prompt": "kettle"}}${extra}}`;

/** A target's box (image pixels) as each convention writes it for an image of W × H. */
function written(c: BboxConvention, px: number[], W: number, H: number): number[] {
  if (c === 'pixels') return px;
  const n = [px[0] / W, px[1] / H, px[2] / W, px[3] / H].map((v) => Math.round(v * 1000));
  return c === 'norm-xy' ? n : [n[1], n[0], n[3], n[2]];
}

describe('midscene: bounding-box conventions', () => {
  // a target 100 × 50 image px at (600, 400)–(700, 450) on screenshots of several sizes
  const shots: ShotGeometry[] = [
    { imageWidth: 1000, imageHeight: 800, viewport: { width: 1000, height: 800 } },
    { imageWidth: 1280, imageHeight: 803, viewport: { width: 1280, height: 803 } }, // padded to 1288 × 812
    { imageWidth: 2560, imageHeight: 1600, viewport: { width: 1280, height: 800 } }, // an image at twice the CSS size
  ];
  for (const shot of shots) {
    it(`the same target read in each convention lands on the same CSS point (${shot.imageWidth}×${shot.imageHeight} image)`, () => {
      const W = shot.imageWidth, H = shot.imageHeight;
      const px = [600, 400, 700, 450].map((v, i) => v * (i % 2 ? H / 800 : W / 1000));
      const expected = { x: ((px[0] + px[2]) / 2) * (shot.viewport.width / W), y: ((px[1] + px[3]) / 2) * (shot.viewport.height / H) };
      for (const c of ['norm-xy', 'norm-yx', 'pixels'] as const) {
        const a = parse(tap(written(c, px, W, H)), shot, c).action;
        if (a.type !== 'click' || a.target.kind !== 'point') throw new Error('not a click at a point');
        // thousandths are whole units: within one unit of the image
        const tol = c === 'pixels' ? 1 : (shot.viewport.width / 1000) + 0.01;
        expect(Math.abs(a.target.x - expected.x), c).toBeLessThanOrEqual(tol);
        expect(Math.abs(a.target.y - expected.y), c).toBeLessThanOrEqual(tol);
      }
    });
  }

  it('pixels of the padded image: a box in the padding is clamped to the screenshot, with the note', () => {
    const shot = shots[1];
    expect(paddedSize(shot.imageWidth, shot.imageHeight)).toEqual({ width: 1288, height: 812 });
    const r = parse(tap([1282, 805, 1286, 810]), shot, 'pixels');
    expect(r.action).toMatchObject({ target: { kind: 'point', x: 1279, y: 802 } });
    expect(r.notes.some((n) => /outside the screenshot/.test(n))).toBe(true);
  });

  it('the convention changes the reading: y-x swaps, pixels are not thousandths', () => {
    const shot = shots[0];
    const at = (c: BboxConvention) => parse(tap([100, 300, 100, 300]), shot, c).action;
    expect(at('norm-xy')).toMatchObject({ target: { x: 100, y: 240 } });
    expect(at('norm-yx')).toMatchObject({ target: { x: 300, y: 80 } });
    expect(at('pixels')).toMatchObject({ target: { x: 100, y: 300 } });
    expect(at(undefined as unknown as BboxConvention)).toEqual(at('norm-xy'));
  });

  it('writes an action in the run\'s convention and reads it back to the same point', () => {
    const shot = shots[1];
    for (const c of ['norm-xy', 'norm-yx', 'pixels'] as const) {
      const a = parse(tap([300, 200, 340, 260]), shot, c).action;
      const text = midscene.formatAction(a, shot, { dialectOptions: { bbox: c } });
      const back = midscene.parseAction(text, shot, { dialectOptions: { bbox: c } });
      expect(back.ok && back.action, `${c}: ${text}`).toEqual(a);
    }
  });
});

describe('midscene: tolerant JSON', () => {
  const shot: ShotGeometry = { imageWidth: 1000, imageHeight: 1000, viewport: { width: 1000, height: 1000 } };
  const want = { type: 'click', target: { kind: 'point', x: 150, y: 150 }, button: 'left', count: 1 };
  const forms: Record<string, string> = {
    fenced: '```json\n' + tap([100, 100, 200, 200]) + '\n```',
    'trailing commas': tap([100, 100, 200, 200,]).replace(/}}$/, ',},}'),
    comments: tap([100, 100, 200, 200]).replace('"log"', '/* why */ "log"').replace('"action"', '// next\n"action"'),
    'single quotes': tap([100, 100, 200, 200]).replace(/"/g, "'"),
    'Python literals': tap([100, 100, 200, 200]).replace('true', 'True').replace(/"/g, "'"),
    'prose around': 'My answer:\n' + tap([100, 100, 200, 200]) + '\nDone.',
  };
  for (const [name, raw] of Object.entries(forms)) {
    it(name, () => expect(parse(raw, shot).action).toEqual(want));
  }
  it('a reply with no JSON is a format error that shows the expected form', () => {
    const r = midscene.parseReply('Tap the kettle.', null, shot);
    expect(isParseError(r) && midscene.formatErrorObservation(r.error)).toMatch(/one JSON object.*"action"/);
  });
});

describe('midscene: the run fields of a reply', () => {
  const shot: ShotGeometry = { imageWidth: 1000, imageHeight: 1000, viewport: { width: 1000, height: 1000 } };
  it('more_actions_needed_by_instruction false: the run ends after the action, with the log', () => {
    const r = parse(tap([1, 1, 3, 3]).replace('true', 'false'), shot);
    expect(r.endsAfter).toBe('Tap the kettle');
    expect(parse(tap([1, 1, 3, 3]), shot).endsAfter).toBeUndefined();
  });
  it('action null: finished, the log is the answer; no endsAfter', () => {
    const r = parse('{"log": "The price is $39.99", "more_actions_needed_by_instruction": false, "action": null}', shot);
    expect(r.action).toEqual({ type: 'finish', outcome: 'done', text: 'The price is $39.99' });
    expect(r.endsAfter).toBeUndefined();
  });
  it('sleep and error', () => {
    const r = parse(tap([1, 1, 3, 3], ', "sleep": 2500, "error": "The popup did not\\nappear"'), shot);
    expect(r.sleepMs).toBe(2500);
    expect(r.warning).toBe('The popup did not appear');
    const none = parse(tap([1, 1, 3, 3], ', "sleep": -5'), shot);
    expect(none.sleepMs).toBeUndefined();
    expect(none.warning).toBeUndefined();
  });
  it('the thought is the intention, then the log on its own line; the next request lists the log', () => {
    const r = parse(tap([1, 1, 3, 3]), shot);
    expect(r.thought).toBe('open it\nTap the kettle');
    const parts = midscene.buildRequest({ task: 'buy a kettle', site: 'https://a.example/', now: new Date(0), memory: '', marks: [], shot, apps: [],
      history: [{ index: 0, thought: r.thought, action: r.actionText, observation: 'Success', hasScreenshot: true }] });
    expect(promptTextOf(parts)).toContain('<previous_logs>\n- Tap the kettle\n</previous_logs>');
  });
});

describe('midscene: the request', () => {
  it('a system message that is the seed\'s prompt, then one user message with the screenshot and the text', () => {
    expect(MIDSCENE_SYSTEM_PROMPT).toBe(seedPrompt());
    const parts = midscene.buildRequest({ task: 'buy a kettle', site: 'https://a.example/', now: new Date(0), memory: '', marks: [], apps: [], history: [],
      shot: { imageWidth: 10, imageHeight: 10, viewport: { width: 10, height: 10 } } });
    const msgs = toMessages(parts, ['data:image/png;base64,AAAA']);
    expect(msgs.map((m) => m.role)).toEqual(['system', 'user']);
    expect(msgs[0].content).toBe(seedPrompt());
    expect(msgs[1].content).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      { type: 'text', text: "Here is the user's instruction:\n<instruction>\nbuy a kettle\n</instruction>" },
    ]);
    expect(midscene.observes).toMatchObject({ labels: false, pastScreenshots: 0, device: 'desktop' });
    expect(midscene.observes.image).toBeUndefined(); // PNG
  });
});
