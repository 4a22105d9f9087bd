import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { glmWeb } from '../../src/core/dialects/glm-web';
import { isParseError, type Action, type ParsedStep, type ParseError } from '../../src/core/action/action';
import { cpuBudget } from '../fixtures/cpu-budget';

const SHOT = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } };
const parse = (c: string, r?: string | null) => glmWeb.parseReply(c, r ?? null, SHOT);

function ok(x: ParsedStep | ParseError): ParsedStep {
  if (isParseError(x)) throw new Error(`expected a step, got error: ${x.error}`);
  return x;
}
function err(x: ParsedStep | ParseError): ParseError {
  if (!isParseError(x)) throw new Error(`expected an error, got ${JSON.stringify(x.action)}`);
  return x;
}

const MEM = '\nMemory_Updated: {"a": 1}';
const glm = (action: string, thought = 'I look at the page.') =>
  `<think>The page shows a search bar.</think><answer>Thought: ${thought}\nAction: <|begin_of_box|>${action}<|end_of_box|>${MEM}</answer>`;

const click = (label: number): Action => ({ type: 'click', target: { kind: 'label', label }, button: 'left', count: 1 });
const type = (label: number, text: string): Action => ({ type: 'type', target: { kind: 'label', label }, text, clear: true, enter: true });
const scroll = (t: number | 'w', direction: 'up' | 'down'): Action => ({
  type: 'scroll', target: t === 'w' ? { kind: 'window' } : { kind: 'label', label: t }, direction,
});
const answer = (text: string): Action => ({ type: 'answer', text });

// [reply, expected action]
const TABLE: Array<[string, Action]> = [
  // the plain template forms
  [glm('Click [3]'), click(3)],
  [glm('Click [3].'), click(3)],
  [glm('Click 12'), click(12)],
  [glm('Click [5] to open the search box'), click(5)],
  [glm('click [7]'), click(7)],
  [glm('Type [2]; [5$]'), type(2, '5$')],
  [glm('Type [2]; [machine learning stars:>500].'), type(2, 'machine learning stars:>500')],
  [glm('Type [2]; [array [i] index]'), type(2, 'array [i] index')],
  [glm('Type [2]; Baked Salmon'), type(2, 'Baked Salmon')],
  [glm('Type [2]; ["quoted text"]'), type(2, 'quoted text')],
  [glm('Type [2]; "quoted text".'), type(2, 'quoted text')],
  [glm('Type [4]; []'), type(4, '')],
  [glm('Type 4; hello world'), type(4, 'hello world')],
  [glm('Scroll [WINDOW]; [down]'), scroll('w', 'down')],
  [glm('Scroll [window]; [UP].'), scroll('w', 'up')],
  [glm('Scroll [6]; [up]'), scroll(6, 'up')],
  [glm('Scroll [WINDOW]; down'), scroll('w', 'down')],
  [glm('Scroll down'), scroll('w', 'down')],
  [glm('Scroll [down]'), scroll('w', 'down')],
  [glm('Wait'), { type: 'wait' }],
  [glm('Wait.'), { type: 'wait' }],
  [glm('GoBack.'), { type: 'goBack' }],
  [glm('Go Back'), { type: 'goBack' }],
  [glm('Bing.'), { type: 'search' }],
  [glm('Google'), { type: 'search' }],
  [glm('Key; [Return]'), { type: 'key', keys: 'Enter' }],
  [glm('Key; [Enter].'), { type: 'key', keys: 'Enter' }],
  [glm('Key; Return'), { type: 'key', keys: 'Enter' }],
  [glm('Key；【回车】'), { type: 'key', keys: 'Enter' }],
  [glm('ANSWER; <content>Guatemala</content>.'), answer('Guatemala')],
  [glm('ANSWER; <content>a [b] </content> c</content>'), answer('a [b] </content> c')],
  [glm('answer; The repo is huggingface/transformers'), answer('The repo is huggingface/transformers')],
  [glm('ANSWER; [Taylor Swift]'), answer('Taylor Swift')],
  // box tokens with spaces, start_of_box, no box
  ['<answer>Thought: t\nAction: <|begin_of_box|> Click [3] <|end_of_box|>\nMemory_Updated: {}</answer>', click(3)],
  ['Thought: t\nAction: < |begin_of_box| >Click [8]< |end_of_box| >\nMemory_Updated: {}', click(8)],
  ['Thought: t\nAction: <|start_of_box|>Click [4]<|end_of_box|>\nMemory_Updated: {}', click(4)],
  ['Thought: t\nAction: Click [4]\nMemory_Updated: {}', click(4)],
  // unclosed <answer>, no Thought, markdown, fences, full width
  ['<think>r</think><answer>Thought: t\nAction: Click [6]\nMemory_Updated: {"x": 1}', click(6)],
  ['Action: Wait\nMemory_Updated: {}', { type: 'wait' }],
  ['**Thought:** the list\n**Action:** `Click [11]`\n**Memory_Updated:** {}', click(11)],
  ['**Thought**: t\n**Action**: **Scroll [WINDOW]; [down]**\n**Memory Updated**: {}', scroll('w', 'down')],
  ['```\nThought: t\nAction: Click [2]\nMemory_Updated: {}\n```', click(2)],
  ['Thought: t\nAction:\n```\nType [3]; [query]\n```\nMemory_Updated: {}', type(3, 'query')],
  ['Thought：看搜索框\nAction：Click［１５］\nMemory_Updated：{}', click(15)],
  ['Thought：搜索\nAction：Type【２】；【北京：天安门】\nMemory_Updated：{}', type(2, '北京：天安门')],
  ['Thought: t\nACTION: CLICK [9]\nMEMORY_UPDATED: {}', click(9)],
  ['Thought: t\n### Action: Click [9]\nMemory_Updated: {}', click(9)],
  ['Thought: the Action is to click. Action: Click [13]', click(13)],
  ['<|begin_of_box|>Click [3]<|end_of_box|>', click(3)],
  // multi-line answers
  ['Thought: done\nAction: ANSWER; <content>1. A\n2. B\n3. C</content>\nMemory_Updated: {"top": 3}', answer('1. A\n2. B\n3. C')],
  ['Thought: done\nAction: ANSWER; <content>x\nMemory_Updated: not this\ny</content>\nMemory_Updated: {}', answer('x\nMemory_Updated: not this\ny')],
  ['Thought: done\nAction: ANSWER; <content>unclosed answer\nMemory_Updated: {}', answer('unclosed answer')],
  ['Thought: done\nAction: ANSWER; Top 5:\n1. Life Is Beautiful\n2. Back to the Future\nMemory_Updated: {}', answer('Top 5:\n1. Life Is Beautiful\n2. Back to the Future')],
];

