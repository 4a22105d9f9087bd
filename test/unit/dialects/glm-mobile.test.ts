import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { glmMobile, buildPrompt, formatHistory, formatApps, memoryText } from '../../../src/core/dialects/glm-mobile';
import { pythonDictOf, pythonRepr } from '../../../src/core/dialects/glm-mobile/format';
import { NOTE_OVERRIDE_DEFAULT, NOTE_NO_TEXT_BOX } from '../../../src/core/dialects/glm-mobile/action';
import { NOTE_EXTRA_ACTIONS, NOTE_NO_MEMORY } from '../../../src/core/dialects/glm-mobile/parse';
import { GLM_MOBILE_NOTES, GLM_MOBILE_TEMPLATE } from '../../../src/core/dialects/glm-mobile/template';
import { CLAMPED_NOTE, THOUSANDTHS, toCss } from '../../../src/core/action/coords';
import { endsRun, isParseError, type Action, type ParsedStep, type ParseError } from '../../../src/core/action/action';
import type { DialectContext, HistoryEntry } from '../../../src/core/dialects/types';
import { actionTexts, golden, replies, shot } from '../../fixtures/dialects/glm-mobile/cases';
import { cpuBudget } from '../../fixtures/cpu-budget';

const MARKER = '# Some Additional Notes\n';

/** The seed's mobile section: its ``` blocks (template, example). */
function seedBlocks(): { template: string; example: string } {
  const seed = readFileSync(new URL('../../fixtures/seeds/glm-4.5v-agent-formats.txt', import.meta.url), 'utf8').replace(/\r\n/g, '\n');
  const from = seed.indexOf('## 手机环境');
  const lines = seed.slice(from, seed.indexOf('\n## ', from + 1)).split('\n');
  const f = lines.flatMap((l, i) => (l === '```' ? [i] : []));
  return { template: lines.slice(f[0] + 1, f[1]).join('\n'), example: lines.slice(f[2] + 1, f[3]).join('\n') };
}
const seed = seedBlocks();
const seedNotes = seed.example.slice(seed.example.indexOf(MARKER) + MARKER.length).split('\n');

const parse = (content: string, reasoning: string | null = null) => glmMobile.parseReply(content, reasoning, shot);
function ok(x: ParsedStep | ParseError): ParsedStep {
  if (isParseError(x)) throw new Error(`expected a step, got error: ${x.error}`);
  return x;
}
function err(x: ParsedStep | ParseError): ParseError {
  if (!isParseError(x)) throw new Error(`expected an error, got ${JSON.stringify(x.action)}`);
  return x;
}
const pt = (x: number, y: number) => {
  const p = toCss([x, y], THOUSANDTHS, shot);
  return { kind: 'point' as const, x: p.x, y: p.y };
};
const textOf = (ctx: DialectContext) => {
  const part = glmMobile.buildRequest(ctx)[0];
  if (part.type !== 'text') throw new Error('the first part is not the prompt');
  return part.text;
};
const hist = (over: Partial<HistoryEntry> & { action: string }, index = 0): HistoryEntry => ({
  index, thought: 'Because.', observation: 'Success', hasScreenshot: true, ...over,
});

describe('glm-mobile dialect: settings', () => {
  it('observes a clean phone screenshot, thousandths, GLM request defaults, text memory', () => {
    expect(glmMobile.id).toBe('glm-mobile');
    expect(glmMobile.model).toBe('GLM-4.5V');
    expect(glmMobile.observes).toEqual({ labels: false, pastScreenshots: 0, device: 'phone' });
    expect(glmMobile.coords).toEqual(THOUSANDTHS);
    expect(glmMobile.request).toEqual({ temperature: 0.001, maxTokens: 8192, extraBody: '{"skip_special_tokens": false}' });
    expect(JSON.parse(glmMobile.request.extraBody)).toEqual({ skip_special_tokens: false });
    expect(glmMobile.exports).toEqual({ webvoyager: true });
    expect(glmMobile.emptyMemory()).toBe('');
  });
});

