/**
 * The headless runner's engine (CONTRACT.md §2), shared by `npm run agent` and
 * `npm run demo`: starts Chromium with the built extension, hands the task to
 * the extension through the side panel page's messages, prints what the
 * extension reports, and writes the exported trace.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunView, StepView } from '../src/core/messages';
import type { Settings } from '../src/core/settings';
import { scrub, type Trace } from '../src/core/trace';
import { launchWithExtension, openPanel } from './browser';

export interface AgentOptions {
  task: string;
  url: string;
  config: Partial<Settings>;
  traceFile?: string;
  width: number;
  height: number;
  headed: boolean;
  out?: (line: string) => void;
  err?: (line: string) => void;
}

export interface AgentResult { status: RunView['status']; answer: string | null; stopReason: string | null; traceFile: string; runId: string }

function stepBlock(s: StepView): string {
  const lines = [
    `Step ${s.index + 1}  ${s.url}`,
    `  Thought: ${s.thought || '(none)'}`,
    `  Action: ${s.actionText}`,
    `  Observation: ${s.observation}`,
    `  Memory: ${JSON.stringify(s.memory)}`,
  ];
  return lines.join('\n');
}

export async function runAgent(o: AgentOptions): Promise<AgentResult> {
  const out = o.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = o.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  const browser = await launchWithExtension({ headed: o.headed, width: o.width, height: o.height });
  try {
    const panel = await openPanel(browser);
    let printed = 0;
    let runId = '';
    let finish: (r: RunView) => void = () => undefined;
    const ended = new Promise<RunView>((r) => { finish = r; });
    const onUpdate = (run: RunView) => {
      if (!runId || run.id !== runId) return;
      while (printed < run.steps.length) out(stepBlock(run.steps[printed++]));
      if (run.status !== 'running') finish(run);
    };
    await panel.exposeFunction('__runnerUpdate', onUpdate);
    await panel.evaluate(() => {
      chrome.runtime.onMessage.addListener((m: { event?: string; run?: unknown }) => {
        if (m?.event === 'run/update') (window as unknown as { __runnerUpdate(r: unknown): void }).__runnerUpdate(m.run);
      });
    });
    const start = await panel.evaluate(
      async (req) => {
        try {
          return { ok: true as const, value: await (window as unknown as { webagent: { send(t: string, p: unknown): Promise<{ runId: string }> } }).webagent.send('run/start', req) };
        } catch (e) {
          return { ok: false as const, error: e instanceof Error ? e.message : String(e) };
        }
      },
      { task: o.task, url: o.url, config: o.config },
    );
    if (!start.ok) throw new Error(start.error);
    runId = start.value.runId;
    const send = <T>(type: string, payload: unknown) =>
      panel.evaluate(([t, p]) => (window as unknown as { webagent: { send(t: string, p: unknown): Promise<unknown> } }).webagent.send(t as string, p), [type, payload] as const) as Promise<T>;
    // Catch up on anything broadcast before our id was known.
    const now = await send<RunView | null>('run/get', { runId });
    if (now) onUpdate(now);
    let interrupted = false;
    const onSigint = () => { interrupted = true; void send('run/stop', { runId }).catch(() => undefined); };
    process.once('SIGINT', onSigint);
    const final = await ended;
    process.off('SIGINT', onSigint);
    const trace = scrub(await send<Trace>('run/trace', { runId }), [o.config.apiKey ?? '']);
    const traceFile = path.resolve(o.traceFile ?? path.join('traces', `${runId}.json`));
    mkdirSync(path.dirname(traceFile), { recursive: true });
    writeFileSync(traceFile, JSON.stringify(trace, null, 2));
    if (final.status === 'finished') out(`ANSWER: ${(final.answer ?? '').replace(/\r?\n/g, '\\n')}`);
    else err(`${interrupted ? 'Interrupted' : final.status === 'failed' ? 'Failed' : 'Stopped'}: ${final.stopReason ?? 'no reason given'}`);
    err(`Trace written to ${traceFile}`);
    return { status: final.status, answer: final.answer, stopReason: final.stopReason, traceFile, runId };
  } finally {
    await browser.close();
  }
}
