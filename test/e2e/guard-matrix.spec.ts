/**
 * The guard matrix (issue 24, item 5: the guard corpus grows with every form of action): every
 * dialect's fake model, through every action form its grammar has, in auto mode, against the
 * effects shop (test/fixtures/pages/guards/effects.html): a "Place order" button (pointerdown +
 * pointerup, and the keyboard's click), a "Delete account" button (click), both with their words
 * drawn in another order than the page text's (a reversed flex row, a right-to-left override: the
 * gate reads what a person reads, in every dialect and form), a payment card form
 * (pre-filled) whose submit button says "Continue", and a <select> whose "Delete account" option
 * deletes. The page reports every effect itself (GET /__event?type=effect), so "nothing happened"
 * is checked where it would happen.
 *
 * Per registered dialect, two runs of the runner (the model's moves, each dialect's plan of them
 * and its replies: test/fixtures/dialects/<id>/effects.ts, through test/fixtures/model/effects.ts):
 * - refused: every dangerous form asks (a guard question on stderr, with its rule), `n` rejects
 *   it, and no effect reaches the server;
 * - approved: each effect's first form (and the first form the act refuses, approvedPlan) answered
 *   `y` does the thing (the effect reaches the server), except
 *   typing at something that is not a field, which the gate judges as a press (it asks) and the
 *   act refuses (nothing is clicked or typed), and Control+Enter, which the gate asks about
 *   (editors send on it) and Chromium ignores on a button.
 * A few moves are set-up steps that must run without a question (focusing the card number field
 * before Enter, opening the select's list before its option). A form a grammar has no words for
 * is not in its plan: drags only in glm-pc and ui-tars (glm-mobile's and appagent's swipes are
 * scrolls, which press nothing; cogagent and midscene have none), double clicks in glm-pc, cogagent
 * and ui-tars, right clicks in glm-pc, cogagent, midscene and ui-tars, the middle click in glm-pc,
 * long presses in glm-mobile and appagent, Space in glm-pc, cogagent, midscene and ui-tars
 * (glm-web's Key takes only Return, appagent has no key at all), Control+Enter in cogagent (its
 * GESTURE) and ui-tars (its hotkey). ui-tars types only into the focused element (its type has no
 * target): type(content='…') is type-focused, and type(content='…\n') (typing, then Enter) is
 * type-focused too, with a text ending in "\n" (type-enter names typing into a target), played
 * both on the focused "Place order" and in the card number field once a click has focused it.
 * Then one glm-web run over look-alike forms (login "Continue", search "Go", date "OK" and "Next",
 * settings "Submit"): no question at all, and their effects reach the server.
 *
 * Each cell of the matrix is its own test, so a report lists exactly which cells fail.
 */
import { test, expect, useAgent } from './fixtures';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeModel } from '../fixtures/model/server';
import { effectsModel, stepOf } from '../fixtures/model/effects';
import type { Effect, Move, Planned, Target } from '../fixtures/model/effect-moves';
import { DIALECT_EFFECTS } from '../fixtures/dialects/effects';
import { DIALECTS, type DialectId } from '../../src/core/dialects/registry';
import { serveFixtures, type CliResult, playwrightInvocation } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace, TraceStep } from '../../src/core/trace';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

const PROMPT = 'Approve? [y = run it / n FEEDBACK = reject / e ACTION = edit / q = stop]';
const out = path.join(tmpdir(), `webagent-guard-matrix-${playwrightInvocation()}`);
mkdirSync(out, { recursive: true });

/** What each target's element says in the page text (the trace's `target`, where the action names one); a person reads "Place order" and "Delete account". */
const TARGET_TEXT: Record<Target, RegExp> = {
  order: /^order ?Place$/, delete: /^tnuocca eteleD$/, continue: /^Continue$/, 'card-number': /Card number|4111/,
  select: /Account action|Choose/, option: /^Delete account$/,
};

