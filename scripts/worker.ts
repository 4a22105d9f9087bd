/**
 * npm run worker -- --queue redis://HOST:PORT --base-url URL [--concurrency N]: takes tasks of
 * batches submitted with `npm run batch -- --queue …` and runs them here, each in its own browser
 * (docs/batch.md). Run one per machine. The model endpoint's key comes from this machine
 * (--api-key-file or VLM_API_KEY), never from the queue, and goes only to the endpoints this
 * machine names (--base-url or VLM_BASE_URL): a job that names another is refused. Its browsers
 * reach public addresses, those endpoints and the --allow-site hosts only (batch/reach-proxy.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DIST } from './browser';
import { ensureChromium } from './chromium';
import { EXIT_INTERRUPTED, helpLine, readApiKey } from './runner-options';
import { startWorker } from './batch/worker';
import { shownQueue } from './batch/queue';
import { endpointKey } from '../src/core/batch/job';
import { readAllowSites } from '../src/core/batch/reach';

const USAGE = `Usage: npm run worker -- --queue redis://HOST:PORT --base-url URL [options]

  --queue URL          the Redis of the batch's BullMQ queue (required); redis://USER:PASSWORD@HOST:PORT
                       for a Redis with a password or ACL user, rediss:// for TLS
  --base-url URL       the model endpoint this worker sends its key to (required; env VLM_BASE_URL,
                       several separated by commas); repeatable. A job that names another endpoint
                       is refused
  --allow-site LIST    hosts or host:port (comma-separated; repeatable) this worker's browsers may
                       reach even when they are on this machine or its network (intranet.example,
                       10.0.0.5:8080, [::1]:3000; a host covers its site's subdomains, no port any
                       port). Without it they reach public addresses and the --base-url endpoints
                       only: a page on localhost, 10/8, 192.168/16, 169.254.169.254, … is refused
  --concurrency N      browsers at once on this machine (default 1)
  --api-key-file FILE  the model endpoint's key on this machine (first line); or set VLM_API_KEY
  --work DIR           where task folders are made before they go back to the submitting side
                       (default a temporary folder, removed at exit)
  --lock-seconds S     how long a task's lock lasts without renewal: a worker that dies holding a
                       task gives it back to the queue after about this long (default 30)`;

function usage(problem: string): never {
  process.stderr.write(`${problem}\n${helpLine('worker', 'docs/batch.md')}\n`);
  process.exit(2);
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        queue: { type: 'string' }, 'base-url': { type: 'string', multiple: true }, 'allow-site': { type: 'string', multiple: true }, concurrency: { type: 'string' }, 'api-key-file': { type: 'string' }, work: { type: 'string' },
        'lock-seconds': { type: 'string' }, help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    usage(e instanceof Error ? e.message : String(e));
  }
  if (values.help) { process.stdout.write(`${USAGE}\n`); process.exit(0); }
  if (!values.queue) usage('--queue is required.');
  const endpoints = (values['base-url'] ?? (process.env.VLM_BASE_URL ?? '').split(',')).map((u) => u.trim()).filter(Boolean);
  if (!endpoints.length) usage('--base-url is required: the model endpoint(s) this worker sends its key to (or set VLM_BASE_URL). Jobs that name another endpoint are refused.');
  for (const e of endpoints) if (!endpointKey(e)) usage(`--base-url ${e}: not an http(s) URL without a user, query or fragment.`);
  const allowSites = readAllowSites(values['allow-site'] ?? []);
  if (!allowSites.ok) usage(`${allowSites.problem}.`);
  const concurrency = Number(values.concurrency ?? 1);
  if (!Number.isInteger(concurrency) || concurrency < 1) usage('--concurrency must be a positive whole number.');
  const lockSeconds = Number(values['lock-seconds'] ?? 30);
  if (!Number.isFinite(lockSeconds) || lockSeconds < 2) usage('--lock-seconds must be a number of at least 2.');
  const apiKey = readApiKey(undefined, values['api-key-file'], usage);
  // Checked once here, not found missing by every task in turn (each would count as an infrastructure failure).
  if (!existsSync(path.join(DIST, 'manifest.json'))) {
    process.stderr.write(`The extension is not built (${DIST} has no manifest.json). Run "npm run build" first.\n`);
    process.exit(1);
  }
  ensureChromium();
  const own = !values.work;
  const work = values.work ? path.resolve(values.work) : mkdtempSync(path.join(tmpdir(), 'webagent-worker-'));
  const w = await startWorker({ queue: values.queue, concurrency, apiKey, endpoints, allowSites: allowSites.value, work, lockMs: lockSeconds * 1000, log: (l) => process.stderr.write(`${l}\n`) });
  process.stderr.write(`worker ${w.id}: taking tasks from ${shownQueue(values.queue)} for ${endpoints.map((e) => endpointKey(e)).join(', ')} (${concurrency} at once)${values['allow-site']?.length ? `; its browsers may also reach ${values['allow-site'].join(',')}` : ''}; Ctrl+C to stop\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(EXIT_INTERRUPTED);
    stopping = true;
    process.stderr.write('stopping: the runs in hand stop, their tasks go back to the queue\n');
    await w.close();
    if (own) rmSync(work, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e) => {
  process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
