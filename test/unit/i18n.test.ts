import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { count, format, localeFor, placeholdersUsed, pluralForm, translator, type Messages } from '../../src/core/i18n';
import { MESSAGES, translatorFor } from '../../src/core/locales';
import { PRESETS } from '../../src/core/presets';
import { cpuBudget } from '../fixtures/cpu-budget';

const ROOT = path.resolve(__dirname, '../..');
const en = MESSAGES.en;
const zh = MESSAGES.zh_CN;

/** Highest $N a message takes (directly or through a placeholder). */
function arity(m: Messages[string]): number {
  const all = [m.message, ...Object.values(m.placeholders ?? {}).map((p) => p.content)].join(' ');
  return Math.max(0, ...[...all.matchAll(/\$(\d)/g)].map((x) => Number(x[1])));
}

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => ext.test(f)).map((f) => path.join(ROOT, dir, f));
}

/** Code that may say something to a person: the panel, the report, core's person text, the background. */
const PERSON_FILES = [...filesUnder('sidepanel', /\.tsx?$/), ...filesUnder('src', /\.tsx?$/)];

/** Keys passed to t() literally: each must exist. */
function keysUsed(): Map<string, string> {
  const used = new Map<string, string>();
  for (const f of PERSON_FILES) {
    for (const m of readFileSync(f, 'utf8').matchAll(/\bt\(\s*'([A-Za-z0-9_]+)'/g)) used.set(m[1], path.relative(ROOT, f));
  }
  return used;
}

/** Every quoted word in that code: a key named anywhere (a preset's noteKey, say) is in use. */
function wordsQuoted(): Set<string> {
  const words = new Set<string>();
  for (const f of PERSON_FILES) for (const m of readFileSync(f, 'utf8').matchAll(/'([A-Za-z0-9_]+)'/g)) words.add(m[1]);
  return words;
}

/** a plural variant's suffix (core/i18n.ts translator) */
const PLURAL = /_(zero|one|two|few|many|other)$/;

describe('message files', () => {
  it('English and Chinese have the same keys (plural variants aside), none empty; a plural variant has its plain key and its arguments', () => {
    const plain = (m: Record<string, unknown>) => Object.keys(m).filter((k) => !PLURAL.test(k)).sort();
    expect(plain(zh)).toEqual(plain(en));
    for (const m of [en, zh]) {
      for (const k of Object.keys(m).filter((x) => PLURAL.test(x))) {
        const base = k.replace(PLURAL, '');
        expect(m[base], `${k} without ${base}`).toBeDefined();
        expect(arity(m[k]), k).toBe(arity(m[base]));
      }
    }
    for (const [k, m] of [...Object.entries(en), ...Object.entries(zh)]) expect(m.message.trim(), k).not.toBe('');
  });

  it('a message takes the same arguments in both languages, and every named placeholder is defined', () => {
    for (const k of Object.keys(en)) {
      if (!PLURAL.test(k)) expect(arity(zh[k]), k).toBe(arity(en[k]));
      for (const m of [en[k], zh[k]].filter(Boolean)) {
        for (const p of placeholdersUsed(m)) expect(m.placeholders?.[p], `${k}: $${p}$`).toBeDefined();
        // Chrome reads any $…$ as a named placeholder ("$2$3" too) and refuses to load the extension
        // when one is not defined.
        for (const x of m.message.matchAll(/\$([A-Za-z0-9_@]+)\$/g)) expect(m.placeholders?.[x[1].toLowerCase()], `${k}: "${x[0]}" reads as a placeholder`).toBeDefined();
      }
    }
  });

  it('Chinese messages are Chinese (not English copied over), except names and codes', () => {
    // A name ("OpenAI", "LM Studio") may stay as it is; two English words may not.
    const english = Object.entries(zh).filter(([k, m]) => !/\p{Script=Han}/u.test(m.message) && m.message === en[k].message && /\b[a-z]{3,}\b.*\b[a-z]{3,}\b/i.test(m.message));
    expect(english.map(([k]) => k)).toEqual([]);
  });

  it('every key the code uses exists, and every key exists for a reason', () => {
    const used = keysUsed();
    const missing = [...used].filter(([k]) => !(k in en)).map(([k, f]) => `${k} (${f})`);
    expect(missing).toEqual([]);
    for (const p of PRESETS) expect([p.nameKey in en, p.noteKey in en], p.id).toEqual([true, true]);
    const manifestKeys = new Set(['extName', 'extDescription', 'actionTitle', 'commandOpenPanel']);
    const quoted = wordsQuoted();
    const unused = Object.keys(en).filter((k) => !quoted.has(k.replace(PLURAL, '')) && !manifestKeys.has(k));
    expect(unused).toEqual([]);
  });
});

describe('translate', () => {
  it('fills $1…$9 and named placeholders, keeps $$ and unknown keys readable', () => {
    expect(format({ message: 'Step $1 of $2' }, [3, 15])).toBe('Step 3 of 15');
    expect(format({ message: 'Hi $USER$, $$5', placeholders: { user: { content: '$1' } } }, ['Ann'])).toBe('Hi Ann, $5');
    expect(format({ message: '$1 then $2' }, ['$2', 'x'])).toBe('$2 then x');
    const t = translator({ a: { message: '甲' } }, { a: { message: 'A' }, b: { message: 'B $1' } });
    expect([t('a'), t('b', 1), t('nope')]).toEqual(['甲', 'B 1', 'nope']);
  });

  it('picks a plural variant by the first number among the arguments, in the locale\'s rules', () => {
    const en = translator({ steps: { message: 'finished in $1 steps ($2)' }, steps_one: { message: 'finished in $1 step ($2)' } }, undefined, 'en');
    expect([en('steps', 1, 'ok'), en('steps', 2, 'ok'), en('steps', 0, 'ok'), en('steps', 'x', 1)]).toEqual(['finished in 1 step (ok)', 'finished in 2 steps (ok)', 'finished in 0 steps (ok)', 'finished in x step (1)']);
    const zh = translator({ steps: { message: '$1 步完成（$2）' } }, { steps: { message: '' }, steps_one: { message: 'one' } }, 'zh-CN');
    expect(zh('steps', 1, 'ok')).toBe('1 步完成（ok）');
    expect(translatorFor('en')('countActions', 1)).toBe('1 action');
    expect(translatorFor('en')('tokensLine', '1', '1', '0')).toBe('1 token (1 prompt + 0 completion)');
    expect(translatorFor('en')('tokensLine', '1,001', '1,000', '1')).toBe('1,001 tokens (1,000 prompt + 1 completion)');
  });

  it('follows the browser unless set', () => {
    expect(localeFor('auto', 'zh-CN')).toBe('zh_CN');
    expect(localeFor('auto', 'zh-TW')).toBe('zh_CN');
    expect(localeFor('auto', 'en-US')).toBe('en');
    expect(localeFor('auto', undefined)).toBe('en');
    expect(localeFor('en', 'zh-CN')).toBe('en');
    expect(localeFor('zh_CN', 'de')).toBe('zh_CN');
  });
});

/** Text a person would read, written straight into a component instead of through t(). */
function literalsIn(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const words = (s: string) => /\p{L}{2,}/u.test(s);
  const where = (n: ts.Node) => `${path.basename(file)}:${src.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const PERSON_ATTRS = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'aria-description', 'aria-roledescription', 'aria-valuetext']);
  // Key names and code are the same in every language: <kbd>Esc</kbd>, <code>Click [3]</code>.
  const verbatim = (n: ts.Node) => ts.isJsxElement(n.parent) && ['kbd', 'code'].includes(n.parent.openingElement.tagName.getText());
  const visit = (n: ts.Node) => {
    if (ts.isJsxText(n) && words(n.text) && !verbatim(n)) found.push(`${where(n)} "${n.text.trim()}"`);
    if (ts.isJsxAttribute(n) && PERSON_ATTRS.has(n.name.getText()) && n.initializer) {
      const init = n.initializer;
      const lit = ts.isStringLiteral(init) ? init : ts.isJsxExpression(init) && init.expression && (ts.isStringLiteral(init.expression) || ts.isNoSubstitutionTemplateLiteral(init.expression)) ? init.expression : null;
      if (lit && words(lit.text)) found.push(`${where(n)} ${n.name.getText()}="${lit.text}"`);
    }
    if (ts.isJsxExpression(n) && n.parent && (ts.isJsxElement(n.parent) || ts.isJsxFragment(n.parent)) && n.expression && !verbatim(n)) {
      const e = n.expression;
      if ((ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) && words(e.text)) found.push(`${where(n)} {"${e.text}"}`);
      if (ts.isTemplateExpression(e) && words(e.head.text + e.templateSpans.map((s) => s.literal.text).join(''))) found.push(`${where(n)} {\`…\`}`);
    }
    // A sentence in code (an error set, a label chosen by a condition): a capitalised word then more words.
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n)) && !ts.isImportDeclaration(n.parent) && !ts.isJsxAttribute(n.parent) && /^[A-Z][a-z]+\s+\p{L}/u.test(n.text)) {
      found.push(`${where(n)} '${n.text}'`);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

describe('components', () => {
  it('hold no untranslated text: every word a person reads in the panel comes from the message files', () => {
    const found = filesUnder('sidepanel', /\.tsx?$/).flatMap(literalsIn);
    expect(found).toEqual([]);
  }, cpuBudget(900)); // parses every panel file: about 0.9 s alone
});

describe('plurals', () => {
  it('counts in the form Intl.PluralRules gives, in English and Chinese', () => {
    expect([0, 1, 2, 21].map((n) => count(n, 'step'))).toEqual(['0 steps', '1 step', '2 steps', '21 steps']);
    expect(count(1, 'priced task')).toBe('1 priced task');
    expect(count(3, 'child', 'children')).toBe('3 children');
    expect(pluralForm(1, 'zh_CN')).toBe('other');
  });
});
