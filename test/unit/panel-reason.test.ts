/** The side panel's stop reason (sidepanel/reason.ts): markup stripped, one line, the rest a click away. */
import { describe, expect, it } from 'vitest';
import { shownReason } from '../../sidepanel/reason';

describe('a stop reason as the person reads it', () => {
  it('a short reason is the line, with nothing more', () => {
    expect(shownReason('Stopped by the user.')).toEqual({ line: 'Stopped by the user.', more: null });
    expect(shownReason(null)).toEqual({ line: '', more: null });
  });

  it('model markup is stripped, in the line and in the details', () => {
    const raw = `The model's reply could not be read 3 times in a row: <think>I should click</think>\n<|begin_of_box|>Click [3]<|end_of_box|> <answer>x</answer> and then ${'more words '.repeat(20)}`;
    const r = shownReason(raw);
    for (const s of [r.line, r.more!]) expect(s).not.toMatch(/<think>|<\/think>|<\|begin_of_box\|>|<\|end_of_box\|>|<answer>/);
    expect(r.more).toContain('I should click');
    expect(r.more).toContain('Click [3]');
  });

  it('a long reason: one line of at most 161 characters, cut at a word, with the whole text kept', () => {
    const long = `Failed: ${'the page did something unexpected '.repeat(12)}end`;
    const r = shownReason(long);
    expect(r.line.length).toBeLessThanOrEqual(161);
    expect(r.line.endsWith('…')).toBe(true);
    expect(long.startsWith(r.line.slice(0, -1))).toBe(true);
    expect(r.line.slice(0, -1)).not.toMatch(/\s$/);
    expect(r.more).toBe(long);
  });
});