describe('glm-web parseReply: every form real models write', () => {
  it.each(TABLE)('%j', (reply, want) => {
    const s = ok(parse(reply));
    expect(s.action).toEqual(want);
    expect(s.actionText).toMatch(/^(Click|Type|Scroll|Wait|GoBack|Bing|Key|ANSWER)/);
  });

  it('reads thought, memory and reasoning from a GLM reply', () => {
    const s = ok(parse(glm('Click [3]', 'The search box is [3].')));
    expect(s.thought).toBe('The search box is [3].');
    expect(s.memory).toEqual({ a: 1 });
    expect(s.reasoning).toBe('The page shows a search bar.');
    expect(s.actionText).toBe('Click [3]');
    expect(s.notes).toEqual([]);
  });

  it('writes the canonical action text', () => {
    expect(ok(parse(glm('type 2; hello'))).actionText).toBe('Type [2]; [hello]');
    expect(ok(parse(glm('Scroll down'))).actionText).toBe('Scroll [WINDOW]; [down]');
    expect(ok(parse(glm('Go Back'))).actionText).toBe('GoBack');
    expect(ok(parse(glm('Google'))).actionText).toBe('Bing');
    expect(ok(parse(glm('Key; [Enter]'))).actionText).toBe('Key; [Return]');
    expect(ok(parse(glm('ANSWER; 42'))).actionText).toBe('ANSWER; <content>42</content>');
  });

  it('peels reasoning in all its forms', () => {
    const nested = ok(parse('<think>a</think> more <think>b</think>Thought: t\nAction: Click [1]\nMemory_Updated: {}'));
    expect(nested.action).toEqual(click(1));
    expect(nested.reasoning).toContain('more');
    // reasoning_content field
    const sep = ok(parse('Thought: t\nAction: Click [2]\nMemory_Updated: {}', 'thinking about it'));
    expect(sep.reasoning).toBe('thinking about it');
    // the action is not taken from reasoning when the reply has one
    expect(ok(parse('<think>Action: Click [7]</think>Action: Click [2]')).action).toEqual(click(2));
    // only reasoning_content filled: its last Action counts
    const only = ok(parse('', 'Maybe Action: Click [1]?\nThought: t\nAction: Click [5]\nMemory_Updated: {"k": 2}'));
    expect(only.action).toEqual(click(5));
    expect(only.memory).toEqual({ k: 2 });
    // unclosed <think>: cut off while thinking
    const cut = ok(parse('<think>I will do\nAction: Scroll [WINDOW]; [down]'));
    expect(cut.action).toEqual(scroll('w', 'down'));
    // reasoning prose is never a bare action
    expect(err(parse('<think>Wait, the page is loading</think>')).error).toMatch(/no 'Action:' line/);
  });

  it('notes extra actions and runs the first', () => {
    const s = ok(parse('Thought: t\nAction: Click [3]\nAction: Type [4]; [x]\nMemory_Updated: {}'));
    expect(s.action).toEqual(click(3));
    expect(s.notes).toContain('Only the first action was run; the rest were ignored.');
    expect(ok(parse('Thought: t\nAction: Click [3]\n2. Scroll [WINDOW]; [down]\nMemory_Updated: {}')).notes).toHaveLength(1);
    // an explanation line is not an action
    expect(ok(parse('Thought: t\nAction: Click [3]\nWait, this opens the menu.\nMemory_Updated: {}')).notes).toEqual([]);
  });

  it('parses and repairs memory', () => {
    const mem = (m: string) => ok(parse(`Thought: t\nAction: Click [1]\nMemory_Updated: ${m}`));
    expect(mem('{"a": {"b": [1, 2]}}').memory).toEqual({ a: { b: [1, 2] } });
    expect(mem("{'name': 'Bob', 'ok': True, 'x': None, 'n': False}").memory).toEqual({ name: 'Bob', ok: true, x: null, n: false });
    expect(mem('{"a": 1, "b": [1, 2,],}').memory).toEqual({ a: 1, b: [1, 2] });
    expect(mem("{'quote': \"it's\", 'q2': 'say \"hi\"'}").memory).toEqual({ quote: "it's", q2: 'say "hi"' });
    expect(mem('```json\n{"a": 1}\n```').memory).toEqual({ a: 1 });
    expect(mem('{"a": "}"} and some trailing words').memory).toEqual({ a: '}' });
    for (const empty of ['[]', '{}', 'None', '', 'null']) {
      const s = mem(empty);
      expect(s.memory).toEqual({});
      expect(s.notes).toEqual([]);
    }
    const bad = mem('{"a": 1');
    expect(bad.memory).toBeNull();
    expect(bad.notes).toContain('Memory_Updated was not valid JSON; the previous memory was kept.');
    expect(mem('the user wants stars').memory).toBeNull();
    expect(ok(parse('Thought: t\nAction: Click [1]')).memory).toBeNull();
  });
});

