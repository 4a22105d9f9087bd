/**
 * What a batch keeps at the top of --out, with real symbolic links in a temporary folder
 * (docs/batch.md, "Who trusts what"): writes never go through a link (scripts/batch/safe-write.ts),
 * and results.jsonl is read as input: not through a link, its lines checked against the task file
 * and their folders kept inside --out (scripts/batch/results-file.ts).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appendNoFollow, replaceFile } from '../../scripts/batch/safe-write';
import { ResultsFile } from '../../scripts/batch/results-file';
import { taskFolder } from '../../src/core/batch/tasks';
import type { BatchTask, TaskResult } from '../../src/core/batch/types';

/** A folder with `out/` and a victim file outside it that links point at. */
function place(): { out: string; victim: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'webagent-out-'));
  const out = path.join(root, 'out');
  mkdirSync(out);
  const victim = path.join(root, 'victim.txt');
  writeFileSync(victim, 'keep me\n');
  return { out, victim };
}

describe('writes in --out', () => {
  it('an append goes to the file, and never through a link: not to its target, not to a missing target', () => {
    const { out, victim } = place();
    const file = path.join(out, 'results.jsonl');
    appendNoFollow(file, 'one\n');
    appendNoFollow(file, 'two\n');
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
    const link = path.join(out, 'linked.jsonl');
    symlinkSync(victim, link);
    expect(() => appendNoFollow(link, 'pwned\n')).toThrow(/linked\.jsonl is a symbolic link: the batch does not write through one/);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    // a link to a file that does not exist yet: the file is not made
    const dangling = path.join(out, 'dangling.jsonl');
    const wouldBe = path.join(path.dirname(out), 'made.txt');
    symlinkSync(wouldBe, dangling);
    expect(() => appendNoFollow(dangling, 'pwned\n')).toThrow(/symbolic link/);
    expect(existsSync(wouldBe)).toBe(false);
  });

  it('a whole file replaces a link at its name, never writing its target; a stale temporary link is removed as a link', () => {
    const { out, victim } = place();
    const summary = path.join(out, 'summary.html');
    symlinkSync(victim, summary);
    // a link left where the temporary file goes, pointing at the victim too
    symlinkSync(victim, `${summary}.tmp-${process.pid}`);
    replaceFile(summary, '<html>summary</html>');
    expect(lstatSync(summary).isSymbolicLink()).toBe(false);
    expect(readFileSync(summary, 'utf8')).toBe('<html>summary</html>');
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(existsSync(`${summary}.tmp-${process.pid}`)).toBe(false);
    // and again over the regular file it now is
    replaceFile(summary, new TextEncoder().encode('second'));
    expect(readFileSync(summary, 'utf8')).toBe('second');
  });
});

const TASKS: BatchTask[] = [
  { id: 'Shop--0', site: 'Shop', task: 'Find the price of tea', url: 'https://shop.example/' },
  { id: 'Shop--1', site: 'Shop', task: 'Find the price of milk', url: 'https://shop.example/' },
];

function line(t: BatchTask, over: Partial<TaskResult> = {}): string {
  const r: TaskResult = {
    ...t, folder: taskFolder(t.id), status: 'finished', kind: 'finished', answer: 'forged', stopReason: null, guard: null, steps: 1,
    tokens: { prompt: 1, completion: 1 }, cost: null, durations: { totalMs: 1, startMs: 0, runMs: 1, exportMs: 0 }, attempts: 1, verdict: null,
    startedAt: '2026-12-01T00:00:00.000Z', endedAt: '2026-12-01T00:00:01.000Z', worker: 'h:1', ...over,
  };
  return `${JSON.stringify(r)}\n`;
}

describe('results.jsonl read back', () => {
  it('keeps the lines of its tasks in their own folders and refuses the others with why', () => {
    const { out } = place();
    writeFileSync(path.join(out, 'results.jsonl'), line(TASKS[0]) + line(TASKS[1], { folder: '../victim' }));
    const r = new ResultsFile(out, TASKS);
    expect([...r.byId.keys()]).toEqual(['Shop--0']);
    expect(r.refused).toEqual(['results.jsonl line 2: the result of "Shop--1" is refused: its folder "../victim" is not its task\'s folder "taskShop--1"; the task runs again']);
  });

  it('is refused when it is a link, even a dangling one, and the link\'s target is neither read nor written', () => {
    const { out, victim } = place();
    const file = path.join(out, 'results.jsonl');
    writeFileSync(victim, line(TASKS[0]));
    symlinkSync(victim, file);
    expect(() => new ResultsFile(out, TASKS)).toThrow(/results\.jsonl is a symbolic link, which is not followed here/);
    const { out: out2 } = place();
    const missing = path.join(path.dirname(out2), 'made.jsonl');
    symlinkSync(missing, path.join(out2, 'results.jsonl'));
    expect(() => new ResultsFile(out2, TASKS)).toThrow(/symbolic link/);
    expect(existsSync(missing)).toBe(false);
    expect(readlinkSync(file)).toBe(victim);
  });

  it('appends and compacts without following a link put there after it was read', () => {
    const { out, victim } = place();
    const file = path.join(out, 'results.jsonl');
    const r = new ResultsFile(out, TASKS);
    symlinkSync(victim, file);
    expect(() => r.add(JSON.parse(line(TASKS[0])) as TaskResult)).toThrow(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    r.compact(TASKS);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(line(TASKS[0]));
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
  });
});
