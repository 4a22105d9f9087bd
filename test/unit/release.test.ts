/**
 * The release package's checks (scripts/release.ts, docs/release.md): each refusal on its own
 * (version, CHANGELOG entry, manifest, permissions, source maps, test files), the repository's own
 * manifest, package.json and CHANGELOG.md agreeing with them, and the zip being the same bytes
 * for the same files.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import {
  RELEASE_PERMISSIONS, changelogEntry, isTestFile, releaseProblems, releaseZip, versionProblem, withoutSourceMapComment, zipName,
} from '../../scripts/release';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const enc = (s: string) => new TextEncoder().encode(s);

const CHANGELOG = '# Changes\n\n## 0.2.0 — 2026-12-01\n\n- A release zip.\n\n## 0.1.0 — 2026-11-30\n\nThe first release.\n';
const MANIFEST = { manifest_version: 3, name: 'Web Agent', version: '0.2.0', permissions: [...RELEASE_PERMISSIONS], host_permissions: ['<all_urls>'] };

/** A build that may be released, with `manifest` as its manifest and `more` files added or replaced. */
function build(manifest: Record<string, unknown> = MANIFEST, more: Record<string, string> = {}): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>([
    ['manifest.json', enc(JSON.stringify(manifest))],
    ['service-worker-loader.js', enc("import './assets/index.js';\n")],
    ['assets/index.js', enc('const contest = "a //# sourceMappingURL= mid-line is text, not a comment";\nexport { contest };\n')],
    ['assets/index.css', enc('body { margin: 0 }\n')],
    ['sidepanel/index.html', enc('<!doctype html><script type="module" src="/assets/index.js"></script>\n')],
    ['icons/icon16.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47])],
  ]);
  for (const [k, v] of Object.entries(more)) files.set(k, enc(v));
  return files;
}

const problems = (files = build(), version = '0.2.0', changelog = CHANGELOG) => releaseProblems({ files, version, changelog });

