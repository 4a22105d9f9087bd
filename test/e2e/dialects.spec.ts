/**
 * The coordinate dialects end to end: glm-pc (GLM-4.5V computer format: calls at points in
 * thousandths, up to 4 earlier screenshots) and glm-mobile (GLM-4.5V mobile format: the tab
 * emulated as a 412×915 phone, Memory/Reason/Action JSON with boxes in thousandths).
 *
 * The fake model's players (test/fixtures/dialects/glm-pc/player.ts, glm-mobile/player.ts) find every target
 * BY COLOUR on the screenshot they are sent, never at coordinates known in advance, so these
 * tests exercise the whole coordinate path: screenshot → thousandths → CSS px → the input the
 * page receives, at device pixel ratio 1 and 2 and at 125 % page zoom. Every request is checked
 * against the dialect's seed format (test/fixtures/dialects/glm-pc/request.ts, glm-mobile/request.ts):
 * `violations()` empty proves no element list and no labels were ever sent.
 *
 * Fixture pages: test/fixtures/pages/dialects/ (grid.html keeps every click in window.hits with
 * the target's rect; shop.html → result.html is a small task).
 */
import { test, expect, useAgent } from './fixtures';
import type { Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DIST, openPanel, launchWithExtension, type Launched } from '../../scripts/browser';
import { findChromium } from '../../scripts/chromium';
import { startFakeModel, type FakeModel, type ModelReply, type RecordedRequest } from '../fixtures/model/server';
import { pcPlayer, type CoordGoal } from '../fixtures/dialects/glm-pc/player';
import { mobilePlayer } from '../fixtures/dialects/glm-mobile/player';
import { COLOURS } from '../fixtures/model/locate';
import { imageSize } from '../../scripts/png';
import { panelSend, serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Trace } from '../../src/core/trace';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

type CoordDialect = 'glm-pc' | 'glm-mobile';
const DIALECTS: CoordDialect[] = ['glm-pc', 'glm-mobile'];

const KEY = 'sk-dialects-4b5c6d7e8f';
const APPROVE_PROMPT = 'Approve? [y = run it / n FEEDBACK = reject / e ACTION = edit / q = stop]';
/** How far a click may land from the centre of the target the player aimed at (CSS px). */
const TOLERANCE = 2;

let site: StaticServer;
const models: FakeModel[] = [];
const out = mkdtempSync(path.join(tmpdir(), 'webagent-dialects-'));

test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); });
test.afterEach(async () => {
  for (const m of models.splice(0)) await m.close();
  site.events.length = 0;
});

/** A fake model playing `goals` in the dialect's format; `hold` may delay a reply (a gate). */
async function fakeModel(dialect: CoordDialect, goals: CoordGoal[], hold?: (req: RecordedRequest) => Promise<void> | void): Promise<FakeModel> {
  const pc = pcPlayer(goals);
  const mobile = mobilePlayer(goals);
  const m = await startFakeModel({
    apiKey: KEY,
    dialect,
    policy: async (req): Promise<ModelReply> => {
      await hold?.(req);
      return dialect === 'glm-pc' ? pc(req.pc) : mobile(req.mobile);
    },
  });
  models.push(m);
  return m;
}

function events(type: string): string[] {
  return site.events.filter((e) => e.type === type).map((e) => e.value);
}

// ---------------------------------------------------------------------------------------------
// (a) a whole task through the headless runner, with (d) step approval naming the element

/** The shop task: search "kettle", open the (yellow) Blue kettle, answer its price from the (green-badged) page. */
function shopGoals(dialect: CoordDialect): CoordGoal[] {
  return dialect === 'glm-pc'
    ? [
      { do: 'type', colour: COLOURS.cyan, text: 'kettle', info: 'search field' },
      { do: 'click', colour: COLOURS.magenta, info: 'Search button' },
      { do: 'click', colour: COLOURS.yellow, info: 'Blue kettle result' },
      { do: 'answer', text: '42.50 EUR', colour: COLOURS.green },
    ]
    : [
      { do: 'type', colour: COLOURS.cyan, text: 'kettle' },
      { do: 'click', colour: COLOURS.yellow },
      { do: 'answer', text: '42.50 EUR', colour: COLOURS.green },
    ];
}

