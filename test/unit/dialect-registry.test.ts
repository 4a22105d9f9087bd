/**
 * The meta-test over the registry (in the way of refined-github's features test): every
 * registered dialect brings everything a dialect is (docs/dialects.md, "Adding a dialect"), and
 * nothing outside its folder, the registry, the locales, its fixtures and its docs section has to
 * change for it. Each check names the dialect and the piece that is missing.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DIALECTS } from '../../src/core/dialects/registry';
import { dialectTable, tableInDoc, DIALECTS_DOC } from '../../scripts/dialect-table';
import { DIALECT_FIXTURES } from '../fixtures/dialects';
import { DIALECT_EFFECTS } from '../fixtures/dialects/effects';
import { copiedLists } from '../fixtures/dialects/copied-lists';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const locale = (l: string) => JSON.parse(readFileSync(path.join(ROOT, 'public', '_locales', l, 'messages.json'), 'utf8')) as Record<string, { message: string }>;
const LOCALES = { en: locale('en'), zh_CN: locale('zh_CN') };
const doc = readFileSync(DIALECTS_DOC, 'utf8');

/** Where sources are scanned for copied lists of the dialects (src/ has the registry itself). */
const SOURCE_DIRS = ['test', 'scripts', 'sidepanel'];

/** Every .ts, .tsx and .mjs file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.(ts|tsx|mjs)$/.test(e.name) ? [p] : [];
  });
}

/** What each registered dialect lacks (empty when it is complete). */
export function missing(id: string): string[] {
  const d = DIALECTS[id];
  const out: string[] = [];
  const keys = [d.messages.note, d.messages.requestSource, ...(d.options ?? []).flatMap((o) => [o.label, o.help, ...o.choices.map((c) => o.choiceLabels[c])])];
  for (const [name, messages] of Object.entries(LOCALES)) {
    for (const k of keys) if (!k || !messages[k]?.message) out.push(`the message "${k}" in public/_locales/${name}/messages.json`);
  }
  const fixtures = path.join(ROOT, 'test', 'fixtures', 'dialects', id);
  if (!existsSync(path.join(fixtures, 'cases.ts'))) out.push(`test/fixtures/dialects/${id}/cases.ts (its conformance cases)`);
  if (!existsSync(path.join(fixtures, 'player.ts'))) out.push(`test/fixtures/dialects/${id}/player.ts (its fake-model player)`);
  if (!Object.hasOwn(DIALECT_FIXTURES, id)) out.push(`its fake-model fixture in test/fixtures/dialects/index.ts`);
  if (!existsSync(path.join(fixtures, 'effects.ts'))) out.push(`test/fixtures/dialects/${id}/effects.ts (its guard-matrix plan and replies)`);
  if (!Object.hasOwn(DIALECT_EFFECTS, id)) out.push(`its guard-matrix effects in test/fixtures/dialects/effects.ts`);
  if (!new RegExp(`^## \`${id}\`$`, 'm').test(doc)) out.push(`its section "## \`${id}\`" in docs/dialects.md`);
  return out;
}

describe('every registered dialect is complete', () => {
  for (const id of Object.keys(DIALECTS)) {
    it(`${id}: messages in both locales, conformance cases, a fake-model player and fixture, guard-matrix effects, a section in docs/dialects.md`, () => {
      expect(missing(id)).toEqual([]);
    });
  }

  it('the table of dialects in docs/dialects.md is the one the registry gives (npm run docs:dialects)', () => {
    expect(tableInDoc()).toBe(dialectTable());
  });

  it('no other document lists the dialects again (they link to the table)', () => {
    const ids = Object.keys(DIALECTS);
    const lists: string[] = [];
    for (const f of ['README.md', 'docs/runner.md', 'docs/trace-format.md', 'docs/batch.md', 'docs/architecture.md']) {
      const p = path.join(ROOT, f);
      if (!existsSync(p)) continue;
      readFileSync(p, 'utf8').split('\n').forEach((line, i) => {
        const named = ids.filter((id) => line.includes(`\`${id}\``));
        // a line naming every dialect but one or two is a copied list that will go stale
        if (named.length >= ids.length - 2) lists.push(`${f}:${i + 1} names ${named.length} of ${ids.length} dialects`);
      });
    }
    expect(lists).toEqual([]);
  });

  it('no test, script or panel source lists the dialects again (they take them from the registry)', () => {
    const ids = Object.keys(DIALECTS);
    const lists: string[] = [];
    for (const dir of SOURCE_DIRS) {
      for (const f of sourceFiles(path.join(ROOT, dir))) {
        const rel = path.relative(ROOT, f).split(path.sep).join('/');
        for (const l of copiedLists(readFileSync(f, 'utf8'), ids)) {
          // a map typed `satisfies Record<DialectId, …>` (DIALECT_FIXTURES, DIALECT_EFFECTS) does not compile without every dialect
          if (!l.allowed) lists.push(`${rel}:${l.line} names ${l.ids.length} of ${ids.length} dialects (${l.ids.join(', ')})`);
        }
      }
    }
    expect(lists).toEqual([]);
  });

  it('finds a copied list of the dialects, and lets a map typed by the registry be (the check can fail)', () => {
    const ids = Object.keys(DIALECTS);
    const some = ids.slice(0, ids.length - 2);
    const quoted = (q: string) => some.map((id) => `${q}${id}${q}`);
    // an array, a union type, backticks across lines with comments, an object's keys whatever its values
    expect(copiedLists(`const ALL = [${quoted("'").join(', ')}];`, ids)).toMatchObject([{ line: 1, ids: some, allowed: false }]);
    expect(copiedLists(`type D = ${quoted('"').join(' | ')};`, ids)).toMatchObject([{ ids: some, allowed: false }]);
    expect(copiedLists(`f(\n${quoted('`').join(', // a note\n')}\n);`, ids)).toMatchObject([{ line: 2, ids: some, allowed: false }]);
    // (values with brackets, a quote inside a string and inside a regex, which must not end the entry)
    const entries = some.map((id, i) => `${String.raw`  ${JSON.stringify(id)}: { plan: [f('${i}', g(1, 2)), /x'\]/], c: 'it\'s' },`}\n`).join('');
    expect(copiedLists(`const M = {\n${entries}};`, ids)).toMatchObject([{ line: 2, ids: some, allowed: false }]);
    expect(copiedLists(`const M = {\n${entries}} satisfies Record<DialectId, X>;`, ids)).toMatchObject([{ ids: some, allowed: true }]);
    // fewer than all but two, or ids apart in the code, are not a list
    expect(copiedLists(`[${quoted("'").slice(1).join(', ')}]`, ids)).toEqual([]);
    expect(copiedLists(quoted("'").map((q) => `if (d === ${q}) go();`).join('\n'), ids)).toEqual([]);
  });

  it('finds what is missing (the check can fail)', () => {
    const id = Object.keys(DIALECTS)[0];
    const d = DIALECTS[id];
    const saved = d.messages;
    (d as { messages: typeof saved }).messages = { ...saved, note: 'noSuchMessageKey' };
    try {
      expect(missing(id)).toContain('the message "noSuchMessageKey" in public/_locales/en/messages.json');
    } finally {
      (d as { messages: typeof saved }).messages = saved;
    }
    expect(tableInDoc('no markers here')).toBe('');
  });
});
