/**
 * The injection detector's language and form coverage (src/core/injection/index.ts, issue 26 part 3),
 * measured over test/fixtures/injection/corpus.json: the misses, the false alarms and their rate
 * are printed; both must be 0. The corpus must hold, for every language, an override, a role and
 * an address; every dialect's action grammar; leetspeak, zalgo and spacing tricks; and look-alikes
 * in every language. The detector stays fast (2,000 texts of about 200 characters, timed and
 * printed) and no text makes a pattern backtrack for long.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { detectInjection } from '../../src/core/injection';
import { DIALECTS } from '../../src/core/dialects/registry';

interface Case { text: string; code?: boolean; note?: string; lang?: string; kind?: string; dialect?: string; trick?: string }
const corpus = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'injection', 'corpus.json'), 'utf8')) as { positives: Case[]; lookalikes: Case[] };

const LANGUAGES = ['en', 'zh-Hans', 'zh-Hant', 'de', 'fr', 'es', 'ja', 'ru', 'it', 'pt', 'pl', 'tr', 'ko'];

const hitOf = (c: Case) => detectInjection([{ text: c.text, where: 1, code: c.code }])[0];

describe('injection coverage', () => {
  it('covers every language (override, role, address), every dialect, every trick, with look-alikes in every language', () => {
    for (const lang of LANGUAGES) {
      const kinds = new Set(corpus.positives.filter((c) => c.lang === lang && c.kind).map((c) => c.kind));
      for (const kind of ['override', 'role', 'address']) expect(kinds.has(kind), `${lang} ${kind}`).toBe(true);
      expect(corpus.lookalikes.filter((c) => c.lang === lang).length, `${lang} look-alikes`).toBeGreaterThanOrEqual(lang === 'zh-Hans' ? 10 : 5);
    }
    for (const dialect of Object.keys(DIALECTS)) {
      expect(corpus.positives.filter((c) => c.dialect === dialect).length, dialect).toBeGreaterThanOrEqual(3);
    }
    for (const trick of ['leet', 'zalgo', 'spacing', 'mixed-script']) {
      expect(corpus.positives.some((c) => c.trick === trick), trick).toBe(true);
    }
  });

  it('misses nothing and raises no false alarm over the corpus (numbers printed)', () => {
    const missed = corpus.positives.filter((c) => !hitOf(c)).map((c) => `[${c.lang}] ${c.text}`);
    const wrongKind = corpus.positives
      .map((c) => ({ c, hit: hitOf(c) }))
      .filter(({ c, hit }) => hit && c.kind && hit.kind !== c.kind)
      .map(({ c, hit }) => `[${c.lang}] ${c.text} -> ${hit!.kind} (${hit!.phrase}), expected ${c.kind}`);
    const alarms = corpus.lookalikes
      .map((c) => ({ c, hit: hitOf(c) }))
      .filter(({ hit }) => hit)
      .map(({ c, hit }) => `[${c.lang}] ${c.text} -> ${hit!.kind}: ${hit!.phrase}`);
    const rate = alarms.length / corpus.lookalikes.length;
    console.log(`injection corpus: ${corpus.positives.length} attacks, ${corpus.lookalikes.length} look-alikes; `
      + `misses ${missed.length}, false alarms ${alarms.length} (rate ${(rate * 100).toFixed(2)} %), wrong kind ${wrongKind.length}`);
    expect(missed).toEqual([]);
    expect(alarms).toEqual([]);
    expect(wrongKind).toEqual([]);
  });

  it('reads 2,000 texts of about 200 characters (time printed; speed is measured by npm run bench, not asserted)', () => {
    const words = corpus.lookalikes.concat(corpus.positives.slice(0, 40)).map((c) => c.text);
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const texts = Array.from({ length: 2000 }, (_, i) => {
      let s = '';
      while (s.length < 200) s += `${words[Math.floor(rnd() * words.length)]} `;
      return { text: s.slice(0, 200), where: i };
    });
    detectInjection(texts);
    const t0 = performance.now();
    detectInjection(texts);
    const ms = performance.now() - t0;
    console.log(`injection detector: ${ms.toFixed(1)} ms for 2,000 texts of 200 characters`);
    expect(detectInjection(texts).length).toBeGreaterThan(0);
  });

  it('no text makes it backtrack for long', () => {
    const hostile = [
      'ignore '.repeat(3000),
      'a '.repeat(10000),
      'bir yapay zeka olarak '.repeat(800) + 'x',
      'sonraki eylemin '.repeat(1000),
      'i g n o r e '.repeat(2000),
      '1gn0r3 '.repeat(3000),
      `${'x'.repeat(20000)}(`,
      '"'.repeat(5000) + "'".repeat(5000),
      'игнорируй все '.repeat(1500),
      'action: '.repeat(3000),
      'left_click('.repeat(2000),
      `observation: ${'thought: '.repeat(2000)}`,
    ];
    for (const text of hostile) {
      const t0 = performance.now();
      detectInjection([{ text, where: 1 }]);
      expect(performance.now() - t0, text.slice(0, 30)).toBeLessThan(1000);
    }
  });
});
