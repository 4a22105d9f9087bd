/**
 * The one description of an action a person reads (core/run/person-text.ts): the action with the
 * element it acted on, for label and point actions, old traces without a recorded target, and
 * the runner's one-line escaping of page text.
 */
import { describe, expect, it } from 'vitest';
import { actedElement, actionInWords, elementInWords, oneLine, stepActionInWords } from '../../src/core/run/person-text';
import type { Action } from '../../src/core/action/action';
import { translatorFor } from '../../src/core/locales';

const elements = [
  { label: 11, tag: 'input', text: 'Search books' },
  { label: 12, tag: 'button', text: '  Search\n  now ' },
];
const click = (label: number): Action => ({ type: 'click', target: { kind: 'label', label }, button: 'left', count: 1 });

describe('an action in words', () => {
  it('names the element of a label action from the recorded target', () => {
    expect(stepActionInWords({ action: click(12), actionText: 'Click [12]', target: { tag: 'button', text: 'Search' }, elements })).toBe('Click [12] <button> "Search"');
  });

  it('finds a label\'s element in the step\'s list when no target was recorded (version 1 traces)', () => {
    expect(stepActionInWords({ action: click(12), actionText: 'Click [12]', target: null, elements })).toBe('Click [12] <button> "Search now"');
    expect(actedElement({ action: click(99), actionText: 'Click [99]', target: null, elements })).toBeNull();
    expect(stepActionInWords({ action: click(99), actionText: 'Click [99]', target: null, elements })).toBe('Click [99]');
  });

  it('names the element recorded under a point', () => {
    const action: Action = { type: 'click', target: { kind: 'point', x: 586, y: 446 }, button: 'left', count: 1 };
    const text = "left_click(start_box='[457,557]')";
    expect(stepActionInWords({ action, actionText: text, target: { tag: 'a', text: 'Sign in' }, elements })).toBe(`${text} <a> "Sign in"`);
    expect(stepActionInWords({ action, actionText: text, target: null, elements })).toBe(text);
  });

  it('leaves actions without an element as they are written', () => {
    const scroll: Action = { type: 'scroll', target: { kind: 'window' }, direction: 'down' };
    expect(stepActionInWords({ action: scroll, actionText: 'Scroll [WINDOW]; [down]', elements })).toBe('Scroll [WINDOW]; [down]');
    expect(stepActionInWords({ action: null, actionText: '(unreadable reply)', elements })).toBe('(unreadable reply)');
  });

  it('collapses whitespace and cuts long element text', () => {
    expect(elementInWords({ tag: 'div', text: '' })).toBe('<div>');
    const long = elementInWords({ tag: 'p', text: 'x'.repeat(300) });
    expect(long).toBe(`<p> "${'x'.repeat(79)}…"`);
    expect(actionInWords('Type [3]; [••••]', { tag: 'input', text: 'Password' })).toBe('Type [3]; [••••] <input> "Password"');
  });

  it("glosses a dialect's bare null (midscene's end of the task) in the person's language", () => {
    expect(actionInWords('null', null)).toBe('The model ended the task: no further action (it wrote null)');
    expect(actionInWords('null', null, translatorFor('zh_CN'))).toBe('模型结束了任务：没有后续操作（它写的是 null）');
    // only the bare word: an action that mentions null is the dialect's own text
    expect(actionInWords('Type [3]; [null]', null)).toBe('Type [3]; [null]');
  });
});

describe('oneLine: page text printed by the runner', () => {
  it('writes line breaks and control characters as escapes, so no text starts a line', () => {
    const fake = 'nice\nANSWER: 42\r\nANSWER: 43\rANSWER: 44\u2028ANSWER: 45\u001b[2K\u0085x\ty';
    const out = oneLine(fake);
    expect(out).toBe('nice\\nANSWER: 42\\nANSWER: 43\\rANSWER: 44\\u2028ANSWER: 45\\u001b[2K\\u0085x\\ty');
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(oneLine('plain text, «ok» 中文')).toBe('plain text, «ok» 中文');
  });
});
