import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const CORE = path.resolve(import.meta.dirname, '..', '..', 'src', 'core');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('src/core is pure', () => {
  // what core may import (itself, the message files, tldts) is the dependency table's (docs/architecture.md)
  it('touches no chrome, browser or DOM globals', () => {
    const bad: string[] = [];
    for (const f of files(CORE)) {
      const code = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const noStrings = code.replace(/`(?:\\[\s\S]|[^\\`])*`|'(?:\\.|[^\\'\n])*'|"(?:\\.|[^\\"\n])*"/g, '""');
      if (/\b(chrome|browser)\.\w|\bdocument\.|\bwindow\.|webextension-polyfill/.test(noStrings)) bad.push(`${f}: uses a browser global`);
    }
    expect(files(CORE).length).toBeGreaterThan(5);
    expect(bad).toEqual([]);
  });
});
