import { describe, expect, it } from 'vitest';
import { glmPc, preview, parseAction, formatErrorObservation } from '../../../src/core/dialects/glm-pc';
import { PC_ACTION_SPACE, USER_PROMPT_HEAD, USER_PROMPT_TAIL } from '../../../src/core/dialects/glm-pc/template';
import { NOTE_EXTRA_ACTIONS, NOTE_NO_MEMORY } from '../../../src/core/dialects/glm-pc/parse';
import { NOTE_MEMORY_INVALID, parseMemoryList, formatMemory } from '../../../src/core/dialects/glm-pc/memory';
import { normalizeKeys } from '../../../src/core/action/keys';
import { isParseError, type Action, type ParsedStep, type ParseError } from '../../../src/core/action/action';
import { CLAMPED_NOTE, THOUSANDTHS } from '../../../src/core/action/coords';
import type { DialectContext, HistoryEntry, RequestPart } from '../../../src/core/dialects/types';
import { promptTextOf } from '../../../src/core/dialects/request';
import { golden, shot, replies, actionTexts, seedExample, BENCHMARK_LINES, pt } from '../../fixtures/dialects/glm-pc/cases';
import { cpuBudget } from '../../fixtures/cpu-budget';

const entry = (index: number, over: Partial<HistoryEntry> = {}): HistoryEntry => ({
  index, thought: `thought ${index + 1}`, action: `left_click(start_box='[${index}, ${index}]')`, observation: 'Success', hasScreenshot: true, ...over,
});

const ctx = (over: Partial<DialectContext> = {}): DialectContext => ({ ...golden.ctx, history: [], memory: [], ...over });

const texts = (parts: RequestPart[]) => parts.flatMap((p) => (p.type === 'text' ? [p.text] : []));

function parsed(raw: string, reasoning: string | null = null): ParsedStep {
  const r = glmPc.parseReply(raw, reasoning, shot);
  if (isParseError(r)) throw new Error(`parse error: ${r.error}`);
  return r;
}

describe('glm-pc dialect data', () => {
  it('is GLM-4.5V on a desktop, clean screenshots, 4 past screenshots, thousandths', () => {
    expect(glmPc.id).toBe('glm-pc');
    expect(glmPc.model).toBe('GLM-4.5V');
    expect(glmPc.observes).toEqual({ labels: false, pastScreenshots: 4, device: 'desktop' });
    expect(glmPc.coords).toEqual(THOUSANDTHS);
    expect(glmPc.request).toEqual({ temperature: 0.001, maxTokens: 8192, extraBody: '{"skip_special_tokens": false}' });
    expect(glmPc.exports).toEqual({ webvoyager: true });
    expect(glmPc.emptyMemory()).toEqual([]);
  });
});