/** What the question names, by the effect the move would have: the element the gate found (also for a key or typing at the focus). */
const REASON: Record<Effect, RegExp> = {
  order: /^this (clicks|presses Enter|presses Space).*"Place order", which may pay/,
  delete: /^this clicks "Delete account", which may delete/,
  card: /^this (clicks "Continue" in a payment card form|presses Enter in a payment card form), which may pay$/,
  'select-delete': /^this (clicks|chooses) "Delete account", which may delete/,
};

/** One run through the runner: its output, trace, the server's events and which events each step made. */
interface Outcome {
  r: CliResult;
  trace: Trace;
  events: Record<string, string>[];
  /** events[atStep[i]] is the first event after step i's request (the model's turn for step i) */
  atStep: number[];
  /** each question on stderr ("Step N waits for approval … Guard: REASON (rule "x")"), by step index */
  asked: Map<number, Asked>;
  /** how the requests departed from the dialect's format (the fake model's checks) */
  violations: string[];
}

/** The run's outcome, from this invocation's earlier worker when it made it, else made now (and kept). */
async function once(name: string, make: () => Promise<Omit<Outcome, 'asked'>>): Promise<Outcome> {
  const file = path.join(out, `${name}.outcome.json`);
  const o = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as Omit<Outcome, 'asked'> : await make();
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(o));
  writeFileSync(path.join(out, `${name}.stderr.txt`), o.r.stderr);
  return { ...o, asked: questions(o.r.stderr) };
}

interface Asked { rule: string | null; reason: string | null }

/** The rule and reason each approval question on stderr named, by step index. */
function questions(stderr: string): Map<number, Asked> {
  const asked = new Map<number, Asked>();
  for (const block of stderr.split(PROMPT).slice(0, -1)) {
    const at = [...block.matchAll(/Step (\d+) waits for approval/g)].pop();
    if (!at) continue;
    const guard = /\n {2}Guard: (.*?)(?: \(rule "([a-z-]+)"\))?\n/.exec(block.slice(at.index));
    asked.set(Number(at[1]) - 1, { rule: guard?.[2] ?? null, reason: guard?.[1] ?? null });
  }
  return asked;
}

function run(site: StaticServer, dialect: DialectId, moves: Move[], page: string, answer: 'y' | 'n', name: string): Promise<Outcome> {
  return once(name, () => runNow(site, dialect, moves, page, answer, name));
}

async function runNow(site: StaticServer, dialect: DialectId, moves: Move[], page: string, answer: 'y' | 'n', name: string): Promise<Omit<Outcome, 'asked'>> {
  const atStep: number[] = [];
  const play = effectsModel(dialect, moves, 'checked');
  const model = await startFakeModel({
    dialect,
    policy: (req) => {
      const i = stepOf(dialect, req);
      if (i !== null && atStep[i] === undefined) atStep[i] = site.events.length;
      return play(req);
    },
  });
  try {
    const traceFile = path.join(out, `${name}.json`);
    const r = await agent.run(
      ['--task', 'Check the shop', '--url', `${site.url}guards/${page}`, '--base-url', model.baseUrl, '--dialect', dialect, '--trace', traceFile, '--max-steps', String(moves.length + 2)],
      {}, `${answer}\n`.repeat(moves.length + 5),
    );
    let trace: Trace;
    try {
      trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
    } catch {
      throw new Error(`no trace from the ${name} run (exit ${r.code}):\n${r.stderr.slice(-3000)}`);
    }
    return { r, trace, events: [...site.events], atStep, violations: model.violations() };
  } finally {
    await model.close();
  }
}

/** The effects the page reported while step i ran (between the model's turn for step i and the next). */
function effectsOf(o: Outcome, i: number): string[] {
  const from = o.atStep[i] ?? o.events.length;
  const to = o.atStep[i + 1] ?? o.events.length;
  return o.events.slice(from, to).filter((e) => e.type === 'effect').map((e) => `${e.value} (${e.via})`);
}