describe('releaseProblems', () => {
  it('has none for a build of the version, with its entry and the release\'s permissions', () => {
    expect(problems()).toEqual([]);
  });

  it('refuses a version Chrome would not load', () => {
    for (const bad of ['0.2.0-beta', '1.02', '70000.1', '1.2.3.4.5', 'v1', '']) {
      expect(versionProblem(bad), bad).toMatch(/is not a Chrome extension version/);
      expect(problems(build({ ...MANIFEST, version: bad }), bad, CHANGELOG.replace('0.2.0', bad)).join('\n'), bad).toMatch(/is not a Chrome extension version/);
    }
    for (const good of ['1', '0.2.0', '1.2.3.4', '65535.0']) expect(versionProblem(good), good).toBeNull();
  });

  it('refuses a version without its CHANGELOG entry, a heading without a date, an empty entry', () => {
    expect(problems(build(), '0.2.0', CHANGELOG.replace('## 0.2.0', '## 0.2.01'))).toEqual([expect.stringMatching(/^CHANGELOG.md has no entry for 0.2.0/)]);
    expect(problems(build(), '0.2.0', '')).toEqual([expect.stringMatching(/^CHANGELOG.md has no entry for 0.2.0/)]);
    expect(problems(build(), '0.2.0', CHANGELOG.replace(' — 2026-12-01', ' — unreleased'))).toEqual([expect.stringMatching(/heading for 0.2.0 has no date/)]);
    expect(problems(build(), '0.2.0', CHANGELOG.replace('- A release zip.', ''))).toEqual([expect.stringMatching(/entry for 0.2.0 is empty/)]);
    expect(changelogEntry(CHANGELOG, '0.1.0')).toEqual({ heading: '## 0.1.0 — 2026-11-30', body: 'The first release.' });
  });

  it('refuses a build without a readable manifest, or whose version is not package.json\'s', () => {
    const files = build();
    files.delete('manifest.json');
    expect(problems(files)).toEqual(['the build has no manifest.json at its top']);
    expect(problems(build(undefined, { 'manifest.json': '{ "version": ' }))).toEqual([expect.stringMatching(/^manifest.json is not JSON/)]);
    expect(problems(build(undefined, { 'manifest.json': '[]' }))).toEqual(['manifest.json is not a JSON object']);
    expect(problems(build({ ...MANIFEST, version: '0.1.0' }))).toEqual([expect.stringMatching(/^manifest.json's version is "0.1.0", package.json's is "0.2.0"/)]);
    const { version: _v, ...noVersion } = MANIFEST;
    expect(problems(build(noVersion))).toEqual([expect.stringMatching(/^manifest.json's version is null/)]);
  });

  it('refuses permissions the release does not expect, and lacking ones it does', () => {
    expect(problems(build({ ...MANIFEST, permissions: [...RELEASE_PERMISSIONS, 'tabs', 'cookies'] })))
      .toEqual([expect.stringMatching(/^manifest.json's "permissions" has "tabs", "cookies", which the release does not expect/)]);
    expect(problems(build({ ...MANIFEST, permissions: RELEASE_PERMISSIONS.filter((p) => p !== 'debugger') })))
      .toEqual([expect.stringMatching(/^manifest.json's "permissions" lacks "debugger", which the release expects/)]);
    expect(problems(build({ ...MANIFEST, host_permissions: ['<all_urls>', 'file:///*'] })))
      .toEqual([expect.stringMatching(/^manifest.json's "host_permissions" has "file:\/\/\/\*"/)]);
    expect(problems(build({ ...MANIFEST, host_permissions: undefined })))
      .toEqual([expect.stringMatching(/^manifest.json's "host_permissions" lacks "<all_urls>"/)]);
    expect(problems(build({ ...MANIFEST, optional_permissions: ['management'] })))
      .toEqual([expect.stringMatching(/^manifest.json's "optional_permissions" has "management"/)]);
    expect(problems(build({ ...MANIFEST, permissions: 'storage' }))).toEqual(['manifest.json\'s "permissions" is not a list of strings']);
  });

  it('refuses source map files and source map comments, with the file and line', () => {
    expect(problems(build(undefined, { 'assets/index.js.map': '{}' }))).toEqual(['a source map file: assets/index.js.map']);
    expect(problems(build(undefined, { 'assets/a.js': 'x();\n//# sourceMappingURL=a.js.map\n' })))
      .toEqual(['a source map comment in assets/a.js (line 2): //# sourceMappingURL=a.js.map']);
    expect(problems(build(undefined, { 'assets/a.css': 'a{}\n/*# sourceMappingURL=data:application/json;base64,e30= */' })))
      .toEqual([expect.stringMatching(/^a source map comment in assets\/a.css \(line 2\)/)]);
    expect(problems(build(undefined, { 'ocr/worker.min.js': '(()=>{})();\n//@ sourceMappingURL=worker.min.js.map' })))
      .toEqual([expect.stringMatching(/^a source map comment in ocr\/worker.min.js \(line 2\)/)]);
  });

  it('refuses files that belong to the tests', () => {
    const more = { 'test/fixtures/page.html': '<p>', 'assets/labeler.spec.js': '', 'assets/run.test.ts': '', 'e2e/x.js': '', '__mocks__/chrome.js': '' };
    expect(problems(build(undefined, more))).toEqual(Object.keys(more).map((f) => `a file that belongs to the tests: ${f}`));
    for (const ok of ['assets/contest.js', 'assets/testing.js', 'src/offscreen/ocr.html', 'manifest.json']) expect(isTestFile(ok), ok).toBe(false);
  });

  it('refuses scripts that still hold what only the tests use (a build not made for release)', () => {
    const more = { 'assets/worker.js': "const handlers = { 'worker/info': async () => 1 };", 'assets/content.js': 'const seam = globalThis.__webagentClosedRoots;', 'assets/panel.js': 'send("worker/info", {})' };
    expect(problems(build(undefined, more))).toEqual([
      "assets/worker.js holds code only the tests use ('worker/info'): build with mode \"release\" (npm run package does)",
      'assets/content.js holds code only the tests use (__webagentClosedRoots): build with mode "release" (npm run package does)',
      "assets/panel.js holds code only the tests use ('worker/info'): build with mode \"release\" (npm run package does)",
    ]);
    // the words in a page's text are no script
    expect(problems(build(undefined, { 'sidepanel/index.html': "<p>'worker/info'</p>" }))).toEqual([]);
  });

  it('lists every problem at once', () => {
    expect(problems(build({ ...MANIFEST, version: '0.1.0' }, { 'a.js.map': '' }), '0.2.0', '')).toHaveLength(3);
  });
});

describe('the repository', () => {
  it('has a CHANGELOG entry for package.json\'s version, and manifest.json asks for the release\'s permissions and has no version of its own', () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.version, 'the version lives in package.json only (vite.config.ts sets it)').toBeUndefined();
    const changelog = readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
    expect(problems(build({ ...manifest, version }), version, changelog)).toEqual([]);
  });
});

describe('withoutSourceMapComment', () => {
  it('drops the comment line, so the check passes, and leaves the code', () => {
    const text = '(()=>{})();\n//# sourceMappingURL=worker.min.js.map\n';
    expect(withoutSourceMapComment(text)).toBe('(()=>{})();\n');
    expect(problems(build(undefined, { 'ocr/worker.min.js': withoutSourceMapComment(text) }))).toEqual([]);
  });
});

describe('releaseZip', () => {
  it('is the same bytes for the same files in any order, holds them under their names, sorted, dated 1980-01-01', () => {
    const files = build();
    const zip = releaseZip(files);
    expect(releaseZip(new Map([...files].reverse()))).toEqual(zip);
    expect(unzipSync(zip)).toEqual(Object.fromEntries(files));
    // the local headers in the file's order: each name, and the DOS date 1980-01-01 00:00
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const names: string[] = [];
    for (let at = 0; view.getUint32(at, true) === 0x04034b50;) {
      expect([view.getUint16(at + 10, true), view.getUint16(at + 12, true)]).toEqual([0, (1 << 5) | 1]);
      const nameLength = view.getUint16(at + 26, true);
      names.push(new TextDecoder().decode(zip.subarray(at + 30, at + 30 + nameLength)));
      at += 30 + nameLength + view.getUint16(at + 28, true) + view.getUint32(at + 18, true);
    }
    expect(names).toEqual([...files.keys()].sort());
    expect(zipName('0.2.0')).toBe('webagent-0.2.0.zip');
  });
});
