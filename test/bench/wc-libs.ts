/**
 * The web-component libraries the corpus's web-component pages (wc-*.html) load, served from
 * /lib/ next to the corpus (marks-corpus.ts):
 * - /lib/shoelace/: @shoelace-style/shoelace's cdn/ folder as published (ES modules, themes);
 * - /lib/material.js and /lib/fluent.js: @material/web and @fluentui/web-components (with the
 *   Fluent light theme) bundled by esbuild into a temporary folder, once per process (the
 *   packages publish ES modules with bare imports a browser cannot load as they are).
 * Pages ask for the entry script with `?delay=MS` (scripts/static-server.ts) after their load
 * event, so their elements are defined late, as on a real network.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const MODULES = path.join(ROOT, 'node_modules');

const ENTRIES: Record<string, string> = {
  'material.js': `import '@material/web/all.js';`,
  'fluent.js': [
    `import { setTheme } from ${JSON.stringify(path.join(MODULES, '@fluentui/web-components/dist/web-components-all.js'))};`,
    `import { webLightTheme } from '@fluentui/tokens';`,
    'setTheme(webLightTheme);',
  ].join('\n'),
};

let built: Promise<string> | null = null;

/** The folder holding material.js and fluent.js (built on first use). */
export function bundledLibs(): Promise<string> {
  built ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'webagent-wc-libs-'));
    for (const [name, source] of Object.entries(ENTRIES)) {
      const entry = path.join(dir, `${name}.entry.mjs`);
      writeFileSync(entry, source);
      await build({ entryPoints: [entry], bundle: true, format: 'esm', minify: true, outfile: path.join(dir, name), nodePaths: [MODULES], logLevel: 'error' });
    }
    return dir;
  })();
  return built;
}

/** serveDir mounts for the libraries (the longer prefix first). */
export async function libMounts(): Promise<Record<string, string>> {
  return {
    '/lib/shoelace/': path.join(MODULES, '@shoelace-style', 'shoelace', 'cdn'),
    '/lib/': await bundledLibs(),
  };
}
