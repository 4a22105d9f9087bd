/**
 * midscene's bounding-box convention (its "bbox" option) goes with the run: kept when the run
 * starts (only for a dialect that has the option), the reply's boxes are read in it, the action is
 * written in it, and the setting is normalized and kept with a profile. Settings, profiles, runs
 * and queued jobs saved before it was an option keep their value (issue 44).
 */
import { describe, expect, it } from 'vitest';
import { createRun, reduce, upgradeRun, type RunState } from '../../src/core/run';
import { normalizeSettings, withProfile } from '../../src/core/settings';
import { choicesOf } from '../../src/core/run-options';
import { observation, reply } from '../fixtures/run';

const obs = () => observation({ title: 'Shop', viewport: { width: 1000, height: 500, devicePixelRatio: 1 }, screenshot: { dataUrl: 'data:image/png;base64,AAAA', bytes: 3, width: 1000, height: 500 } });

function run(dialect: string, bbox?: string): RunState {
  return createRun({ id: 'r1', task: 'tap it', startUrl: 'https://shop.example/', tabId: 7, dialect, model: 'm', baseUrl: 'http://h/v1', maxSteps: 9, at: 1000, ...(bbox ? { dialectOptions: { bbox } } : {}) });
}

const TAP = '{"log": "tap", "more_actions_needed_by_instruction": true, "action": {"type": "Tap", "locate": {"bbox": [100, 200, 100, 200], "prompt": "x"}}}';

describe('the bounding-box convention in a run', () => {
  it('is kept only for a dialect that has the option, and a value not among its choices is the default', () => {
    expect(run('midscene', 'pixels').dialectOptions).toEqual({ bbox: 'pixels' });
    expect(run('midscene').dialectOptions).toEqual({ bbox: 'norm-xy' });
    expect(run('midscene', 'sideways').dialectOptions).toEqual({ bbox: 'norm-xy' });
    expect(run('glm-web', 'pixels').dialectOptions).toBeUndefined();
  });

  for (const [bbox, at] of [[undefined, { x: 100, y: 100 }], ['norm-yx', { x: 200, y: 50 }], ['pixels', { x: 100, y: 200 }]] as const) {
    it(`reads the reply's box in it (${bbox ?? 'default'}) and writes the action in it`, () => {
      let s = reduce(run('midscene', bbox), { type: 'observed', at: 2000, obs: obs(), ms: 10 });
      s = reduce(s, reply(TAP));
      expect(s.pending?.reply?.action).toMatchObject({ type: 'click', target: { kind: 'point', ...at } });
      expect(s.pending?.reply?.actionText).toContain('"bbox": [100, 200, 100, 200]');
    });
  }

  it('the setting is normalized and kept with a saved profile, which brings it back when loaded', () => {
    expect(normalizeSettings({ dialectOptions: { midscene: { bbox: 'sideways' } } }).dialectOptions.midscene).toEqual({ bbox: 'norm-xy' });
    const p = { baseUrl: 'http://h/v1', apiKey: '', model: 'm', dialect: 'midscene', temperature: 0.1, maxTokens: 9, stream: true, extraBody: '', dialectOptions: { bbox: 'norm-yx' } };
    const s = normalizeSettings({ profiles: { gemini: p } });
    expect(s.profiles.gemini.dialectOptions).toEqual({ bbox: 'norm-yx' });
    expect(withProfile(s, s.profiles.gemini).dialectOptions.midscene).toEqual({ bbox: 'norm-yx' });
  });
});

describe('values saved before bbox and device were options', () => {
  it('stored settings: the old fields become the options of those names', () => {
    const s = normalizeSettings({ bbox: 'pixels', appagentDevice: 'desktop' } as never);
    expect(s.dialectOptions.midscene).toEqual({ bbox: 'pixels' });
    expect(s.dialectOptions.appagent).toEqual({ device: 'desktop' });
    expect('bbox' in s || 'appagentDevice' in s).toBe(false);
    // an option set since wins over the old field; an old value not among the choices is the default
    expect(normalizeSettings({ bbox: 'pixels', dialectOptions: { midscene: { bbox: 'norm-yx' } } } as never).dialectOptions.midscene).toEqual({ bbox: 'norm-yx' });
    expect(normalizeSettings({ appagentDevice: 'tablet' } as never).dialectOptions.appagent).toEqual({ device: 'phone' });
  });

  it('a saved profile: its old bbox becomes its dialect\'s option', () => {
    const old = { baseUrl: 'http://h/v1', apiKey: 'k', model: 'qwen2.5-vl', dialect: 'midscene', bbox: 'pixels', temperature: 0.1, maxTokens: 9, stream: true, extraBody: '' };
    expect(normalizeSettings({ profiles: { qwen: old } } as never).profiles.qwen).toMatchObject({ model: 'qwen2.5-vl', dialectOptions: { bbox: 'pixels' } });
    expect(normalizeSettings({ profiles: { qwen: old } } as never).profiles.qwen).not.toHaveProperty('bbox');
  });

  it('a saved run: its bbox or device moves into its options; a run of another dialect drops them', () => {
    const base = run('midscene');
    const { dialectOptions: _o, ...before } = base;
    expect(upgradeRun({ ...before, bbox: 'norm-yx' } as never).dialectOptions).toEqual({ bbox: 'norm-yx' });
    expect(upgradeRun({ ...before, bbox: 'norm-yx' } as never)).not.toHaveProperty('bbox');
    expect(upgradeRun({ ...before, dialect: 'appagent', device: 'desktop' } as never).dialectOptions).toEqual({ device: 'desktop' });
    expect(upgradeRun({ ...before, dialect: 'glm-web', bbox: 'pixels', device: 'phone' } as never)).not.toHaveProperty('bbox');
    expect(upgradeRun({ ...before, dialect: 'glm-web', bbox: 'pixels' } as never).dialectOptions).toBeUndefined();
    // a run of today keeps what it has
    expect(upgradeRun(run('midscene', 'pixels')).dialectOptions).toEqual({ bbox: 'pixels' });
  });

  it('a queued job: config.bbox / config.appagentDevice count as the options where the dialect has them', () => {
    const job = (config: Record<string, unknown>) => choicesOf({ config: { baseUrl: 'http://h/v1', model: 'm', ...config }, width: 1280, height: 800, headed: false, files: [] });
    expect(job({ dialect: 'midscene', bbox: 'pixels', appagentDevice: 'phone' }).dialectOptions).toEqual({ bbox: 'pixels' });
    expect(job({ dialect: 'appagent', bbox: 'pixels', appagentDevice: 'desktop' }).dialectOptions).toEqual({ device: 'desktop' });
    expect(job({ dialect: 'glm-web', bbox: 'pixels' }).dialectOptions).toBeUndefined();
    expect(job({ dialect: 'midscene', bbox: 'pixels', dialectOptions: { midscene: { bbox: 'norm-yx' } } }).dialectOptions).toEqual({ bbox: 'norm-yx' });
  });
});