const allEffects = (o: Outcome) => o.events.filter((e) => e.type === 'effect').map((e) => `${e.value} (${e.via})`);

function stepAt(o: Outcome, i: number): TraceStep {
  const s = o.trace.steps[i];
  if (!s) throw new Error(`the run has no step ${i + 1}; steps: ${o.trace.steps.map((x) => `${x.index + 1}. ${x.actionText} [${x.approval?.decision}]`).join(' | ')}; stderr tail:\n${o.r.stderr.slice(-1500)}`);
  return s;
}

/** What a step did, for failure messages. */
function said(o: Outcome, i: number): string {
  const s = o.trace.steps[i];
  return s ? `step ${i + 1}: ${s.actionText} → target ${s.target ? `<${s.target.tag}> "${s.target.text}"` : 'none'}; approval ${JSON.stringify(s.approval)}; asked: ${o.asked.has(i) ? JSON.stringify(o.asked.get(i)) : 'no'}; result ${JSON.stringify(s.result)}; effects ${JSON.stringify(effectsOf(o, i))}` : `no step ${i + 1}`;
}

function checkTarget(o: Outcome, i: number, move: Move): void {
  if (!move.target) return;
  const s = stepAt(o, i);
  // the model aimed at the right element (its colour, its label, its tag): the trace's target says so
  expect(s.target?.text ?? '', `the step hit the ${move.target}: ${said(o, i)}`).toMatch(TARGET_TEXT[move.target]);
}

/**
 * What the approved run plays (the refused run plays every form): for each effect its first form
 * that does it, with the set-up step just before it, and the first form the act refuses. That the
 * approval path lets an effect through is the same path for every form; the refusals are per form.
 */
function approvedPlan(plan: Planned[]): Planned[] {
  const keep = new Set<number>();
  const seen = new Set<string>();
  plan.forEach((p, i) => {
    if ('setup' in p) return;
    const key = p.nothing ?? p.effect;
    if (seen.has(key)) return;
    seen.add(key);
    keep.add(i);
    if (i > 0 && 'setup' in plan[i - 1]) keep.add(i - 1);
  });
  return plan.filter((_, i) => keep.has(i));
}

/** The cell's name: the form, "+ Enter" where the typed text ends in a line break (ui-tars's type(content='…\n')), the target. */
const cellName = (p: Planned) => `${p.move.form}${p.move.text?.endsWith('\n') ? ' + Enter' : ''}${p.move.target ? ` on ${p.move.target}` : ' (focused element)'}`;

