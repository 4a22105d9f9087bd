/**
 * A run exported as a Playwright script (issue 46, item 3; docs/playwright-export.md): a run on
 * the fixture site (a click, typing, a delete the guard asked about and the person allowed) is
 * exported by the runner (--export-playwright) and by the report, and the script does the same
 * actions again against the site without a model: it stops and asks before the guarded step (no
 * answer: stopped, nothing deleted), does it with --yes, and on a page that changed it stops with
 * the step and the element it could not find instead of acting elsewhere.
 */
import { test, expect, useAgent } from './fixtures';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startFakeModel, type FakeModel, type RecordedRequest } from '../fixtures/model/server';
import { serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';
import { findChromium } from '../../scripts/chromium';
import type { Trace } from '../../src/core/trace';

const agent = useAgent();
const KEY = 'sk-playwright-export-5a6b';
/** the run: open the order history, type a hint, delete the project (asked), answer */
const WAY: Array<[RegExp, (label: number) => string]> = [
  [/^Order history$/, (l) => `Click [${l}]`],
  [/Password hint/, (l) => `Type [${l}]; [blue door]`],
  [/^Delete project$/, (l) => `Click [${l}]`],
];

function policy(req: RecordedRequest): { content: string } {
  const p = req.prompt;
  const n = p?.history.length ?? 0;
  if (n >= WAY.length) return { content: 'Thought: Done.\nAction: ANSWER; <content>deleted</content>\nMemory_Updated: {}' };
  const el = p?.elements.find((e) => WAY[n][0].test(e.text));
  if (!el) return { content: 'Thought: I cannot see it.\nAction: Scroll [WINDOW]; [down]\nMemory_Updated: {}' };
  return { content: `Thought: Next.\nAction: ${WAY[n][1](el.label)}\nMemory_Updated: {}` };
}

let site: StaticServer;
let model: FakeModel;
test.beforeAll(async () => {
  site = await serveFixtures();
  model = await startFakeModel({ apiKey: KEY, policy: (req) => policy(req) });
});
test.afterAll(async () => {
  await model.close();
  await site.close();
});

/** Runs the exported script with node; `input`: what the person types (none: the input is closed). */
function runScript(file: string, args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, '--browser', findChromium()!, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const clicks = () => site.events.filter((e) => e.type === 'click').map((e) => e.value);

test('the runner exports a run as a script that does it again, asks before the guarded step, and stops on a changed page', async () => {
  test.setTimeout(180_000);
  const script = test.info().outputPath('run.playwright.mjs');
  const report = test.info().outputPath('report.html');
  const trace = test.info().outputPath('trace.json');
  const r = await agent.run(['--task', 'Delete the project', '--url', `${site.url}guards/form.html`, '--base-url', model.baseUrl,
    '--trace', trace, '--report', report, '--export-playwright', script], { VLM_API_KEY: KEY }, 'y\n');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain(`Playwright script written to ${script}`);
  const t = JSON.parse(readFileSync(trace, 'utf8')) as Trace;
  expect(t.steps[2].guard).toMatchObject({ rule: 'delete' });
  expect(clicks()).toEqual(['order-history', 'delete-project']);

  // the report carries the same script
  const html = readFileSync(report, 'utf8');
  const link = /<a id="playwright" download="([^"]+)" href="data:text\/javascript;base64,([^"]+)">/.exec(html);
  expect(link?.[1]).toMatch(/^webagent-run-[0-9a-f-]{8}\.playwright\.mjs$/);
  expect(Buffer.from(link![2], 'base64').toString('utf8')).toBe(readFileSync(script, 'utf8'));

  // nobody answers: the steps before the delete are done again, then it stops before it
  site.events.length = 0;
  const stopped = await runScript(script, []);
  expect(stopped.code, stopped.stderr).toBe(3);
  expect(stopped.stdout).toContain('Step 1: click <button> "Order history": done');
  expect(stopped.stdout).toContain('Step 2: type <input> "Password hint": done');
  expect(stopped.stderr).toContain('Step 3 (click <button> "Delete project") was asked about in the run: this clicks "Delete project"');
  expect(stopped.stderr).toContain('No answer: stopped before step 3. Run with --yes to do it without asking.');
  expect(clicks()).toEqual(['order-history']);
  expect(site.events.filter((e) => e.type === 'input').map((e) => e.value)).toContain('hint');

  // answered no, then yes
  site.events.length = 0;
  const no = await runScript(script, [], 'n\n');
  expect(no.code).toBe(3);
  expect(clicks()).toEqual(['order-history']);
  site.events.length = 0;
  const yes = await runScript(script, [], 'y\n');
  expect(yes.code, yes.stderr).toBe(0);
  expect(yes.stdout).toContain('Step 4: the run ended here with: deleted.');
  expect(clicks()).toEqual(['order-history', 'delete-project']);

  // --yes: every step, not asked
  site.events.length = 0;
  const all = await runScript(script, ['--yes']);
  expect(all.code, all.stderr).toBe(0);
  expect(all.stderr).not.toContain('asked about');
  expect(clicks()).toEqual(['order-history', 'delete-project']);

  // a page that changed: the first target is not there; nothing else is clicked
  site.events.length = 0;
  const changed = await runScript(script, ['--yes', '--start-url', `${site.url}guards/checkout.html`]);
  expect(changed.code).toBe(1);
  expect(changed.stderr).toMatch(/Step 1: its target <button> "Order history" was not found on http:\/\/127\.0\.0\.1:\d+\/guards\/checkout\.html .*the page changed\. Stopped\./);
  expect(clicks()).toEqual([]);
});
