/**
 * A value the run put into a page goes only where the person said (issue 40; docs/guards.md, "The
 * request hold"): a card number typed on the fixture site (127.0.0.1) and sent by the page to
 * another site (localhost, another port: test/fixtures/away-site.ts) by every channel a page has,
 * each with the number changed so that no match could find it. Through the runner, in process,
 * in auto mode.
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runScripted, sequence, type Outcome, type Step } from './scripted-runs';
import { panelSend, serveFixtures, stopWorker, waitForRun } from './support';
import { agentCommand } from '../../scripts/agent-command';
import { openPanel } from '../../scripts/browser';
import type { WatchedTab } from '../../src/core/messages';
import type { Launched } from '../../scripts/browser';
import { startAwaySite, type AwaySite } from '../fixtures/away-site';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';

const agent = useAgent();
const out = mkdtempSync(path.join(tmpdir(), 'webagent-values-'));
const CARD = '4111 1111 1111 1111';
/** the channels value-away.html sends by that the hold pauses: held and asked, then sent on yes */
const HELD = ['audio', 'beacon', 'cssbg', 'fetch', 'font', 'frame-fetch', 'img', 'script', 'sw', 'worker'];
/** those it cannot be sure to pause (a WebSocket, the browser's prefetch): refused, and the model told */
const REFUSED = ['prefetch', 'ws'];

let site: StaticServer;
let away: AwaySite;
test.beforeAll(async () => { [site, away] = await Promise.all([serveFixtures(), startAwaySite()]); });
test.afterAll(async () => { await Promise.all([site.close(), away.close()]); });

test.describe('a card number sent to another site by every channel, encoded past any match', () => {
  let o: Outcome;
  const sent = (round: number) => away.hits.filter((h) => h.includes(`&n=${round}&`) || h.endsWith(`&n=${round}`));
  // the channels of round 3 (the yes) that reached the other site
  const onYes = () => [...new Set(sent(3).map((h) => h.split(/[/?]/)[1]))].sort();
  test.beforeAll(async () => {
    site.events.length = 0;
    away.hits.length = 0;
    // typed with Enter (a payment the person approves), the page sends it away at once: no;
    // "Continue" sends it by every channel: no, no, then yes
    o = await runScripted(agent, site, `value-away.html?away=${encodeURIComponent(away.url)}`, [
      { type: /^Card number$/, text: CARD },
      { click: /^Continue$/ },
      { click: /^Continue$/ },
      { click: /^Continue$/ },
      { answer: 'done' },
    ], 'y\nn\nn\nn\ny\n', path.join(out, 'away.json'), async (n) => {
      // The run ends at its answer and its page closes with it: a request released by the yes
      // (a worker's comes a moment later) could be cut on its way on a loaded machine. The model
      // "thinks" before its answer until they have landed (at most 15 s; the test says what did not).
      if (n !== 4) return;
      for (const until = Date.now() + 15_000; Date.now() < until && onYes().join() !== HELD.join();) await new Promise((r) => setTimeout(r, 100));
    });
  });

  test('an approved payment action does not release the number to another site: held, asked, blocked', () => {
    expect(o.r.code, o.r.stderr).toBe(0);
    const typed = o.trace.steps[0];
    expect(typed.approval?.decision).toBe('approved');
    expect(typed.afterAction).toMatchObject({ rule: 'payment', decision: 'rejected' });
    expect(typed.afterAction?.requests?.map((r) => r.away)).toEqual([new URL(away.url).host]);
    expect(o.r.stderr).toContain(`a card number typed in this run is in this page, and the page is sending a request to ${new URL(away.url).host}, another site`);
    expect(away.hits.filter((h) => h.startsWith('/enter'))).toEqual([]);
  });

  test('by every channel (frames in their own process, workers, the service worker included) it is held whatever it carries, and reaches nothing until the yes', async () => {
    const [, first, second, third] = o.trace.steps;
    for (const s of [first, second]) {
      expect(s.afterAction, s.actionText).toMatchObject({ rule: 'payment', decision: 'rejected' });
      expect(s.result.ok).toBe(false);
    }
    expect(third.afterAction).toMatchObject({ rule: 'payment', decision: 'approved' });
    // the first round was asked about and blocked, at its own question or at the next
    expect(sent(1)).toEqual([]);
    // sent on yes: every channel but those that cannot wait
    await expect.poll(onYes, { message: 'every held channel reaches the other site after the yes', timeout: 10_000 }).toEqual(HELD);
    // each held request's record names where it went and never the number
    // (random ids and clock readings left out: a DevTools session id "…44111CB…" matched "4111" once)
    const records = JSON.stringify(o.trace.steps.map((s) => s.afterAction ?? null), (k, v: unknown) => (['sessionId', 'requestId', 'tabId', 'at'].includes(k) ? undefined : v));
    expect(records).toContain('localhost');
    expect(records).not.toMatch(/4111|1111111111111114|5222222222222222|34313131/);
  });

  test('a WebSocket and a prefetch to the other site are refused every time, yes or no, and the model is told', () => {
    expect(away.channels().filter((c) => REFUSED.includes(c))).toEqual([]);
    expect(o.trace.steps[1].observation).toMatch(new RegExp(`The page tried to reach [^.]*"ws://${new URL(away.url).host}"[^.]* by a connection or a prefetch`));
    expect(site.events.filter((e) => e.type === 'blocked' && e.value === 'ws').length).toBeGreaterThanOrEqual(3);
  });
});