describe('glm-mobile prompt', () => {
  it('the template is the seed template block, character for character', () => {
    expect(GLM_MOBILE_TEMPLATE).toBe(seed.template);
  });

  it('golden: the seed example, exactly, up to and including "# Some Additional Notes"', () => {
    const parts = glmMobile.buildRequest(golden.ctx);
    expect(parts.map((p) => p.type)).toEqual(golden.expected.map((p) => p.type));
    expect(parts[parts.length - 1]).toEqual({ type: 'image', of: 'current' });
    const text = textOf(golden.ctx);
    const expected = golden.expected[0];
    if (expected.type !== 'text') throw new Error('golden text first');
    const upTo = (s: string) => s.slice(0, s.indexOf(golden.compareUpTo!) + golden.compareUpTo!.length);
    expect(golden.compareUpTo).toBe(MARKER);
    expect(upTo(text)).toBe(upTo(seed.example));
    expect(upTo(text)).toBe(upTo(expected.text));
    expect(text).toBe(expected.text);
    expect(parts).toEqual(golden.expected);
  });

  it('the notes: the seed\'s general ones kept verbatim and in order, the app-specific ones dropped', () => {
    const text = textOf(golden.ctx);
    const notes = text.slice(text.indexOf(MARKER) + MARKER.length);
    expect(notes).toBe(GLM_MOBILE_NOTES);
    const lines = notes.split('\n');
    // every kept line is a seed line, in the seed's order
    let at = -1;
    for (const l of lines) {
      const i = seedNotes.indexOf(l, at + 1);
      expect(i, l).toBeGreaterThan(at);
      at = i;
    }
    for (const head of ['General:', 'Text Related Operations:', 'Action Related:', 'App Related:']) expect(lines).toContain(head);
    for (const kept of [
      'pick the easiest one', 'use the `answer` action to reply to user explicitly before finish', 'you can just complete the task',
      'auto-complete dropdown list', 'Use the `input_text` action whenever you want to type something',
      'it\'s opposite to swipe', 'Swipe up means swiping from bottom to top', 'storing the needed information in "Memory"',
      'should be stored in the "Memory" before scrolling', '-- If a blank area appears at the bottom', 'record the elements currently displayed',
    ]) expect(notes).toContain(kept);
    for (const dropped of [
      /Markor/, /Pro Expense/, /recipe/, /timer/, /calendar app (?:does|may) not/, /Files app/, /month view/,
      /text selection bar/, /backspace/, /app drawer/, /soft keyboard/,
    ]) expect(notes).not.toMatch(dropped);
    // and the seed really had them
    expect(seedNotes.filter((l) => /Markor|Pro Expense|recipe|timer|calendar app|Files app|soft keyboard|app drawer|text selection bar/.test(l)).length).toBeGreaterThanOrEqual(14);
  });

  it('supported apps: the names joined by ", " and ".", or "none." when the person lists none', () => {
    expect(formatApps([{ name: 'Mail', url: 'https://mail.example/' }, { name: 'Maps', url: 'https://maps.example/' }])).toBe('Mail, Maps.');
    expect(formatApps([])).toBe('none.');
    expect(textOf({ ...golden.ctx, apps: [] })).toContain('"description": "The name of the app to open. Supported apps: none."');
    // a name cannot break the JSON string it sits in
    expect(formatApps([{ name: 'My "best"\nshop', url: 'x' }])).toBe('My \\"best\\" shop.');
  });

  it('history: every step, memory at the last (the current memory), actions as Python dicts, observations when not Success', () => {
    const h = [
      hist({ thought: 'Open the app.', action: '{"action_type": "open_app", "app_name": "Broccoli"}' }, 0),
      hist({ thought: 'Type\nthe name.', action: '{"action_type": "input_text", "text": "Tom\'s pasta", "box_2d": [[500,100,500,100]], "override": true}', observation: 'Success (A coordinate was outside the screenshot; it was moved to the nearest edge.)' }, 1),
      hist({ thought: 'Tap.', action: '(double click at (3, 4))' }, 2),
    ];
    expect(formatHistory(h, 'recipes: A\nB')).toBe([
      'Step 0:',
      'Reason: Open the app.',
      "Action: {'action_type': 'open_app', 'app_name': 'Broccoli'}",
      'Step 1:',
      'Reason: Type the name.',
      'Action: {\'action_type\': \'input_text\', \'text\': "Tom\'s pasta", \'box_2d\': [[500, 100, 500, 100]], \'override\': True}',
      'Observation: Success (A coordinate was outside the screenshot; it was moved to the nearest edge.)',
      'Step 2:',
      'Memory: recipes: A B',
      'Reason: Tap.',
      'Action: (double click at (3, 4))',
    ].join('\n'));
    expect(formatHistory([], '')).toBe('None');
    expect(formatHistory([h[0]], '')).toContain('Memory: None');
    expect(memoryText('  ')).toBe('None');
    expect(memoryText({})).toBe('None');
    // a value holding a placeholder is not substituted again
    const p = buildPrompt({ ...golden.ctx, task: 'find <history_and_memory> and <supported_apps>' });
    expect(p).toContain('# Task:\nfind <history_and_memory> and <supported_apps>\n');
  });

  it('python reprs as Python prints them', () => {
    expect(pythonDictOf('{"action_type": "open_app", "app_name": "Broccoli"}')).toBe("{'action_type': 'open_app', 'app_name': 'Broccoli'}");
    expect(pythonRepr({ a: 'it\'s "x"', b: false, c: null, d: 'a\\b\nc' })).toBe("{'a': 'it\\'s \"x\"', 'b': False, 'c': None, 'd': 'a\\\\b\\nc'}");
    expect(pythonDictOf('(go back)')).toBe('(go back)');
    expect(pythonDictOf('')).toBe('');
    expect(pythonDictOf('{broken')).toBe('{broken');
  });
});

