/**
 * The Chrome Web Store documents (docs/store/, docs/store/README.md) kept true where a machine can
 * tell, read from the documents themselves so they cannot say one thing while the code does another:
 *
 * - permissions.md: one section per permission and host permission of manifest.json and none for
 *   one it lacks; every file whose code calls a permission's API named in its section; the code
 *   asks for no API the manifest lacks; the debugger bar's stop reason quoted as the panel says it;
 * - privacy.md: the files that make requests (found by reading the code of src/, sidepanel/,
 *   content-scripts/ and public/) are exactly those its table names; OCR loads its files from the
 *   package; the places where data is kept (storage areas, IndexedDB databases) are exactly those
 *   its table names;
 * - listing.md: the name and the short description are the package's, within the store's limits;
 * - both languages (en, zh_CN) have the same files and the same sections.
 *
 * The code is read with the TypeScript parser, so comments and strings never count as calls.
 */
import { cpuBudget } from '../fixtures/cpu-budget';
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const STORE = 'docs/store';
const LANGS = ['en', 'zh_CN'] as const;
type Lang = (typeof LANGS)[number];
/** where the extension's code lives (scripts/ are the command-line tools, not the package) */
const SCANNED = ['src', 'sidepanel', 'content-scripts', 'public'];

const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');

interface Manifest {
  permissions?: string[];
  optional_permissions?: string[];
  host_permissions?: string[];
  optional_host_permissions?: string[];
  content_scripts?: Array<{ matches?: string[] }>;
}
const manifest = JSON.parse(read('manifest.json')) as Manifest;
const apiPermissions = [...(manifest.permissions ?? []), ...(manifest.optional_permissions ?? [])];
const hostPermissions = [...(manifest.host_permissions ?? []), ...(manifest.optional_host_permissions ?? [])];
const contentMatches = [...new Set((manifest.content_scripts ?? []).flatMap((c) => c.matches ?? []))];

const messages = (lang: Lang) => JSON.parse(read(`public/_locales/${lang}/messages.json`)) as Record<string, { message: string }>;

/** Every source file under the scanned folders, relative to the root, with `/`. */
function sourceFiles(): string[] {
  const walk = (rel: string): string[] => readdirSync(path.join(ROOT, rel)).flatMap((f) => {
    const r = `${rel}/${f}`;
    if (statSync(path.join(ROOT, r)).isDirectory()) return f === 'node_modules' ? [] : walk(r);
    return /\.(tsx?|m?js|html)$/.test(f) ? [r] : [];
  });
  return SCANNED.filter((d) => existsSync(path.join(ROOT, d))).flatMap(walk).sort();
}

const parsed = new Map<string, ts.SourceFile>();
function sourceOf(rel: string): ts.SourceFile {
  let sf = parsed.get(rel);
  if (!sf) {
    const kind = rel.endsWith('.tsx') ? ts.ScriptKind.TSX : /\.m?js$/.test(rel) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
    sf = ts.createSourceFile(rel, read(rel), ts.ScriptTarget.Latest, true, kind);
    parsed.set(rel, sf);
  }
  return sf;
}

function each(node: ts.Node, fn: (n: ts.Node) => void): void {
  fn(node);
  node.forEachChild((c) => each(c, fn));
}

/** The name a callee or a `new` target ends with: `fetch` for `fetch(…)` and `globalThis.fetch(…)`. */
function endName(e: ts.Expression): string | null {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return null;
}

/** `chrome` or `browser`, possibly as `globalThis.chrome`. */
function isExtensionGlobal(e: ts.Expression): boolean {
  const n = endName(e);
  return (n === 'chrome' || n === 'browser') && (ts.isIdentifier(e) || (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && ['globalThis', 'self', 'window'].includes(e.expression.text)));
}

