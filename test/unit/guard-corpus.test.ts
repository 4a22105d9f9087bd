/**
 * The guard corpus (test/fixtures/guards/corpus.json, collected from real pages' buttons, forms and
 * translations: see its README): every case through guardCheck with the default settings.
 * 0 misses (a case that should ask and does not) and 0 false alarms (a look-alike that asks).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GUARDS, GUARD_IDS, guardCheck, type GuardId, type GuardTarget } from '../../src/core/guards';
import type { Action } from '../../src/core/action/action';

interface Case { expect: GuardId | null; do: string; text?: string; target: GuardTarget; lang: string; source: string; note?: string }

const cases = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/guards/corpus.json'), 'utf8')) as Case[];
const ctx = { site: 'https://site.example/', searchStartPage: 'https://www.bing.com/' };
const at = { kind: 'label' as const, label: 1 };

function actionOf(c: Case): Action {
  if (c.do === 'click') return { type: 'click', target: at, button: 'left', count: 1 };
  if (c.do === 'type' || c.do === 'type+enter') return { type: 'type', target: at, text: c.text ?? '', clear: true, enter: c.do === 'type+enter' };
  if (c.do.startsWith('key:')) return { type: 'key', keys: c.do.slice(4) };
  throw new Error(`unknown action "${c.do}"`);
}

const outcome = (c: Case) => guardCheck(actionOf(c), c.target, ctx, DEFAULT_GUARDS)?.id ?? null;

describe('the guard corpus', () => {
  it('is large and varied: 200+ cases, every text rule and the password rule firing, look-alikes, six languages, a source each', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    for (const id of ['password', 'payment', 'delete', 'send'] as GuardId[]) expect(cases.filter((c) => c.expect === id).length, id).toBeGreaterThanOrEqual(10);
    expect(cases.filter((c) => c.expect === null).length).toBeGreaterThanOrEqual(100);
    expect(new Set(cases.map((c) => c.lang))).toEqual(new Set(['en', 'zh', 'de', 'fr', 'es', 'ja']));
    for (const c of cases) {
      expect(c.source, JSON.stringify(c)).toMatch(/\S{3}/);
      expect(c.expect === null || GUARD_IDS.includes(c.expect)).toBe(true);
    }
    for (const d of ['click', 'type', 'type+enter', 'key:Enter']) expect(cases.some((c) => c.do === d), d).toBe(true);
  });

  it('0 misses and 0 false alarms', () => {
    const wrong = cases.filter((c) => outcome(c) !== c.expect)
      .map((c) => `${c.expect === null ? 'false alarm' : 'miss'} [${c.lang}] ${c.do} "${c.target.text}"${c.text ? ` typing "${c.text}"` : ''}: expected ${c.expect}, got ${outcome(c)} (${c.source})`);
    expect(wrong).toEqual([]);
  });
});
