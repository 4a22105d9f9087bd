/**
 * The fake model's cogagent parts (test/fixtures/dialects/cogagent/request.ts, player.ts):
 * the request checks accept what the real dialect builds and reject what departs from CogAgent's
 * query; the LLM action's text-only call is recorded as such; the player, driven in a loop with
 * the real dialect, answers in forms the dialect reads, at the targets it found by colour.
 */
import { describe, expect, it } from 'vitest';
import { cogagent } from '../../src/core/dialects/cogagent';
import { toMessages } from '../../src/core/dialects/request';
import { isParseError, type Action, type ParsedStep } from '../../src/core/action/action';
import type { ShotGeometry } from '../../src/core/action/coords';
import type { HistoryEntry } from '../../src/core/dialects/types';
import { blankImage, fillRect, pngDataUrl, type Rgba } from '../../scripts/png';
import { COLOURS, parseColour } from '../fixtures/model/locate';
import { checkRequestCog, parseLlmCog, parseRequestCog } from '../fixtures/dialects/cogagent/request';
import { record } from '../fixtures/model/server';
import { cogPlayer, cogProgress, type CogGoal, type CogVariant } from '../fixtures/dialects/cogagent/player';
import { cpuBudget } from '../fixtures/cpu-budget';

const KEY = 'sk-unit-cog-123456';

function scene(width: number, height: number, targets: Array<[string, number, number, number, number]>): Rgba {
  const img = blankImage(width, height);
  for (const [c, x, y, w, h] of targets) fillRect(img, x, y, w, h, parseColour(c));
  fillRect(img, 3, 3, 3, 3, parseColour(COLOURS.magenta)); // a speck: ignored
  return img;
}

const SHOT: ShotGeometry = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1024, height: 640 } };
const page = scene(1280, 800, [[COLOURS.magenta, 137, 211, 73, 41], [COLOURS.cyan, 101, 381, 767, 37], [COLOURS.green, 700, 500, 200, 40]]);
/** Each scene is encoded once: the loops below send the same picture step after step, and a 1280 × 800 PNG encode is the bulk of their work. */
const encoded = new WeakMap<Rgba, string>();
function urlOf(img: Rgba): string {
  const got = encoded.get(img) ?? pngDataUrl(img);
  encoded.set(img, got);
  return got;
}
const png = urlOf(page);

function bodyOf(history: HistoryEntry[], image = png): Record<string, unknown> {
  const parts = cogagent.buildRequest({ task: 'Click the magenta box', site: 'http://127.0.0.1/', now: new Date(0), history, memory: '', marks: [], shot: SHOT, apps: [] });
  return { model: 'cogagent', messages: toMessages(parts, [image]), temperature: cogagent.request.temperature, max_tokens: 4096, stream: true };
}

const hist = (n: number): HistoryEntry[] => Array.from({ length: n }, (_, i) => ({
  index: i, thought: `Step ${i}.`, action: 'CLICK(box=[[100,200,110,210]])', observation: i === 1 ? 'The element could not be found.' : 'Success', hasScreenshot: true,
}));

