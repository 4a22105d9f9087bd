/**
 * The endpoint's bounding-box convention goes with the run: kept when the run starts (only for a
 * dialect that reads it), the reply's boxes are read in it, the action is written in it, and the
 * setting is normalized and kept with a profile.
 */
import { describe, expect, it } from 'vitest';
import { createRun, reduce, type RunState } from '../../src/core/run';
import { normalizeSettings } from '../../src/core/settings';
import type { BboxConvention } from '../../src/core/action/bbox';
import { observation, reply } from '../fixtures/run';

const obs = () => observation({ title: 'Shop', viewport: { width: 1000, height: 500, devicePixelRatio: 1 }, screenshot: { dataUrl: 'data:image/png;base64,AAAA', bytes: 3, width: 1000, height: 500 } });

function run(dialect: string, bbox?: BboxConvention): RunState {
  return createRun({ id: 'r1', task: 'tap it', startUrl: 'https://shop.example/', tabId: 7, dialect, model: 'm', baseUrl: 'http://h/v1', maxSteps: 9, at: 1000, bbox });
}

const TAP = '{"log": "tap", "more_actions_needed_by_instruction": true, "action": {"type": "Tap", "locate": {"bbox": [100, 200, 100, 200], "prompt": "x"}}}';

describe('the bounding-box convention in a run', () => {
  it('is kept only for a dialect that reads it', () => {
    expect(run('midscene', 'pixels').bbox).toBe('pixels');
    expect(run('glm-web', 'pixels').bbox).toBeUndefined();
  });

  for (const [bbox, at] of [[undefined, { x: 100, y: 100 }], ['norm-yx', { x: 200, y: 50 }], ['pixels', { x: 100, y: 200 }]] as const) {
    it(`reads the reply's box in it (${bbox ?? 'default'}) and writes the action in it`, () => {
      let s = reduce(run('midscene', bbox), { type: 'observed', at: 2000, obs: obs(), ms: 10 });
      s = reduce(s, reply(TAP));
      expect(s.pending?.reply?.action).toMatchObject({ type: 'click', target: { kind: 'point', ...at } });
      expect(s.pending?.reply?.actionText).toContain('"bbox": [100, 200, 100, 200]');
    });
  }

  it('the setting is normalized and kept with a saved profile', () => {
    expect(normalizeSettings({ bbox: 'sideways' as BboxConvention }).bbox).toBe('norm-xy');
    const p = { baseUrl: 'http://h/v1', apiKey: '', model: 'm', dialect: 'midscene', bbox: 'norm-yx' as const, temperature: 0.1, maxTokens: 9, stream: true, extraBody: '' };
    expect(normalizeSettings({ profiles: { gemini: p } }).profiles.gemini.bbox).toBe('norm-yx');
  });
});
