/**
 * The cogagent dialect beyond the conformance suite: the query's exact lines (history, observations,
 * platform), run variables, the sensitive marker, END's answer, key names of both platforms, the
 * operations it writes, the live preview and the format-error observation.
 */
import { describe, expect, it } from 'vitest';
import { cogagent, historyLine, queryText } from '../../../src/core/dialects/cogagent';
import { isParseError, type Action, type ParsedStep } from '../../../src/core/action/action';
import { normalizeKeys } from '../../../src/core/action/keys';
import { promptTextOf } from '../../../src/core/dialects/request';
import { variablesUsed, fillVariables } from '../../../src/core/run/variables';
import type { HistoryEntry } from '../../../src/core/dialects/types';
import { golden, pt, shot } from '../../fixtures/dialects/cogagent/cases';

function parsed(raw: string, reasoning: string | null = null): ParsedStep {
  const r = cogagent.parseReply(raw, reasoning, shot);
  if (isParseError(r)) throw new Error(`parse error: ${r.error}`);
  return r;
}

const step = (op: string, sentence = 'Do it.', mark = '<<一般操作>>') => `Action: ${sentence}\nGrounded Operation: ${op}\n${mark}`;
const entry = (i: number, over: Partial<HistoryEntry> = {}): HistoryEntry => ({ index: i, thought: `Step ${i}.`, action: 'CLICK(box=[[1,2,3,4]])', observation: 'Success', hasScreenshot: true, ...over });

describe('cogagent dialect data', () => {
  it('is CogAgent-9B on a desktop: a clean PNG screenshot, no earlier ones, thousandths, no memory', () => {
    expect(cogagent.id).toBe('cogagent');
    expect(cogagent.model).toBe('CogAgent-9B-20241220');
    expect(cogagent.observes).toEqual({ labels: false, pastScreenshots: 0, device: 'desktop', clipboard: true });
    expect(cogagent.observes.image).toBeUndefined(); // PNG
    expect(cogagent.coords).toEqual({ normalizedBy: 1000, order: 'xy' });
    expect(cogagent.emptyMemory()).toBe('');
    expect(cogagent.request.temperature).toBeLessThan(0.1);
    expect(JSON.parse(cogagent.request.extraBody)).toEqual({ top_k: 1 });
  });
});

describe('cogagent query', () => {
  it('has "History steps: " even without history, then the platform and answer-format lines', () => {
    const parts = cogagent.buildRequest({ ...golden.ctx, history: [] });
    expect(parts).toEqual([
      { type: 'text', text: 'Task: What does the blue kettle cost?\nHistory steps: \n(Platform: WIN)\n(Answer in Action-Operation-Sensitive format.)\n' },
      { type: 'image', of: 'current' },
    ]);
  });

  it('numbers history lines from 0: operation, a tab, the Action sentence; every field on one line', () => {
    const text = queryText({ task: 'T', history: [entry(0), entry(1, { thought: 'Two\nlines\tand a tab.', action: "TYPE(box=[[1,2,3,4]], text='a\nb')" })] });
    expect(text.split('\n').slice(2, 4)).toEqual(['0. CLICK(box=[[1,2,3,4]])\tStep 0.', "1. TYPE(box=[[1,2,3,4]], text='a b')\tTwo lines and a tab."]);
  });

  it('tells the model what did not simply succeed: the observation after a tab on its line', () => {
    expect(historyLine(entry(3, { observation: 'The element could not be found.' }), 3)).toBe('3. CLICK(box=[[1,2,3,4]])\tStep 3.\tObservation: The element could not be found.');
    expect(historyLine(entry(0, { observation: 'Stored 9 characters in __CogName_Price__: "42.50 EUR"' }), 0)).toMatch(/\tObservation: Stored 9 characters in __CogName_Price__: "42.50 EUR"$/);
    expect(historyLine(entry(0), 0)).not.toContain('Observation');
  });

  it('the golden request, as the prompt text the trace keeps', () => {
    expect(promptTextOf(cogagent.buildRequest(golden.ctx))).toContain('\n2. QUOTE_TEXT(');
  });
});