function cliArgs(m: FakeModel, dialect: CoordDialect, task: string, url: string, trace: string, extra: string[] = []): string[] {
  return ['--task', task, '--url', url, '--base-url', m.baseUrl, '--api-key', KEY, '--model', 'glm-4.5v', '--dialect', dialect, '--trace', trace, '--max-steps', '15', ...extra];
}

for (const dialect of DIALECTS) {
  test(`${dialect}, runner: the shop task finishes with step approval; the prompt names the element under each point; every request in the seed format`, async () => {
    const m = await fakeModel(dialect, shopGoals(dialect));
    const traceFile = path.join(out, `${dialect}-shop.json`);
    const r = await agent.run(
      cliArgs(m, dialect, 'What does the blue kettle cost in the kitchen shop?', `${site.url}dialects/shop.html`, traceFile, ['--approve', 'step']),
      {},
      'y\n'.repeat(20),
    );
    expect(r.stderr).not.toContain('Error:');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('ANSWER: 42.50 EUR');
    // The pages saw the search and the product.
    expect(events('search')).toEqual(['kettle']);
    expect(events('view')).toEqual(['kettle']);

    // (d) each proposed action waited for approval, the point actions with the element under their point.
    expect(r.stderr.split(APPROVE_PROMPT).length).toBeGreaterThanOrEqual(shopGoals(dialect).length);
    expect(r.stderr).toMatch(/Proposed action: .+ <input> /);
    expect(r.stderr).toMatch(/Proposed action: .+ <a> "Blue kettle, 1\.7 l"/);
    if (dialect === 'glm-pc') {
      expect(r.stderr).toMatch(/Proposed action: left_click\(start_box='\[\d+, ?\d+\]'.*\) <button> "Search" {2}at \(\d+, \d+\)/);
    } else {
      expect(r.stderr).toMatch(/Proposed action: \{"action_type": "input_text", "text": "kettle", "box_2d": \[\[\d+,\d+,\d+,\d+\]\], "override": true\} <input> "Search the shop" {2}at \(\d+, \d+\)/);
    }

    // Every request in the dialect's seed format: no element list was ever sent.
    expect(m.violations()).toEqual([]);
    expect(m.requests.length).toBeGreaterThanOrEqual(shopGoals(dialect).length);
    if (dialect === 'glm-pc') {
      // earlier screenshots went along, at half size
      expect(m.requests.at(-1)!.pc!.steps.some((s) => s.image)).toBe(true);
    } else {
      expect(m.requests.every((q) => imageSize(q.mobile!.screenshot)?.width === 412)).toBe(true);
    }

    const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
    expect(trace.run).toMatchObject({ status: 'finished', answer: '42.50 EUR', dialect, model: 'glm-4.5v' });
    const pointSteps = trace.steps.filter((s) => 'target' in s.action && (s.action as { target: { kind: string } }).target.kind === 'point');
    expect(pointSteps.length).toBeGreaterThanOrEqual(2);
    // no labels: the model saw a clean screenshot
    for (const s of trace.steps) expect(s.request.promptText).not.toMatch(/\[\d+\]: (?:<[a-z]+> )?"/);
    // so that one picture is the clean view too, and the trace stores it once
    for (const s of trace.steps) expect([s.screenshot.slice(0, 23), s.cleanScreenshot]).toEqual(['data:image/webp;base64,', '']);
    // the element each click acted on is recorded
    const clicked = trace.steps.filter((s) => s.action.type === 'click').map((s) => s.target && `${s.target.tag}:${s.target.text.trim()}`);
    expect(clicked).toContain('a:Blue kettle, 1.7 l');
    if (dialect === 'glm-pc') expect(clicked).toContain('button:Search');
    expect(trace.steps.map((s) => s.approval?.decision).filter(Boolean).every((d) => d === 'approved')).toBe(true);
    expect(JSON.stringify(trace)).not.toContain(KEY);
  });

  test(`${dialect}, runner: ${dialect === 'glm-pc' ? 'FAIL()' : 'status infeasible'} ends the run as failed with the reason`, async () => {
    const reason = 'The shop does not sell gold kettles, so this cannot be done.';
    const m = await fakeModel(dialect, [{ do: 'fail', reason }]);
    const traceFile = path.join(out, `${dialect}-fail.json`);
    const r = await agent.run(cliArgs(m, dialect, 'Buy a gold kettle', `${site.url}dialects/shop.html`, traceFile));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`Failed: `);
    expect(r.stderr).toContain(reason);
    expect(r.stdout).not.toContain('ANSWER:');
    expect(m.violations()).toEqual([]);
    const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
    expect(trace.run.status).toBe('failed');
    expect(trace.run.dialect).toBe(dialect);
    expect(trace.steps.at(-1)!.action).toMatchObject({ type: 'finish', outcome: 'failed' });
  });
}

