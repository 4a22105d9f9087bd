/**
 * `npm run agent` as a function (docs/runner.md): the flags read, the run done by runAgent, the
 * exit status returned (0 finished, 1 stopped or failed, 2 bad usage). scripts/agent.ts is the
 * process around it; the tests run the same function in their own process, in a warm browser
 * (test/e2e/fixtures.ts), so a run costs no process start and no browser start.
 */
import { parseArgs } from 'node:util';
import { EXIT_INTERRUPTED, helpLine, readRunOptions, RUN_OPTIONS, RUN_USAGE } from './runner-options';
import { readInputText } from './read-input';
import { base64Bytes, pickTemplate, readTemplateFile, type TaskTemplate } from '../src/core/templates';
import { formatBytes, MAX_FILES_BYTES } from '../src/core/files';
import { MAX_SCHEMA_CHARS, readSchemaText } from '../src/core/answer-schema';
import { parseTrace } from '../src/core/trace/import';
import { readAllowedSites } from '../src/core/allowed-sites';
import type { Trace } from '../src/core/trace';
import type { AgentIO } from './run-agent';
import type { Launched } from './browser';
import type { BrowserSpec } from './batch/pool';

export const AGENT_USAGE = `Usage: npm run agent -- --task TEXT --url URL [options]
       npm run agent -- --task-file FILE [--task-name NAME] [options]

  --task TEXT          the task, as you would type it in the side panel
  --task-file FILE     a saved task (the side panel's Saved tasks → Export, docs/templates.md):
                       its task, start page, dialect and files; --url, --dialect and --file
                       given here win over its own
  --task-name NAME     which saved task of the file, when it has several
  --url URL            start page (required, unless the saved task has one)
  --continue TRACE     go on from a run's trace (an export, or this runner's --trace) with --task as
                       its follow-up: the same history and memory, a new turn (docs/follow-ups.md).
                       The run goes on at --url, or the page the trace ended on
  --sites start|any|LIST where the run may act: only the start site (default), anywhere, or the
                       start site and a comma-separated LIST of sites (shop.example,pay.example).
                       A step that would act on another site asks once (docs/allowed-sites.md)
  --answer-schema FILE a JSON Schema the answer must match (docs/answer-schema.md): the model is
                       told it, an answer that does not match goes back to the model (3 answers at
                       most), and the matched JSON is printed as ANSWER_JSON: and kept in the trace.
                       Wins over a saved task's own schema
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
  --export-playwright FILE
                       also write the run as a standalone Playwright script that does its actions
                       again without a model (docs/playwright-export.md)
  --zip FILE           also write the zip export: trace.json, the screenshots as files, and a
                       webvoyager/ folder (interact_messages.json, screenshot1.png, ...) that
                       WebVoyager's evaluation tooling reads
${RUN_USAGE.window}`;

/** A saved-task file holds base64 files of up to MAX_FILES_BYTES: read up to this many bytes. */
const TASK_FILE_MAX_BYTES = Math.ceil((MAX_FILES_BYTES * 4) / 3) + 1024 * 1024;

/** The saved task --task-file (and --task-name) names, read as untrusted input (core/templates.ts). */
function readSavedTask(file: string, name: string | undefined, usage: (problem: string) => never): TaskTemplate {
  let json: unknown;
  try {
    json = JSON.parse(readInputText(file, TASK_FILE_MAX_BYTES));
  } catch (e) {
    return usage(`--task-file ${file}: ${e instanceof SyntaxError ? `not JSON (${e.message})` : e instanceof Error ? e.message : String(e)}`);
  }
  const read = readTemplateFile(json);
  if (!read.ok) return usage(`--task-file ${file}: ${read.problem}.`);
  if (read.refused.length) return usage(`--task-file ${file}: ${read.refused.map((r) => `task ${r.index + 1}: ${r.problem}`).join('; ')}.`);
  const picked = pickTemplate(read.templates, name);
  return typeof picked === 'string' ? usage(`--task-file ${file}: ${picked}.`) : picked;
}