test('a password typed (approved) on a site goes to that site, never to another port of its host: held whatever it carries', async () => {
  site.events.length = 0;
  away.hits.length = 0;
  const o = await runScripted(agent, site, `login-away.html?away=${encodeURIComponent(away.sameHostUrl)}`, [
    { type: /^Password$/, text: 'Tr0ub4dor&3-pw' },
    { answer: 'signed in' },
  ], 'y\nn\n', path.join(out, 'login.json'));
  expect(o.r.code, o.r.stderr).toBe(0);
  const [typed] = o.trace.steps;
  expect(typed.approval?.decision).toBe('approved');
  expect(typed.afterAction).toMatchObject({ rule: 'password', decision: 'rejected' });
  expect(typed.afterAction?.requests?.map((r) => r.away)).toEqual([new URL(away.sameHostUrl).host]);
  expect(o.r.stderr).toContain(`a password typed in this run is in this page, and the page is sending a request to ${new URL(away.sameHostUrl).host}, another site than the one it was typed for`);
  // its own site got it; the other service got nothing
  expect(o.events.filter((e) => e.type === 'login').map((e) => e.value)).toEqual(['own-site']);
  expect(away.hits).toEqual([]);
  expect(JSON.stringify(o.trace)).not.toContain('Tr0ub4dor');
});

test.describe('an attached file: a chooser is asked about, naming the file and the site; once given, the page sending it to another site is held', () => {
  const file = path.join(out, 'taxes.txt');
  const host = () => new URL(site.url).host;
  test.beforeAll(() => writeFileSync(file, 'income 84,000; SSN 078-05-1120\n'));

  /** A run on file-away.html with taxes.txt attached: `steps` played, `input` its stdin; its trace and stderr. */
  async function fileRun(name: string, steps: Step[], input: string, before?: (n: number) => Promise<void>): Promise<{ trace: Trace; stderr: string }> {
    site.events.length = 0;
    away.hits.length = 0;
    const model = await sequence(steps, before);
    try {
      const traceFile = path.join(out, `${name}.json`);
      const r = await agent.run(['--task', 'Check my order status', '--url', `${site.url}guards/file-away.html?away=${encodeURIComponent(away.url)}`, '--base-url', model.baseUrl, '--file', file, '--trace', traceFile], {}, input);
      expect(r.code, r.stderr).toBe(0);
      return { trace: JSON.parse(readFileSync(traceFile, 'utf8')) as Trace, stderr: r.stderr };
    } finally {
      await model.close();
    }
  }
  const given = () => site.events.filter((e) => e.type === 'file').map((e) => e.value);
  const DETAILS: Step[] = [{ click: /^Show details$/ }, { scroll: 'down' }, { answer: 'shipped' }];

  test('no to the chooser: the field gets nothing, the action counts as not done, the model is told', async () => {
    const { trace, stderr } = await fileRun('file-no', DETAILS, 'n\n');
    expect(stderr).toContain(`the page at ${host()} opened a file chooser and would get "taxes.txt" from the files you attached; it gets them only if you allow it`);
    expect(trace.steps[0].afterAction).toMatchObject({ rule: 'password', chooser: { files: ['taxes.txt'], url: expect.stringContaining('/guards/file-away.html') }, decision: 'rejected' });
    expect(trace.steps[0].observation).toContain(`This opened a file chooser on ${host()}; the user did not allow giving it "taxes.txt", so no file was chosen.`);
    expect(given()).toEqual([]);
    expect(away.hits).toEqual([]);
  });

  test('yes to the chooser: the page has the file; its send to another site is held and asked with the next action, named by the file: no blocks it', async () => {
    const { trace, stderr } = await fileRun('file-yes-no', DETAILS, 'y\nn\n');
    expect(given()).toEqual(['taxes.txt']);
    expect(trace.steps[0].afterAction).toMatchObject({ chooser: { files: ['taxes.txt'] }, decision: 'approved' });
    expect(trace.steps[0].observation).toBe('Success. The file chooser got the attached file "taxes.txt".');
    expect(stderr).toContain(`your file "taxes.txt" was given to this page, and the page is sending a request to ${new URL(away.url).host}, another site`);
    expect(trace.steps[1].afterAction).toMatchObject({ rule: 'password', decision: 'rejected', requests: [{ away: new URL(away.url).host }] });
    expect(away.hits).toEqual([]);
  });

  test('yes, then yes to the send: the file goes to the other site', async () => {
    await fileRun('file-yes-yes', DETAILS, 'y\ny\n');
    expect(given()).toEqual(['taxes.txt']);
    expect(away.hits.filter((h) => h.startsWith('/upload'))).toHaveLength(1);
  });

  test('a chooser the page opens by itself after the action (not asked for) gets nothing, and the model is told', async () => {
    // the model's next reply waits until the page has opened its chooser (2 s after the click)
    const opened = () => site.events.some((e) => e.type === 'chooser');
    const { trace } = await fileRun('file-unasked', [{ click: /^Remind me later$/ }, { scroll: 'down' }, { answer: 'later' }], '', async (n) => {
      if (n === 1) await expect.poll(opened, { timeout: 10_000 }).toBe(true);
    });
    expect(trace.steps[0].afterAction).toBeUndefined();
    expect(trace.steps[1].observation).toContain('The page opened a file chooser by itself, not as a result of an action; it was refused and got no file.');
    expect(given()).toEqual([]);
    expect(away.hits).toEqual([]);
  });
});