// ---------------------------------------------------------------------------------------------
// (b) clicks land where the player aimed, (c) typing, drag and drop, the phone, (e) a worker restart

interface Hit {
  id: string; x: number; y: number; isTrusted: boolean; scrollY: number;
  rect: { left: number; top: number; width: number; height: number };
  innerWidth: number; innerHeight: number; dpr: number; maxTouchPoints: number; coarse: boolean;
}

/** Starts Chromium with the built extension like scripts/browser.ts, with extra flags (device scale factor). */
async function launchWithFlags(flags: string[], width = 1280, height = 800): Promise<Launched> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'webagent-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: findChromium() ?? '/usr/bin/chromium',
    headless: true,
    viewport: null,
    args: [
      `--disable-extensions-except=${DIST}`, `--load-extension=${DIST}`, `--window-size=${width},${height + 87}`,
      '--silent-debugger-extension-api', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-gpu', '--disable-quic', '--no-default-browser-check', ...flags,
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  return {
    context, extensionId: new URL(worker.url()).host, userDataDir,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

class Desk {
  constructor(readonly browser: Launched, readonly panel: Page) {}

  static async open(flags: string[] = []): Promise<Desk> {
    const browser = flags.length ? await launchWithFlags(flags) : await launchWithExtension();
    const panel = await openPanel(browser);
    await panelSend(panel, 'settings/patch', { set: { apiKey: KEY } });
    return new Desk(browser, panel);
  }

  send<T>(type: string, payload: unknown): Promise<T> {
    return panelSend<T>(this.panel, type, payload);
  }

  /** The grid page in a tab of its own (a unique URL per run), and its tab id. */
  async gridTab(name: string): Promise<{ page: Page; url: string; tabId: number }> {
    const url = `${site.url}dialects/grid.html?run=${name}`;
    const page = await this.browser.context.newPage();
    await page.goto(url);
    const tabId = await this.panel.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? -1, url);
    expect(tabId, 'the grid tab is found').toBeGreaterThan(0);
    return { page, url, tabId };
  }

  /** Starts a run in the tab (as the side panel does for the tab it is open beside). */
  async start(m: FakeModel, dialect: CoordDialect, tabId: number, task: string): Promise<string> {
    const { runId } = await this.send<{ runId: string }>('run/start', {
      task, tabId, config: { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v', dialect, maxSteps: 25 },
    });
    return runId;
  }

  /** The run once it has ended; when it does not within `ms`, the error lists its steps so far. */
  async ended(runId: string, ms = 90_000): Promise<RunView> {
    const until = Date.now() + ms;
    let run: RunView | null = null;
    while (Date.now() < until) {
      // run/get also wakes a worker Chrome stopped
      run = await this.send<RunView | null>('run/get', { runId }).catch(() => null);
      if (run && run.status !== 'running') return run;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`The run did not end in ${ms / 1000} s (phase ${run?.phase}, pending ${JSON.stringify(run?.pending?.actionText ?? null)}); its steps:\n${await this.stepsText(runId)}`);
  }

  /** The run's steps as lines: action, the element acted on, observation. */
  async stepsText(runId: string): Promise<string> {
    const t = await this.trace(runId).catch(() => null);
    return (t?.steps ?? []).map((s) => `${s.index}: ${s.actionText} [${s.target ? `<${s.target.tag}> ${JSON.stringify(s.target.text.slice(0, 30))}` : 'no target'}] -> ${s.observation}`).join('\n');
  }

  trace(runId: string): Promise<Trace> {
    return this.send<Trace>('run/trace', { runId });
  }

  /**
   * Stops the extension's service worker the way Chrome does (CDP Target.closeTarget) and waits
   * until a new one answers (restart.spec.ts does the same).
   */
  async stopWorker(): Promise<void> {
    const before = await this.send<{ startedAt: number }>('worker/info', {});
    const cdp = await this.browser.context.newCDPSession(this.panel);
    type Info = { targetId: string; type: string; url: string };
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Info[] };
    const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${this.browser.extensionId}/`));
    expect(sw, 'the extension has a running service worker').toBeTruthy();
    await cdp.send('Target.closeTarget', { targetId: sw!.targetId });
    await cdp.detach();
    await expect.poll(async () => (await this.send<{ startedAt: number }>('worker/info', {}).catch(() => before)).startedAt, { message: 'a new worker started' })
      .toBeGreaterThan(before.startedAt);
  }
}

function hitsOf(page: Page): Promise<Hit[]> {
  return page.evaluate(() => (window as unknown as { hits: Hit[] }).hits);
}

/** Every click landed within TOLERANCE CSS px of its target's centre (the point the player aimed at). */
function expectOnTarget(hits: Hit[]) {
  for (const h of hits) {
    const cx = h.rect.left + h.rect.width / 2;
    const cy = h.rect.top + h.rect.height / 2;
    expect.soft(Math.abs(h.x - cx), `${h.id}: x ${h.x} vs centre ${cx}`).toBeLessThanOrEqual(TOLERANCE);
    expect.soft(Math.abs(h.y - cy), `${h.id}: y ${h.y} vs centre ${cy}`).toBeLessThanOrEqual(TOLERANCE);
    expect(h.isTrusted, `${h.id}: a real input event`).toBe(true);
  }
}

const CLICKS: CoordGoal[] = [
  { do: 'click', colour: COLOURS.magenta, info: 'Alpha' },
  { do: 'click', colour: COLOURS.yellow, info: 'Beta' },
  { do: 'click', colour: COLOURS.green, info: 'Gamma' },
];

/** Checks of a finished grid run common to every setting: finished, on target, the requests in the seed format. */
async function expectGridRun(desk: Desk, m: FakeModel, runId: string, page: Page, ids: string[], dialect: CoordDialect): Promise<{ hits: Hit[]; trace: Trace }> {
  const run = await desk.ended(runId);
  const steps = await desk.stepsText(runId);
  expect(run.stopReason, `the run ended without a stop reason; its steps:\n${steps}`).toBeNull();
  expect(run.status).toBe('finished');
  const hits = await hitsOf(page);
  expect(hits.map((h) => h.id), `the targets clicked; the run's steps:\n${steps}`).toEqual(ids);
  expectOnTarget(hits);
  expect(m.violations()).toEqual([]);
  const trace = await desk.trace(runId);
  expect(trace.run.dialect).toBe(dialect);
  // The screenshot the model got is the size the step maps its coordinates with.
  const first = m.requests[0].pc ?? m.requests[0].mobile;
  expect(imageSize(first!.screenshot), 'the image sent is the size the run maps with').toMatchObject({ width: trace.steps[0].request.imageWidth, height: trace.steps[0].request.imageHeight });
  // Clicks act at points; the element under each point is recorded (a target div, or the text field).
  for (const s of trace.steps.filter((x) => x.action.type === 'click')) {
    expect((s.action as { target: { kind: string } }).target.kind).toBe('point');
    expect(s.target, `step ${s.index} records what it clicked`).toBeTruthy();
    if (s.target!.tag === 'div') expect(['Alpha', 'Beta', 'Gamma', 'Far']).toContain(s.target!.text.trim());
    else expect(s.target!.tag).toBe('input');
  }
  return { hits, trace };
}

test.describe('the grid, at device pixel ratio 1 and at 125 % zoom', () => {
  let desk: Desk;
  test.beforeAll(async () => { desk = await Desk.open(); });
  test.afterAll(async () => { await desk.browser.close(); });

  test('glm-pc: clicks land on the targets; typing into the focused field, Enter, drag and drop, a target below the fold', async () => {
    const goals: CoordGoal[] = [
      ...CLICKS,
      { do: 'type', colour: COLOURS.cyan, text: 'hello grid', enter: true, info: 'text field' },
      { do: 'drag', from: COLOURS.orange, to: COLOURS.blue, info: 'Drag me' },
      { do: 'click', colour: COLOURS.violet, info: 'Far' },
      { do: 'answer', text: 'grid done' },
    ];
    const m = await fakeModel('glm-pc', goals);
    const { page, tabId } = await desk.gridTab('pc-dpr1');
    const runId = await desk.start(m, 'glm-pc', tabId, 'Click Alpha, Beta and Gamma, send "hello grid", drop the orange box on the blue area, then click Far');
    const { hits, trace } = await expectGridRun(desk, m, runId, page, ['t-magenta', 't-yellow', 't-green', 't-violet'], 'glm-pc');
    expect(trace.run.answer).toBe('grid done');
    expect(hits[0].dpr).toBe(1);
    expect(hits[0].innerWidth).toBe(1280);
    // Far was below the fold: the player scrolled to find it.
    expect(hits[3].scrollY).toBeGreaterThan(0);
    expect(trace.steps.some((s) => s.action.type === 'scroll')).toBe(true);
    // typed into the field the click focused, Enter submitted it
    await expect(page.locator('#done')).toHaveText('Done: hello grid');
    expect(events('typed')).toEqual(['hello grid']);
    // HTML5 drag and drop
    await expect(page.locator('#dropped')).toHaveText('dropped: the orange box');
    await expect(page.locator('#zone')).toHaveText('dropped');
    const drag = trace.steps.find((s) => s.action.type === 'drag');
    expect(drag?.target?.text).toContain('Drag me');
    // earlier screenshots went along at half size, never more than 4
    expect(m.requests.at(-1)!.pc!.steps.filter((s) => s.image)).toHaveLength(4);
    // History tells each step in words; the call as the model wrote it is one click away
    const panel = desk.panel;
    await panel.getByTestId('view-history').click();
    await panel.locator(`[data-testid="history-run"][data-run-id="${runId}"]`).getByTestId('open-run').click();
    const first = panel.getByTestId('detail-step').first();
    await expect(first.getByTestId('step-summary-action')).toHaveText(/^Click <\w+> "/);
    await first.getByTestId('step-toggle').click();
    await expect(first.getByTestId('detail-action')).toHaveText(/^Click <\w+> "/);
    const raw = first.getByTestId('raw-call');
    await expect(raw.locator('code')).toBeHidden();
    await raw.locator('summary').click();
    await expect(raw.locator('code')).toHaveText(trace.steps[0].actionText);
    expect(trace.steps[0].actionText).toMatch(/^left_click\(/);
    await panel.getByTestId('back-to-history').click();
  });

  test('glm-mobile: the tab is a phone during the run (412 px, touch) and restored after; taps land; input_text; a swipe to a target below the fold', async () => {
    const goals: CoordGoal[] = [
      ...CLICKS,
      { do: 'type', colour: COLOURS.cyan, text: 'hello phone' },
      { do: 'click', colour: COLOURS.violet },
      { do: 'answer', text: 'phone done' },
    ];
    const m = await fakeModel('glm-mobile', goals);
    const { page, tabId } = await desk.gridTab('mobile-dpr1');
    const before = await page.evaluate(() => ({ w: window.innerWidth, touch: navigator.maxTouchPoints }));
    const runId = await desk.start(m, 'glm-mobile', tabId, 'Tap Alpha, Beta and Gamma, send "hello phone", then tap Far');
    const { hits, trace } = await expectGridRun(desk, m, runId, page, ['t-magenta', 't-yellow', 't-green', 't-violet'], 'glm-mobile');
    expect(trace.run.answer).toBe('phone done');
    for (const h of hits) {
      expect(h.innerWidth, `${h.id}: the page saw the phone's width`).toBe(412);
      expect(h.maxTouchPoints, `${h.id}: the page saw a touch screen`).toBeGreaterThan(0);
    }
    expect(hits[3].scrollY).toBeGreaterThan(0);
    await expect(page.locator('#done')).toHaveText('Done: hello phone');
    // the requests' screenshots were the phone's
    expect(m.requests.every((q) => imageSize(q.mobile!.screenshot)?.width === 412)).toBe(true);
    // restored after the run
    await expect.poll(() => page.evaluate(() => ({ w: window.innerWidth, touch: navigator.maxTouchPoints })), { message: 'the tab is a desktop tab again' })
      .toEqual(before);
  });

  // Page zoom is a desktop setting: the phone dialect at a zoomed site is a known gap (its taps
  // fall back to mouse clicks there, which land, but the element recorded under a point can be
  // the page's body) and is not claimed here.
  for (const dialect of ['glm-pc'] as const) {
    test(`${dialect}: at 125 % page zoom the clicks land on the targets`, async () => {
      const m = await fakeModel(dialect, [...CLICKS, { do: 'answer', text: 'zoomed' }]);
      const { page, tabId } = await desk.gridTab(`${dialect}-zoom`);
      // Zoom the site as a person's Ctrl+Plus would (Chrome's default: per origin, kept across
      // reloads); set back to 100 % afterwards, since the other tests use the same origin.
      const zoom = (z: number) => desk.panel.evaluate(([id, f]) => chrome.tabs.setZoom(id, f), [tabId, z] as const);
      await zoom(1.25);
      try {
        await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(1024);
        const runId = await desk.start(m, dialect, tabId, 'Click Alpha, Beta and Gamma');
        const { hits } = await expectGridRun(desk, m, runId, page, ['t-magenta', 't-yellow', 't-green'], dialect);
        expect(hits[0].innerWidth).toBe(1024);
        // the person's zoom is theirs: still 125 % after the run
        expect(await desk.panel.evaluate((id) => chrome.tabs.getZoom(id), tabId)).toBeCloseTo(1.25);
      } finally {
        await zoom(1);
      }
    });
  }

  for (const dialect of DIALECTS) {
    test(`${dialect}: the worker stopped while the model answers, the run still finishes and nothing is done twice`, async () => {
      let release: () => void = () => undefined;
      let reached: () => void = () => undefined;
      const held = new Promise<void>((r) => { release = r; });
      const atHold = new Promise<void>((r) => { reached = r; });
      let holding = true;
      const m = await fakeModel(dialect, [...CLICKS.slice(0, 2), { do: 'answer', text: 'restarted' }], async (req) => {
        const steps = (req.pc ?? req.mobile)?.steps.length ?? 0;
        if (holding && steps === 1) {
          holding = false;
          reached();
          await held;
        }
      });
      const { page, tabId } = await desk.gridTab(`${dialect}-restart`);
      const runId = await desk.start(m, dialect, tabId, 'Click Alpha and Beta');
      await atHold;
      try {
        await desk.stopWorker();
      } finally {
        release();
      }
      const { trace } = await expectGridRun(desk, m, runId, page, ['t-magenta', 't-yellow'], dialect);
      expect(trace.run.answer).toBe('restarted');
      const indices = trace.steps.map((s) => s.index);
      expect(indices).toEqual([...indices.keys()]);
    });
  }
});

test.describe('device scale factor 2', () => {
  let desk: Desk;
  test.beforeAll(async () => { desk = await Desk.open(['--force-device-scale-factor=2']); });
  test.afterAll(async () => { await desk.browser.close(); });

  for (const dialect of DIALECTS) {
    test(`${dialect}: the clicks land on the targets, also on one found by scrolling below the fold`, async () => {
      const m = await fakeModel(dialect, [...CLICKS, { do: 'click', colour: COLOURS.violet, info: 'Far' }, { do: 'answer', text: 'sharp' }]);
      const { page, tabId } = await desk.gridTab(`${dialect}-dpr2`);
      expect(await page.evaluate(() => window.devicePixelRatio)).toBe(2);
      const runId = await desk.start(m, dialect, tabId, 'Click Alpha, Beta, Gamma and Far');
      const { hits } = await expectGridRun(desk, m, runId, page, ['t-magenta', 't-yellow', 't-green', 't-violet'], dialect);
      expect(hits[3].scrollY).toBeGreaterThan(0);
      if (dialect === 'glm-pc') {
        expect(hits[0].dpr).toBe(2);
        // the model got the screenshot at CSS size, whatever the device pixels
        expect(imageSize(m.requests[0].pc!.screenshot)).toMatchObject({ width: 1280, height: 800 });
      }
    });
  }
});
