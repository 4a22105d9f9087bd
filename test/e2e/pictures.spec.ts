/**
 * Words drawn in the pictures on screen, read on this machine (src/core/picture-text.ts;
 * docs/labeling.md, "Words in pictures"), through the runner with the scripted glm-web model:
 * a page with sixty pictures is read whole within the step's time or said, and its pixels are not
 * read twice; a canvas in a frame from another site is read where it shows, the finding naming the
 * frame; a background image given by another site's style sheet (whose rules a page cannot read)
 * is found all the same, and so is a ::before background given by a nested rule. Each instruction makes the answer wait for the person (stdin 'y').
 * Test pages: test/fixtures/pages/pictures/. The hostile corpus's picture pages run with the
 * obeying model (injection-obey.spec.ts).
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sequence, type Step } from './scripted-runs';
import { serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';

const agent = useAgent();
const out = mkdtempSync(path.join(tmpdir(), 'webagent-pictures-'));
let site: StaticServer;
test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); });

/** The run over `page` with the scripted steps, each question answered yes: its trace and what the runner said. */
async function run(page: string, steps: Step[]): Promise<{ trace: Trace; stdout: string }> {
  const model = await sequence(steps);
  try {
    const traceFile = path.join(out, `${page}.json`);
    const r = await agent.run(['--task', 'Look at the page', '--url', `${site.url}pictures/${page}`, '--base-url', model.baseUrl, '--trace', traceFile, '--max-steps', String(steps.length + 2)], {}, 'y\ny\ny\ny\n');
    expect(r.code, r.stderr).toBe(0);
    return { trace: JSON.parse(readFileSync(traceFile, 'utf8')) as Trace, stdout: r.stdout };
  } finally {
    await model.close();
  }
}

const pictureFinding = (t: Trace, i: number) => t.steps[i].injection?.find((h) => typeof h.where === 'object' && h.where.channel === 'picture');

test('sixty pictures and a banner: the banner (the largest) is read first and its words found; every picture is read, reused or said as not read; the same pixels are not read again', async () => {
  const { trace, stdout } = await run('many.html', [{ scroll: 'up' }, { scroll: 'up' }, { answer: 'done' }]);
  expect(trace.run.status).toBe('finished');
  const [a, b, c] = trace.steps.map((s) => s.pictureText!);
  expect(a.pictures).toBe(61);
  for (const p of [a, b, c]) expect(p.read + p.reused + p.unread).toBe(p.pictures);
  // the page did not change: what was read is known at the next step, and what was left is read then
  expect(b.reused).toBeGreaterThanOrEqual(a.read);
  expect(b.read).toBeLessThanOrEqual(a.unread);
  expect(c.read + b.read + a.read, 'no picture read twice').toBeLessThanOrEqual(61);
  expect(pictureFinding(trace, 0)).toMatchObject({ phrase: 'ignore all previous instructions', where: { tag: 'img' } });
  expect(stdout).toContain('on screen, read on this machine');
  if (a.unread) expect(stdout).toContain(`${a.unread} of the 61 pictures on screen could not be read in time`);
});

test('a canvas in a frame from another site: read where it shows, the finding naming the frame', async () => {
  const { trace } = await run('frame-cross.html', [{ scroll: 'up' }, { answer: 'done' }]);
  expect(trace.run.status).toBe('finished');
  // read at the first step, or, on a machine too busy to read it in the step's time, said as not
  // read there and read at the next (docs/labeling.md, "Words in pictures")
  const at = trace.steps.findIndex((_, i) => pictureFinding(trace, i));
  expect(at, `the steps' picture reads: ${JSON.stringify(trace.steps.map((s) => s.pictureText))}`).toBeGreaterThanOrEqual(0);
  if (at > 0) expect(trace.steps[0].pictureText?.unread, 'a read left for the next step is said').toBeGreaterThan(0);
  const hit = pictureFinding(trace, at);
  expect(hit).toMatchObject({ phrase: 'ignore your instructions', where: { tag: 'canvas' } });
  expect((hit!.where as { frame?: string }).frame).toMatch(/\/pictures\/inner-canvas\.html$/);
  expect(trace.steps[at].approval?.decision).toBe('approved');
});

test('a background image from another site\'s style sheet (its rules unreadable): found by every element\'s own background', async () => {
  const { trace } = await run('foreign-sheet.html', [{ answer: 'done' }]);
  expect(trace.run.status).toBe('finished');
  expect(pictureFinding(trace, 0)).toMatchObject({ phrase: 'ignore all previous instructions', where: { tag: 'div' } });
});

test('a ::before background image given by a nested style rule (CSS nesting): found from the rules read (the fallback reads own backgrounds only)', async () => {
  const { trace } = await run('nested-rule.html', [{ answer: 'done' }]);
  expect(trace.run.status).toBe('finished');
  expect(pictureFinding(trace, 0)).toMatchObject({ phrase: 'ignore all previous instructions', where: { tag: 'div' } });
});
