/**
 * `npm run agent` as a function (docs/runner.md): the flags read, the run done by runAgent, the
 * exit status returned (0 finished, 1 stopped or failed, 2 bad usage). scripts/agent.ts is the
 * process around it; the tests run the same function in their own process, in a warm browser
 * (test/e2e/fixtures.ts), so a run costs no process start and no browser start.
 */
import { parseArgs } from 'node:util';
import { EXIT_INTERRUPTED, helpLine, readRunOptions, RUN_OPTIONS, RUN_USAGE } from './runner-options';
import type { AgentIO } from './run-agent';
import type { Launched } from './browser';
import type { BrowserSpec } from './batch/pool';

export const AGENT_USAGE = `Usage: npm run agent -- --task TEXT --url URL [options]

  --task TEXT          the task, as you would type it in the side panel (required)
  --url URL            start page (required)
${RUN_USAGE.endpoint}
${RUN_USAGE.steps}
  --approve auto|step  default auto. step: every proposed action is printed (on stderr) and waits
                       for a line on stdin: y (or Enter) runs it, n [FEEDBACK] rejects it (the
                       feedback goes back to the model), e ACTION runs that action instead, written
                       in the dialect's syntax (e.g. e Click [3]), q stops the run.
                       In auto mode a guard (password, payment, delete, send, download, leaving the
                       site) still pauses the run with the same prompt; if stdin is closed while an
                       action waits, the run stops.
  --trace FILE         trace JSON (default traces/<run-id>.json)
  --report FILE        also write the run's self-contained HTML report (opens offline in any browser)
  --zip FILE           also write the zip export: trace.json, the screenshots as files, and a
                       webvoyager/ folder (interact_messages.json, screenshot1.png, ...) that
                       WebVoyager's evaluation tooling reads
${RUN_USAGE.window}`;

/** A bad flag: the command prints it with the usage and returns 2. */
class UsageError extends Error {}

/** Where the command finds its browser: a warm one lent for the run (then given back), or none (it starts its own). */
export interface Browsers {
  acquire(spec: BrowserSpec): Promise<Launched>;
  /** `healthy`: the run ended normally, so the browser can be reset for the next run */
  release(b: Launched, healthy: boolean): void;
}

/** The command's surroundings: the process's (scripts/agent.ts) or a test's. */
export interface CommandIO extends Required<Pick<AgentIO, 'out' | 'err'>>, Pick<AgentIO, 'input' | 'handleSigint'> {
  env: NodeJS.ProcessEnv;
  browsers?: Browsers;
}

/** Runs `npm run agent -- ARGV`; the exit status. */
export async function agentCommand(argv: string[], io: CommandIO): Promise<number> {
  const usage = (problem: string): never => { throw new UsageError(problem); };
  try {
    let values;
    try {
      ({ values } = parseArgs({
        args: argv,
        options: {
          ...RUN_OPTIONS, task: { type: 'string' }, url: { type: 'string' }, approve: { type: 'string' },
          trace: { type: 'string' }, report: { type: 'string' }, zip: { type: 'string' }, help: { type: 'boolean', short: 'h' },
        },
        strict: true,
      }));
    } catch (e) {
      usage(e instanceof Error ? e.message : String(e));
    }
    if (values!.help) { io.out(AGENT_USAGE); return 0; }
    if (!values!.task?.trim()) usage('--task is required.');
    if (!values!.url) usage('--url is required.');
    try {
      const u = new URL(values!.url!);
      if (!/^https?:$/.test(u.protocol)) throw new Error();
    } catch {
      usage(`--url must be an http(s) URL, got "${values!.url}".`);
    }
    const run = readRunOptions(values!, usage, { env: io.env, warn: io.err });
    const approve = values!.approve ?? 'auto';
    if (approve !== 'auto' && approve !== 'step') usage('--approve must be auto or step.');
    // loaded after the flags and files are checked: a bad one is refused at once
    const { runAgent } = await import('./run-agent');
    const lent = io.browsers ? await io.browsers.acquire({ width: run.width, height: run.height, headed: run.headed }) : null;
    let healthy = false;
    try {
      const result = await runAgent(lent, {
        task: values!.task!, url: values!.url!, files: run.files, traceFile: values!.trace, reportFile: values!.report, zipFile: values!.zip,
        config: { ...run.config, approveSteps: approve === 'step' }, width: run.width, height: run.height, headed: run.headed,
      }, io);
      healthy = true;
      return result.interrupted ? EXIT_INTERRUPTED : result.status === 'finished' ? 0 : 1;
    } finally {
      if (lent) io.browsers!.release(lent, healthy);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`${e.message}\n${helpLine('agent', 'docs/runner.md')}`);
      return 2;
    }
    io.err(`Error: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
