import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Packages core may use: no browser globals, no I/O. */
const PURE_PACKAGES = ['tldts'];
const CORE = path.resolve(import.meta.dirname, '..', '..', 'src', 'core');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('src/core is pure', () => {
  it('touches no chrome, browser or DOM globals and imports nothing outside src/core', () => {
    const bad: string[] = [];
    for (const f of files(CORE)) {
      const code = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const noStrings = code.replace(/`(?:\\[\s\S]|[^\\`])*`|'(?:\\.|[^\\'\n])*'|"(?:\\.|[^\\"\n])*"/g, '""');
      if (/\b(chrome|browser)\.\w|\bdocument\.|\bwindow\.|webextension-polyfill/.test(noStrings)) bad.push(`${f}: uses a browser global`);
      for (const m of code.matchAll(/from\s+'([^']+)'/g)) {
        // tldts: the public suffix list, pure data and code (site.ts).
        if (PURE_PACKAGES.includes(m[1])) continue;
        if (!m[1].startsWith('.')) bad.push(`${f}: imports package ${m[1]}`);
        // The message files are data (the person's words), not code: core may read them.
        else if (/^(\.\.\/)+public\/_locales\/\w+\/messages\.json$/.test(m[1])) continue;
        else if (!path.resolve(path.dirname(f), m[1]).startsWith(CORE)) bad.push(`${f}: imports ${m[1]} outside src/core`);
      }
    }
    expect(files(CORE).length).toBeGreaterThan(5);
    expect(bad).toEqual([]);
  });
});
