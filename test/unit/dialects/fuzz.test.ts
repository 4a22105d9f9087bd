/**
 * The parser fuzzer: for EVERY registered dialect, 10,000 mutated replies (seeded, replayable:
 * a failure prints the seed, the iteration and the mutations) through parseReply and parseAction;
 * each must return a well-formed result (an action the runner can take, or a non-empty error that
 * is not the parsers' catch-all for an exception inside), and formatAction must write the action.
 * The hostile replies of the parse bench run here at 20 kB with a generous time bound; the bench
 * (`BENCH_PART=parse npm run bench`) measures them at 100 kB and 1 MB.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { DIALECTS } from '../../../src/core/dialects/registry';
import { isParseError } from '../../../src/core/action/action';
import type { ShotGeometry } from '../../../src/core/action/coords';
import { HOSTILE, badActionParse, badReply, mutate, rng, webvoyagerReplies } from '../../fixtures/dialects/fuzz';
import { unknownCallName } from '../../../src/core/dialects/glm-pc/call';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const PER_DIALECT = 10_000;

interface Cases { shot: ShotGeometry; replies: Array<{ raw: string; reasoning?: string | null }>; actionTexts: string[] }
const cases = new Map<string, Cases>();
for (const id of Object.keys(DIALECTS)) {
  const file = new URL(`../../fixtures/dialects/${id}/cases.ts`, import.meta.url);
  if (existsSync(file)) cases.set(id, (await import(file.href)) as Cases);
}
const allSeeds = [...[...cases.values()].flatMap((c) => [...c.replies.map((r) => r.raw), ...c.actionTexts]), ...webvoyagerReplies()];
const SHOT: ShotGeometry = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } };

for (const [id, d] of Object.entries(DIALECTS)) {
  describe(`fuzz: dialect ${id}`, () => {
    const c = cases.get(id);
    const shot = c?.shot ?? SHOT;
    // its own replies and actions weigh double: mutations of them reach deeper into its grammar
    const own = c ? [...c.replies.map((r) => r.raw), ...c.actionTexts] : [];
    // its own replies weigh more than the pool of every dialect's, which grows with each dialect added
    const seeds = [...own, ...own, ...own, ...allSeeds];

    it(`${PER_DIALECT} mutated replies: never a throw, always a well-formed result (seed ${SEED})`, () => {
      const r = rng(SEED ^ [...id].reduce((h, ch) => Math.imul(h, 31) + ch.charCodeAt(0), 7));
      let parsed = 0, slowest = 0;
      for (let k = 0; k < PER_DIALECT; k++) {
        const seed = seeds[Math.floor(r() * seeds.length)];
        const { text, applied } = mutate(seed, r, seeds);
        const reasoning = k % 7 === 0 ? mutate(seeds[Math.floor(r() * seeds.length)], r, seeds).text : null;
        const where = () => `FUZZ_SEED=${SEED} dialect ${id} iteration ${k} mutations ${applied.join('+')}: ${JSON.stringify(text.slice(0, 300))}`;
        const t = performance.now();
        let reply, action;
        try {
          reply = d.parseReply(text, reasoning, shot);
          action = d.parseAction(k % 2 ? text : text.split('\n').find((l) => l.trim()) ?? text, shot);
        } catch (e) {
          throw new Error(`threw (${String(e)}) at ${where()}`);
        }
        slowest = Math.max(slowest, performance.now() - t);
        const bad = badReply(reply) ?? badActionParse(action);
        if (bad) throw new Error(`${bad} at ${where()}`);
        if (!isParseError(reply)) {
          parsed++;
          expect(typeof d.formatAction(reply.action, shot), where()).toBe('string');
        }
        if (action.ok) expect(typeof d.formatAction(action.action, shot), where()).toBe('string');
        if (k % 50 === 0) d.preview(text);
      }
      // the mutations keep many replies readable (a fuzzer whose every reply fails tests only errors)
      expect(parsed).toBeGreaterThan(PER_DIALECT / 10);
      expect(slowest).toBeLessThan(2000); // one reply of ≤ 40 kB; generous for a loaded machine
    }, 60_000); // 10,000 replies: a few seconds, more on a loaded 2-core machine

    it('hostile replies of 20 kB parse in linear time (generous bound; the bench measures 100 kB and 1 MB)', () => {
      for (const [pattern, build] of Object.entries(HOSTILE)) {
        const text = build(20_000);
        const t = performance.now();
        const reply = d.parseReply(text, null, shot);
        const action = d.parseAction(text, shot);
        const ms = performance.now() - t;
        expect(badReply(reply) ?? badActionParse(action), pattern).toBeNull();
        expect(ms, pattern).toBeLessThan(1000); // linear: a few ms
      }
    });
  });
}

describe('fuzz regressions', () => {
  it('glm-pc: a reply of blank lines is scanned once (unknownCallName\'s prefix stayed on no line: quadratic)', () => {
    const blank = 'Action:' + '\n'.repeat(200_000) + 'Click [1]';
    const t = performance.now();
    expect(unknownCallName(blank)).toBeNull();
    const r = DIALECTS['glm-pc'].parseReply(blank, null, SHOT);
    expect(isParseError(r) && r.error).toMatch(/No action call was found/);
    expect(performance.now() - t).toBeLessThan(3000); // before the fix: minutes
    // still found on its own line, after blank lines and markdown
    expect(unknownCallName('text\n\n  > * click(3)')).toBe('click');
    expect(unknownCallName('Action: tap(1, 2)')).toBe('tap');
  });
});