/** Calls and classes that send a request, and packages whose use sends them. */
const REQUEST_CALLS = new Set(['fetch', 'fetchLater', 'importScripts', 'sendBeacon', 'createWorker']);
const REQUEST_CLASSES = new Set(['OpenAI', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'WebTransport', 'RTCPeerConnection']);
const REQUEST_PACKAGES = new Set(['openai', 'tesseract.js', 'ioredis', 'bullmq', 'axios', 'undici', 'node-fetch', 'ws']);
const REMOTE_IN_HTML = /<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*\b(?:src|href|data)\s*=\s*["']?(?:https?:)?\/\//i;

/** What in the file sends a request (empty: nothing). */
function requestsOf(rel: string): string[] {
  if (rel.endsWith('.html')) return REMOTE_IN_HTML.test(read(rel)) ? ['a remote resource'] : [];
  const out: string[] = [];
  each(sourceOf(rel), (n) => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier) && REQUEST_PACKAGES.has(n.moduleSpecifier.text)) out.push(`import ${n.moduleSpecifier.text}`);
    if (ts.isCallExpression(n)) {
      const name = n.expression.kind === ts.SyntaxKind.ImportKeyword ? null : endName(n.expression);
      if (name && REQUEST_CALLS.has(name)) out.push(`${name}()`);
      const arg = n.arguments[0];
      if (n.expression.kind === ts.SyntaxKind.ImportKeyword && arg && ts.isStringLiteralLike(arg) && /^(?:https?:)?\/\//.test(arg.text)) out.push('import() of a remote address');
    }
    if (ts.isNewExpression(n)) {
      const name = endName(n.expression);
      if (name && REQUEST_CLASSES.has(name)) out.push(`new ${name}`);
    }
  });
  return out;
}

const apis = new Map<string, Set<string>>();
/** The extension API namespaces the file's code uses (`chrome.storage…` → storage); types do not count. Walked once a file. */
function apisOf(rel: string): Set<string> {
  const known = apis.get(rel);
  if (known) return known;
  const out = new Set<string>();
  if (!rel.endsWith('.html')) {
    each(sourceOf(rel), (n) => {
      if (ts.isPropertyAccessExpression(n) && isExtensionGlobal(n.expression)) out.add(n.name.text);
    });
  }
  apis.set(rel, out);
  return out;
}

/** An expression without `as …`, `satisfies …` and parentheses around it. */
function bare(e: ts.Expression): ts.Expression {
  while (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)) e = e.expression;
  return e;
}

/** The initializer of the file's top-level or local constant `name`, or null. */
function constantOf(sf: ts.SourceFile, name: string): ts.Expression | null {
  let found: ts.Expression | null = null;
  each(sf, (n) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && n.initializer) found = bare(n.initializer);
  });
  return found;
}

