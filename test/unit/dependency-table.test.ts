/**
 * The dependency table (docs/architecture.md, the `deps` block): every import of every file in
 * src/, content-scripts/, sidepanel/ and scripts/ is one the table allows for the file's room. The
 * table is read from the document itself, so the document cannot say one thing while the code
 * does another. Also: every registered dialect has its folder, and there is no folder of an
 * unregistered one.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { files, resolve } from '../fixtures/imports';
import { DIALECTS } from '../../src/core/dialects/registry';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DOC = path.join(ROOT, 'docs', 'architecture.md');
const DIALECT_DIR = 'src/core/dialects';
const ROOMS = ['src', 'content-scripts', 'sidepanel', 'scripts'];

/** One import of a file: a repository path (relative to ROOT) or a package, and whether only its types are imported. */
export interface Edge { from: string; to: string; pkg: boolean; typeOnly: boolean }

interface Rule { folder: string; allow: string[]; deny: string[]; types: string[]; dialect: boolean }

/** The table's lines, `{dialect}` expanded to each registered dialect. */
export function readTable(doc: string): Rule[] {
  const block = /```deps\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/architecture.md has no ```deps block');
  const rules: Rule[] = [];
  for (const line of block.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf(':');
    const folder = line.slice(0, at).trim();
    const words = line.slice(at + 1).trim().split(/\s+/);
    const ids = folder.includes('{dialect}') ? Object.keys(DIALECTS) : [null];
    for (const id of ids) {
      const own = id ? folder.replace('{dialect}', id) : folder;
      const expand = (w: string) => (w.includes('{dialect}') ? Object.keys(DIALECTS).map((d) => w.replace('{dialect}', d)) : [w]);
      rules.push({
        folder: own, dialect: !!id,
        allow: words.filter((w) => !w.startsWith('-') && !w.startsWith('type:')).flatMap((w) => (w === 'self' ? [own] : expand(w))),
        deny: words.filter((w) => w.startsWith('-')).flatMap((w) => expand(w.slice(1))),
        types: words.filter((w) => w.startsWith('type:')).map((w) => w.slice(5)),
      });
    }
  }
  return rules;
}

const under = (p: string, folder: string) => p === folder || p.startsWith(`${folder}/`);

/** The rule of a file: the longest folder (or file) that holds it. */
function ruleOf(rules: Rule[], file: string): Rule | null {
  return rules.filter((r) => under(file, r.folder)).sort((a, b) => b.folder.length - a.folder.length)[0] ?? null;
}

/** Whether the table allows the edge. */
export function allowed(rules: Rule[], e: Edge): boolean {
  const r = ruleOf(rules, e.from);
  if (!r) return false;
  if (e.pkg) return r.allow.includes('npm:*') || r.allow.includes(`npm:${e.to}`);
  // a dialect's own folder is allowed before any refusal (it refuses every dialect folder, its own included)
  if (r.dialect && under(e.to, r.folder)) return true;
  if (r.deny.some((d) => under(e.to, d))) return false;
  if (r.allow.some((a) => under(e.to, a))) return true;
  return e.typeOnly && r.types.some((t) => under(e.to, t));
}

