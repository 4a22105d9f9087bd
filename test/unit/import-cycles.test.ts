/**
 * No import cycles anywhere in the extension's code (src/, content-scripts/, sidepanel/), nor in
 * the scripts (scripts/) and the tests and their fixtures (test/): every relative import and
 * re-export, type-only ones included, is an edge; any strongly connected group of two or more
 * files (or a file importing itself) fails with its members.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { files, importsOf } from '../fixtures/imports';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DIRS = ['src', 'content-scripts', 'sidepanel'].map((d) => path.join(ROOT, d));
const TOOLING = ['scripts', 'test'].map((d) => path.join(ROOT, d));

/** Tarjan's strongly connected components: the groups of files that import each other. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); group.push(w); } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(group.map((f) => path.relative(ROOT, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('imports', () => {
  it('form no cycles in src/, content-scripts/ and sidepanel/', () => {
    const all = DIRS.flatMap(files);
    const graph = new Map(all.map((f) => [f, importsOf(f)]));
    expect(all.length).toBeGreaterThan(50);
    expect([...graph.values()].flat().length).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });

  it('form no cycles in scripts/ and test/ (their imports of the extension\'s code included)', () => {
    const all = [...TOOLING, ...DIRS].flatMap(files);
    const graph = new Map(all.map((f) => [f, importsOf(f)]));
    expect(all.filter((f) => f.startsWith(path.join(ROOT, 'test'))).length).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });

  it('scripts/ import nothing from test/ (what the demo and the runner need of the fixtures lives in scripts/)', () => {
    const scripts = files(TOOLING[0]);
    const intoTest = scripts.flatMap((f) => importsOf(f).filter((to) => to.startsWith(TOOLING[1] + path.sep)).map((to) => `${path.relative(ROOT, f)} -> ${path.relative(ROOT, to)}`));
    expect(intoTest).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const g = new Map([['/a', ['/b']], ['/b', ['/c']], ['/c', ['/a']], ['/d', ['/a']]]);
    expect(cycles(g)).toHaveLength(1);
    expect(cycles(new Map([['/a', ['/b']], ['/b', []]]))).toEqual([]);
  });
});
