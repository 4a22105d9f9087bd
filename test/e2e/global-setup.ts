/**
 * Playwright's globalSetup: bundles the CLI scripts the specs start as processes (scripts/agent.ts,
 * batch.ts, worker.ts) once per test session, so that spawnScript (support.ts) runs plain
 * JavaScript instead of paying `node --import tsx`'s cold start (transforming the whole import graph)
 * on every spawn. The folder reaches the workers in WEBAGENT_SCRIPTS_BUNDLE (workers
 * inherit the runner's environment); the returned function (Playwright's global teardown) removes it.
 */
import { build, type Plugin } from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** The scripts spawnScript starts; each becomes `<bundle>/<name>.mjs`. */
export const BUNDLED_SCRIPTS = ['agent', 'batch', 'worker'];
/**
 * Where the session folders go: inside the repo so that Node finds the packages left external
 * (`import 'playwright-core'` resolves by walking up to <repo>/node_modules), under node_modules/.cache
 * so that neither git nor eslint sees them.
 */
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'webagent-e2e-scripts');

/**
 * Keeps each source file's own import.meta.dirname / filename / url: bundled, they would be the
 * bundle's (so scripts/browser.ts's DIST = dirname/../dist would miss dist/, and a "am I the main
 * module" check of a bundled file would answer yes). Replaced by the source file's values as literals
 * (so such a check in an entry script itself would answer no: none of the three has one).
 */
const sourceImportMeta: Plugin = {
  name: 'source-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?tsx?$/ }, async ({ path: file }) => {
      if (file.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await readFile(file, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const values: Record<string, string> = { dirname: path.dirname(file), filename: file, url: pathToFileURL(file).href };
      return {
        contents: text.replace(/\bimport\.meta\.(dirname|filename|url)\b/g, (_, k: string) => JSON.stringify(values[k])),
        loader: file.endsWith('x') ? 'tsx' : 'ts',
      };
    });
  },
};

/** Removes the folders of earlier sessions whose runner process is gone (killed before its teardown). */
function removeStale(): void {
  if (!existsSync(CACHE)) return;
  for (const name of readdirSync(CACHE)) {
    const pid = Number(name);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = pid > 0;
    } catch (e) {
      alive = (e as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive) rmSync(path.join(CACHE, name), { recursive: true, force: true });
  }
}

export default async function globalSetup(): Promise<() => void> {
  removeStale();
  const dir = path.join(CACHE, String(process.pid));
  rmSync(dir, { recursive: true, force: true });
  await build({
    entryPoints: BUNDLED_SCRIPTS.map((s) => path.join(ROOT, 'scripts', `${s}.ts`)),
    bundle: true,
    // chunks keep the scripts' dynamic imports (agent.ts's run-agent, batch.ts's queue or local
    // pool) lazy, with their packages, as under tsx: `--help` does not load playwright-core
    splitting: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    target: 'node20',
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    sourcemap: 'inline',
    plugins: [sourceImportMeta],
    logLevel: 'error',
  });
  process.env.WEBAGENT_SCRIPTS_BUNDLE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
