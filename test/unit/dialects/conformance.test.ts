/**
 * One conformance suite for every registered dialect (a new dialect cannot skip a duty):
 * 1. golden: its request for the seed's worked example equals the example (text parts, image
 *    places), where the seed gives one;
 * 2. every example reply parses to the expected action (or to an error, where one is expected);
 * 3. formatAction -> parseAction round-trips every action the grammar writes;
 * 4. the parser never throws on a corpus of mutated replies;
 * 5. no request carries the benchmark-only password / mail-account lines of the seed.
 * Each dialect's cases live in test/fixtures/dialects/<id>/cases.ts.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { DIALECTS } from '../../../src/core/dialects/registry';
import { promptTextOf } from '../../../src/core/dialects/request';
import { isParseError, type Action } from '../../../src/core/action/action';
import type { DialectContext, RequestPart } from '../../../src/core/dialects/types';
import type { ShotGeometry } from '../../../src/core/action/coords';
import { cpuBudget } from '../../fixtures/cpu-budget';

interface Cases {
  golden: { ctx: DialectContext; expected: RequestPart[]; compareUpTo?: string; normalize?: (s: string) => string } | null;
  shot: ShotGeometry;
  replies: Array<{ name: string; raw: string; reasoning?: string | null; expect: Action | { error: true } }>;
  actionTexts: string[];
}

const cases = new Map<string, Cases>();
for (const id of Object.keys(DIALECTS)) {
  const file = new URL(`../../fixtures/dialects/${id}/cases.ts`, import.meta.url);
  if (existsSync(file)) cases.set(id, (await import(file.href)) as Cases);
}

/** A small deterministic generator, so a failing mutation can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function mutate(text: string, r: () => number): string {
  const junk = ['\n', '"', "'", '[', ']', '{', '}', '(', ')', '<|begin_of_box|>', '</think>', 'Action:', 'Memory:', '\\', '：', '999999', '-1', 'NaN', '　'];
  let t = text;
  const n = 1 + Math.floor(r() * 4);
  for (let k = 0; k < n; k++) {
    const i = Math.floor(r() * (t.length + 1));
    const j = Math.min(t.length, i + Math.floor(r() * 20));
    switch (Math.floor(r() * 4)) {
      case 0: t = t.slice(0, i) + t.slice(j); break; // cut
      case 1: t = t.slice(0, i) + t.slice(i, j).repeat(2) + t.slice(j); break; // duplicate
      case 2: t = t.slice(0, i) + junk[Math.floor(r() * junk.length)] + t.slice(i); break; // insert junk
      default: t = t.slice(j) + t.slice(0, j); // rotate
    }
  }
  return t;
}

describe('every dialect is registered with its cases', () => {
  it('has a cases file for each registered dialect', () => {
    expect([...cases.keys()].sort()).toEqual(Object.keys(DIALECTS).sort());
  });
});

for (const [id, c] of cases) {
  const d = DIALECTS[id];
  describe(`dialect ${id}`, () => {
    it('golden: the request for the seed\'s worked example is the example', () => {
      if (!c.golden) return;
      const got = d.buildRequest(c.golden.ctx);
      const shape = (parts: RequestPart[]) => parts.map((p) => (p.type === 'text' ? 'text' : JSON.stringify(p)));
      const norm = c.golden.normalize ?? ((s: string) => s);
      const cutAt = (s: string) => (c.golden!.compareUpTo ? s.slice(0, s.indexOf(c.golden!.compareUpTo) + c.golden!.compareUpTo.length) : s);
      if (c.golden.compareUpTo) {
        expect(norm(cutAt(promptTextOf(got)))).toBe(norm(cutAt(promptTextOf(c.golden.expected))));
      } else {
        expect(shape(got)).toEqual(shape(c.golden.expected));
        got.forEach((p, i) => {
          const want = c.golden!.expected[i];
          if (p.type === 'text' && want.type === 'text') expect(norm(p.text)).toBe(norm(want.text));
        });
      }
    });

    for (const r of c.replies) {
      it(`parses: ${r.name}`, () => {
        const got = d.parseReply(r.raw, r.reasoning ?? null, c.shot);
        if ('error' in r.expect) expect(isParseError(got)).toBe(true);
        else {
          if (isParseError(got)) throw new Error(`expected an action, got: ${got.error}`);
          expect(got.action).toEqual(r.expect);
          // the history shows actionText: it must read back as the same action
          // (the end of a task takes its explanation from the thought, which the call alone does not hold)
          const back = d.parseAction(got.actionText, c.shot);
          const bare = (a: Action) => (a.type === 'finish' ? { ...a, text: '' } : a);
          expect(back.ok && bare(back.action)).toEqual(bare(got.action));
        }
      });
    }

    it('formatAction -> parseAction round-trips every action the grammar writes', () => {
      expect(c.actionTexts.length).toBeGreaterThan(3);
      for (const text of c.actionTexts) {
        const first = d.parseAction(text, c.shot);
        if (!first.ok) throw new Error(`"${text}" did not parse: ${first.error}`);
        const again = d.parseAction(d.formatAction(first.action, c.shot), c.shot);
        if (!again.ok) throw new Error(`the written form of "${text}" did not parse: ${again.error}`);
        expect(again.action).toEqual(first.action);
      }
    });

    it('never throws on mutated replies', () => {
      const r = rng(id.length * 7919);
      const seeds = c.replies.map((x) => x.raw);
      let parsed = 0;
      for (let k = 0; k < 1500; k++) {
        const text = mutate(seeds[k % seeds.length], r);
        const got = d.parseReply(text, k % 5 === 0 ? mutate(text, r) : null, c.shot);
        expect(isParseError(got) || typeof got.actionText === 'string').toBe(true);
        if (!isParseError(got)) parsed++;
      }
      expect(parsed).toBeGreaterThan(0);
      // the live preview reads half-arrived replies
      for (const s of seeds) for (let i = 0; i <= s.length; i += 7) d.preview(s.slice(0, i));
    }, cpuBudget(800)); // 1500 replies: up to 0.7 s alone

    it('sends no benchmark-only secrets (the seed\'s computer password, the mail account)', () => {
      const ctx = c.golden?.ctx ?? { task: 't', site: 'https://a.example/', now: new Date(0), history: [], memory: d.emptyMemory(), marks: [], shot: c.shot, apps: [] };
      const text = promptTextOf(d.buildRequest(ctx));
      expect(text).not.toMatch(/password is "password"|thunderbird|anonym-x2024|gTCI/i);
    });
  });
}