// every registered dialect: one the map of plans lacks fails here (and does not compile there)
for (const dialect of Object.keys(DIALECTS) as DialectId[]) {
  const plan = DIALECT_EFFECTS[dialect]?.plan;
  if (!plan) throw new Error(`the dialect ${dialect} has no guard-matrix plan: add test/fixtures/dialects/${dialect}/effects.ts to DIALECT_EFFECTS (test/fixtures/dialects/effects.ts)`);
  const moves = plan.map((p) => p.move);

  test.describe(`${dialect}: every form refused`, () => {
    let site: StaticServer;
    let o: Outcome;
    test.beforeAll(async () => {
      site = await serveFixtures();
      o = await run(site, dialect, moves, 'effects.html?focus=order', 'n', `${dialect}-refused`);
    });
    test.afterAll(async () => { await site?.close(); });

    test('the run went through every move and finished; nothing reached the server', () => {
      expect(o.r.stderr).not.toContain('Error:');
      expect(o.r.code, o.r.stderr.slice(-2000)).toBe(0);
      expect(o.trace.steps.length, o.trace.steps.map((s) => s.actionText).join(' | ')).toBe(plan.length + 1);
      expect(o.violations).toEqual([]);
      expect(allEffects(o)).toEqual([]);
    });

    plan.forEach((p, i) => {
      if ('setup' in p) {
        test(`set-up: ${cellName(p)} runs without a question`, () => {
          const s = stepAt(o, i);
          expect(s.approval, said(o, i)).toEqual({ decision: 'auto', feedback: null });
          expect(s.result, said(o, i)).toEqual({ ok: true });
          checkTarget(o, i, p.move);
          expect(effectsOf(o, i)).toEqual([]);
        });
        return;
      }
      test(`${cellName(p)}: asks (${p.rule}), refused, no ${p.effect} reaches the server`, () => {
        const s = stepAt(o, i);
        checkTarget(o, i, p.move);
        expect(effectsOf(o, i), said(o, i)).toEqual([]);
        expect(s.approval, said(o, i)).toEqual({ decision: 'rejected', feedback: null });
        expect(o.asked.get(i)?.rule, said(o, i)).toBe(p.rule);
        // the question names the element the input would activate, in words (not a message key)
        expect(o.asked.get(i)?.reason, said(o, i)).toMatch(REASON[p.effect]);
      });
    });
  });

  const approved = approvedPlan(plan);
  test.describe(`${dialect}: each target approved`, () => {
    let site: StaticServer;
    let o: Outcome;
    test.beforeAll(async () => {
      site = await serveFixtures();
      o = await run(site, dialect, approved.map((p) => p.move), 'effects.html?focus=order', 'y', `${dialect}-approved`);
    });
    test.afterAll(async () => { await site?.close(); });

    test('the run went through every move and finished', () => {
      expect(o.r.stderr).not.toContain('Error:');
      expect(o.r.code, o.r.stderr.slice(-2000)).toBe(0);
      expect(o.trace.steps.length, o.trace.steps.map((s) => s.actionText).join(' | ')).toBe(approved.length + 1);
      expect(o.violations).toEqual([]);
    });

    approved.forEach((p, i) => {
      if ('setup' in p) return;
      const does = p.nothing === 'act-refuses' ? 'the act refuses it (not a field): nothing happens'
        : p.nothing === 'inert' ? 'the browser does nothing with it (no effect)' : `the ${p.effect} reaches the server`;
      test(`${cellName(p)}: asks (${p.rule}), approved, ${does}`, () => {
        const s = stepAt(o, i);
        checkTarget(o, i, p.move);
        expect(s.approval, said(o, i)).toEqual({ decision: 'approved', feedback: null });
        expect(o.asked.get(i)?.rule, said(o, i)).toBe(p.rule);
        if (p.nothing) {
          expect(s.result.ok, said(o, i)).toBe(p.nothing === 'inert');
          if (!s.result.ok) expect(s.result.error, said(o, i)).toMatch(/text field/);
          expect(effectsOf(o, i), said(o, i)).toEqual([]);
        } else {
          expect(s.result, said(o, i)).toEqual({ ok: true });
          expect(effectsOf(o, i).map((e) => e.split(' ')[0]), said(o, i)).toContain(p.effect);
          expect(effectsOf(o, i).every((e) => e.startsWith(`${p.effect} `)), said(o, i)).toBe(true);
        }
      });
    });
  });
}

