/** Shared pieces of the end-to-end tests: fixture sites, the agent CLI, trace checks. */
import type { RecordedRequest } from '../fixtures/model/server';
import { spawn, type ChildProcess } from 'node:child_process';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, test, type CliResult, type Pool } from './fixtures';
import { openPanel, type Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel, type FakeModelOptions } from '../fixtures/model/server';
import type { RunView } from '../../src/core/messages';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveDir, type StaticServer } from '../../scripts/static-server';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const PAGES = path.join(ROOT, 'test', 'fixtures', 'pages');

/** The fixture pages (test/fixtures/pages/, or its `folder`) on a free port of 127.0.0.1. */
export function serveFixtures(folder = ''): Promise<StaticServer> {
  return serveDir(path.join(PAGES, folder));
}

/** One extension browser, its side panel and the fixture server for a whole spec file. */
export interface SharedExtension { site: StaticServer; browser: Launched; panel: Page }

/**
 * Registers the spec file's beforeAll / afterAll: the fixture server, a warm browser with the built
 * extension (the worker's pool, test/e2e/fixtures.ts: reset as new) and its side panel, handed to
 * `ready`; at the end the browser goes back to the pool (reset for the next file), and the fake
 * models the file started (`models`) and the server are closed.
 */
export function shareExtension(ready: (e: SharedExtension) => void | Promise<void>, models: FakeModel[] = []): void {
  let e: SharedExtension | null = null;
  let pool: Pool | null = null;
  test.beforeAll(async ({ browsers }) => {
    pool = browsers;
    const site = await serveFixtures();
    const browser = await browsers.acquire({ width: 1280, height: 800, headed: false });
    e = { site, browser, panel: await openPanel(browser) };
    await ready(e);
  });
  test.afterAll(async () => {
    if (e) pool?.release(e.browser, true);
    for (const m of models.splice(0)) await m.close();
    await e?.site.close();
  });
}

/** A spec file's shared extension with the one fake model it talks to. */
export interface SharedWithModel extends SharedExtension { model: FakeModel }

/**
 * shareExtension, plus one fake model for the whole spec file (started with `options` once the
 * browser is up, closed with it): for the specs whose tests all play one dialect's model.
 */
export function shareExtensionWithModel(options: FakeModelOptions, ready: (e: SharedWithModel) => void): void {
  const models: FakeModel[] = [];
  shareExtension(async (shared) => {
    const model = await startFakeModel(options);
    models.push(model);
    ready({ ...shared, model });
  }, models);
}

/**
 * shareExtensionWithModel for the side panel's own specs: the panel at its size (360 px) and set up
 * for the fake model (glm-web, `options.apiKey`, no step approval) before the tests.
 */
export function sharePanelWithModel(options: FakeModelOptions & { apiKey: string }, ready: (e: SharedWithModel) => void): void {
  const models: FakeModel[] = [];
  shareExtension(async (shared) => {
    const model = await startFakeModel(options);
    models.push(model);
    await shared.panel.setViewportSize({ width: 360, height: 800 });
    await panelSend(shared.panel, 'settings/patch', { set: { baseUrl: model.baseUrl, apiKey: options.apiKey, model: 'glm-4.5v', dialect: 'glm-web', approveSteps: false } });
    ready({ ...shared, model });
  }, models);
}

export type { CliResult } from './fixtures';

/** A script of scripts/ running as a user would run it (as its npm script does, without npm's banner). */
export interface Spawned {
  child: ChildProcess;
  /** what it printed so far */
  stdout(): string;
  stderr(): string;
  /** its exit */
  done: Promise<CliResult>;
}

/**
 * The command line that runs scripts/SCRIPT.ts. In a Playwright session, the bundle global-setup.ts
 * built once for the session (WEBAGENT_SCRIPTS_BUNDLE): `node --import tsx` transforms the script's
 * whole import graph at every start (0.4 to 0.7 s more per start than the bundle, for every spec
 * that spawns a script); --enable-source-maps keeps stack traces naming the .ts lines, as under tsx. Without
 * it (a spec run some other way, or a script that is not bundled) as package.json runs them:
 * node --import tsx, one process (tsx's own CLI runs the script in a child and SIGKILLs it when the
 * child does not confirm a relayed Ctrl+C within 30 ms, as on a busy machine).
 */
function scriptArgs(script: string): string[] {
  const bundle = process.env.WEBAGENT_SCRIPTS_BUNDLE;
  const bundled = bundle && path.join(bundle, `${script}.mjs`);
  if (bundled && existsSync(bundled)) return ['--enable-source-maps', bundled];
  return ['--import', 'tsx', path.join(ROOT, 'scripts', `${script}.ts`)];
}

/**
 * Starts `npm run SCRIPT -- ARGS` as scripts/SCRIPT.ts (its session bundle: scriptArgs). `input`:
 * written to its stdin, which is then closed (without it stdin is closed at once, as /dev/null would be).
 */
