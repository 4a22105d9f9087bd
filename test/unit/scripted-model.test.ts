/** The scripted players' words (scripts/scripted-model.ts): a person reads their thoughts, so no regex shows. */
import { describe, expect, it } from 'vitest';
import { scriptedPolicy, wordsOf } from '../../scripts/scripted-model';

describe('the scripted model speaks in words', () => {
  it('names what a goal looks for without regex syntax', () => {
    expect(wordsOf(/^Hardcover$/)).toBe('"Hardcover"');
    expect(wordsOf(/search books/i)).toBe('"search books"');
    expect(wordsOf(/format|paperback/i)).toBe('"format" or "paperback"');
  });

  it('a goal it cannot see yet: the thought says what, in words, and it scrolls', () => {
    const reply = scriptedPolicy([{ do: 'click', find: /^Hardcover$/ }], 'plain')({ history: [], elements: [] } as never);
    expect(reply.content).toContain('Thought: I cannot see "Hardcover" yet; scrolling down.');
    expect(reply.content).not.toMatch(/\/\^|\$\//);
  });
});