describe('cogagent replies', () => {
  it('the thought is the Action sentence; memory is never set', () => {
    const r = parsed("Status: Results.\nAction: Click the 'Blue kettle' result.\nGrounded Operation: CLICK(box=[[050,300,400,340]])\n<<一般操作>>");
    expect(r.thought).toBe("Click the 'Blue kettle' result.");
    expect(r.memory).toBeNull();
    expect(r.actionText).toBe('CLICK(box=[[050,300,400,340]])');
  });

  it('<<敏感操作>> marks the step sensitive; <<一般操作>> does not', () => {
    expect(parsed(step('CLICK(box=[[1,2,3,4]])', 'Pay.', '<<敏感操作>>')).sensitive).toBe(true);
    expect(parsed(step('CLICK(box=[[1,2,3,4]])', 'Look.', '<<一般操作>>')).sensitive).toBeFalsy();
    expect(parsed(step('CLICK(box=[[1,2,3,4]])', 'Look.', '')).sensitive).toBeFalsy();
  });

  it('END() finishes the run with the Action sentence as its answer', () => {
    const r = parsed('Action: The blue kettle costs 42.50 EUR.\nGrounded Operation:END()\n<<一般操作>>');
    expect(r.action).toEqual({ type: 'finish', outcome: 'done', text: 'The blue kettle costs 42.50 EUR.' });
    // a bare END, and END before the Action line
    expect(parsed('Grounded Operation: END\nAction: Done.').action).toEqual({ type: 'finish', outcome: 'done', text: 'Done.' });
  });

  it('acts at the box centre, rounded to whole thousandths, mapped to CSS px', () => {
    expect(parsed(step('CLICK(box=[[387,248,727,317]])')).action).toEqual({ type: 'click', target: { kind: 'point', ...pt(557, 283) }, button: 'left', count: 1 });
    // on a zoomed viewport (screenshot 1280 px of a 1024 px viewport)
    const zoomed = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1024, height: 640 } };
    const r = cogagent.parseReply(step('CLICK(box=[[500,500,500,500]])'), null, zoomed);
    expect(!isParseError(r) && r.action).toEqual({ type: 'click', target: { kind: 'point', x: 512, y: 320 }, button: 'left', count: 1 });
  });

  it('a box outside the screenshot is clamped, with a note', () => {
    const r = parsed(step('CLICK(box=[[1200,100,1300,120]])'));
    expect(r.notes.join(' ')).toMatch(/outside the screenshot/);
    expect((r.action as { target: { x: number } }).target.x).toBeCloseTo(999 * 1.28);
  });

  it('result= is ignored; QUOTE_TEXT keeps the box in CSS px and auto_scroll as all', () => {
    const r = parsed(step("QUOTE_TEXT(box=[[100,200,300,400]], output='__CogName_P__', result='17.00', auto_scroll=False)"));
    expect(r.action).toEqual({ type: 'quote', target: { kind: 'point', ...pt(200, 300) }, box: { x: 128, y: 160, width: 256, height: 160 }, all: false, output: '__CogName_P__' });
  });

  it('unknown operations and missing parts get a message with the exact form', () => {
    const e = cogagent.parseReply(step('TAP(box=[[1,2,3,4]])'), null, shot);
    expect(isParseError(e) && e.error).toMatch(/Unknown operation 'TAP'.*Grounded Operation: CLICK\(box=\[\[/);
    const none = cogagent.parseReply('Action: I am thinking.', null, shot);
    expect(isParseError(none) && none.error).toMatch(/No Grounded Operation was found/);
    const obs = cogagent.formatErrorObservation(isParseError(none) ? none.error : '');
    expect(obs).toMatch(/^Format error: No Grounded Operation was found\. .*<<一般操作>>/);
    expect(cogagent.formatErrorObservation('box must be [[x1,y1,x2,y2]]')).toMatch(/Grounded Operation: <one operation>/);
  });

  it('the reasoning field is used only when the reply has no operation', () => {
    const r = parsed('', "Action: Click it.\nGrounded Operation: CLICK(box=[[100,100,200,200]])");
    expect(r.action).toMatchObject({ type: 'click', target: { kind: 'point', ...pt(150, 150) } });
  });
});

describe('cogagent variables', () => {
  it('variableRefs: the __CogName_…__ names in a text, as written', () => {
    expect(cogagent.variableRefs!('Price: __CogName_Price__, total __CogName_Total_Sum__.')).toEqual(['__CogName_Price__', '__CogName_Total_Sum__']);
    expect(cogagent.variableRefs!('__CogName_A____CogName_B__')).toEqual(['__CogName_A__', '__CogName_B__']);
    expect(cogagent.variableRefs!('no variables, __Other_X__, __CogName___')).toEqual([]);
  });

  it('TYPE and LLM keep their variables unfilled; the run fills them in by those names', () => {
    const type = parsed(step("TYPE(box=[[1,2,3,4]], text='Total: __CogName_Price__')")).action;
    expect(type).toMatchObject({ type: 'type', text: 'Total: __CogName_Price__' });
    const llm = parsed(step("LLM(prompt='Summarize: __CogName_Report__', output='__CogName_Summary__')")).action;
    expect(llm).toEqual({ type: 'llm', prompt: 'Summarize: __CogName_Report__', output: '__CogName_Summary__' });
    expect(variablesUsed(type, cogagent)).toEqual(['__CogName_Price__']);
    const filled = fillVariables(type, cogagent, { __CogName_Price__: { value: '42.50 EUR', step: 0 } } as never);
    expect(filled).toEqual({ action: { ...type, text: 'Total: 42.50 EUR' }, missing: [] });
  });
});

describe('cogagent keys: Windows and macOS names', () => {
  const key = (k: string) => (parsed(step(`KEY_PRESS(key='${k}')`)).action as { keys: string }).keys;
  it('KEY_PRESS reads the action space table', () => {
    const table: Array<[string, string]> = [
      ['Return', 'Enter'], ['Space', 'Space'], ['Lcontrol', 'Control'], ['Rcontrol', 'Control'], ['Lmenu', 'Alt'], ['Rmenu', 'Alt'],
      ['Control', 'Control'], ['Right Control', 'Control'], ['Command', 'Meta'], ['Right Command', 'Meta'], ['Lshift', 'Shift'], ['Rshift', 'Shift'],
      ['Shift', 'Shift'], ['Right Shift', 'Shift'], ['Up', 'ArrowUp'], ['Down', 'ArrowDown'], ['Left', 'ArrowLeft'], ['Right', 'ArrowRight'],
      ['Up Arrow', 'ArrowUp'], ['Down Arrow', 'ArrowDown'], ['Left Arrow', 'ArrowLeft'], ['Right Arrow', 'ArrowRight'], ['A', 'a'], ['z', 'z'], ['7', '7'], ['F11', 'F11'],
    ];
    for (const [k, want] of table) expect([k, key(k)]).toEqual([k, want]);
  });

  it('normalizeKeys knows the new aliases and still refuses unknown names', () => {
    expect(normalizeKeys('Lcontrol+Lshift+T')).toBe('Control+Shift+t');
    expect(normalizeKeys('lmenu+F4')).toBe('Alt+F4');
    expect(normalizeKeys('Right Command')).toBe('Meta');
    expect(normalizeKeys('menu')).toBeNull();
    expect(normalizeKeys('Lhyper')).toBeNull();
  });

  it('GESTURE: the keys held down plus the key pressed, one chord', () => {
    const g = (list: string) => parsed(step(`GESTURE(actions=[${list}])`)).action;
    expect(g("KEY_DOWN(key='Lcontrol'), KEY_PRESS(key='F'), KEY_UP(key='Lcontrol')")).toEqual({ type: 'key', keys: 'Control+f' });
    expect(g("KEY_DOWN(key='Command'), KEY_DOWN(key='Shift'), KEY_PRESS(key='T'), KEY_UP(key='Shift'), KEY_UP(key='Command')")).toEqual({ type: 'key', keys: 'Meta+Shift+t' });
    // no KEY_PRESS: the keys held together
    expect(g("KEY_DOWN(key='Lmenu'), KEY_DOWN(key='F4'), KEY_UP(key='F4'), KEY_UP(key='Lmenu')")).toEqual({ type: 'key', keys: 'Alt+F4' });
    // two combinations in one gesture: one per step
    expect(isParseError(cogagent.parseReply(step("GESTURE(actions=[KEY_DOWN(key='Lcontrol'), KEY_PRESS(key='C'), KEY_PRESS(key='V'), KEY_UP(key='Lcontrol')])"), null, shot))).toBe(true);
  });
});

describe('cogagent LAUNCH', () => {
  const launch = (args: string) => parsed(step(`LAUNCH(${args})`)).action;
  it('url wins; None is absent; https:// is added when missing', () => {
    expect(launch("app='Chrome', url='github.com/THUDM'")).toEqual({ type: 'navigate', url: 'https://github.com/THUDM' });
    expect(launch("app='None', url='http://127.0.0.1:8080/a'")).toEqual({ type: 'navigate', url: 'http://127.0.0.1:8080/a' });
    expect(launch("app='Mail', url='None'")).toEqual({ type: 'openApp', name: 'Mail' });
    expect(launch("app='Mail'")).toEqual({ type: 'openApp', name: 'Mail' });
  });
});

describe('cogagent formatAction', () => {
  const f = (a: Action) => cogagent.formatAction(a, shot);
  it('writes points as degenerate boxes with three-digit thousandths', () => {
    expect(f({ type: 'click', target: { kind: 'point', ...pt(86, 5) }, button: 'left', count: 1 })).toBe('CLICK(box=[[086,005,086,005]])');
    expect(f({ type: 'type', target: { kind: 'point', ...pt(500, 500) }, text: "it's", clear: false, enter: false })).toBe("TYPE(box=[[500,500,500,500]], text='it\\'s')");
    expect(f({ type: 'key', keys: 'Control+Shift+t' })).toBe("GESTURE(actions=[KEY_DOWN(key='Lcontrol'), KEY_DOWN(key='Lshift'), KEY_PRESS(key='T'), KEY_UP(key='Lshift'), KEY_UP(key='Lcontrol')])");
    expect(f({ type: 'key', keys: 'Enter' })).toBe("KEY_PRESS(key='Return')");
    expect(f({ type: 'navigate', url: 'https://a.example/' })).toBe("LAUNCH(app='None', url='https://a.example/')");
    expect(f({ type: 'finish', outcome: 'done', text: 'x' })).toBe('END()');
  });

  it('describes what the grammar has no words for, never writing it as something else', () => {
    expect(f({ type: 'click', target: { kind: 'label', label: 3 }, button: 'left', count: 1 })).toBe('(click at [3])');
    expect(f({ type: 'click', target: { kind: 'point', x: 10, y: 20 }, button: 'middle', count: 1 })).toBe('(middle click at (10, 20))');
    expect(f({ type: 'type', target: { kind: 'label', label: 2 }, text: 'x', clear: true, enter: true })).toBe('(type "x" into [2])');
    expect(f({ type: 'scroll', target: { kind: 'window' }, direction: 'down', until: true })).toBe('(scroll down at the window to the end)');
    expect(f({ type: 'finish', outcome: 'failed', text: 'no' })).toBe('(task impossible: no)');
    expect(f({ type: 'wait' })).toBe('(wait)');
    expect(f({ type: 'goBack' })).toBe('(go back)');
  });
});

describe('cogagent preview', () => {
  it('the Action sentence so far, then the Grounded Operation line once it starts', () => {
    expect(cogagent.preview('Act')).toEqual({ thought: null, action: null });
    expect(cogagent.preview('Action: Click the bl')).toEqual({ thought: 'Click the bl', action: null });
    expect(cogagent.preview('Action: Click the blue one.\nGround')).toEqual({ thought: 'Click the blue one.', action: null });
    expect(cogagent.preview('Action: Click the blue one.\nGrounded Operation: CLICK(box=[[1,2')).toEqual({ thought: 'Click the blue one.', action: 'CLICK(box=[[1,2' });
    expect(cogagent.preview('<think>hm</think>Action: Go.\nGrounded Operation:END()\n<<一般操作>>')).toEqual({ thought: 'Go.', action: 'END()' });
  });
});

describe('cogagent parseAction (Edit)', () => {
  it('reads an operation with or without its label; END() has no text', () => {
    expect(cogagent.parseAction('Grounded Operation: CLICK(box=[[100,100,200,200]])', shot)).toMatchObject({ ok: true, action: { type: 'click' } });
    expect(cogagent.parseAction('  hover(box=[[100,100,200,200]])', shot)).toMatchObject({ ok: true, action: { type: 'hover' } });
    expect(cogagent.parseAction('END()', shot)).toEqual({ ok: true, action: { type: 'finish', outcome: 'done', text: '' }, notes: [] });
    const bad = cogagent.parseAction('click somewhere', shot);
    expect(!bad.ok && bad.error).toMatch(/No operation found.*CLICK\(box=/);
  });
});
