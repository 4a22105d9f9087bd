/**
 * Who may steer a run: the messages that start, approve or stop a run (and every other view
 * command) are accepted only from the extension's own pages (side panel, runner), never from a
 * content script or a web page. This sends them from a web page and from the extension's content
 * script world in a page (through CDP), sees them refused and the run untouched, and sends the same
 * messages from the panel page, where they are accepted.
 */
import { test, expect, type CDPSession, type Page } from './fixtures';
import type { Launched } from '../../scripts/browser';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import type { PromptParts } from '../fixtures/dialects/glm-web/request';
import { shareExtension } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';

let site: StaticServer;
let model: FakeModel;
let browser: Launched;
let page: Page;
let panel: Page;

const models: FakeModel[] = [];
shareExtension(async (e) => {
  ({ site, browser, panel } = e);
  // Step 1 clicks Alpha; every later step answers.
  model = await startFakeModel({
    policy: (req) => {
      const p = req.prompt as PromptParts;
      const alpha = p.elements.find((e) => e.text === 'Alpha');
      if (p.history.length || !alpha) return { content: 'Thought: Done.\nAction: ANSWER; <content>done</content>\nMemory_Updated: {}' };
      return { content: `Thought: Press Alpha.\nAction: Click [${alpha.label}]\nMemory_Updated: {}` };
    },
  });
  models.push(model);
  page = await browser.context.newPage();
  await page.goto(`${site.url}guards/steps.html`);
}, models);

type Reply = { ok: true; value: unknown } | { ok: false; error: string };

/** A view message from the panel page: the raw reply of the background. */
function fromPanel(type: string, payload: unknown): Promise<Reply> {
  return panel.evaluate(([t, p]) => chrome.runtime.sendMessage({ type: t, payload: p }) as Promise<Reply>, [type, payload] as const);
}

async function runNow(): Promise<RunView | null> {
  const r = await fromPanel('run/get', {});
  if (!r.ok) throw new Error(r.error);
  return r.value as RunView | null;
}

interface ContextInfo { id: number; origin: string; name: string; auxData?: { isDefault?: boolean; type?: string; frameId?: string } }

/** The extension's content script world in `page`, found through CDP. */
async function contentScriptWorld(): Promise<{ cdp: CDPSession; contextId: number }> {
  const cdp = await browser.context.newCDPSession(page);
  const contexts: ContextInfo[] = [];
  cdp.on('Runtime.executionContextCreated', (e: { context: ContextInfo }) => { contexts.push(e.context); });
  cdp.on('Runtime.executionContextDestroyed', (e: { executionContextId: number }) => {
    const i = contexts.findIndex((c) => c.id === e.executionContextId);
    if (i >= 0) contexts.splice(i, 1);
  });
  await cdp.send('Runtime.enable');
  const ours = (c: ContextInfo) => c.auxData?.type === 'isolated' && (c.origin.startsWith(`chrome-extension://${browser.extensionId}`) || c.name === 'Web Agent (GLM-4.5V set-of-marks)');
  await expect.poll(() => contexts.filter(ours).length, { message: `isolated worlds seen: ${JSON.stringify(contexts)}` }).toBeGreaterThan(0);
  const world = contexts.find(ours)!;
  // It is the content script's world: it has the extension's runtime, the page's main world has not.
  const probe = await cdp.send('Runtime.evaluate', { contextId: world.id, expression: 'chrome.runtime.id', returnByValue: true });
  expect(probe.result.value).toBe(browser.extensionId);
  return { cdp, contextId: world.id };
}

async function fromContentScript(w: { cdp: CDPSession; contextId: number }, type: string, payload: unknown): Promise<unknown> {
  const r = await w.cdp.send('Runtime.evaluate', {
    contextId: w.contextId,
    expression: `chrome.runtime.sendMessage(${JSON.stringify({ type, payload })})`,
    awaitPromise: true,
    returnByValue: true,
  });
  if (r.exceptionDetails) return { thrown: r.exceptionDetails.exception?.description ?? r.exceptionDetails.text };
  return r.result.value;
}

