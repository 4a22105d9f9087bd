import { describe, expect, it } from 'vitest';
import { diffMemory, isEmptyDiff, sameValue } from '../../src/core/memory-diff';

describe('diffMemory', () => {
  it('the first step: every key is added', () => {
    const d = diffMemory(null, { goal: 0, notes: ['a'] });
    expect(d).toEqual({ added: [{ key: 'goal', value: 0 }, { key: 'notes', value: ['a'] }], removed: [], changed: [] });
    expect(diffMemory(undefined, { x: 1 }).added).toEqual([{ key: 'x', value: 1 }]);
    expect(diffMemory({}, { x: 1 }).added).toEqual([{ key: 'x', value: 1 }]);
  });

  it('added, removed and changed keys at once', () => {
    const d = diffMemory({ goal: 0, keep: 'same', old: true }, { goal: 1, keep: 'same', answer: '$5' });
    expect(d.added).toEqual([{ key: 'answer', value: '$5' }]);
    expect(d.removed).toEqual([{ key: 'old', value: true }]);
    expect(d.changed).toEqual([{ key: 'goal', before: 0, after: 1 }]);
    expect(isEmptyDiff(d)).toBe(false);
  });

  it('equal memories: no difference, whatever the key order of nested objects', () => {
    const d = diffMemory({ a: { x: 1, y: [1, { z: 2 }] }, b: null }, { b: null, a: { y: [1, { z: 2 }], x: 1 } });
    expect(isEmptyDiff(d)).toBe(true);
    expect(isEmptyDiff(diffMemory({}, {}))).toBe(true);
  });

  it('nested changes count as a change of the top-level key', () => {
    const d = diffMemory({ cart: { items: 1 } }, { cart: { items: 2 } });
    expect(d.changed).toEqual([{ key: 'cart', before: { items: 1 }, after: { items: 2 } }]);
    expect(diffMemory({ l: [1, 2] }, { l: [2, 1] }).changed).toHaveLength(1);
    expect(diffMemory({ l: [1] }, { l: { 0: 1 } }).changed).toHaveLength(1);
  });

  it('a value turning null, or a type change, is a change; an undefined value is absence', () => {
    expect(diffMemory({ a: 1 }, { a: null }).changed).toEqual([{ key: 'a', before: 1, after: null }]);
    expect(diffMemory({ a: '1' }, { a: 1 }).changed).toHaveLength(1);
    const d = diffMemory({ a: 1, u: undefined }, { a: 1, v: undefined });
    expect(isEmptyDiff(d)).toBe(true);
  });

  it('non-object memories are treated as empty', () => {
    expect(diffMemory([1] as unknown as Record<string, unknown>, { a: 1 }).added).toEqual([{ key: 'a', value: 1 }]);
  });
});

describe('sameValue', () => {
  it('compares deeply', () => {
    expect(sameValue({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toBe(true);
    expect(sameValue({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue(NaN, NaN)).toBe(true);
    expect(sameValue(null, {})).toBe(false);
  });
});