export function spawnScript(script: string, args: string[], env: Record<string, string> = {}, input?: string): Spawned {
  const child = spawn(process.execPath, [...scriptArgs(script), ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin!.on('error', () => undefined); // the script may exit before reading it all
  child.stdin!.end(input ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => { stdout += d; });
  child.stderr!.on('data', (d) => { stderr += d; });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

/** Runs `npm run agent -- ARGS` as a user would; `input` answers its approval prompts. */
export function runAgentCli(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  return spawnScript('agent', args, env, input).done;
}

/** Plain headless Chromium (no extension) for the labeler's harness tests: Debian's build, never a download. */
export function launchPlainChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

/**
 * The numbers of the labels our overlay draws on the page, in order (null: no overlay). The overlay
 * is a closed shadow root that page scripts cannot read, so this reads it through the DevTools
 * protocol (DOM.getDocument with pierce, which includes closed roots).
 */
export async function overlayLabels(page: Page): Promise<string[] | null> {
  interface Node { nodeName: string; nodeValue?: string; attributes?: string[]; children?: Node[]; shadowRoots?: Node[] }
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: Node };
    const all = (n: Node): Node[] => [n, ...[...(n.children ?? []), ...(n.shadowRoots ?? [])].flatMap(all)];
    const host = all(root).find((n) => n.nodeName === 'WEBAGENT-MARKS');
    if (!host) return null;
    const isLabel = (n: Node) => (n.attributes ?? []).some((v, i) => i % 2 === 1 && n.attributes![i - 1] === 'class' && v === 'l');
    return (host.shadowRoots ?? []).flatMap(all).filter(isLabel).map((n) => (n.children ?? []).map((c) => c.nodeValue ?? '').join(''));
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * The overlay's label tags with where they are drawn (CSS px of the viewport), read like
 * overlayLabels through the DevTools protocol (the closed shadow root), in drawing order.
 */
export async function overlayTags(page: Page): Promise<Array<{ text: string; x: number; y: number; width: number; height: number }>> {
  interface Node { nodeName: string; nodeValue?: string; backendNodeId: number; attributes?: string[]; children?: Node[]; shadowRoots?: Node[] }
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: Node };
    const all = (n: Node): Node[] => [n, ...[...(n.children ?? []), ...(n.shadowRoots ?? [])].flatMap(all)];
    const host = all(root).find((n) => n.nodeName === 'WEBAGENT-MARKS');
    if (!host) return [];
    const isLabel = (n: Node) => (n.attributes ?? []).some((v, i) => i % 2 === 1 && n.attributes![i - 1] === 'class' && v === 'l');
    const out = [];
    for (const n of (host.shadowRoots ?? []).flatMap(all).filter(isLabel)) {
      const { model } = (await cdp.send('DOM.getBoxModel', { backendNodeId: n.backendNodeId })) as { model: { border: number[] } };
      const [x1, y1, x2, , , y3] = model.border;
      out.push({ text: (n.children ?? []).map((c) => c.nodeValue ?? '').join(''), x: x1, y: y1, width: x2 - x1, height: y3 - y1 });
    }
    return out;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** Sends a view message through the side panel page, as the panel itself does (window.webagent.send). */
export function panelSend<T>(panel: Page, type: string, payload: unknown): Promise<T> {
  return panel.evaluate(([t, p]) => (window as unknown as { webagent: { send(t: string, p: unknown): Promise<unknown> } }).webagent.send(t as string, p), [type, payload] as const) as Promise<T>;
}

/**
 * Polls run/get through the panel (which also wakes a stopped worker) until `ok` holds; the run
 * then. `timeoutMs`: 60 s unless the run is known to take long (reading screenshots on this machine).
 */
export async function waitForRun(panel: Page, runId: string, ok: (r: RunView) => boolean, what: string, timeoutMs = 60_000): Promise<RunView> {
  let last: RunView | null = null;
  await expect.poll(async () => {
    last = await panelSend<RunView | null>(panel, 'run/get', { runId }).catch(() => null);
    return !!last && ok(last);
  }, { message: what, timeout: timeoutMs, intervals: [50, 100, 200] }).toBe(true);
  return last!;
}

/**
 * Stops the extension's service worker the way Chrome does (CDP Target.closeTarget on its
 * target), and waits until a new one answers: the panel's reconnecting port (or the next message)
 * starts it again. Never evaluate on the stopped worker: it hangs.
 */
export async function stopWorker(context: BrowserContext, extensionId: string, panel: Page): Promise<void> {
  const before = await panelSend<{ startedAt: number }>(panel, 'worker/info', {});
  const cdp = await context.newCDPSession(panel);
  type Info = { targetId: string; type: string; url: string };
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Info[] };
  const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${extensionId}/`));
  expect(sw, 'the extension has a running service worker').toBeTruthy();
  await cdp.send('Target.closeTarget', { targetId: sw!.targetId });
  await cdp.detach();
  await expect.poll(async () => (await panelSend<{ startedAt: number }>(panel, 'worker/info', {}).catch(() => before)).startedAt, { message: 'a new worker started' })
    .toBeGreaterThan(before.startedAt);
}

/**
 * This invocation of Playwright: its main process (a worker's parent) with its start time. Specs
 * that keep the outcomes of long runs for the invocation (guard-matrix.spec.ts, obey-sweep.ts) name
 * their files by it, so a worker started again after a failed test reads them instead of running
 * everything again, and every other test is still judged.
 */
export function playwrightInvocation(): string {
  let started = '';
  try {
    started = readFileSync(`/proc/${process.ppid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] ?? '';
  } catch { /* not Linux: the parent's id alone */ }
  return `${process.ppid}-${started}`;
}

/** The label of the first element in a glm-web request's element list whose text matches `re` (a scripted model's pick); throws when none does. */
export function labelIn(q: RecordedRequest, re: RegExp): number {
  const l = q.prompt?.elements.find((e) => re.test(e.text))?.label;
  if (l === undefined) throw new Error(`no element matching ${re} in the prompt`);
  return l;
}