/** Where the file's code keeps data: `chrome.storage.<area>`, `localStorage`, `sessionStorage`, an IndexedDB database by name, `caches`. */
function storesOf(rel: string): string[] {
  if (rel.endsWith('.html')) return [];
  const sf = sourceOf(rel);
  const out: string[] = [];
  // a name written out, a constant of the file (`DB_NAME`), or any value of a constant table (`DB_NAMES[store]`)
  const dbNames = (arg: ts.Expression | undefined): string[] => {
    const e = arg && bare(arg);
    if (e && ts.isStringLiteralLike(e)) return [e.text];
    const table = e && ts.isElementAccessExpression(e) && ts.isIdentifier(e.expression) ? constantOf(sf, e.expression.text) : null;
    if (table && ts.isObjectLiteralExpression(table)) {
      return table.properties.map((p) => (ts.isPropertyAssignment(p) && ts.isStringLiteralLike(bare(p.initializer)) ? (bare(p.initializer) as ts.StringLiteralLike).text : `an IndexedDB database named by ${p.getText(sf)}`));
    }
    const value = e && ts.isIdentifier(e) ? constantOf(sf, e.text) : null;
    if (value && ts.isStringLiteralLike(value)) return [value.text];
    return [`an IndexedDB database named by ${e ? e.getText(sf) : 'nothing'}`];
  };
  each(sf, (n) => {
    if (ts.isPropertyAccessExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'storage' && isExtensionGlobal(n.expression.expression)
      && ['local', 'session', 'sync', 'managed'].includes(n.name.text)) out.push(`chrome.storage.${n.name.text}`);
    if (ts.isIdentifier(n) && (n.text === 'localStorage' || n.text === 'sessionStorage')) {
      const p = n.parent;
      const ownName = (ts.isPropertyAccessExpression(p) && p.name === n && !(ts.isIdentifier(p.expression) && ['window', 'globalThis', 'self'].includes(p.expression.text)))
        || ((ts.isPropertyAssignment(p) || ts.isPropertySignature(p) || ts.isVariableDeclaration(p) || ts.isParameter(p)) && p.name === n);
      if (!ownName) out.push(n.text);
    }
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      if (ts.isIdentifier(callee) && callee.text === 'openDB') out.push(...dbNames(n.arguments[0]));
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'open' && ['indexedDB', 'caches'].includes(endName(callee.expression) ?? '')) {
        out.push(...(endName(callee.expression) === 'caches' ? ['caches'] : dbNames(n.arguments[0])));
      }
    }
  });
  return out;
}