describe('glm-pc request', () => {
  it('is the seed worked example, character for character (benchmark lines removed)', () => {
    const got = glmPc.buildRequest(golden.ctx);
    expect(got.length).toBe(golden.expected.length);
    got.forEach((p, i) => expect(p).toEqual(golden.expected[i]));
    expect(got).toEqual(golden.expected);
    // the shape of the example: 5 text parts, 4 past images (steps 3-6 = indices 2-5), the current last
    expect(got.map((p) => p.type)).toEqual(['text', 'image', 'text', 'image', 'text', 'image', 'text', 'image', 'text', 'image']);
    expect(got.filter((p) => p.type === 'image').map((p) => (p as { of: unknown }).of)).toEqual([2, 3, 4, 5, 'current']);
  });

  it('differs from the seed example only by the two benchmark lines', () => {
    const seed = seedExample();
    const seedTexts = seed.flatMap((p) => ('text' in p ? [p.text] : []));
    const ours = texts(glmPc.buildRequest(golden.ctx));
    expect(ours.slice(0, -1)).toEqual(seedTexts.slice(0, -1));
    expect(ours[ours.length - 1]).toBe(seedTexts[seedTexts.length - 1].replace(BENCHMARK_LINES[0], '').replace(BENCHMARK_LINES[1], ''));
    expect(seedTexts[seedTexts.length - 1]).toContain(BENCHMARK_LINES[0]);
  });

  it('never sends the benchmark credentials', () => {
    for (const c of [golden.ctx, ctx(), ctx({ history: [entry(0)] })]) {
      const all = promptTextOf(glmPc.buildRequest(c));
      expect(all).not.toContain("My computer's password");
      expect(all).not.toContain('thunderbird');
      expect(all).not.toContain('gTCI');
    }
    expect(USER_PROMPT_TAIL).not.toMatch(/password|thunderbird/);
  });

  it('template: the seed text, Ubuntu platform, unescaped memory example', () => {
    expect(USER_PROMPT_HEAD).toContain('# Task Platform\nUbuntu\n');
    expect(USER_PROMPT_TAIL).toContain('\nMemory:\n[{"key": "value"}, ...]\n');
    expect(USER_PROMPT_TAIL).not.toContain('{{');
    expect(USER_PROMPT_TAIL.endsWith('Current Screenshot:\n')).toBe(true);
    expect(PC_ACTION_SPACE.startsWith('\n### {left,right,middle}_click\n')).toBe(true);
  });

  it('with no history: head, "History:", tail, then the current screenshot', () => {
    const parts = glmPc.buildRequest(ctx({ task: 'Open {action_space} settings' }));
    expect(parts).toHaveLength(2);
    expect(parts[1]).toEqual({ type: 'image', of: 'current' });
    const t = (parts[0] as { text: string }).text;
    expect(t).toContain('# Task:\nOpen {action_space} settings\n'); // one pass: a task is never substituted into
    expect(t).toContain('History:\nMemory:\n[]\n# Output Format');
    expect(t.split('### FAIL').length).toBe(2);
  });

  it('5 past steps: step 1 omitted, steps 2-5 as half-size images', () => {
    const parts = glmPc.buildRequest(ctx({ history: [0, 1, 2, 3, 4].map((i) => entry(i)) }));
    expect(parts.filter((p) => p.type === 'image')).toEqual([
      { type: 'image', of: 1, scale: 0.5 }, { type: 'image', of: 2, scale: 0.5 }, { type: 'image', of: 3, scale: 0.5 },
      { type: 'image', of: 4, scale: 0.5 }, { type: 'image', of: 'current' },
    ]);
    const first = (parts[0] as { text: string }).text;
    expect(first).toContain("History:\nstep 1: Screenshot:(Omitted in context.) Thought: thought 1\nAction: left_click(start_box='[0, 0]')\nstep 2: Screenshot:");
    expect(first.endsWith('step 2: Screenshot:')).toBe(true);
    expect((parts[2] as { text: string }).text).toBe(" Thought: thought 2\nAction: left_click(start_box='[1, 1]')\nstep 3: Screenshot:");
  });

  it('a step without a screenshot is omitted, and older steps never come back as images', () => {
    const history = [0, 1, 2, 3, 4, 5].map((i) => entry(i, { hasScreenshot: i !== 4 }));
    const parts = glmPc.buildRequest(ctx({ history }));
    expect(parts.filter((p) => p.type === 'image').map((p) => (p as { of: unknown }).of)).toEqual([2, 3, 5, 'current']);
    expect(promptTextOf(parts)).toContain('step 5: Screenshot:(Omitted in context.) Thought: thought 5');
    expect(promptTextOf(parts)).toContain('step 2: Screenshot:(Omitted in context.)');
  });

  it('image parts name the run step index, step numbers count the shown history from 1', () => {
    const parts = glmPc.buildRequest(ctx({ history: [entry(7), entry(9)] }));
    expect(parts.filter((p) => p.type === 'image')).toEqual([
      { type: 'image', of: 7, scale: 0.5 }, { type: 'image', of: 9, scale: 0.5 }, { type: 'image', of: 'current' },
    ]);
    expect(promptTextOf(parts)).toContain('step 1: Screenshot:<image: step 7> Thought: thought 8');
  });

  it('box tokens are stripped from history', () => {
    const h = entry(0, {
      thought: 'Click <|begin_of_box|>OK<|end_of_box|> <|start_of_box|>now',
      action: "left_click(start_box='<|begin_of_box|>[586,446]<|end_of_box|>')",
      hasScreenshot: false,
    });
    const all = promptTextOf(glmPc.buildRequest(ctx({ history: [h] })));
    expect(all).not.toMatch(/<\|(?:begin|end|start)_of_box\|>/);
    expect(all).toContain(" Thought: Click OK now\nAction: left_click(start_box='[586,446]')\nMemory:");
  });

  it('an observation other than Success follows the action', () => {
    const h = entry(0, { observation: 'Format error: No action call was found.', hasScreenshot: false });
    expect(promptTextOf(glmPc.buildRequest(ctx({ history: [h] })))).toContain("\nAction: left_click(start_box='[0, 0]')\nObservation: Format error: No action call was found.\nMemory:");
  });

  it('memory is the list as Python json.dumps writes it', () => {
    const memory = [{ file: 'report.pdf', pages: 3 }, { 名字: '张三' }];
    const t = promptTextOf(glmPc.buildRequest(ctx({ memory })));
    expect(t).toContain('\nMemory:\n[{"file": "report.pdf", "pages": 3}, {"名字": "张三"}]\n# Output Format');
    expect(formatMemory({})).toBe('[]');
    expect(formatMemory({ a: 1 })).toBe('[{"a": 1}]');
    expect(formatMemory('$&$1 kept as is')).toBe('$&$1 kept as is');
  });
});

