/**
 * The release package's checks and its zip (docs/release.md), pure: they read the build's files as
 * given (path → bytes) and never touch the disk. `npm run package` (scripts/package.ts) builds,
 * reads the build folder and refuses to zip it while `releaseProblems` lists anything;
 * test/e2e/package.spec.ts zips dist/ through the same steps and loads the zip in Chromium.
 */
import { TEST_ONLY_MESSAGES } from '../src/core/messages';
import { zipSync, type ZipOptions, type Zippable } from 'fflate';

/** The API permissions the release asks for, each explained in the README's "Permissions, and why". */
export const RELEASE_PERMISSIONS: readonly string[] = [
  'sidePanel', 'alarms', 'storage', 'debugger', 'scripting', 'downloads', 'declarativeNetRequest', 'webRequest', 'offscreen', 'webNavigation',
];

/** The manifest's permission lists and what the release expects in each (optional ones: none). */
export const RELEASE_MANIFEST_PERMISSIONS: Readonly<Record<string, readonly string[]>> = {
  permissions: RELEASE_PERMISSIONS,
  host_permissions: ['<all_urls>'],
  optional_permissions: [],
  optional_host_permissions: [],
};

/** The release zip's name: `webagent-<version>.zip`. */
export function zipName(version: string): string {
  return `webagent-${version}.zip`;
}