describe('cogagent request checks', () => {
  it('accept the real dialect\'s requests and parse them', () => {
    for (const n of [0, 1, 4]) expect(checkRequestCog(bodyOf(hist(n)), `Bearer ${KEY}`, KEY), `history of ${n}`).toEqual([]);
    const p = parseRequestCog(bodyOf(hist(3)))!;
    expect(p).toMatchObject({ task: 'Click the magenta box', platform: 'WIN', format: 'Action-Operation-Sensitive', screenshot: png });
    expect(p.steps.map((s) => [s.n, s.observation])).toEqual([[0, null], [1, 'The element could not be found.'], [2, null]]);
    expect(parseLlmCog(bodyOf(hist(0)))).toBeNull();
  });

  it('reject a system prompt, another platform or format, an element list, a second image, bad numbering, the wrong temperature', () => {
    const good = bodyOf(hist(2));
    const msgs = good.messages as Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    const withText = (edit: (t: string) => string) => ({ ...good, messages: [{ ...msgs[0], content: [{ ...msgs[0].content[0], text: edit(msgs[0].content[0].text!) }, msgs[0].content[1]] }] });
    const problems = (b: Record<string, unknown>) => checkRequestCog(b, undefined, undefined).join('\n');
    expect(problems({ ...good, messages: [{ role: 'system', content: 'You are an agent.' }, ...msgs] })).toMatch(/exactly one message/);
    expect(problems(withText((t) => t.replace('(Platform: WIN)', '(Platform: Mac)')))).toMatch(/platform is Mac/);
    expect(problems(withText((t) => t.replace('Action-Operation-Sensitive', 'Status-Action-Operation')))).toMatch(/answer format/);
    expect(problems(withText((t) => t.replace('History steps: ', 'History steps:')))).toMatch(/the query is not/);
    expect(problems(withText((t) => t.replace('\n1. ', '\n7. ')))).toMatch(/numbered 7/);
    expect(problems(withText((t) => `${t.slice(0, -1)}\n[0]: <a> "Home";\n`))).toMatch(/the query is not|element list/);
    expect(problems({ ...good, messages: [{ ...msgs[0], content: [...msgs[0].content, msgs[0].content[1]] }] })).toMatch(/\[text, image\]/);
    expect(problems({ ...good, temperature: 0.7 })).toMatch(/temperature/);
    expect(problems(bodyOf(hist(0), pngDataUrl(blankImage(412, 915))))).toMatch(/not a desktop tab/);
  });

  it('a text-only request is the LLM action\'s call: recorded as such, its variables must be filled', () => {
    const llm = { model: 'cogagent', messages: [{ role: 'user', content: [{ type: 'text', text: 'Write 42.50 EUR in words' }] }], max_tokens: 4096 };
    const rec = record('cogagent', llm, `Bearer ${KEY}`, KEY);
    expect(rec.llm).toEqual({ prompt: 'Write 42.50 EUR in words' });
    expect(rec.cogagent).toBeNull();
    expect(rec.violations).toEqual([]);
    const unfilled = record('cogagent', { ...llm, messages: [{ role: 'user', content: 'Write __CogName_Price__ in words' }] }, undefined, undefined);
    expect(unfilled.violations.join('\n')).toMatch(/still names variables: __CogName_Price__/);
    expect(record('cogagent', bodyOf(hist(1)), undefined, undefined).cogagent?.steps).toHaveLength(1);
  });
});

interface Sim { actions: Action[]; steps: ParsedStep[] }

/** A tiny run loop with the real dialect; the observation of a variable-storing action is the run's "Stored …". */
function simulate(goals: CogGoal[], screen: (i: number) => Rgba, opts: { variant?: CogVariant; observe?: (a: Action, i: number) => string } = {}, limit = 12): Sim {
  const player = cogPlayer(goals, { variant: opts.variant });
  const history: HistoryEntry[] = [];
  const actions: Action[] = [];
  const steps: ParsedStep[] = [];
  for (let i = 0; i < limit; i++) {
    const body = bodyOf(history, urlOf(screen(i)));
    expect(checkRequestCog(body, undefined, undefined)).toEqual([]);
    const r = player(parseRequestCog(body), parseLlmCog(body));
    const parsed = cogagent.parseReply(r.content, r.reasoning ?? null, SHOT);
    if (isParseError(parsed)) throw new Error(`step ${i}: the dialect could not read ${JSON.stringify(r.content)}: ${parsed.error}`);
    actions.push(parsed.action);
    steps.push(parsed);
    if (parsed.action.type === 'finish') break;
    const stored = 'output' in parsed.action ? `Stored 5 characters in ${parsed.action.output}: "42.50"` : 'Success';
    history.push({ index: i, thought: parsed.thought, action: parsed.actionText, observation: opts.observe?.(parsed.action, i) ?? stored, hasScreenshot: true });
  }
  return { actions, steps };
}

/** The centre of an image-pixel rect in CSS px of SHOT (1280 → 1024: × 0.8). */
const css = (x: number, y: number, w: number, h: number) => ({ x: (x + w / 2) * 0.8, y: (y + h / 2) * 0.8 });
const near = (a: { x: number; y: number }, b: { x: number; y: number }, tol = 1.5) => Math.abs(a.x - b.x) <= tol && Math.abs(a.y - b.y) <= tol;
const at = (a: Action) => (a as { target: { x: number; y: number } }).target;