describe('glm-pc replies', () => {
  for (const c of replies) {
    it(c.name, () => {
      const r = glmPc.parseReply(c.raw, c.reasoning ?? null, shot);
      if ('error' in c.expect) {
        expect(isParseError(r)).toBe(true);
        const e = r as ParseError;
        expect(e.error.length).toBeGreaterThan(10);
        return;
      }
      if (isParseError(r)) throw new Error(`${c.name}: ${r.error}`);
      expect(r.action).toEqual(c.expect);
      expect(r.actionText).not.toMatch(/<\|/);
      expect(r.actionText).toMatch(/^[a-z_]+\s*[(（]/i);
    });
  }

  it('the seed example replies: thought is the explanation, actionText the call as written, memory the list', () => {
    const step = golden.ctx.history[0];
    const r = parsed(`${step.thought}\n${step.action}\nMemory:\n[]`);
    expect(r.thought).toBe(step.thought);
    expect(r.actionText).toBe(step.action);
    expect(r.memory).toEqual([]);
    expect(r.notes).toEqual([]);
    expect(r.reasoning).toBeNull();
    expect(r.action).toEqual({ type: 'click', target: { kind: 'point', x: expect.closeTo(750.08, 6), y: expect.closeTo(356.8, 6) }, button: 'left', count: 1 });
  });

  it('box tokens leave the actionText and thought; think goes to reasoning', () => {
    const r = parsed("<think>Find OK.</think><answer>I'll click <|begin_of_box|>OK<|end_of_box|>.\nleft_click(start_box='<|begin_of_box|>[586,446]<|end_of_box|>', element_info='OK')\nMemory:\n[]</answer>");
    expect(r.thought).toBe("I'll click OK.");
    expect(r.actionText).toBe("left_click(start_box='[586,446]', element_info='OK')");
    expect(r.reasoning).toBe('Find OK.');
  });

  it('text around the call is the thought, the memory part is not', () => {
    const r = parsed("First line.\n\nleft_click(start_box='[1, 2]')\nThis should close it.\nMemory:\n[{\"a\": 1}]");
    expect(r.thought).toBe('First line.\nThis should close it.');
    expect(r.memory).toEqual([{ a: 1 }]);
  });

  it('memory list parse: JSON, Python repr, a lone dict, empty, invalid, missing', () => {
    const mem = (m: string) => parsed(`Click.\nleft_click(start_box='[1, 2]')\nMemory:\n${m}`);
    expect(mem('[{"user": "a@b.c"}, {"n": 2}]').memory).toEqual([{ user: 'a@b.c' }, { n: 2 }]);
    expect(mem("[{'user': 'a', 'ok': True, 'x': None}]").memory).toEqual([{ user: 'a', ok: true, x: null }]);
    expect(mem('```json\n[{"a": 1},]\n```').memory).toEqual([{ a: 1 }]);
    expect(mem('{"a": 1}').memory).toEqual([{ a: 1 }]);
    expect(mem('[]').memory).toEqual([]);
    expect(mem('None').memory).toEqual([]);
    expect(mem('[{"a": 1}] and that is all.').memory).toEqual([{ a: 1 }]);
    const bad = mem('[{"a": ');
    expect(bad.memory).toBeNull();
    expect(bad.notes).toContain(NOTE_MEMORY_INVALID);
    const none = parsed("Click.\nleft_click(start_box='[1, 2]')");
    expect(none.memory).toBeNull();
    expect(none.notes).toContain(NOTE_NO_MEMORY);
    expect(parseMemoryList('"text"')).toEqual({ ok: false, note: NOTE_MEMORY_INVALID });
  });

  it('clamps points outside the screenshot and says so', () => {
    const r = parsed("Click.\nleft_click(start_box='[1200, -5]')\nMemory:\n[]");
    // clamped to the model's range (0-999), so writing the action back gives the same point
    expect(r.action).toEqual({ type: 'click', target: { kind: 'point', ...pt(999, 0) }, button: 'left', count: 1 });
    expect(glmPc.formatAction(r.action, shot)).toBe("left_click(start_box='[999, 0]')");
    expect(r.notes).toContain(CLAMPED_NOTE);
    expect(parsed("Click.\nleft_click(start_box='[999, 999]')\nMemory:\n[]").notes).not.toContain(CLAMPED_NOTE);
    const p = parseAction("left_drag(start_box='[5, 5]', end_box='[5000, 5]')", shot);
    expect(p.ok && p.notes).toEqual([CLAMPED_NOTE]);
  });

  it('maps thousandths of the image to CSS px of the viewport', () => {
    const hiDpi = { imageWidth: 2560, imageHeight: 1600, viewport: { width: 1280, height: 800 } };
    const r = glmPc.parseReply("Click.\nleft_click(start_box='[500, 250]')\nMemory:\n[]", null, hiDpi) as ParsedStep;
    expect(r.action).toEqual({ type: 'click', target: { kind: 'point', x: 640, y: 200 }, button: 'left', count: 1 });
  });

  it('only the first of several calls is run, and the model is told', () => {
    const r = parsed("Click then type.\nleft_click(start_box='[1, 2]')\ntype(content='hi')\nMemory:\n[]");
    expect(r.action.type).toBe('click');
    expect(r.notes).toContain(NOTE_EXTRA_ACTIONS);
  });

  it('error messages tell the model what to write', () => {
    const none = glmPc.parseReply('I am not sure what to do.', null, shot) as ParseError;
    expect(none.error).toContain("left_click(start_box='[500,300]'");
    expect(none.error).toContain('Memory:');
    const unknown = glmPc.parseReply("click(start_box='[1,2]')", null, shot) as ParseError;
    expect(unknown.error).toContain("Unknown action 'click'");
    expect(unknown.error).toContain('left_click');
    const key = glmPc.parseReply("key(keys='ctrl+hyper')", null, shot) as ParseError;
    expect(key.error).toContain("'hyper' is not a key name");
    const obs = formatErrorObservation(none.error);
    expect(obs).toMatch(/^Format error: /);
    expect(obs).toContain('Memory:');
    expect(obs).toContain('JSON list');
  });

  it('DONE and FAIL carry the explanation, reasoning kept apart', () => {
    const r = parsed('<think>All good.</think>The figure is mirrored.\nDONE()\nMemory:\n[]');
    expect(r.action).toEqual({ type: 'finish', outcome: 'done', text: 'The figure is mirrored.' });
    expect(r.reasoning).toBe('All good.');
    expect(parsed('done()').action).toEqual({ type: 'finish', outcome: 'done', text: '' });
  });

  it('a reply cut off inside the call still reads what is complete', () => {
    expect(parsed("Typing.\ntype(content='hello wor").action).toEqual({ type: 'type', target: { kind: 'none' }, text: 'hello wor', clear: false, enter: false });
    expect(parsed("Click.\nleft_click(start_box='[586,446]'").action).toEqual({ type: 'click', target: { kind: 'point', ...pt(586, 446) }, button: 'left', count: 1 });
  });
});

describe('glm-pc keys', () => {
  it('normalizes names and aliases to ours', () => {
    const cases: Array<[string, string | null]> = [
      ['ctrl+c', 'Control+c'], ['Ctrl+Shift+T', 'Control+Shift+t'], ['cmd+a', 'Meta+a'], ['command+a', 'Meta+a'],
      ['super', 'Meta'], ['win+d', 'Meta+d'], ['option+left', 'Alt+ArrowLeft'], ['return', 'Enter'], ['Enter', 'Enter'],
      ['esc', 'Escape'], ['del', 'Delete'], ['backspace', 'Backspace'], ['tab', 'Tab'], ['up', 'ArrowUp'],
      ['down', 'ArrowDown'], ['Page_Down', 'PageDown'], ['pgup', 'PageUp'], ['page down', 'PageDown'],
      ['home', 'Home'], ['end', 'End'], ['space', 'Space'], [' ', 'Space'], ['F5', 'F5'], ['f12', 'F12'],
      ['ctrl + shift + esc', 'Control+Shift+Escape'], ['ctrl++', 'Control++'], ['ctrl+-', 'Control+-'],
      ['ctrl c', 'Control+c'], ['ctrl-c', 'Control+c'], ['A', 'a'], ['7', '7'], ['ArrowUp', 'ArrowUp'],
      ['', null], ['f13', null], ['ctrl+hyper', null], ['ctrl+', null], ['hyperdrive', null],
    ];
    for (const [input, want] of cases) expect([input, normalizeKeys(input)]).toEqual([input, want]);
  });
});

describe('glm-pc format and parseAction', () => {
  const kinds = new Set<string>();
  for (const t of actionTexts) {
    it(`round trip: ${t}`, () => {
      const a = parseAction(t, shot);
      if (!a.ok) throw new Error(a.error);
      kinds.add(`${a.action.type}${a.action.type === 'click' ? `:${a.action.button}:${a.action.count}` : a.action.type === 'finish' ? `:${a.action.outcome}` : ''}`);
      const written = glmPc.formatAction(a.action, shot);
      const b = parseAction(written, shot);
      if (!b.ok) throw new Error(b.error);
      expect(b.action).toEqual(a.action);
      expect(glmPc.formatAction(b.action, shot)).toBe(written);
    });
  }
  it('covers every call of the action space', () => {
    expect(kinds.size).toBe(12);
  });

  it('writes the canonical call', () => {
    const f = (a: Action) => glmPc.formatAction(a, shot);
    expect(f({ type: 'click', target: { kind: 'point', ...pt(586, 446) }, button: 'left', count: 1 })).toBe("left_click(start_box='[586, 446]')");
    expect(f({ type: 'click', target: { kind: 'point', ...pt(5, 6) }, button: 'right', count: 1 })).toBe("right_click(start_box='[5, 6]')");
    expect(f({ type: 'click', target: { kind: 'point', ...pt(5, 6) }, button: 'left', count: 2 })).toBe("left_double_click(start_box='[5, 6]')");
    expect(f({ type: 'key', keys: 'Control+Shift+t' })).toBe("key(keys='ctrl+shift+t')");
    expect(f({ type: 'key', keys: 'Meta+ArrowLeft' })).toBe("key(keys='super+left')");
    expect(f({ type: 'type', target: { kind: 'none' }, text: "it's\n\\", clear: false, enter: false })).toBe("type(content='it\\'s\\n\\\\')");
    expect(f({ type: 'scroll', target: { kind: 'point', ...pt(500, 500) }, direction: 'down', ticks: 5 })).toBe("scroll(start_box='[500, 500]', direction='down', step=5)");
    expect(f({ type: 'wait' })).toBe('WAIT()');
    expect(f({ type: 'finish', outcome: 'done', text: 'x' })).toBe('DONE()');
    expect(f({ type: 'finish', outcome: 'failed', text: 'x' })).toBe('FAIL()');
  });

  it('describes what the grammar has no words for', () => {
    const f = (a: Action) => glmPc.formatAction(a, shot);
    expect(f({ type: 'click', target: { kind: 'label', label: 3 }, button: 'left', count: 1 })).toBe('(click at [3])');
    expect(f({ type: 'type', target: { kind: 'label', label: 2 }, text: 'x', clear: true, enter: true })).toMatch(/^\(type "x"/);
    expect(f({ type: 'scroll', target: { kind: 'window' }, direction: 'down' })).toMatch(/^\(scroll down/);
    expect(f({ type: 'goBack' })).toBe('(go back)');
    expect(f({ type: 'navigate', url: 'https://a.example/' })).toBe('(go to https://a.example/)');
    expect(f({ type: 'answer', text: '42' })).toBe('(answer: 42)');
    expect(f({ type: 'press', target: { kind: 'point', x: 1, y: 2 } })).toMatch(/^\(long press/);
  });

  it('parseAction errors carry an example', () => {
    for (const t of ['', 'Click [3]', "left_click(start_box='[1]')", 'scroll()']) {
      const r = parseAction(t, shot);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/e\.g\./);
    }
  });
});

describe('glm-pc preview', () => {
  it('shows the explanation, then the call once it starts', () => {
    expect(preview('<think>hmm')).toEqual({ thought: null, action: null });
    expect(preview("I'll click OK")).toEqual({ thought: "I'll click OK", action: null });
    expect(preview("I'll click OK.\nleft_cl")).toEqual({ thought: "I'll click OK.", action: null });
    expect(preview("<think>x</think>I'll click OK.\nleft_click(start_box='<|begin_of_box|>[586,4")).toEqual({ thought: "I'll click OK.", action: "left_click(start_box='[586,4" });
    expect(preview("I'll click OK.\nleft_click(start_box='[586,446]')\nMemory:\n[]")).toEqual({ thought: "I'll click OK.", action: "left_click(start_box='[586,446]')" });
  });
});

describe('glm-pc fuzz', () => {
  // A small deterministic PRNG (mulberry32), so a failure can be reproduced.
  function rng(seed: number) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const JUNK = ["'", '"', '(', ')', '[', ']', ',', '=', '\\', '\n', '<think>', '</think>', '<answer>', '<|begin_of_box|>', '<|end_of_box|>', 'Memory:', 'left_click(', 'key(keys=', '（', '，', '```', ' '.repeat(200), '\u0000', '😀', 'DONE()', 'step=', "start_box='["];

  it('never throws and always returns a ParsedStep or a ParseError (2000 mutations)', () => {
    const r = rng(20250726);
    const pick = <T,>(xs: T[]) => xs[Math.floor(r() * xs.length)];
    const sources = replies.map((c) => c.raw).filter(Boolean);
    for (let n = 0; n < 2000; n++) {
      let s = pick(sources);
      const ops = 1 + Math.floor(r() * 4);
      for (let k = 0; k < ops; k++) {
        const i = Math.floor(r() * (s.length + 1));
        const j = i + Math.floor(r() * 20);
        switch (Math.floor(r() * 4)) {
          case 0: s = s.slice(0, i) + s.slice(j); break; // cut
          case 1: s = s.slice(0, j) + s.slice(i, j) + s.slice(j); break; // duplicate
          case 2: s = s.split('\n').sort(() => r() - 0.5).join('\n'); break; // shuffle lines
          default: s = s.slice(0, i) + pick(JUNK) + s.slice(i); // insert junk
        }
      }
      const reasoning = r() < 0.2 ? pick(sources) : null;
      let out: ParsedStep | ParseError | undefined;
      expect(() => { out = glmPc.parseReply(s, reasoning, shot); }).not.toThrow();
      if (!out) throw new Error('no result');
      if (isParseError(out)) {
        expect(typeof out.error).toBe('string');
        expect(out.error.length).toBeGreaterThan(0);
      } else {
        expect(typeof out.thought).toBe('string');
        expect(typeof out.actionText).toBe('string');
        expect(Array.isArray(out.notes)).toBe(true);
        const p = 'target' in out.action && out.action.target.kind === 'point' ? out.action.target : null;
        if (p) {
          expect(p.x).toBeGreaterThanOrEqual(0);
          expect(p.x).toBeLessThanOrEqual(shot.viewport.width - 1);
          expect(Number.isFinite(p.y)).toBe(true);
        }
        const action = out.action;
        expect(() => glmPc.formatAction(action, shot)).not.toThrow();
      }
      expect(() => parseAction(s, shot)).not.toThrow();
      expect(() => preview(s)).not.toThrow();
    }
  }, cpuBudget(1500)); // 2000 replies: about 1.5 s alone
});

describe('glm-pc prose', () => {
  it('words followed by brackets in prose are not calls', () => {
    expect(isParseError(glmPc.parseReply('Find the key(s) to press and type (slowly).', null, shot))).toBe(true);
    const r = parsed("Press the key (Enter) now: key(keys='enter')\nMemory:\n[]");
    expect(r.action).toEqual({ type: 'key', keys: 'Enter' });
  });
});