describe('glm-web parseReply: errors', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /empty/],
    ['Thought: I am not sure what to do.', /No 'Action:' line found/],
    ['Thought: t\nAction: Hover [3]\nMemory_Updated: {}', /Unknown action 'Hover \[3\]'/],
    ['Thought: t\nAction: Click the login button\nMemory_Updated: {}', /Click needs a numerical label/],
    ['Thought: t\nAction: Click [Numerical_Label]', /Click needs a numerical label/],
    ['Thought: t\nAction: Type [3]\nMemory_Updated: {}', /Type needs the text/],
    ['Thought: t\nAction: Type; [hello]', /Type needs a numerical label/],
    ['Thought: t\nAction: Scroll [WINDOW]', /Scroll needs a direction/],
    ['Thought: t\nAction: Key; [Tab]', /Only the Return key/],
    ['Thought: t\nAction: Key', /Key needs a key name/],
    ['Thought: t\nAction: ANSWER; <content></content>', /ANSWER needs the answer text/],
    ['Thought: t\nAction:\nMemory_Updated: {}', /'Action:' line is empty/],
  ];
  it.each(cases)('%j', (reply, message) => {
    expect(err(parse(reply)).error).toMatch(message);
  });

  it('keeps the reasoning on errors', () => {
    expect(err(parse('<think>hmm</think>nothing')).reasoning).toBe('hmm');
  });

  it('finishes on hostile input without throwing (catastrophic backtracking would hit the test timeout)', () => {
    const shapes: Array<(p: string) => string> = [
      (p) => `Action:${p}x`,
      (p) => `action${p}`,
      (p) => `Thought:${p}\nAction: Scroll${p}[1]${p}x`,
      (p) => `Action: Type${p}[1]${p};${p}x${p}y`,
      (p) => `Action: Click${p}x`,
      (p) => `Action: Key;${p}.${p}x`,
      (p) => `Action: ANSWER;${p}x${p}`,
      (p) => `Action: Wait\n${p}Wait${p}x\nAction${p}x`,
      (p) => `Action: Click [1]\nMemory_Updated: {${p}'a'${p}:${p}1${p},${p}`,
      (p) => `<think>${p}</think>${p}<answer>${p}<|begin_of_box|${p}`,
    ];
    for (const c of [' ', '\t', '*', '[', '{', "'", ',', '.', '\n ', '`', '\u3000']) {
      for (const shape of shapes) parse(shape(c.repeat(40000)));
    }
  }, cpuBudget(800)); // 110 replies of 40-400 kB: about 0.75 s alone; backtracking would take minutes

  it('never throws on garbage', () => {
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const bits = ['Action:', 'Thought:', 'Memory_Updated:', '<think>', '</think>', '<answer>', '</answer>', '<|begin_of_box|>',
      '[', ']', '；', '：', 'Click', 'Type', 'ANSWER;', '<content>', '</content>', '{', '}', "'", '"', '\n', ' ', '3', 'Ｘ', '\\'];
    for (let i = 0; i < 3000; i++) {
      let s = '';
      const n = Math.floor(rand() * 25);
      for (let j = 0; j < n; j++) {
        s += rand() < 0.5 ? bits[Math.floor(rand() * bits.length)] : String.fromCharCode(Math.floor(rand() * 0x3000));
      }
      const r = parse(s, rand() < 0.2 ? s : null);
      expect(typeof r).toBe('object');
      if (!isParseError(r)) expect(typeof r.actionText).toBe('string');
    }
    expect(isParseError(parse(undefined as unknown as string, undefined))).toBe(true);
    expect(isParseError(parse(null as unknown as string, null))).toBe(true);
  });
});