// draws its screenshots and finds colours in them: about 1 s alone
describe('cogagent player', { timeout: cpuBudget(1000) }, () => {
  const goals: CogGoal[] = [
    { do: 'click', colour: COLOURS.magenta, sensitive: true },
    { do: 'quote', colour: COLOURS.green, output: '__CogName_Price__', all: true },
    { do: 'llm', prompt: 'Write __CogName_Price__ in words', output: '__CogName_Words__' },
    { do: 'type', colour: COLOURS.cyan, text: 'Note: __CogName_Words__' },
    { do: 'scroll', direction: 'down' },
    { do: 'key', key: 'Return' },
    { do: 'answer', text: 'The price is 42.50 EUR.' },
  ];
  for (const variant of ['plain', 'no-space', 'think', 'single-brackets', 'prose'] as CogVariant[]) {
    it(`every goal in the "${variant}" form reads as the intended action at the target`, () => {
      const sim = simulate(goals, () => page, { variant });
      const a = sim.actions;
      expect(a.map((x) => x.type)).toEqual(['click', 'quote', 'llm', 'type', 'scroll', 'key', 'finish']);
      expect(near(at(a[0]), css(137, 211, 73, 41))).toBe(true);
      expect(sim.steps[0].sensitive).toBe(true);
      expect(sim.steps[1].sensitive).toBeFalsy();
      expect(near(at(a[1]), css(700, 500, 200, 40))).toBe(true);
      expect(a[1]).toMatchObject({ type: 'quote', all: true, output: '__CogName_Price__' });
      const box = (a[1] as Extract<Action, { type: 'quote' }>).box;
      expect(Math.abs(box.x - 700 * 0.8) <= 1 && Math.abs(box.width - 200 * 0.8) <= 2).toBe(true);
      expect(a[2]).toEqual({ type: 'llm', prompt: 'Write __CogName_Price__ in words', output: '__CogName_Words__' });
      expect(a[3]).toMatchObject({ type: 'type', text: 'Note: __CogName_Words__', clear: false, enter: false });
      expect(near(at(a[3]), css(101, 381, 767, 37))).toBe(true);
      expect(a[4]).toMatchObject({ type: 'scroll', direction: 'down', ticks: 5 });
      expect(a[5]).toEqual({ type: 'key', keys: 'Enter' });
      expect(a[6]).toEqual({ type: 'finish', outcome: 'done', text: 'The price is 42.50 EUR.' });
    });
  }

  it('answers the LLM action\'s call (default: the prompt\'s last line in upper case, or the given function)', () => {
    expect(cogPlayer([])(null, { prompt: 'a\nwrite 42' })).toEqual({ content: 'WRITE 42' });
    expect(cogPlayer([], { llm: (p) => `<${p}>` })(null, { prompt: 'x' })).toEqual({ content: '<x>' });
  });

  it('searches by scrolling when the colour is not on the screen; a failed step is done again', () => {
    const screens = [scene(1280, 800, []), scene(1280, 800, [[COLOURS.violet, 400, 500, 83, 47]])];
    const sim = simulate([{ do: 'click', colour: COLOURS.violet }, { do: 'answer', text: 'ok' }], (i) => screens[Math.min(i, 1)], { observe: (_, i) => (i === 1 ? 'The click could not be done.' : 'Success') });
    expect(sim.actions.map((x) => x.type)).toEqual(['scroll', 'click', 'click', 'finish']);
    expect(sim.actions[0]).toMatchObject({ type: 'scroll', direction: 'down' });
    expect(near(at(sim.actions[2]), css(400, 500, 83, 47))).toBe(true);
  });

  it('progress counts steps that succeeded or stored a variable, not failed ones or searches', () => {
    const s = (sentence: string, observation: string | null) => ({ n: 0, operation: 'X()', sentence, observation });
    expect(cogProgress([])).toEqual({ goal: 0, searches: 0 });
    expect(cogProgress([s('a (plan: goal 1/3, part 1)', null), s('b (plan: goal 2/3, part 1)', 'Stored 3 characters in __CogName_X__: "abc"')])).toEqual({ goal: 2, searches: 0 });
    expect(cogProgress([s('a (plan: goal 1/3, part 1)', 'The element could not be found.'), s('look (plan: goal 1/3, searching)', null)])).toEqual({ goal: 0, searches: 1 });
  });
});