/** The schema --answer-schema names, checked as the extension will (core/answer-schema.ts). */
function readAnswerSchema(file: string, usage: (problem: string) => never): Record<string, unknown> {
  let text: string;
  try {
    text = readInputText(file, MAX_SCHEMA_CHARS * 4);
  } catch (e) {
    return usage(`--answer-schema ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const read = readSchemaText(text);
  return read.ok ? read.schema : usage(`--answer-schema ${file}: ${read.problem}.`);
}

/** Traces are exported under 25 MB (screenshots in them); read up to a little more. */
const TRACE_MAX_BYTES = 64 * 1024 * 1024;

/** The trace --continue names, checked as the extension's import will, and the page it ended on. */
function readContinued(file: string, usage: (problem: string) => never): { trace: Trace; url: string } {
  let json: unknown;
  try {
    json = JSON.parse(readInputText(file, TRACE_MAX_BYTES));
  } catch (e) {
    return usage(`--continue ${file}: ${e instanceof SyntaxError ? `not JSON (${e.message})` : e instanceof Error ? e.message : String(e)}`);
  }
  const read = parseTrace(json);
  if (!read.ok) return usage(`--continue ${file}: ${read.error}`);
  if (read.trace.run.status === 'running') return usage(`--continue ${file}: the trace was exported while its run was still going; a follow-up is for a run that has ended.`);
  const url = read.trace.steps.at(-1)?.url || read.trace.run.startUrl;
  return { trace: read.trace, url };
}

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
          ...RUN_OPTIONS, task: { type: 'string' }, 'task-file': { type: 'string' }, 'task-name': { type: 'string' }, url: { type: 'string' }, 'answer-schema': { type: 'string' }, continue: { type: 'string' }, sites: { type: 'string' }, approve: { type: 'string' },
          trace: { type: 'string' }, report: { type: 'string' }, zip: { type: 'string' }, 'export-playwright': { type: 'string' }, help: { type: 'boolean', short: 'h' },
        },
        strict: true,
      }));
    } catch (e) {
      usage(e instanceof Error ? e.message : String(e));
    }
    if (values!.help) { io.out(AGENT_USAGE); return 0; }
    const saved = values!['task-file'] !== undefined ? readSavedTask(values!['task-file'], values!['task-name'], usage) : null;
    if (saved && values!.task !== undefined) usage('Give --task or --task-file, not both.');
    if (!saved && values!['task-name'] !== undefined) usage('--task-name goes with --task-file.');
    if (saved) values = { ...values!, task: saved.task, url: values!.url ?? saved.startUrl, dialect: values!.dialect ?? saved.dialect };
    const from = values!.continue !== undefined ? readContinued(values!.continue, usage) : null;
    if (from && saved) usage('Give --continue or --task-file, not both.');
    if (from && values!.file?.length) usage('--file does not go with --continue: a follow-up goes on with the files of the run it continues.');
    if (from && values!['answer-schema'] !== undefined) usage('--answer-schema does not go with --continue.');
    if (from) values = { ...values!, url: values!.url ?? from.url };
    if (!values!.task?.trim()) usage(from ? '--task is required: the follow-up to do.' : '--task is required (or --task-file).');
    if (!values!.url) usage(saved ? `--url is required: the saved task "${saved.name}" has no start page.` : '--url is required.');
    try {
      const u = new URL(values!.url!);
      if (!/^https?:$/.test(u.protocol)) throw new Error();
    } catch {
      usage(`--url must be an http(s) URL, got "${values!.url}".`);
    }
    const sites = values!.sites !== undefined ? readAllowedSites(values!.sites) : { ok: true as const, value: saved?.allowedSites };
    if (!sites.ok) usage(`--sites ${values!.sites}: ${sites.problem}.`);
    if (from && values!.sites !== undefined) usage('--sites does not go with --continue: a follow-up keeps the sites of the run it continues.');
    const answerSchema = values!['answer-schema'] !== undefined ? readAnswerSchema(values!['answer-schema'], usage) : saved?.answerSchema;
    const run = readRunOptions(values!, usage, { env: io.env, warn: io.err });
    if (saved?.files?.length) {
      const bytes = run.files.reduce((n, f) => n + base64Bytes(f.base64), 0) + saved.files.reduce((n, f) => n + base64Bytes(f.base64), 0);
      if (bytes > MAX_FILES_BYTES) usage(`The saved task's files and the --file files pass ${formatBytes(MAX_FILES_BYTES)} in all.`);
      run.files = [...saved.files.map((f) => ({ ...f, lastModified: Date.now() })), ...run.files];
    }
    const approve = values!.approve ?? 'auto';
    if (approve !== 'auto' && approve !== 'step') usage('--approve must be auto or step.');
    // loaded after the flags and files are checked: a bad one is refused at once
    const { runAgent } = await import('./run-agent');
    const lent = io.browsers ? await io.browsers.acquire({ width: run.width, height: run.height, headed: run.headed }) : null;
    let healthy = false;
    try {
      const result = await runAgent(lent, {
        task: values!.task!, url: values!.url!, files: run.files, traceFile: values!.trace, reportFile: values!.report, zipFile: values!.zip, scriptFile: values!['export-playwright'],
        config: { ...run.config, approveSteps: approve === 'step' }, width: run.width, height: run.height, headed: run.headed,
        ...(answerSchema ? { answerSchema } : {}),
        ...(sites.ok && sites.value ? { allowedSites: sites.value } : {}),
        ...(from ? { continueFrom: from.trace } : {}),
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