describe('glm-mobile replies (fixture cases)', () => {
  for (const c of replies) {
    it(c.name, () => {
      const r = parse(c.raw, c.reasoning ?? null);
      if ('error' in c.expect) {
        const e = err(r);
        expect(e.error.length).toBeGreaterThan(10);
        expect(glmMobile.formatErrorObservation(e.error)).toMatch(/^Format error: .*Action: \{"action_type"/);
      } else {
        const s = ok(r);
        expect(s.action).toEqual(c.expect);
        // the history text reads back as the same action
        const back = glmMobile.parseAction(s.actionText, shot);
        expect(back.ok && back.action).toEqual(s.action.type === 'finish' ? { ...s.action, text: '' } : s.action);
      }
    });
  }
});

describe('glm-mobile parseReply details', () => {
  it('thought is the Reason, memory the Memory ("None" is empty), reasoning kept for display', () => {
    const s = ok(parse('<think>Let me look.</think>Memory: Recipe A at top\nReason: Tap A.\nAction: {"action_type": "click", "box_2d": [[10,10,20,20]]}'));
    expect(s.thought).toBe('Tap A.');
    expect(s.memory).toBe('Recipe A at top');
    expect(s.reasoning).toBe('Let me look.');
    expect(s.notes).toEqual([]);
    expect(ok(parse('Memory: None\nReason: r\nAction: {"action_type": "wait"}')).memory).toBe('');
    expect(ok(parse('Memory: none.\nReason: r\nAction: {"action_type": "wait"}')).memory).toBe('');
  });

  it('both quote styles give the same step', () => {
    const a = ok(parse('Memory: None\nReason: r\nAction: {"action_type": "input_text", "text": "hi", "box_2d": [[1,2,3,4]], "override": false}'));
    const b = ok(parse("Memory: None\nReason: r\nAction: {'action_type': 'input_text', 'text': 'hi', 'box_2d': [[1, 2, 3, 4]], 'override': False}"));
    expect(b).toEqual(a);
  });

  it('missing Memory: memory null and a note', () => {
    const s = ok(parse('Reason: r\nAction: {"action_type": "wait"}'));
    expect(s.memory).toBeNull();
    expect(s.notes).toEqual([NOTE_NO_MEMORY]);
  });

  it('sections in another order', () => {
    const s = ok(parse('Action: {"action_type": "navigate_back"}\nMemory: list A, B\nReason: Close it.'));
    expect(s).toMatchObject({ thought: 'Close it.', memory: 'list A, B', action: { type: 'goBack' } });
    const t = ok(parse('Reason: Close it.\nMemory: list A, B\nAction: {"action_type": "navigate_back"}'));
    expect(t).toMatchObject({ thought: 'Close it.', memory: 'list A, B' });
  });

  it('markdown headers, full-width colons, bare keys, a second action noted', () => {
    const s = ok(parse('**Memory:** None\n**Reason**： tap\n**Action:** {action_type: "click", box_2d: [[10,10,20,20]]} then {"action_type": "wait"}'));
    expect(s.action).toEqual({ type: 'click', target: pt(15, 15), button: 'left', count: 1 });
    expect(s.thought).toBe('tap');
    expect(s.notes).toContain(NOTE_EXTRA_ACTIONS);
  });

  it('a bare action JSON with no Action header', () => {
    expect(ok(parse('Reason: r\n<|begin_of_box|>{"action_type": "wait"}<|end_of_box|>')).action).toEqual({ type: 'wait' });
  });

  it('input_text: override missing clears (noted); no box types into the focused field (noted)', () => {
    const a = ok(parse('Reason: r\nMemory: None\nAction: {"action_type": "input_text", "text": "x", "box_2d": [[1,2,3,4]]}'));
    expect(a.action).toMatchObject({ type: 'type', clear: true, enter: true });
    expect(a.notes).toContain(NOTE_OVERRIDE_DEFAULT);
    const b = ok(parse('Reason: r\nMemory: None\nAction: {"action_type": "input_text", "text": "x", "override": false}'));
    expect(b.action).toEqual({ type: 'type', target: { kind: 'none' }, text: 'x', clear: false, enter: true });
    expect(b.notes).toContain(NOTE_NO_TEXT_BOX);
  });

  it('swipe: the finger\'s direction is the opposite of the content\'s, and formatAction turns it back', () => {
    const cases: Array<[string, string]> = [['up', 'down'], ['down', 'up'], ['left', 'right'], ['right', 'left']];
    for (const [finger, content] of cases) {
      const s = ok(parse(`Reason: r\nMemory: None\nAction: {"action_type": "swipe", "direction": "${finger.toUpperCase()}"}`));
      expect(s.action).toEqual({ type: 'scroll', target: { kind: 'window' }, direction: content });
      expect(s.actionText).toBe(`{"action_type": "swipe", "direction": "${finger}"}`);
      const boxed = ok(parse(`Reason: r\nMemory: None\nAction: {"action_type": "swipe", "direction": "${finger}", "box_2d": [[100,100,300,300]]}`));
      expect(boxed.action).toEqual({ type: 'scroll', target: pt(200, 200), direction: content });
      expect(boxed.actionText).toBe(`{"action_type": "swipe", "direction": "${finger}", "box_2d": [[200,200,200,200]]}`);
    }
  });

  it('answer tells the person and the run goes on; then status complete ends it', () => {
    const a = ok(parse('Memory: 3 recipes\nReason: The user asked how many.\nAction: {"action_type": "answer", "text": "3"}'));
    expect(a.action).toEqual({ type: 'reply', text: '3' });
    expect(endsRun(a.action)).toBe(false);
    const b = ok(parse('Memory: 3 recipes\nReason: Answered.\nAction: {"action_type": "status", "goal_status": "complete"}'));
    expect(b.action).toEqual({ type: 'finish', outcome: 'done', text: '' });
    expect(endsRun(b.action)).toBe(true);
  });

  it('infeasible: failed, with the Reason as its text', () => {
    const s = ok(parse('Memory: None\nReason: There is no such setting on this site.\nAction: {"action_type": "status", "goal_status": "infeasible"}'));
    expect(s.action).toEqual({ type: 'finish', outcome: 'failed', text: 'There is no such setting on this site.' });
    expect(endsRun(s.action)).toBe(true);
  });

  it('clamping: a box outside the screenshot acts at the nearest edge, with the note', () => {
    const s = ok(parse('Memory: None\nReason: r\nAction: {"action_type": "click", "box_2d": [[1100,-50,1300,-10]]}'));
    expect(s.action).toEqual({ type: 'click', target: pt(999, 0), button: 'left', count: 1 });
    expect(s.notes).toContain(CLAMPED_NOTE);
    expect(ok(parse('Memory: None\nReason: r\nAction: {"action_type": "click", "box_2d": [[0,0,999,999]]}')).notes).not.toContain(CLAMPED_NOTE);
  });

  it('box forms: nested, flat, point, string', () => {
    for (const box of ['[[100,200,300,250]]', '[100,200,300,250]', '[200,225]', '[[200,225]]', '"[[100,200,300,250]]"', '["100","200","300","250"]']) {
      expect(ok(parse(`Reason: r\nMemory: None\nAction: {"action_type": "click", "box_2d": ${box}}`)).action, box)
        .toEqual({ type: 'click', target: pt(200, 225), button: 'left', count: 1 });
    }
  });

  it('errors tell the model the expected form and never throw', () => {
    expect(err(parse('Reason: r\nAction: {"action_type": "fly"}')).error).toMatch(/Unknown action_type 'fly'.*click, long_press, input_text/);
    expect(err(parse('Reason: r\nAction: click(box_2d=[[1,2,3,4]])')).error).toMatch(/one JSON object, e\.g\. Action: \{"action_type": "click"/);
    expect(err(parse('Reason: r\nAction: {"action_type": "click", "box_2d": "here"}')).error).toMatch(/\[\[xmin,ymin,xmax,ymax\]\]/);
    expect(err(parse('Reason: r\nAction: {"box_2d": [[1,2,3,4]]}')).error).toMatch(/no "action_type"/);
    expect(err(parse('Reason: r\nAction: {"action_type": "answer", "text": "  "}')).error).toMatch(/answer needs "text"/);
    expect(err(parse('Reason: r\nAction: {"action_type": "open_app"}')).error).toMatch(/open_app needs "app_name"/);
    expect(err(parse('Reason: r\nAction: {"action_type": "toString"}')).error).toMatch(/Unknown action_type/);
    expect(err(parse('Reason: r\nAction: {"action_type": "swipe", "direction": "constructor"}')).error).toMatch(/swipe needs "direction"/);
    // @ts-expect-error: a non-string reply
    expect(err(glmMobile.parseReply(undefined, null, shot)).error).toBeTruthy();
    expect(glmMobile.formatErrorObservation('Bad thing.')).toBe(
      'Format error: Bad thing. Reply with "Memory: ...", then "Reason: ...", then "Action: " and one action of the action space in the correct JSON format, e.g. Action: {"action_type": "click", "box_2d": [[100,200,300,250]]}',
    );
  });
});

describe('glm-mobile formatAction and parseAction', () => {
  const fmt = (a: Action) => glmMobile.formatAction(a, shot);

  it('writes the calling rules with double quotes; a point as a degenerate box', () => {
    expect(fmt({ type: 'openApp', name: 'Broccoli' })).toBe('{"action_type": "open_app", "app_name": "Broccoli"}');
    expect(fmt({ type: 'click', target: pt(500, 330), button: 'left', count: 1 })).toBe('{"action_type": "click", "box_2d": [[500,330,500,330]]}');
    expect(fmt({ type: 'press', target: pt(1, 2) })).toBe('{"action_type": "long_press", "box_2d": [[1,2,1,2]]}');
    expect(fmt({ type: 'type', target: pt(5, 6), text: 'a "b"', clear: false, enter: true }))
      .toBe('{"action_type": "input_text", "text": "a \\"b\\"", "box_2d": [[5,6,5,6]], "override": false}');
    expect(fmt({ type: 'key', keys: 'Enter' })).toBe('{"action_type": "keyboard_enter"}');
    expect(fmt({ type: 'goHome' })).toBe('{"action_type": "navigate_home"}');
    expect(fmt({ type: 'goBack' })).toBe('{"action_type": "navigate_back"}');
    expect(fmt({ type: 'wait' })).toBe('{"action_type": "wait"}');
    expect(fmt({ type: 'reply', text: '42' })).toBe('{"action_type": "answer", "text": "42"}');
    expect(fmt({ type: 'finish', outcome: 'done', text: '' })).toBe('{"action_type": "status", "goal_status": "complete"}');
    expect(fmt({ type: 'finish', outcome: 'failed', text: 'why' })).toBe('{"action_type": "status", "goal_status": "infeasible"}');
  });

  it('describes what it has no words for', () => {
    expect(fmt({ type: 'click', target: { kind: 'label', label: 3 }, button: 'left', count: 1 })).toBe('(click at [3])');
    expect(fmt({ type: 'click', target: pt(1, 1), button: 'left', count: 2 })).toMatch(/^\(double click/);
    expect(fmt({ type: 'answer', text: 'x' })).toBe('(answer: x)');
    expect(fmt({ type: 'search' })).toBe('(open the search page)');
    expect(fmt({ type: 'navigate', url: 'https://a.example/' })).toBe('(go to https://a.example/)');
    expect(fmt({ type: 'key', keys: 'Control+a' })).toBe('(press Control+a)');
    expect(fmt({ type: 'scroll', target: { kind: 'window' }, direction: 'down', ticks: 3 })).toMatch(/^\(scroll down/);
    expect(fmt({ type: 'type', target: pt(1, 1), text: 'x', clear: true, enter: false })).toMatch(/^\(type "x"/);
    expect(fmt({ type: 'hover', target: pt(1, 1) })).toMatch(/^\(hover/);
    expect(fmt({ type: 'drag', target: pt(1, 1), to: { x: 5, y: 5 } })).toMatch(/^\(drag/);
  });

  it('round trip: parseAction(formatAction(parseAction(t))) is parseAction(t), for every action kind', () => {
    const kinds = new Set<string>();
    for (const t of actionTexts) {
      const a = glmMobile.parseAction(t, shot);
      if (!a.ok) throw new Error(`${t}: ${a.error}`);
      const text = fmt(a.action);
      expect(text.startsWith('{'), text).toBe(true);
      const b = glmMobile.parseAction(text, shot);
      expect(b.ok && b.action, t).toEqual(a.action);
      expect(fmt(b.ok ? b.action : a.action)).toBe(text);
      kinds.add(JSON.parse(text).action_type);
    }
    expect([...kinds].sort()).toEqual(['answer', 'click', 'input_text', 'keyboard_enter', 'long_press', 'navigate_back', 'navigate_home', 'open_app', 'status', 'swipe', 'wait']);
  });

  it('parseAction: Python style, an "Action:" prefix, errors with an example', () => {
    expect(glmMobile.parseAction("Action: {'action_type': 'wait'}", shot)).toEqual({ ok: true, action: { type: 'wait' }, notes: [] });
    const clamped = glmMobile.parseAction('{"action_type": "click", "box_2d": [2000,2000]}', shot);
    expect(clamped.ok && clamped.notes).toEqual([CLAMPED_NOTE]);
    for (const bad of ['', 'wait', '{"action_type": "jump"}', '{"action_type": "click"']) {
      const r = glmMobile.parseAction(bad, shot);
      expect(r.ok, bad).toBe(false);
      expect(!r.ok && r.error, bad).toMatch(/\{"action_type"|action_type/);
    }
  });
});

describe('glm-mobile preview', () => {
  it('the Reason so far, the Action line once started', () => {
    expect(glmMobile.preview('Memory: Non')).toEqual({ thought: null, action: null });
    expect(glmMobile.preview('Memory: None\nReason: I will ta')).toEqual({ thought: 'I will ta', action: null });
    expect(glmMobile.preview('<think>hm</think><answer>Memory: None\nReason: tap it\nAc')).toEqual({ thought: 'tap it', action: null });
    expect(glmMobile.preview('Memory: None\nReason: tap it\nAction: {"action_type": "cl')).toEqual({ thought: 'tap it', action: '{"action_type": "cl' });
    expect(glmMobile.preview('Reason: tap it\nMemory: A\nAction: {"action_type": "wait"}')).toEqual({ thought: 'tap it', action: '{"action_type": "wait"}' });
  });
});

/** Mulberry32: a small seeded PRNG, so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('glm-mobile fuzz', () => {
  const PIECES = [
    '{', '}', '[', ']', '[[', ']]', '"', "'", ':', '：', ',', '\n', ' ', '\\', 'True', 'None', 'null', '0', '999', '-5', '1e999',
    '<think>', '</think>', '<answer>', '</answer>', '<|begin_of_box|>', '<|end_of_box|>', '```', '```json\n',
    'Action:', 'Memory:', 'Reason:', '**', 'action_type', '"click"', '"swipe"', '"status"', 'box_2d', '"direction": "up"',
    '"override": ', '__proto__', 'constructor', '"app_name": ', '\u2028', '😀', ' '.repeat(200),
  ];
  const seeds = [...replies.map((r) => r.raw), ...actionTexts.map((t) => `Memory: None\nReason: r\nAction: ${t}`)];

  it('2000 mutated replies: parseReply, parseAction and preview never throw', () => {
    const rand = rng(20250726);
    const pick = <T,>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
    let parsed = 0;
    for (let n = 0; n < 2000; n++) {
      let s = pick(seeds);
      const edits = 1 + Math.floor(rand() * 6);
      for (let e = 0; e < edits; e++) {
        const i = Math.floor(rand() * (s.length + 1));
        const j = Math.min(s.length, i + Math.floor(rand() * 12));
        switch (Math.floor(rand() * 5)) {
          case 0: s = s.slice(0, i) + pick(PIECES) + s.slice(i); break; // insert
          case 1: s = s.slice(0, i) + s.slice(j); break; // delete
          case 2: s = s.slice(0, i) + pick(PIECES) + s.slice(j); break; // replace
          case 3: s = s.slice(0, i); break; // cut (max_tokens)
          default: s = s.slice(0, i) + s.slice(i, j) + s.slice(i); break; // duplicate
        }
      }
      const reasoning = rand() < 0.2 ? pick(seeds) : null;
      let r: ParsedStep | ParseError | undefined;
      expect(() => { r = glmMobile.parseReply(s, reasoning, shot); }, s).not.toThrow();
      if (r && !isParseError(r)) {
        parsed++;
        expect(typeof r.actionText).toBe('string');
        expect(r.memory === null || typeof r.memory === 'string').toBe(true);
        const t = 'target' in r.action ? r.action.target : null;
        if (t?.kind === 'point') {
          expect(t.x).toBeGreaterThanOrEqual(0);
          expect(t.x).toBeLessThan(shot.viewport.width);
          expect(t.y).toBeGreaterThanOrEqual(0);
          expect(t.y).toBeLessThan(shot.viewport.height);
        }
      } else if (r) {
        expect(typeof r.error).toBe('string');
      }
      expect(() => glmMobile.parseAction(s, shot)).not.toThrow();
      expect(() => glmMobile.preview(s)).not.toThrow();
    }
    expect(parsed).toBeGreaterThan(200); // the mutations still leave many readable replies
  }, cpuBudget(1200)); // 2000 replies: about 1.1 s alone

  it('hostile long inputs stay fast', () => {
    const started = Date.now();
    for (const s of [
      'Reason:' + ' '.repeat(50_000) + 'x',
      'Action: ' + '{'.repeat(20_000),
      'Action: {"action_type": "click", "box_2d": ' + '['.repeat(10_000),
      ('Memory: ' + '*'.repeat(5_000) + '\n').repeat(10),
      'Action: {' + '"a": 1, '.repeat(10_000) + '"action_type": "wait"}',
    ]) {
      expect(() => parse(s)).not.toThrow();
      expect(() => glmMobile.preview(s)).not.toThrow();
    }
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
