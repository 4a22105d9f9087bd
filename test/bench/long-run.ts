/**
 * A long run ("longRun" in bench-results.json): does a step cost the same at step 100 as at step 1?
 * The built extension through the headless runner (scripts/run-agent.ts) at 1280x800 on the
 * PostgreSQL manual's index (Debian's postgresql-doc-15, about 35k DOM nodes, debian-docs.ts),
 * with a scripted glm-web model that answers at once and scrolls the page: down 25 times, up 25
 * times, and again, BENCH_LONG_STEPS steps in all (default 100), the last one answers. Numbers are
 * reported, never asserted.
 *
 * Per step, from the trace (timings, docs/trace-format.md) and the model's side:
 * - observe, act, the model's time as the extension saw it, the step's total and the rest
 *   (total − observe − model − act: commits, store writes, messages);
 * - gap: from the model's side, the time between a reply going out and the next request coming
 *   in, less the action's time (what the worker spends between the two besides acting);
 * - the step's size in the exported trace (its JSON, screenshots included);
 * - the worker's JS heap (used), sampled after each request, its first and last values.
 * First 10 steps beside the last 10 (median each) and their ratio.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BrowserContext, CDPSession } from 'playwright-core';
import { runAgent } from '../../scripts/run-agent';
import type { Launched } from '../../scripts/browser';
import { serveDir } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';
import { startFakeModel, type ModelReply } from '../fixtures/model/server';
import { DOC, ensureDocs } from './debian-docs';
import { cpuSample, cpuSpent, type CpuSample } from './cpu';
import { bareCaptures } from './bare-capture';

const STEPS = Number(process.env.BENCH_LONG_STEPS ?? 100);
const PAGE = { name: 'pg bookindex', pkg: 'postgresql-doc-15', file: 'postgresql-doc-15/html/bookindex.html' };
const WINDOW = 10;

const glm = (thought: string, action: string, memory: Record<string, unknown>): ModelReply => ({
  content: `<think>${thought}</think><answer>Thought: ${thought}\nAction: <|begin_of_box|>${action}<|end_of_box|>\nMemory_Updated: ${JSON.stringify(memory)}</answer>`,
});

function policy(n: number): ModelReply {
  if (n >= STEPS - 1) return glm('I have read the index.', 'ANSWER; <content>read</content>', { step: n });
  const down = Math.floor(n / 25) % 2 === 0;
  return glm(`I read on ${down ? 'down' : 'up'} the index.`, `Scroll [WINDOW]; [${down ? 'down' : 'up'}]`, { step: n, read: Math.min(n, 25) });
}

function median(xs: number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.floor(s.length / 2)]) : NaN;
}

/** medians (ms; stepBytes in bytes); `settle`, `label`, `capture` (`draw` part of it), `request`: the observe step's stages (ObserveStages) */
export interface LongRunPart { observe: number; act: number; model: number; rest: number; gap: number; total: number; stepBytes: number; settle: number; label: number; capture: number; draw: number; request: number }
export interface LongRunResult {
  date: string; page: string; steps: number; status: string; runSeconds: number;
  first: LongRunPart; last: LongRunPart;
  /** last 10 ÷ first 10, median total */
  totalRatio: number;
  traceBytes: number; heapMB: { first: number | null; last: number | null; max: number | null };
  /**
   * Core-seconds per step (CPU time of every process of the run's browser, by kind, and of this
   * Node process: the runner and the model that answers at once), over the steps from the 11th
   * request to the STEPS − 20th.
   */
  coreSecondsPerStep: ReturnType<typeof cpuSpent> | null;
  /**
   * A bare capture of the same page in the same run (CDP Page.captureScreenshot, PNG, as observe
   * takes it) after steps STEPS − 20 … STEPS − 11, median ms, and those steps' observe (the settle
   * wait apart: from its end until the request left, timings.observeStages.requestMs) ÷ it.
   */
  bareCaptureMs: number | null;
  observePerCapture: number | null;
}

