/**
 * npm run batch -- --tasks FILE --out DIR [options]: many tasks, each run by the headless
 * runner's engine in its own browser (docs/batch.md). Here, or with --queue on workers of a
 * BullMQ queue (npm run worker). Exit 0 when every task ended (whatever its kind), 1 when the
 * batch was interrupted or could not go on, 2 bad usage.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
// Only light modules load before the flags and files are checked (a bad one is refused at once);
// the browser's, the queue's and the judge's load after.
import { readInputText } from './read-input';
import { EXIT_INTERRUPTED, EXIT_TERMINATED, helpLine, readRunOptions, readApiKey, RUN_OPTIONS, RUN_USAGE } from './runner-options';
import { readTasks } from '../src/core/batch/tasks';
import { GUARD_IDS } from '../src/core/guards';
import type { TaskResult } from '../src/core/batch/types';
import { readReferences, successText, summaryHtml, summaryStats } from '../src/core/batch/summary';
import { count } from '../src/core/i18n';
import { makeDisplay } from './batch/display';
import type { ResultsFile } from './batch/results-file';
import { parseRate } from './batch/rate-limit';
import { replaceFile } from './batch/safe-write';
import { endpointAllowed, endpointKey } from '../src/core/batch/job';
import { scrub } from '../src/core/trace';

const USAGE = `Usage: npm run batch -- --tasks FILE --out DIR [options]

  --tasks FILE         the tasks: WebVoyager's jsonl ({"web_name","id","ques","web"} a line) or a
                       JSON list of {"id","task","url","site"} (required)
  --out DIR            where results go: results.jsonl, summary.html and a folder per task named
                       as WebVoyager names its own (taskAllrecipes--0/) (required). Run the same
                       command again to resume: tasks with a result are not run again
  --concurrency N      browsers at once on this machine (default 1)
  --retry-failed       also run again the tasks whose result is not finished
  --attempts N         tries per task when the infrastructure fails (browser crash, endpoint
                       down), with backoff; default 3. The agent's own failures are not retried
  --allow-guard RULE   answer yes when this guard asks (password, payment, delete, send, download,
                       leave-site); repeatable or comma-separated. Without it a guard's question
                       ends the task as "guard" (nobody is there to answer)
  --task-timeout MIN   stop a run after this many minutes (an infrastructure failure); default 15
  --fresh-browsers     start a new browser with a fresh profile for every task instead of
                       resetting a warm one between tasks (slower; the reset is checked, and a
                       browser that fails it is replaced anyway)
${RUN_USAGE.endpoint}
${RUN_USAGE.steps}
${RUN_USAGE.window}
  --judge              score each finished task with a vision model, the way WebVoyager's
                       auto-evaluation does (SUCCESS / NOT SUCCESS)
  --judge-mode MODE    webvoyager (default) or mind2web (Online-Mind2Web's three-stage judge)
  --judge-base-url URL the judge's endpoint (env JUDGE_BASE_URL; default the agent's)
  --judge-model NAME   the judge's model (env JUDGE_MODEL; default the agent's)
  --judge-api-key-file FILE  the judge's key (or env JUDGE_API_KEY; default the agent's key)
  --judge-screenshots K  the last K screenshots go to the judge (default 3; mind2web: 50, each
                       scored for relevance first)
  --references FILE    WebVoyager's reference_answer.json: reference answers beside the verdicts
  --queue URL          redis://HOST:PORT: put the tasks in a BullMQ queue for workers
                       (npm run worker) instead of running them here; results and artefacts come
                       back to --out, with the same progress display
  --rate N/PERIOD      queue mode: model requests allowed for all workers together, e.g. 60/min`;

function usage(problem: string): never {
  process.stderr.write(`${problem}\n${helpLine('batch', 'docs/batch.md')}\n`);
  process.exit(2);
}

function positive(v: string | undefined, dflt: number, name: string): number {
  const n = v === undefined ? dflt : Number(v);
  if (!Number.isFinite(n) || n <= 0 || (name !== '--task-timeout' && !Number.isInteger(n))) usage(`${name} must be a positive ${name === '--task-timeout' ? 'number' : 'whole number'}.`);
  return n;
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        ...RUN_OPTIONS, tasks: { type: 'string' }, out: { type: 'string' }, concurrency: { type: 'string' }, 'retry-failed': { type: 'boolean' },
        attempts: { type: 'string' }, 'allow-guard': { type: 'string', multiple: true }, 'task-timeout': { type: 'string' },
        'fresh-browsers': { type: 'boolean' }, judge: { type: 'boolean' }, 'judge-mode': { type: 'string' }, 'judge-base-url': { type: 'string' }, 'judge-model': { type: 'string' },
        'judge-api-key-file': { type: 'string' }, 'judge-screenshots': { type: 'string' }, references: { type: 'string' },
        queue: { type: 'string' }, rate: { type: 'string' }, approve: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    usage(e instanceof Error ? e.message : String(e));
  }
  if (values.help) { process.stdout.write(`${USAGE}\n`); process.exit(0); }
  if (!values.tasks) usage('--tasks is required.');
  if (!values.out) usage('--out is required.');
  if (values.approve !== undefined && values.approve !== 'auto') usage('A batch runs with --approve auto: nobody is there to approve each step (guards: see --allow-guard).');
  let text: string;
  try {
    text = readInputText(values.tasks, 50 * 1024 * 1024);
  } catch (e) {
    usage(`--tasks ${values.tasks}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const read = readTasks(text);
  if (!read.ok) usage(`--tasks ${values.tasks} has problems:\n  ${read.errors.slice(0, 20).join('\n  ')}${read.errors.length > 20 ? `\n  … and ${read.errors.length - 20} more` : ''}`);
  const run = readRunOptions(values, usage);
  const allow = new Set((values['allow-guard'] ?? []).flatMap((g) => g.split(',')).map((g) => g.trim()).filter(Boolean));
  for (const g of allow) if (!(GUARD_IDS as readonly string[]).includes(g)) usage(`--allow-guard ${g}: not a guard rule (known: ${GUARD_IDS.join(', ')}).`);
  const concurrency = positive(values.concurrency, 1, '--concurrency');
  const attempts = positive(values.attempts, 3, '--attempts');
  const timeoutMs = positive(values['task-timeout'], 15, '--task-timeout') * 60_000;
  const judgeMode = values['judge-mode'] ?? 'webvoyager';
  if (judgeMode !== 'webvoyager' && judgeMode !== 'mind2web') usage('--judge-mode must be webvoyager or mind2web.');
  // default: 3 for WebVoyager's judge, up to 50 for WebJudge (which scores each and keeps the relevant ones)
  const judgeShots = values['judge-screenshots'] === undefined ? undefined : positive(values['judge-screenshots'], 3, '--judge-screenshots');
  const judgeBaseUrl = values['judge-base-url'] ?? process.env.JUDGE_BASE_URL ?? run.config.baseUrl!;
  const judgeKeyGiven = values['judge-api-key-file'] !== undefined || process.env.JUDGE_API_KEY !== undefined;
  // The agent's key goes to the judge only when the judge is the agent's own endpoint: a key goes only where its owner said.
  const judgeOwnsAgentKey = endpointAllowed(judgeBaseUrl, [run.config.baseUrl!]);
  const judgeKey = judgeKeyGiven ? readApiKey(undefined, values['judge-api-key-file'], usage, 'JUDGE_API_KEY') : judgeOwnsAgentKey ? run.config.apiKey ?? '' : '';
  if (values.judge && !judgeKeyGiven && !judgeOwnsAgentKey && run.config.apiKey) {
    process.stderr.write(`note: the judge's endpoint (${endpointKey(judgeBaseUrl) ?? judgeBaseUrl}) is not the agent's, so the agent's key is not sent to it; give the judge its own with --judge-api-key-file or JUDGE_API_KEY if it needs one.\n`);
  }
  const judgeConfig = {
    baseUrl: judgeBaseUrl,
    model: values['judge-model'] ?? process.env.JUDGE_MODEL ?? run.config.model!,
    judge: judgeMode, screenshots: judgeShots,
  } as const;
  let references: Record<string, string[]> = {};
  if (values.references) {
    try {
      references = readReferences(JSON.parse(readInputText(values.references, 50 * 1024 * 1024)));
    } catch (e) {
      usage(`--references ${values.references}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const rate = values.rate === undefined ? null : (() => {
    try {
      return parseRate(values.rate);
    } catch (e) {
      return usage(`--rate: ${e instanceof Error ? e.message : String(e)}`);
    }
  })();
  if (rate && !values.queue) usage('--rate limits the model requests of a queue\'s workers: give --queue too.');

  const { DIST } = await import('./browser');
  const { ensureChromium } = await import('./chromium');
  const { judgeFolder } = await import('./batch/judge');
  const { childPath } = await import('./batch/artefacts');
  // Here (the workers run the tasks in queue mode): checked once, not found missing by every task in turn (each would count as an infrastructure failure).
  if (!values.queue && !existsSync(path.join(DIST, 'manifest.json'))) {
    process.stderr.write(`The extension is not built (${DIST} has no manifest.json). Run "npm run build" first.\n`);
    process.exit(1);
  }
  if (!values.queue) ensureChromium();
  const out = path.resolve(values.out);
  mkdirSync(out, { recursive: true });
  const tasks = read.tasks;
  // every output of the batch is scrubbed of these, as the trace, report and zip are
  const secrets = [run.config.apiKey ?? '', judgeKey].filter(Boolean);
  const writeSummary = (results: ResultsFile) => {
    const all = tasks.map((t) => results.byId.get(t.id)).filter((r): r is TaskResult => !!r);
    // a new file renamed over it: a symbolic link left at its name is replaced, its target untouched
    replaceFile(path.join(out, 'summary.html'), scrub(summaryHtml(all, { title: `Batch ${path.basename(values.tasks!)}`, generatedAt: new Date().toISOString(), references }), secrets));
  };
  const display = makeDisplay();
  const controller = new AbortController();
  let firstInterrupt = 0;
  let signalled: NodeJS.Signals | null = null;
  process.on('SIGINT', () => {
    // One Ctrl+C can arrive twice (the terminal sends it to npm and to this process, and npm passes it on): a second one counts after a second.
    if (firstInterrupt && Date.now() - firstInterrupt > 1000) { process.stderr.write('\nSecond Ctrl+C: leaving now.\n'); process.exit(EXIT_INTERRUPTED); }
    if (firstInterrupt) return;
    firstInterrupt = Date.now();
    signalled = 'SIGINT';
    process.stderr.write('\nInterrupted: stopping the runs (Ctrl+C again to leave at once). Run the same command again to resume.\n');
    controller.abort('the batch was interrupted (Ctrl+C)');
  });
  process.on('SIGTERM', () => { signalled ??= 'SIGTERM'; controller.abort('the batch was stopped (SIGTERM)'); });
  const judge = values.judge
    ? async (r: TaskResult) => {
      // the folder as a worker's result's is checked: a plain name inside --out (results.jsonl is input too)
      const v = await judgeFolder(childPath(out, r.folder), { ...judgeConfig, apiKey: judgeKey, signal: controller.signal, ...(r.answerJson !== undefined ? { answerJson: r.answerJson } : {}) });
      if ('error' in v) throw new Error(v.error);
      return v;
    }
    : null;
  const outcome = values.queue
    ? await (await import('./batch/queue')).submitAndFollow({
      queue: values.queue, tasks, out, retryFailed: !!values['retry-failed'], attempts, rate,
      job: { run: { ...run, config: { ...run.config, apiKey: '' } }, allowGuards: [...allow], timeoutMs },
      judge, secrets, display, signal: controller.signal, onEnd: writeSummary,
    })
    : await (await import('./batch/local')).runLocalBatch({
      tasks, out, concurrency, retryFailed: !!values['retry-failed'], attempts,
      task: { run, allowGuards: allow, timeoutMs }, judge, secrets, display, signal: controller.signal, onEnd: writeSummary,
      freshBrowsers: !!values['fresh-browsers'],
    });
  writeSummary(outcome.results);
  const all = tasks.map((t) => outcome.results.byId.get(t.id)).filter((r): r is TaskResult => !!r);
  const s = summaryStats(all);
  const k = s.kinds;
  process.stdout.write(`${all.length}/${count(tasks.length, 'task')} ended: ${k.finished} finished, ${k.agent} agent, ${k.guard} guard, ${k.infrastructure} infrastructure; ${successText(s)}\n`);
  const toJudge = values.judge ? all.filter((r) => r.kind === 'finished' && !r.verdict).length : 0;
  if (toJudge) process.stdout.write(`${count(toJudge, 'finished task')} ${toJudge === 1 ? 'has' : 'have'} no verdict yet: run the same command again to judge ${toJudge === 1 ? 'it' : 'them'}.\n`);
  process.stdout.write(`Results: ${path.join(out, 'results.jsonl')}\nSummary: ${path.join(out, 'summary.html')}\n`);
  // interrupted: as a program a signal ended (128 + its number), so scripts can tell it from a failure
  process.exit(!outcome.interrupted ? 0 : signalled === 'SIGINT' ? EXIT_INTERRUPTED : signalled === 'SIGTERM' ? EXIT_TERMINATED : 1);
}

main().catch((e) => {
  process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