/**
 * A run in `browser` (a warm one, lent so the run's tab stays open after the run) that types the
 * card number on value-away.html, approved, and blocks what the page sends at once; its exit code.
 */
async function typeCardAndEnd(browser: Launched, name: string): Promise<number> {
  const model = await sequence([{ type: /^Card number$/, text: CARD }, { answer: 'typed' }]);
  let stderr = '';
  try {
    const code = await agentCommand(['--task', 'Type my card', '--url', `${site.url}guards/value-away.html?away=${encodeURIComponent(away.url)}`, '--base-url', model.baseUrl, '--trace', path.join(out, `${name}.json`)], {
      env: process.env, out: () => undefined, err: (l) => { stderr += `${l}\n`; }, input: Readable.from(['y\nn\n']), handleSigint: false,
      browsers: { acquire: async () => browser, release: () => undefined },
    });
    expect(code, stderr).toBe(0);
    return code;
  } finally {
    await model.close();
  }
}

test('after the run, the tab stays watched: what the page sends later is refused by every channel, the panel says so, and letting the tab go lets it through', async ({ warm }) => {
  site.events.length = 0;
  away.hits.length = 0;
  // the run types the number (approved) and blocks what the page sends at once; it ends with the tab open
  await typeCardAndEnd(warm, 'later');
  const page = warm.context.pages().find((p) => p.url().includes('value-away.html'))!;
  expect(page).toBeTruthy();
  const panel = await openPanel(warm);
  const watched = await panelSend<WatchedTab[]>(panel, 'watch/list', {});
  expect(watched).toMatchObject([{ site: new URL(site.url).host, kinds: ['card'] }]);

  // later, the page's own script sends the number everywhere: nothing reaches the other site
  const blocked = () => site.events.filter((e) => e.type === 'blocked' && e.value === 'fetch').length;
  const before = blocked();
  await page.evaluate(() => (window as unknown as { everywhere(): void }).everywhere());
  await expect.poll(blocked).toBeGreaterThan(before);
  // a moment for the slower channels (the worker, the frame, the service worker) to try
  await page.waitForTimeout(1_000);
  expect(away.channels().filter((c) => c !== 'frame')).toEqual([]);
  // the panel shows the watched tab, how much was refused, and lets it go
  await panel.reload();
  const note = panel.getByTestId('watched-tab');
  await expect(note).toContainText(`Still watching the tab on ${new URL(site.url).host}: a card number the run typed`);
  await expect.poll(async () => (await panelSend<WatchedTab[]>(panel, 'watch/list', {}))[0]?.refused ?? 0).toBeGreaterThanOrEqual(HELD.length - 1);
  await panel.getByTestId('watched-release').click();
  await expect(note).toHaveCount(0);
  expect(await panelSend<WatchedTab[]>(panel, 'watch/list', {})).toEqual([]);
  await page.evaluate(() => (window as unknown as { everywhere(): void }).everywhere());
  await expect.poll(() => away.channels().filter((c) => c !== 'frame')).toEqual([...HELD, ...REFUSED].sort());
});

