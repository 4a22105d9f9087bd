/**
 * Run variables (src/core/run/variables.ts): names come from the dialect's syntax; values are
 * filled in just before the action runs, longest names first; unknown names are reported;
 * secret values are masked in what is shown. (The run's handling of them, with a grammar that
 * has variables, is in run-dialect-extras.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { fillVariables, keptValue, MAX_VARIABLE_CHARS, previewValue, shownVariables, variablesUsed } from '../../src/core/run/variables';
import type { Action } from '../../src/core/action/action';

const syntax = { variableRefs: (t: string) => [...t.matchAll(/\$\w+/g)].map((m) => m[0]) };
const none = {};
const typing = (text: string): Action => ({ type: 'type', target: { kind: 'none' }, text, clear: false, enter: false });

describe('run variables', () => {
  it('lists the names an action uses, once each, only for texts that take them', () => {
    expect(variablesUsed(typing('$a and $b and $a'), syntax)).toEqual(['$a', '$b']);
    expect(variablesUsed({ type: 'llm', prompt: 'Sum up $page', output: '$sum' }, syntax)).toEqual(['$page']);
    expect(variablesUsed({ type: 'navigate', url: 'https://x/$a' }, syntax)).toEqual([]);
    expect(variablesUsed(typing('$a'), none)).toEqual([]);
  });

  it('fills values in, longest names first, and reports unknown names without filling', () => {
    const vars = { $a: { value: 'A', step: 0 }, $ab: { value: 'AB!', step: 1 } };
    const r = fillVariables(typing('x $ab y $a'), syntax, vars);
    expect(r).toEqual({ action: typing('x AB! y A'), missing: [] });
    const llm = fillVariables({ type: 'llm', prompt: 'Sum up $ab', output: '$s' }, syntax, vars);
    expect(llm.action).toEqual({ type: 'llm', prompt: 'Sum up AB!', output: '$s' });
    const unknown = fillVariables(typing('$a $zz'), syntax, vars);
    expect(unknown.missing).toEqual(['$zz']);
    expect(unknown.action).toEqual(typing('$a $zz'));
    expect(fillVariables(typing('$a'), syntax, undefined).missing).toEqual(['$a']);
    // a value holding another name is not filled again
    expect(fillVariables(typing('$ab|$a'), syntax, { $ab: { value: '$a', step: 0 }, $a: { value: 'no', step: 0 } }).action).toEqual(typing('$a|no'));
    // and a value with replacement patterns stays as it is
    expect(fillVariables(typing('$a'), syntax, { $a: { value: "$& $' $1", step: 0 } }).action).toEqual(typing("$& $' $1"));
  });

  it('caps kept values and previews them on one line', () => {
    expect(keptValue('x'.repeat(MAX_VARIABLE_CHARS + 5))).toHaveLength(MAX_VARIABLE_CHARS);
    expect(previewValue('a\n\n b\tc')).toBe('a b c');
    expect(previewValue('y'.repeat(400), 10)).toBe(`${'y'.repeat(10)}…`);
  });

  it('masks secret values in what is shown', () => {
    expect(shownVariables({ $p: { value: 'hunter2', step: 1, secret: true }, $q: { value: 'plain', step: 2 } }, '••••')).toEqual({
      $p: { value: '••••', step: 1, secret: true }, $q: { value: 'plain', step: 2 },
    });
    expect(shownVariables(undefined, '•')).toEqual({});
  });
});
