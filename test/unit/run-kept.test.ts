/**
 * The observed step goes to the model before its history images exist: the state machine asks
 * first ('ask' right after 'observed', with no kept images), and takes the images ('kept') while
 * the model thinks, before the action; the observe step's stages end up in the step's timings.
 */
import { describe, expect, it } from 'vitest';
import { effectOf, reduce } from '../../src/core/run';
import { toTrace } from '../../src/core/trace';
import type { Mark } from '../../src/core/marks';
import { newRun, observation } from '../fixtures/run';

const marks: Mark[] = [{ label: 0, tag: 'button', text: 'Go', rect: { x: 10, y: 10, width: 50, height: 30 } }];
const stages = { settleMs: 40, labelMs: 30, captureMs: 25 };

const obs = (withStages = true) => observation({ url: 'https://example.com/a', marks, screenshot: { dataUrl: 'data:image/jpeg;base64,/9j/AAAA', bytes: 6, width: 1280, height: 800 }, ...(withStages ? { stages } : {}) });

const fresh = () => newRun({ startUrl: 'https://example.com/', model: 'glm-4.5v', maxSteps: 10 });

const kept = { labelled: 'data:image/webp;base64,UklGRg==', clean: 'data:image/webp;base64,UklGRh==' };

describe('kept images and observe stages', () => {
  it('asks the model before the kept images exist; they join the step before the action', () => {
    let s = reduce(fresh(), { type: 'observed', at: 2000, obs: obs(), ms: 120 });
    expect(effectOf(s).kind).toBe('ask');
    expect(s.pending?.kept).toBeUndefined();
    s = reduce(s, { type: 'kept', at: 2100, index: 0, kept, sent: { encodeMs: 1, requestMs: 70 } });
    // still asking: the images change nothing the model or the next effect depends on
    expect(effectOf(s).kind).toBe('ask');
    expect(s.pending?.kept).toEqual(kept);
    s = reduce(s, { type: 'replied', at: 3000, raw: 'Thought: go\nAction: Click [0]\nMemory_Updated: {}', reasoning: null, usage: null, ms: 900 });
    s = reduce(s, { type: 'checked', at: 3000, hit: null });
    s = reduce(s, { type: 'acted', at: 3500, result: { ok: true }, ms: 400 });
    expect(s.steps[0].screenshot).toBe(kept.labelled);
    expect(s.steps[0].cleanScreenshot).toBe(kept.clean);
    expect(s.steps[0].timings.observeStages).toEqual({ ...stages, encodeMs: 1, requestMs: 70 });
    const trace = toTrace(s, [], { excludeScreenshots: true });
    expect(trace.steps[0].timings.observeStages).toEqual({ ...stages, encodeMs: 1, requestMs: 70 });
  });

  it('ignores images for another step, and keeps what it had without them', () => {
    let s = reduce(fresh(), { type: 'observed', at: 2000, obs: obs(), ms: 120 });
    const before = s;
    s = reduce(s, { type: 'kept', at: 2100, index: 3, kept });
    expect(s).toBe(before);
    s = reduce(s, { type: 'replied', at: 3000, raw: 'Thought: go\nAction: Click [0]\nMemory_Updated: {}', reasoning: null, usage: null, ms: 900 });
    s = reduce(s, { type: 'checked', at: 3000, hit: null });
    s = reduce(s, { type: 'acted', at: 3500, result: { ok: true }, ms: 400 });
    // no kept images (a worker restarted before they were stored): the model's own picture is kept
    expect(s.steps[0].screenshot).toBe(obs().screenshot.dataUrl);
    expect(s.steps[0].timings.observeStages).toEqual(stages);
  });

  it('images that could not be made (none, in time) leave the step with the model\'s picture, never with none', () => {
    let s = reduce(fresh(), { type: 'observed', at: 2000, obs: obs(), ms: 120 });
    s = reduce(s, { type: 'kept', at: 2100, index: 0, kept: { labelled: '', clean: '' } });
    s = reduce(s, { type: 'replied', at: 3000, raw: 'Thought: go\nAction: Click [0]\nMemory_Updated: {}', reasoning: null, usage: null, ms: 900 });
    s = reduce(s, { type: 'checked', at: 3000, hit: null });
    s = reduce(s, { type: 'acted', at: 3500, result: { ok: true }, ms: 400 });
    expect(s.steps[0].screenshot).toBe(obs().screenshot.dataUrl);
    expect(s.steps[0].cleanScreenshot).toBe('');
  });

  it('an observation without stages (older versions) records none', () => {
    let s = reduce(fresh(), { type: 'observed', at: 2000, obs: obs(false), ms: 120 });
    s = reduce(s, { type: 'kept', at: 2100, index: 0, kept, sent: { encodeMs: 1, requestMs: 70 } });
    s = reduce(s, { type: 'replied', at: 3000, raw: 'Thought: go\nAction: Click [0]\nMemory_Updated: {}', reasoning: null, usage: null, ms: 900 });
    s = reduce(s, { type: 'checked', at: 3000, hit: null });
    s = reduce(s, { type: 'acted', at: 3500, result: { ok: true }, ms: 400 });
    expect(s.steps[0].timings).not.toHaveProperty('observeStages');
  });
});