/**
 * The service worker's used JS heap in MB, read by CDP (Runtime.getHeapUsage) through a session on
 * one of the browser's pages attached to the worker's target, or null.
 */
function workerHeap(context: BrowserContext): () => Promise<number | null> {
  let session: Promise<{ cdp: CDPSession; sessionId: string } | null> | null = null;
  let id = 0;
  const attach = async () => {
    const page = context.pages()[0];
    if (!page) return null;
    const cdp = await context.newCDPSession(page);
    const { targetInfos } = await cdp.send('Target.getTargets');
    const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'));
    if (!sw) return null;
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: sw.targetId, flatten: false });
    return { cdp, sessionId };
  };
  return async () => {
    try {
      session ??= attach();
      const s = await session;
      if (!s) { session = null; return null; }
      const ask = ++id;
      const answer = new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), 5_000);
        const on = (e: { message: string }) => {
          const m = JSON.parse(e.message) as { id?: number; result?: { usedSize: number } };
          if (m.id !== ask) return;
          clearTimeout(timer);
          s.cdp.off('Target.receivedMessageFromTarget', on);
          resolve(m.result ? Math.round(m.result.usedSize / 1e5) / 10 : null);
        };
        s.cdp.on('Target.receivedMessageFromTarget', on);
      });
      await s.cdp.send('Target.sendMessageToTarget', { sessionId: s.sessionId, message: JSON.stringify({ id: ask, method: 'Runtime.getHeapUsage' }) });
      return await answer;
    } catch {
      session = null; // the worker was replaced: attach again next time
      return null;
    }
  };
}