/** A Markdown document's headings (outside code blocks) with the text under each. */
interface Section { level: number; heading: string; codes: string[]; body: string }
function sectionsOf(md: string): Section[] {
  const out: Section[] = [];
  let fenced = false;
  for (const line of md.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const h = fenced ? null : /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) out.push({ level: h[1].length, heading: h[2].trim(), codes: [...h[2].matchAll(/`([^`]+)`/g)].map((m) => m[1]), body: '' });
    else if (out.length) out[out.length - 1].body += `${line}\n`;
  }
  return out;
}

/** The sections that stand for a permission: level 2, the heading starting with the permission's name in backticks. */
const permissionSections = (md: string) => sectionsOf(md).filter((s) => s.level === 2 && s.heading.startsWith('`'));

/** The first cell's first backticked word of each table row between `<!-- name -->` and `<!-- /name -->`. */
function tableList(md: string, name: string): string[] {
  const block = new RegExp(`<!-- ${name} -->([\\s\\S]*?)<!-- /${name} -->`).exec(md)?.[1];
  if (block === undefined) throw new Error(`no <!-- ${name} --> table`);
  return block.split('\n').filter((l) => l.startsWith('|')).map((l) => /^\|\s*`([^`]+)`/.exec(l)?.[1]).filter((x): x is string => !!x);
}

/** The text of the fenced block after `<!-- field: name -->`. */
function field(md: string, name: string): string {
  const m = new RegExp(`<!-- field: ${name} -->\\s*\`\`\`text\\n([\\s\\S]*?)\\n\`\`\``).exec(md);
  if (!m) throw new Error(`no field ${name}`);
  return m[1];
}

/** Backticked words that name a file or folder of the repository by its path (`src/…`, `sidepanel/…`). */
function namedPaths(md: string): string[] {
  return [...md.matchAll(/`([^`\s]+)`/g)].map((m) => m[1])
    .filter((w) => /^(?:src|sidepanel|content-scripts|public|scripts|test|docs)\/[\w@.\-/]*$/.test(w));
}

const doc = (lang: Lang, file: string) => read(`${STORE}/${lang}/${file}`);
const docFiles = (lang: Lang) => readdirSync(path.join(ROOT, STORE, lang)).filter((f) => f.endsWith('.md')).sort();

const files = sourceFiles();
/**
 * The first test that reads the code parses every source file with the TypeScript parser (about
 * 1.5 s alone); later ones read the cache. Its budget: test/fixtures/cpu-budget.ts.
 */
const SCAN = { timeout: cpuBudget(1500) };

/** API namespaces that need no permission in the manifest. */
const NO_PERMISSION = new Set(['runtime', 'tabs', 'i18n', 'dom', 'commands', 'action', 'windows', 'extension', 'permissions', 'Runtime']);

describe('docs/store: both languages', () => {
  it('have the same files, the listing, the privacy policy and the permissions among them, and a README', () => {
    expect(existsSync(path.join(ROOT, STORE, 'README.md'))).toBe(true);
    expect(docFiles('en')).toEqual(expect.arrayContaining(['listing.md', 'permissions.md', 'privacy.md']));
    expect(docFiles('zh_CN')).toEqual(docFiles('en'));
  });

  it('have the same sections in the same order in each file (levels, names in backticks, markers)', () => {
    const shape = (md: string) => ({
      sections: sectionsOf(md).map((s) => `${s.level} ${s.codes.join(' ')}`),
      markers: [...md.matchAll(/<!--\s*([^>]*?)\s*-->/g)].map((m) => m[1]),
    });
    for (const f of docFiles('en')) expect(shape(doc('zh_CN', f)), f).toEqual(shape(doc('en', f)));
  });

  it('name only files and folders that exist', () => {
    const missing: string[] = [];
    for (const lang of LANGS) {
      for (const f of docFiles(lang)) for (const p of namedPaths(doc(lang, f))) if (!existsSync(path.join(ROOT, p))) missing.push(`${lang}/${f}: ${p}`);
    }
    for (const p of namedPaths(read(`${STORE}/README.md`))) if (!existsSync(path.join(ROOT, p))) missing.push(`README.md: ${p}`);
    expect(missing).toEqual([]);
  });
});

describe('docs/store permissions.md', SCAN, () => {
  it.each(LANGS)('%s: has its own section for each permission and host permission of the manifest, and none for one it lacks', (lang) => {
    const sections = permissionSections(doc(lang, 'permissions.md'));
    const own = [...apiPermissions, ...hostPermissions];
    expect(own.length).toBeGreaterThan(0);
    // each permission alone in one heading
    expect(own.filter((p) => sections.filter((s) => s.codes.length === 1 && s.codes[0] === p).length !== 1)).toEqual([]);
    // the content scripts' match patterns are host access too: named in a heading
    expect(contentMatches.filter((m) => !sections.some((s) => s.codes.includes(m)))).toEqual([]);
    // nothing else
    expect(sections.flatMap((s) => s.codes).filter((c) => !own.includes(c) && !contentMatches.includes(c))).toEqual([]);
  });

  it.each(LANGS)('%s: names, in each permission\'s section, every file whose code calls its API', (lang) => {
    const sections = permissionSections(doc(lang, 'permissions.md'));
    const unnamed: string[] = [];
    for (const p of apiPermissions) {
      const body = sections.find((s) => s.codes.length === 1 && s.codes[0] === p)?.body ?? '';
      const named = namedPaths(body);
      const users = files.filter((f) => apisOf(f).has(p));
      for (const u of users) if (!named.some((n) => n === u || (n.endsWith('/') && u.startsWith(n)))) unnamed.push(`${p}: ${u}`);
    }
    expect(unnamed).toEqual([]);
  });

  it('asks for every API the code uses that needs a permission, and uses every permission it asks for', () => {
    const used = new Set(files.flatMap((f) => [...apisOf(f)]));
    expect([...used].filter((a) => !NO_PERMISSION.has(a) && !apiPermissions.includes(a))).toEqual([]);
    expect(apiPermissions.filter((p) => !used.has(p))).toEqual([]);
  });

  it.each(LANGS)('%s: quotes the debugger bar\'s name and the stop reason its Cancel gives, as the package says them', (lang) => {
    const md = doc(lang, 'permissions.md');
    const m = messages(lang);
    expect(md).toContain(m.extName.message);
    expect(md).toContain(m.debugCancelled.message);
  });

  it('and the code still stops the run when the person cancels the bar', () => {
    const index = read('src/background/index.ts');
    expect(index).toMatch(/chrome\.debugger\.onDetach\.addListener\([^]*?reason === 'canceled_by_user'\)\s*stopRunsInTab\([^)]*key: 'debugCancelled'/);
  });
});

describe('docs/store privacy.md', SCAN, () => {
  const requesting = files.filter((f) => requestsOf(f).length);

  it('finds the files that make requests (the scan works)', () => {
    expect(requesting).toContain('src/background/model.ts');
    expect(requestsOf('src/background/model.ts')).toEqual(expect.arrayContaining(['import openai', 'new OpenAI']));
  });

  it.each(LANGS)('%s: names exactly the source files that make requests', (lang) => {
    const listed = tableList(doc(lang, 'privacy.md'), 'network-requests');
    const why = Object.fromEntries(requesting.map((f) => [f, requestsOf(f).join(', ')]));
    expect({ notInPolicy: requesting.filter((f) => !listed.includes(f)).map((f) => `${f} (${why[f]})`), noRequestInCode: listed.filter((f) => !requesting.includes(f)) })
      .toEqual({ notInPolicy: [], noRequestInCode: [] });
  });

  it('OCR loads its worker, core and language data from the package, never from a CDN', () => {
    const sf = sourceOf('src/offscreen/ocr.ts');
    const paths: Record<string, string> = {};
    each(sf, (n) => {
      if (!ts.isCallExpression(n) || endName(n.expression) !== 'createWorker') return;
      const opts = n.arguments[2];
      if (!opts || !ts.isObjectLiteralExpression(opts)) return;
      for (const p of opts.properties) if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) paths[p.name.text] = p.initializer.getText(sf);
    });
    for (const k of ['workerPath', 'corePath', 'langPath']) expect(paths[k], k).toMatch(/^chrome\.runtime\.getURL\('ocr[/']/);
    // vite.config.ts copies those files into the package from node_modules
    const vite = ts.createSourceFile('vite.config.ts', read('vite.config.ts'), ts.ScriptTarget.Latest, true);
    const copied: Array<[string, string]> = [];
    each(vite, (n) => {
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === 'OCR_FILES' && n.initializer && ts.isObjectLiteralExpression(n.initializer)) {
        for (const p of n.initializer.properties) {
          if (ts.isPropertyAssignment(p) && ts.isStringLiteralLike(p.name) && ts.isStringLiteralLike(p.initializer)) copied.push([p.name.text, p.initializer.text]);
        }
      }
    });
    expect(copied.length).toBeGreaterThanOrEqual(3);
    expect(copied.filter(([to, from]) => !to.startsWith('ocr/') || !from.startsWith('node_modules/') || !existsSync(path.join(ROOT, from)))).toEqual([]);
  });

  it.each(LANGS)('%s: names exactly the places where the extension keeps data', (lang) => {
    const kept = [...new Set(files.flatMap(storesOf))].sort();
    expect(kept).toEqual(expect.arrayContaining(['chrome.storage.local', 'webagent']));
    expect([...new Set(tableList(doc(lang, 'privacy.md'), 'stores'))].sort()).toEqual(kept);
  });
});

describe('docs/store listing.md', () => {
  it.each(LANGS)('%s: the name and the short description are the package\'s, within the store\'s limits', (lang) => {
    const md = doc(lang, 'listing.md');
    const m = messages(lang);
    expect(field(md, 'name')).toBe(m.extName.message);
    expect(field(md, 'summary')).toBe(m.extDescription.message);
    expect([...field(md, 'name')].length).toBeLessThanOrEqual(75);
    expect([...field(md, 'summary')].length).toBeLessThanOrEqual(132);
    expect([...field(md, 'description')].length).toBeLessThanOrEqual(16_000);
  });
});
