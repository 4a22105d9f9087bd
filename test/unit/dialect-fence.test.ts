/**
 * The dialect fence (docs/dialects.md, "Adding a dialect"): a dialect is its folder. Only the
 * registry imports a dialect's folder; a dialect imports no other dialect and not the registry
 * (what dialects share is in dialects/shared/, which imports no dialect). Checked over the
 * product's code and scripts; tests of one dialect may read its internals.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { files, importsOf } from '../fixtures/imports';
import { DIALECTS as REGISTERED } from '../../src/core/dialects/registry';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DIALECTS = path.join(ROOT, 'src', 'core', 'dialects');
const REGISTRY = path.join(DIALECTS, 'registry.ts');
const SHARED = path.join(DIALECTS, 'shared');

/** The dialect folder a file is in (its id), or null. */
function folderOf(file: string): string | null {
  const rel = path.relative(DIALECTS, file);
  if (rel.startsWith('..')) return null;
  const first = rel.split(path.sep)[0];
  return rel.includes(path.sep) && first !== 'shared' ? first : null;
}

const rel = (f: string) => path.relative(ROOT, f);
const product = ['src', 'content-scripts', 'sidepanel', 'scripts'].flatMap((d) => files(path.join(ROOT, d)));

describe('the dialect fence', () => {
  it('finds a folder for every registered dialect, and no folder that is not registered', () => {
    const folders = new Set(product.map(folderOf).filter((f): f is string => f !== null));
    expect([...folders].sort()).toEqual(Object.keys(REGISTERED).sort());
  });

  it('only the registry imports a dialect folder, and no dialect imports another', () => {
    const bad: string[] = [];
    for (const f of product) {
      const own = folderOf(f);
      for (const to of importsOf(f)) {
        const theirs = folderOf(to);
        if (theirs === null || theirs === own || f === REGISTRY) continue;
        bad.push(`${rel(f)} imports ${rel(to)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('dialects and their shared helpers do not import the registry; shared/ imports no dialect', () => {
    const bad: string[] = [];
    for (const f of product) {
      const inShared = f.startsWith(SHARED + path.sep);
      if (folderOf(f) === null && !inShared) continue;
      for (const to of importsOf(f)) {
        if (to === REGISTRY) bad.push(`${rel(f)} imports the registry`);
        if (inShared && folderOf(to) !== null) bad.push(`${rel(f)} (shared) imports ${rel(to)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