export async function longRunBench(log: (s: string) => void = console.log): Promise<LongRunResult | { skipped: true }> {
  if (!ensureDocs([PAGE], 'longRun', log)) return { skipped: true };
  const docs = await serveDir(DOC);
  const dir = mkdtempSync(path.join(tmpdir(), 'webagent-long-'));
  const traceFile = path.join(dir, 'long.json');
  const arrived: number[] = [], replied: number[] = [];
  const heap: number[] = [];
  let heapOf: () => Promise<number | null> = async () => null;
  let launched: Launched | null = null;
  const cpu: CpuSample[] = [];
  const [cpuFrom, cpuTo] = [WINDOW, Math.max(WINDOW + 1, STEPS - 2 * WINDOW)];
  const bare: number[] = [];
  const model = await startFakeModel({
    models: ['glm-4.5v'],
    policy: async (_req, n) => {
      arrived[n] = performance.now();
      if (launched && (n === cpuFrom || n === cpuTo)) cpu.push(cpuSample(launched.userDataDir));
      if (launched && n >= cpuTo && n < STEPS - WINDOW) bare.push(...await bareCaptures(launched.context, 3));
      void heapOf().then((h) => { if (h !== null) heap.push(h); });
      const r = policy(n);
      replied[n] = performance.now();
      return r;
    },
  });
  const t0 = Date.now();
  try {
    const r = await runAgent(null, {
      task: 'Read the index of the PostgreSQL manual, all of it, and say when done.', url: `${docs.url}${PAGE.file}`,
      config: { baseUrl: model.baseUrl, model: 'glm-4.5v', apiKey: '', maxSteps: STEPS + 1, dialect: 'glm-web' },
      traceFile, width: 1280, height: 800, headed: false,
    }, {
      out: () => undefined, err: (l) => { if (process.env.BENCH_LONG_LOG) log(l); },
      input: Readable.from(Array.from({ length: STEPS }, () => 'n\n')),
      onLaunched: (b) => { heapOf = workerHeap(b.context); launched = b; },
    });
    const traceText = readFileSync(traceFile, 'utf8');
    const trace = JSON.parse(traceText) as Trace;
    const rows = trace.steps.map((s, i) => {
      const t = s.timings;
      return {
        observe: t.observeMs, act: t.actMs, model: t.modelMs, total: t.totalMs,
        rest: t.totalMs - t.observeMs - t.modelMs - t.actMs,
        gap: i > 0 && arrived[i] !== undefined && replied[i - 1] !== undefined ? arrived[i] - replied[i - 1] - trace.steps[i - 1].timings.actMs : NaN,
        stepBytes: Buffer.byteLength(JSON.stringify(s)),
        settle: t.observeStages?.settleMs ?? NaN, label: t.observeStages?.labelMs ?? NaN, capture: t.observeStages?.captureMs ?? NaN, draw: t.observeStages?.drawMs ?? NaN, request: t.observeStages?.requestMs ?? NaN,
      };
    });
    // the last step answers (no action): the window before it
    const acting = rows.slice(0, -1);
    const part = (xs: typeof rows): LongRunPart => ({
      observe: median(xs.map((x) => x.observe)), act: median(xs.map((x) => x.act)), model: median(xs.map((x) => x.model)),
      rest: median(xs.map((x) => x.rest)), gap: median(xs.map((x) => x.gap)), total: median(xs.map((x) => x.total)), stepBytes: median(xs.map((x) => x.stepBytes)),
      settle: median(xs.map((x) => x.settle)), label: median(xs.map((x) => x.label)), capture: median(xs.map((x) => x.capture)), draw: median(xs.map((x) => x.draw)), request: median(xs.map((x) => x.request)),
    });
    const first = part(acting.slice(0, WINDOW));
    const last = part(acting.slice(-WINDOW));
    const captured = acting.slice(cpuTo, STEPS - WINDOW).map((x) => x.request);
    const bareMs = bare.length ? median(bare) : null;
    const result: LongRunResult = {
      date: new Date().toISOString(), page: PAGE.name, steps: trace.steps.length, status: r.status, runSeconds: Math.round((Date.now() - t0) / 1000),
      first, last, totalRatio: Math.round((last.total / first.total) * 100) / 100,
      traceBytes: Buffer.byteLength(traceText),
      heapMB: { first: heap[0] ?? null, last: heap.at(-1) ?? null, max: heap.length ? Math.max(...heap) : null },
      coreSecondsPerStep: cpu.length === 2 && Object.keys(cpu[1]).length > 1 ? cpuSpent(cpu[0], cpu[1], cpuTo - cpuFrom) : null,
      bareCaptureMs: bareMs,
      observePerCapture: bareMs ? Math.round((median(captured) / bareMs) * 100) / 100 : null,
    };
    log(`\nlong run: ${result.steps} steps scrolling ${PAGE.name} (${result.status}, ${result.runSeconds} s), median of ${WINDOW} steps (ms; step kB in the trace)`);
    log('              observe       act     model      rest       gap     total   step kB');
    const line = (name: string, p: LongRunPart) => log(`${name.padEnd(10)}${[p.observe, p.act, p.model, p.rest, p.gap, p.total].map((x) => String(x).padStart(10)).join('')}${(p.stepBytes / 1000).toFixed(1).padStart(10)}`);
    line('first 10', first);
    line('last 10', last);
    log(`observe's stages (settle / label / capture, of which drawing / until the request left): first 10 ${first.settle} / ${first.label} / ${first.capture}, ${first.draw} / ${first.request}; last 10 ${last.settle} / ${last.label} / ${last.capture}, ${last.draw} / ${last.request}`);
    const c = result.coreSecondsPerStep;
    log(c ? `core-seconds a step (budget 0.5), steps ${cpuFrom + 1}-${cpuTo}: ${c.total} (${Object.entries(c).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${v}`).join(', ')})` : 'core-seconds a step: not measured (no /proc)');
    log(`observe ÷ one bare capture of the page (budget 1.3): ${result.observePerCapture ?? '?'} (bare capture ${bareMs ?? '?'} ms)`);
    log(`last ÷ first (total): ${result.totalRatio}; trace ${(result.traceBytes / 1e6).toFixed(2)} MB; worker heap ${result.heapMB.first ?? '?'} → ${result.heapMB.last ?? '?'} MB (max ${result.heapMB.max ?? '?'})`);
    return result;
  } finally {
    await model.close();
    await docs.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