const packageOf = (spec: string) => (spec.startsWith('node:') ? spec : spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

/** Every import and re-export of a file (dynamic ones and side-effect ones too), with its kind. */
export function edgesOf(file: string): Edge[] {
  const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
  const from = path.relative(ROOT, file);
  const out: Edge[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (spec.startsWith('.')) {
      const to = resolve(file, spec);
      if (to) out.push({ from, to: path.relative(ROOT, to), pkg: false, typeOnly });
    } else if (!spec.startsWith('/') && !spec.startsWith('virtual:')) out.push({ from, to: packageOf(spec.replace(/\?.*$/, '')), pkg: true, typeOnly });
  };
  for (const m of code.matchAll(/(?:^|[\s;])(import|export)(\s+type\b)?\b([^'"`;]*?)from\s*['"]([^'"]+)['"]/gm)) add(m[4], !!m[2]);
  for (const m of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) add(m[1], false);
  for (const m of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) add(m[1], false);
  return out;
}

const rules = readTable(readFileSync(DOC, 'utf8'));
const product = ROOMS.flatMap((d) => files(path.join(ROOT, d)));

describe('the dependency table (docs/architecture.md)', () => {
  it('gives every file a rule', () => {
    const none = product.map((f) => path.relative(ROOT, f)).filter((f) => !ruleOf(rules, f));
    expect(none).toEqual([]);
  });

  it('allows every import the code makes', () => {
    const refused = product.flatMap(edgesOf).filter((e) => !allowed(rules, e)).map((e) => `${e.from} imports ${e.pkg ? 'the package ' : ''}${e.to}${e.typeOnly ? ' (types)' : ''}`);
    expect(refused).toEqual([]);
    expect(product.length).toBeGreaterThan(100);
  });

  it('refuses the edges it forbids (the check can fail)', () => {
    const edge = (from: string, to: string, more: Partial<Edge> = {}): Edge => ({ from, to, pkg: false, typeOnly: false, ...more });
    const refused = [
      edge('src/background/act/index.ts', 'src/background/run/driver.ts'),
      edge('src/core/run/reduce.ts', 'src/core/dialects/glm-web/index.ts'),
      edge('src/core/dialects/glm-pc/parse.ts', 'src/core/dialects/ui-tars/coords.ts'),
      edge('src/core/dialects/ui-tars/index.ts', 'src/core/dialects/registry.ts'),
      edge('src/core/dialects/shared/call.ts', 'src/core/dialects/midscene/index.ts'),
      edge('sidepanel/components/app.tsx', 'src/background/run/start.ts'),
      edge('sidepanel/api.ts', 'src/background/index.ts', { typeOnly: true }),
      edge('content-scripts/main.ts', 'src/background/cdp.ts'),
      edge('scripts/run-agent.ts', 'sidepanel/export.ts'),
      edge('src/core/trace/index.ts', 'src/background/run-store.ts'),
      edge('src/core/trace/index.ts', 'fflate', { pkg: true }),
      edge('src/offscreen/keep.ts', 'src/background/run/commit.ts'),
    ];
    expect(refused.filter((e) => allowed(rules, e))).toEqual([]);
    // and what it allows next to them
    const fine = [
      edge('src/core/dialects/glm-pc/index.ts', 'src/core/dialects/glm-pc/parse.ts'),
      edge('src/core/dialects/glm-pc/index.ts', 'src/core/dialects/shared/call.ts'),
      edge('src/core/dialects/registry.ts', 'src/core/dialects/glm-pc/index.ts'),
      edge('src/core/run/reduce.ts', 'src/core/dialects/registry.ts'),
      edge('scripts/run-agent.ts', 'sidepanel/export.ts', { typeOnly: true }),
      edge('src/background/run/driver.ts', 'src/background/act/index.ts'),
    ];
    expect(fine.filter((e) => !allowed(rules, e))).toEqual([]);
  });

  it('reads type-only imports as such, and finds dynamic and side-effect imports', () => {
    const runAgent = edgesOf(path.join(ROOT, 'scripts', 'run-agent.ts'));
    expect(runAgent.find((e) => e.to === 'sidepanel/export.ts')?.typeOnly).toBe(true);
    expect(edgesOf(path.join(ROOT, 'src', 'background', 'index.ts')).some((e) => e.pkg && e.to === 'webextension-polyfill')).toBe(true);
  });

  it('has a folder for every registered dialect, and none for a dialect that is not registered', () => {
    const folders = new Set(product.map((f) => path.relative(ROOT, f)).filter((f) => f.startsWith(`${DIALECT_DIR}/`) && f.split('/').length > 4).map((f) => f.split('/')[3]));
    folders.delete('shared');
    expect([...folders].sort()).toEqual(Object.keys(DIALECTS).sort());
  });
});