const REFUSED = { ok: false, error: expect.stringMatching(/^Refused: this command is accepted only from the extension's own pages\.$/) };

test('a web page cannot reach the extension\'s commands', async () => {
  const tried = await page.evaluate(`(async () => {
    const rt = globalThis.chrome && globalThis.chrome.runtime;
    if (!rt || typeof rt.sendMessage !== 'function') return { available: false };
    try {
      const reply = await rt.sendMessage(${JSON.stringify(browser.extensionId)}, { type: 'run/start', payload: { task: 'x', url: location.href } });
      return { available: true, reply: reply === undefined ? 'undefined' : reply };
    } catch (e) {
      return { available: true, error: String(e && e.message || e) };
    }
  })()`) as { available: boolean; reply?: unknown; error?: string };
  // No externally_connectable: the page has no way to message the extension at all.
  expect(tried).toEqual({ available: false });
  // The page's main world has no chrome.runtime; only the extension's content script world has.
  expect(await page.evaluate('typeof (globalThis.chrome && globalThis.chrome.runtime && globalThis.chrome.runtime.id)')).toBe('undefined');
  expect(await runNow()).toBeNull();
});

test('the content script world is refused start, approve, reject, stop and settings; the panel is accepted', async () => {
  const world = await contentScriptWorld();
  const startUrl = `${site.url}guards/steps.html`;
  const config = { baseUrl: model.baseUrl, model: 'glm-4.5v', apiKey: 'sk-senders-1a2b3c', approveSteps: true };

  // Refused: no run starts.
  expect(await fromContentScript(world, 'run/start', { task: 'x', url: startUrl, config })).toEqual(REFUSED);
  expect(await runNow()).toBeNull();
  expect(model.requests).toHaveLength(0);

  // The panel starts one; it waits for approval of its first action (step approval on).
  const started = await fromPanel('run/start', { task: 'Press Alpha', url: startUrl, config });
  expect(started).toEqual({ ok: true, value: { runId: expect.any(String) } });
  const runId = (started as { value: { runId: string } }).value.runId;
  await expect.poll(async () => (await runNow())?.pending?.phase).toBe('approve');
  const waiting = (await runNow())!;
  expect(waiting).toMatchObject({ id: runId, status: 'running', pending: { index: 0, actionText: expect.stringMatching(/^Click \[\d+\]$/) } });

  // From the content script: every command that steers or reads runs and settings is refused.
  for (const [type, payload] of [
    ['run/approve', { runId }],
    ['run/approve', { runId, edit: 'Click [1]' }],
    ['run/reject', { runId, feedback: 'no' }],
    ['run/stop', { runId }],
    ['run/start', { task: 'another', url: startUrl, config }],
    ['run/mode', { runId, approveSteps: false }],
    ['run/get', { runId }],
    ['run/trace', { runId }],
    ['run/trace-part', { runId, from: 0, count: 1 }],
    ['settings/get', {}],
    ['settings/patch', { set: { approveSteps: false } }],
  ] as const) {
    expect(await fromContentScript(world, type, payload), type).toEqual(REFUSED);
  }
  // ... and none of them changed anything: the same action still waits, nothing was clicked.
  const after = (await runNow())!;
  expect(after).toMatchObject({ id: runId, status: 'running', approveSteps: true, pending: { index: 0, phase: 'approve', actionText: waiting.pending!.actionText } });
  expect(after.steps).toEqual([]);
  expect(site.events.filter((e) => e.type === 'click')).toEqual([]);
  const settings = await fromPanel('settings/get', {});
  expect(settings).toMatchObject({ ok: true, value: { approveSteps: false } }); // the stored default, not set by the page

  // From the panel the same commands are accepted.
  expect(await fromPanel('run/approve', { runId })).toMatchObject({ ok: true, value: { id: runId } });
  await expect.poll(() => site.events.filter((e) => e.type === 'click').map((e) => e.value)).toEqual(['alpha']);
  await expect.poll(async () => (await runNow())?.pending?.index).toBe(1); // the answer waits next
  expect(await fromPanel('run/stop', { runId })).toEqual({ ok: true, value: { stopped: true } });
  expect(await runNow()).toMatchObject({ id: runId, status: 'stopped', stopReason: 'Stopped by the user.' });
  expect((await runNow())!.steps.map((s) => s.approval)).toEqual([{ decision: 'approved', feedback: null }]);
  await world.cdp.detach();
});
