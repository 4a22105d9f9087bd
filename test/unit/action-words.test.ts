/**
 * The one description of an action a person reads (core/run/person-text.ts): the action with the
 * element it acted on, for label and point actions, old traces without a recorded target, and
 * the runner's one-line escaping of page text.
 */
import { describe, expect, it } from 'vitest';
import { actedElement, actionInWords, actionWords, describedAction, elementInWords, oneLine, stepActionInWords } from '../../src/core/run/person-text';
import { DIALECTS } from '../../src/core/dialects/registry';
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

describe('every dialect\'s step in words (issue 45 item 17)', () => {
  const zh = translatorFor('zh_CN');
  const point = { kind: 'point', x: 586.4, y: 446.2 } as const;
  const all: Action[] = [
    { type: 'click', target: point, button: 'left', count: 1 },
    { type: 'click', target: point, button: 'left', count: 2 },
    { type: 'click', target: point, button: 'right', count: 1 },
    { type: 'click', target: point, button: 'middle', count: 1 },
    { type: 'hover', target: point },
    { type: 'press', target: point },
    { type: 'drag', target: point, to: { x: 10, y: 20 } },
    { type: 'type', target: { kind: 'none' }, text: 'kettle', clear: true, enter: false },
    { type: 'type', target: point, text: 'kettle', clear: true, enter: true },
    { type: 'scroll', target: { kind: 'window' }, direction: 'down', ticks: 5 },
    { type: 'scroll', target: point, direction: 'up', until: true },
    { type: 'key', keys: 'ctrl+a' },
    { type: 'wait' }, { type: 'goBack' }, { type: 'goHome' }, { type: 'search' },
    { type: 'navigate', url: 'https://a.example/' }, { type: 'openApp', name: 'Broccoli' },
    { type: 'quote', target: point, box: { x: 1, y: 2, width: 3, height: 4 }, all: false, output: '__CogName_Price__' },
    { type: 'llm', prompt: 'Write 42 in words', output: '__CogName_Words__' },
    { type: 'clipboard', output: '__CogName_Clip__' },
    { type: 'answer', text: 'EUR 54.50' }, { type: 'reply', text: 'Which size?' },
    { type: 'finish', outcome: 'done', text: 'added' }, { type: 'finish', outcome: 'done', text: '' },
    { type: 'finish', outcome: 'failed', text: 'sold out' }, { type: 'finish', outcome: 'failed', text: '' },
  ];

  it('each action type has its own words in English and in Chinese, with its values and no placeholder or key left', () => {
    const en = all.map((a) => actionWords(a, null));
    const cn = all.map((a) => actionWords(a, null, zh));
    expect(new Set(en).size).toBe(all.length);
    expect(new Set(cn).size).toBe(all.length);
    for (const w of [...en, ...cn]) expect(w).not.toMatch(/\$\d|^do[A-Z]|place[A-Z]|dir[A-Z]/);
    expect(en[0]).toBe('Click the point (586, 446)');
    expect(en[8]).toBe('Type “kettle” into the point (586, 446), then press Enter');
    expect(en[9]).toBe('Scroll the page down');
    expect(cn[9]).toBe('将页面向下滚动');
    expect(en[21]).toBe('Answer: EUR 54.50');
    expect(cn[21]).toBe('回答：EUR 54.50');
  });

  it('names the element when one is known', () => {
    expect(actionWords(all[0], { tag: 'a', text: 'Clean Code' })).toBe('Click <a> "Clean Code"');
    expect(actionWords(all[7], { tag: 'input', text: 'Search the shop' }, zh)).toBe('在 <input> "Search the shop" 中输入“kettle”');
  });

  it('a dialect whose calls are words (glm-web) shows its call; every other dialect shows words, with its call as written kept', () => {
    const midscene = '{"type": "Tap", "locate": {"bbox": [10, 20, 30, 40], "prompt": ""}}';
    expect(describedAction('midscene', midscene, all[0], { tag: 'a', text: 'Clean Code' })).toEqual({ words: 'Click <a> "Clean Code"', raw: midscene });
    expect(describedAction('glm-web', 'Click [5]', click(5), { tag: 'a', text: 'Clean Code' })).toEqual({ words: 'Click [5] <a> "Clean Code"', raw: null });
    // a step without an action (unreadable, the person's) shows what it has
    expect(describedAction('ui-tars', 'You took over', null, null)).toEqual({ words: 'You took over', raw: null });
    const declared = Object.values(DIALECTS).filter((d) => d.callsReadAsWords).map((d) => d.id);
    expect(declared).toEqual(['glm-web']);
  });
});