test('the watch ends by itself when the tab leaves the site', async ({ warm }) => {
  await typeCardAndEnd(warm, 'leave');
  const page = warm.context.pages().find((p) => p.url().includes('value-away.html'))!;
  const panel = await openPanel(warm);
  expect(await panelSend<WatchedTab[]>(panel, 'watch/list', {})).toHaveLength(1);
  await page.goto(`${away.url}frame`);
  await expect.poll(() => panelSend<WatchedTab[]>(panel, 'watch/list', {})).toEqual([]);
});

test('a worker restart keeps the watch: after Chrome stops the extension\'s worker mid-run, what the page sends to another site is still held', async ({ warm }) => {
  site.events.length = 0;
  away.hits.length = 0;
  let open = () => undefined as void;
  const later = new Promise<void>((r) => { open = r; });
  // step 2's reply waits until the test lets it go (the worker is stopped meanwhile)
  const model = await sequence([{ type: /^Card number$/, text: CARD }, { answer: 'typed' }], async (n) => { if (n === 1) await later; });
  try {
    const panel = await openPanel(warm);
    const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', {
      task: 'Type my card', url: `${site.url}guards/value-away.html?away=${encodeURIComponent(away.url)}`, config: { baseUrl: model.baseUrl, apiKey: 'k', model: 'glm-4.5v', maxSteps: 5 },
    });
    // typing the number with Enter pays: approved; the page sends it away at once: blocked
    await waitForRun(panel, runId, (r) => !!r.pending?.approval && !r.pending.approval.after, 'the payment question');
    await panelSend(panel, 'run/approve', { runId });
    await waitForRun(panel, runId, (r) => !!r.pending?.approval?.after, 'the question about the send');
    await panelSend(panel, 'run/reject', { runId, feedback: '' });
    await expect.poll(() => model.requests.length).toBe(2);
    await stopWorker(warm.context, warm.extensionId, panel);
    // the new worker picks the run up and asks the model again: its watch is on again by then
    await expect.poll(() => model.requests.length, { timeout: 30_000 }).toBe(3);
    const page = warm.context.pages().find((p) => p.url().includes('value-away.html'))!;
    await page.evaluate(() => (window as unknown as { everywhere(): void }).everywhere());
    await page.waitForTimeout(1_500);
    expect(away.channels().filter((c) => c !== 'frame')).toEqual([]);
    open();
    const done = await waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends');
    expect(done.answer).toBe('typed');
    await page.waitForTimeout(500);
    expect(away.channels().filter((c) => c !== 'frame')).toEqual([]);
  } finally {
    open();
    await model.close();
  }
});

test('a Settings secret typed by its placeholder goes only to the site it was typed on: the page sending it elsewhere is held; no blocks it, yes sends it', async ({ warm }) => {
  const SECRET = 'tok-9f8e7d6c5b4a-live';
  const panel = await openPanel(warm);
  await panelSend(panel, 'settings/patch', { set: { secrets: [{ name: 'apikey', value: SECRET }] } });
  for (const [decision, hits] of [['reject', 0], ['approve', 1]] as const) {
    site.events.length = 0;
    away.hits.length = 0;
    const model = await sequence([{ type: /^Password$/, text: '{{secret:apikey}}' }, { answer: 'signed in' }]);
    try {
      const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', {
        task: 'Sign in', url: `${site.url}guards/login-away.html?away=${encodeURIComponent(away.url)}`, config: { baseUrl: model.baseUrl, apiKey: 'k', model: 'glm-4.5v', maxSteps: 5 },
      });
      // typing a secret asks first (the password rule): yes
      const asked = await waitForRun(panel, runId, (r) => !!r.pending?.approval && !r.pending.approval.after, 'the question about typing the secret');
      expect(asked.pending?.approval?.reason).toContain('{{secret:apikey}}');
      await panelSend(panel, 'run/approve', { runId });
      // the page sends it, reversed, to another site: held, and the question names the secret and the site
      const held = await waitForRun(panel, runId, (r) => !!r.pending?.approval?.after, 'the question about the send');
      expect(held.pending?.approval?.reason).toContain(`your secret {{secret:apikey}} is in this page, and the page is sending a request to ${new URL(away.url).host}`);
      expect(away.hits).toEqual([]);
      await panelSend(panel, `run/${decision}`, decision === 'reject' ? { runId, feedback: '' } : { runId });
      const done = await waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends');
      expect(done.answer).toBe('signed in');
      await expect.poll(() => away.hits.filter((h) => h.startsWith('/collect')).length).toBe(hits);
      expect(site.events.filter((e) => e.type === 'login').map((e) => e.value)).toEqual(['own-site']);
    } finally {
      await model.close();
    }
  }
  await panelSend(panel, 'settings/patch', { set: { secrets: [] } });
});
