/**
 * npm run agent -- --task TEXT --url URL [--base-url URL] [--api-key KEY] [--model NAME] ...
 * The headless runner of docs/runner.md. Exit 0 finished, 1 stopped/failed, 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { readRunOptions, RUN_OPTIONS, RUN_USAGE } from './runner-options';

const USAGE = `Usage: npm run agent -- --task TEXT --url URL [options]

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

function usage(problem: string): never {
  process.stderr.write(`${problem}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        ...RUN_OPTIONS, task: { type: 'string' }, url: { type: 'string' }, approve: { type: 'string' },
        trace: { type: 'string' }, report: { type: 'string' }, zip: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    usage(e instanceof Error ? e.message : String(e));
  }
  if (values.help) { process.stdout.write(`${USAGE}\n`); process.exit(0); }
  if (!values.task?.trim()) usage('--task is required.');
  if (!values.url) usage('--url is required.');
  try {
    const u = new URL(values.url);
    if (!/^https?:$/.test(u.protocol)) throw new Error();
  } catch {
    usage(`--url must be an http(s) URL, got "${values.url}".`);
  }
  const run = readRunOptions(values, usage);
  const approve = values.approve ?? 'auto';
  if (approve !== 'auto' && approve !== 'step') usage('--approve must be auto or step.');
  // loaded after the flags and files are checked: a bad one is refused at once
  const { runAgent } = await import('./run-agent');
  const result = await runAgent({
    task: values.task!, url: values.url!, files: run.files, traceFile: values.trace, reportFile: values.report, zipFile: values.zip,
    config: { ...run.config, approveSteps: approve === 'step' }, width: run.width, height: run.height, headed: run.headed,
  });
  process.exit(result.status === 'finished' ? 0 : 1);
}

main().catch((e) => {
  process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