/** A source map comment at the start of a line: `//# sourceMappingURL=…` or `/*# sourceMappingURL=… *\/` (also the old `@` form). */
const SOURCE_MAP_COMMENT = /^[ \t]*\/[/*][#@][ \t]*sourceMappingURL=.*$/gm;

/** `text` without its source map comments (vite.config.ts copies Tesseract's worker so: its map is not shipped). */
export function withoutSourceMapComment(text: string): string {
  return text.replace(new RegExp(`${SOURCE_MAP_COMMENT.source}\\n?`, 'gm'), '');
}

/** Files whose text is read for source map comments. */
const SCRIPT_OR_STYLE = /\.(?:[cm]?js|css|html?)$/i;

/** Folders that hold tests, and the names test files go by: none of them belongs in the extension. */
const TEST_FOLDERS = new Set(['test', 'tests', '__tests__', '__mocks__', 'e2e', 'fixtures', 'test-results', 'playwright-report']);
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/i;

/**
 * What only the tests use, named in the code so the release build can be checked for it: the
 * messages only tests send, and the test harness's closed-shadow-root seam (src/core/release.ts).
 */
export const TEST_ONLY_MARKERS: readonly string[] = [...TEST_ONLY_MESSAGES.map((m) => `'${m}'`), '__webagentClosedRoots'];

/** The build's scripts that still hold test-only code (built without mode "release"). */
export function testCodeProblems(files: ReadonlyMap<string, Uint8Array>): string[] {
  const out: string[] = [];
  for (const [name, bytes] of files) {
    if (!/\.[cm]?js$/i.test(name)) continue;
    const text = new TextDecoder().decode(bytes);
    const found = TEST_ONLY_MARKERS.filter((m) => text.includes(m) || text.includes(m.replace(/'/g, '"')));
    if (found.length) out.push(`${name} holds code only the tests use (${found.join(', ')}): build with mode "release" (npm run package does)`);
  }
  return out;
}

/** Whether a path of the build belongs to the tests (a test folder, or a test's file name). */
export function isTestFile(file: string): boolean {
  const parts = file.split('/');
  return parts.slice(0, -1).some((p) => TEST_FOLDERS.has(p.toLowerCase())) || TEST_FILE.test(parts[parts.length - 1]);
}

/**
 * Why `version` cannot be an extension's version, or null. Chrome takes one to four integers
 * from 0 to 65535 separated by dots, none but 0 starting with 0
 * (https://developer.chrome.com/docs/extensions/reference/manifest/version).
 */
export function versionProblem(version: string): string | null {
  const parts = version.split('.');
  const fits = parts.length <= 4 && parts.every((p) => /^(?:0|[1-9]\d{0,4})$/.test(p) && Number(p) <= 65535);
  return fits ? null : `package.json's version "${version}" is not a Chrome extension version: one to four numbers from 0 to 65535 separated by dots, without leading zeros (no "-beta")`;
}

/** The lines under the CHANGELOG heading `## <version> — <date>`, or why there is no entry for `version`. */
export function changelogEntry(changelog: string, version: string): { heading: string; body: string } | { problem: string } {
  const lines = changelog.split(/\r?\n/);
  const esc = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const at = lines.findIndex((l) => new RegExp(`^##\\s+\\[?${esc}\\]?(?:\\s|$)`).test(l));
  if (at < 0) return { problem: `CHANGELOG.md has no entry for ${version}: add a heading "## ${version} — YYYY-MM-DD" and what changed for the person using the extension` };
  const heading = lines[at];
  if (!/\b\d{4}-\d{2}-\d{2}\b/.test(heading)) return { problem: `CHANGELOG.md's heading for ${version} has no date: "${heading.trim()}" (write "## ${version} — YYYY-MM-DD")` };
  const next = lines.findIndex((l, i) => i > at && /^##?\s/.test(l));
  const body = lines.slice(at + 1, next < 0 ? undefined : next).join('\n').trim();
  if (!body) return { problem: `CHANGELOG.md's entry for ${version} is empty: say what changed under "${heading.trim()}"` };
  return { heading, body };
}

/** The problems with the version to release and its CHANGELOG entry, before anything is built. */
export function versionProblems(version: string, changelog: string): string[] {
  const entry = changelogEntry(changelog, version);
  return [versionProblem(version), 'problem' in entry ? entry.problem : null].filter((p): p is string => p !== null);
}

function listOf(value: unknown): string[] | null {
  if (value === undefined) return [];
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
}

/** How the manifest's permission lists differ from the release's (RELEASE_MANIFEST_PERMISSIONS). */
function permissionProblems(manifest: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, expected] of Object.entries(RELEASE_MANIFEST_PERMISSIONS)) {
    const got = listOf(manifest[key]);
    if (!got) {
      out.push(`manifest.json's "${key}" is not a list of strings`);
      continue;
    }
    const extra = got.filter((p) => !expected.includes(p));
    const missing = expected.filter((p) => !got.includes(p));
    if (extra.length) out.push(`manifest.json's "${key}" has ${extra.map((p) => `"${p}"`).join(', ')}, which the release does not expect (scripts/release.ts, RELEASE_MANIFEST_PERMISSIONS; the README explains each permission)`);
    if (missing.length) out.push(`manifest.json's "${key}" lacks ${missing.map((p) => `"${p}"`).join(', ')}, which the release expects`);
  }
  return out;
}

/** The built manifest's problems: unreadable, another version than package.json's, other permissions. */
function manifestProblems(bytes: Uint8Array | undefined, version: string): string[] {
  if (!bytes) return ['the build has no manifest.json at its top'];
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    return [`manifest.json is not JSON: ${e instanceof Error ? e.message : String(e)}`];
  }
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) return ['manifest.json is not a JSON object'];
  const m = manifest as Record<string, unknown>;
  return [
    ...(m.version === version ? [] : [`manifest.json's version is ${JSON.stringify(m.version ?? null)}, package.json's is "${version}" (vite.config.ts sets it from package.json)`]),
    ...permissionProblems(m),
  ];
}

/** Source maps in the build: map files, and source map comments in scripts, styles and pages (with their line). */
function sourceMapProblems(files: ReadonlyMap<string, Uint8Array>): string[] {
  const out: string[] = [];
  for (const [file, bytes] of files) {
    if (/\.map$/i.test(file)) out.push(`a source map file: ${file}`);
    else if (SCRIPT_OR_STYLE.test(file)) {
      const text = new TextDecoder().decode(bytes);
      for (const m of text.matchAll(SOURCE_MAP_COMMENT)) {
        out.push(`a source map comment in ${file} (line ${text.slice(0, m.index).split('\n').length}): ${m[0].trim().slice(0, 80)}`);
      }
    }
  }
  return out;
}

/** What the package needs: the build's files (path with `/` from the build folder → bytes), package.json's version and CHANGELOG.md. */
export interface ReleaseInput {
  files: ReadonlyMap<string, Uint8Array>;
  version: string;
  changelog: string;
}

/** Everything that keeps this build from being released, in words; empty when it may be zipped. */
export function releaseProblems({ files, version, changelog }: ReleaseInput): string[] {
  return [
    ...versionProblems(version, changelog),
    ...manifestProblems(files.get('manifest.json'), version),
    ...sourceMapProblems(files),
    ...[...files.keys()].filter(isTestFile).map((f) => `a file that belongs to the tests: ${f}`),
    ...testCodeProblems(files),
  ];
}

/**
 * A zip that is the same bytes for the same files, on any machine and in any time zone: names
 * sorted, no folder entries, every file dated 1980-01-01 00:00 (fflate writes the local time's
 * fields, so the date is made from local fields) and marked as a regular Unix file readable by all (mode 644).
 */
export function releaseZip(files: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const options: ZipOptions = { mtime: new Date(1980, 0, 1, 0, 0, 0), os: 3, attrs: (0o100644 << 16) >>> 0 };
  const zippable: Zippable = {};
  for (const name of [...files.keys()].sort()) zippable[name] = [files.get(name)!, options];
  return zipSync(zippable, { level: 9 });
}
