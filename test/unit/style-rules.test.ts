import { describe, expect, it } from 'vitest';
import { hostSelectors, splitSelectors } from '../../content-scripts/labeler/style-rules';

describe('splitSelectors', () => {
  it('splits a selector list at its top-level commas only', () => {
    expect(splitSelectors('a, b > c')).toEqual(['a', ' b > c']);
    expect(splitSelectors(':is(:disabled, [aria-disabled]) .x, y')).toEqual([':is(:disabled, [aria-disabled]) .x', ' y']);
    expect(splitSelectors('[title="a,b"], [data-x=\'c,d\']')).toEqual(['[title="a,b"]', " [data-x='c,d']"]);
    expect(splitSelectors('[title="a\\",b"], p')).toEqual(['[title="a\\",b"]', ' p']);
    expect(splitSelectors('a:not(.b, .c)::before')).toEqual(['a:not(.b, .c)::before']);
  });
  it('gives the hosts of ::before / ::after rules without breaking :is()', () => {
    expect(hostSelectors(':is(.a, .b)::before, p', true)).toEqual([':is(.a, .b)']);
  });
});