interface Fixture { file: string; index: number; content: string }
const replies: Fixture[] = JSON.parse(
  readFileSync(new URL('../fixtures/glm-web/webvoyager-replies.json', import.meta.url), 'utf8'),
);
const TYPES: Record<string, Action['type']> = {
  click: 'click', type: 'type', scroll: 'scroll', wait: 'wait', goback: 'goBack', bing: 'search', google: 'search', answer: 'answer',
};

describe('glm-web parseReply: the 15 WebVoyager runs', () => {
  it('has all the assistant replies', () => {
    expect(replies.length).toBe(90);
    expect(new Set(replies.map((r) => r.file)).size).toBe(15);
  });

  it.each(replies.map((r) => [`${r.file}#${r.index}`, r] as const))('%s', (_, r) => {
    // Expected values straight from the text, independent of the parser.
    const line = /^Action: (.*)$/m.exec(r.content)![1];
    const word = /^[A-Za-z]+/.exec(line)![0].toLowerCase();
    const s = ok(parse(r.content));
    expect(s.action.type).toBe(TYPES[word]);
    expect(s.thought).toBe(/^Thought: (.*)$/m.exec(r.content)![1].trim());
    const label = /^\w+ \[(\d+)\]/.exec(line);
    if (s.action.type === 'click' || s.action.type === 'type') expect(s.action.target).toEqual({ kind: 'label', label: Number(label![1]) });
    if (s.action.type === 'type') expect(s.action.text).toBe(line.slice(line.indexOf(';') + 1).trim());
    if (s.action.type === 'scroll') expect(s.action.direction).toBe(/; (up|down)$/.exec(line.trim())![1]);
    if (s.action.type === 'answer') {
      expect(s.action.text).toBe(r.content.slice(r.content.indexOf('ANSWER;') + 'ANSWER;'.length).trim());
    }
    expect(s.notes).toEqual(['No Memory_Updated was given; the previous memory was kept.']);
  });
});
