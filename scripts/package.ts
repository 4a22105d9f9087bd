/**
 * npm run package: the release zip for the Chrome Web Store, `release/webagent-<version>.zip`
 * (docs/release.md). The version is package.json's; CHANGELOG.md must have its entry. The
 * extension is built into release/build (never dist/, which the tests load meanwhile), its files
 * are checked (scripts/release.ts: no source maps, no test files, the release's permissions, the
 * manifest's version) and zipped, the same bytes for the same build. A problem exits 1 with the
 * list and writes no zip. `buildRelease` and `packageFolder` (the check and zip of a built folder)
 * are test/e2e/package.spec.ts's too.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseProblems, releaseZip, versionProblems, zipName } from './release';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const RELEASE_DIR = path.join(ROOT, 'release');

/** package.json's version and CHANGELOG.md's text: what a release is packaged for. */
export function releaseVersion(root = ROOT): { version: string; changelog: string } {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  let changelog = '';
  try {
    changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
  } catch { /* no CHANGELOG.md: versionProblems says there is no entry */ }
  return { version, changelog };
}

/** Every file under `dir`, by its path from `dir` with `/` separators, in sorted order. */
export function readBuild(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isFile()) files.set(name.split(path.sep).join('/'), readFileSync(full));
  }
  return files;
}

export interface Packaged {
  /** why it was not zipped; empty when it was */
  problems: string[];
  /** the zip written (null with problems) */
  zipFile: string | null;
  files: number;
  bytes: number;
  sha256: string;
}

/**
 * Checks the built extension in `buildDir` for release (scripts/release.ts) and, with no problem,
 * writes it as `<outDir>/webagent-<version>.zip`.
 */
export function packageFolder(buildDir: string, o: { version: string; changelog: string; outDir: string }): Packaged {
  const files = readBuild(buildDir);
  const problems = releaseProblems({ files, version: o.version, changelog: o.changelog });
  if (problems.length) return { problems, zipFile: null, files: files.size, bytes: 0, sha256: '' };
  const zip = releaseZip(files);
  mkdirSync(o.outDir, { recursive: true });
  const zipFile = path.join(o.outDir, zipName(o.version));
  writeFileSync(zipFile, zip);
  return { problems, zipFile, files: files.size, bytes: zip.length, sha256: createHash('sha256').update(zip).digest('hex') };
}

/** The extension built for release into `outDir`: mode "release", which leaves out what only the tests use (src/core/release.ts). */
export async function buildRelease(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({ root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), mode: 'release', logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
}

function refuse(problems: string[]): number {
  process.stderr.write(`Not packaged: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  return 1;
}

async function main(): Promise<number> {
  const { version, changelog } = releaseVersion();
  const early = versionProblems(version, changelog);
  if (early.length) return refuse(early);
  const outDir = path.join(RELEASE_DIR, 'build');
  process.stdout.write(`Building ${version} into ${path.relative(ROOT, outDir)}/ …\n`);
  await buildRelease(outDir);
  const r = packageFolder(outDir, { version, changelog, outDir: RELEASE_DIR });
  if (r.problems.length) return refuse(r.problems);
  process.stdout.write(`${path.relative(ROOT, r.zipFile!)}: ${r.files} files, ${(r.bytes / 1e6).toFixed(2)} MB, sha256 ${r.sha256}\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then((code) => { process.exitCode = code; }, (e: unknown) => {
    process.stderr.write(`Not packaged: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exitCode = 1;
  });
}