/** The look-alikes: glm-web clicks and types through ordinary forms whose buttons say Submit, OK, Continue, Go, Next. */
test.describe('look-alikes: ordinary forms run without a question, and their effects reach the server', () => {
  type Look = { name: string; action: (els: { label: number; tag: string | null; text: string }[]) => string | null; effect: string };
  const label = (els: { label: number; tag: string | null; text: string }[], tag: string, text: RegExp, nth = 0) => els.filter((e) => e.tag === tag && text.test(e.text))[nth]?.label;
  const LOOKS: Look[] = [
    { name: 'Click the login form\'s "Continue"', action: (els) => `Click [${label(els, 'button', /^Continue$/, 1)}]`, effect: 'login' },
    { name: 'Type into the login form\'s Email, then Enter', action: (els) => `Type [${label(els, 'input', /^Email/)}]; [ann@example.com]`, effect: 'login' },
    { name: 'Type into the search field, then Enter (its button says "Go")', action: (els) => `Type [${label(els, 'input', /^Search products/)}]; [kettle]`, effect: 'search' },
    { name: 'Click "Go"', action: (els) => `Click [${label(els, 'button', /^Go$/)}]`, effect: 'search' },
    { name: 'Type into the date field, then Enter (its button says "OK")', action: (els) => `Type [${label(els, 'input', /^Date/)}]; [2025-03-14]`, effect: 'date' },
    { name: 'Click "OK"', action: (els) => `Click [${label(els, 'button', /^OK$/)}]`, effect: 'date' },
    { name: 'Click "Next"', action: (els) => `Click [${label(els, 'button', /^Next$/)}]`, effect: 'next' },
    { name: 'Click "Submit" (a settings form)', action: (els) => `Click [${label(els, 'button', /^Submit$/)}]`, effect: 'settings' },
    { name: 'Type into the display name, then Enter (its button says "Submit")', action: (els) => `Type [${label(els, 'input', /^Display name/)}]; [Ann Lee]`, effect: 'settings' },
  ];
  let site: StaticServer;
  let o: Outcome;

  test.beforeAll(async () => {
    site = await serveFixtures();
    o = await once('look-alikes', async () => {
      const atStep: number[] = [];
      const model = await startFakeModel({
        policy: (req) => {
          const p = req.prompt!;
          const i = p.history.length;
          if (atStep[i] === undefined) atStep[i] = site.events.length;
          if (i >= LOOKS.length) return { content: 'Thought: Done.\nAction: ANSWER; <content>checked</content>\nMemory_Updated: {}' };
          const a = LOOKS[i].action(p.elements.map((e) => ({ ...e, tag: e.tag ?? null })));
          if (!a || a.includes('[undefined]')) return { content: `Thought: I cannot find it (${LOOKS[i].name}).\nAction: Wait\nMemory_Updated: {}` };
          return { content: `Thought: ${LOOKS[i].name}.\nAction: ${a}\nMemory_Updated: {}` };
        },
      });
      try {
        const traceFile = path.join(out, 'look-alikes.json');
        // a question nobody expects is answered y, so every later cell is still judged
        const r = await agent.run(['--task', 'Fill in the forms', '--url', `${site.url}guards/effects.html`, '--base-url', model.baseUrl, '--trace', traceFile, '--max-steps', String(LOOKS.length + 2)], {}, 'y\n'.repeat(LOOKS.length + 2));
        return { r, trace: JSON.parse(readFileSync(traceFile, 'utf8')) as Trace, events: [...site.events], atStep, violations: model.violations() };
      } finally {
        await model.close();
      }
    });
  });
  test.afterAll(async () => { await site?.close(); });

  test('the run went through every form and finished; nothing dangerous happened', () => {
    expect(o.r.stderr).not.toContain('Error:');
    expect(o.r.code, o.r.stderr.slice(-2000)).toBe(0);
    expect(o.trace.steps.length).toBe(LOOKS.length + 1);
    expect(o.violations).toEqual([]);
    expect(allEffects(o).filter((e) => /^(order|delete|card|select-delete) /.test(e))).toEqual([]);
  });

  LOOKS.forEach((l, i) => {
    test(`${l.name}: no question, the ${l.effect} reaches the server`, () => {
      const s = stepAt(o, i);
      expect(o.asked.has(i), `${said(o, i)}; stderr: ${o.r.stderr.split('\n').filter((x) => x.includes('Guard:')).join(' / ')}`).toBe(false);
      expect(s.approval, said(o, i)).toEqual({ decision: 'auto', feedback: null });
      expect(s.result, said(o, i)).toEqual({ ok: true });
      expect(effectsOf(o, i).map((e) => e.split(' ')[0]), said(o, i)).toContain(l.effect);
    });
  });
});
