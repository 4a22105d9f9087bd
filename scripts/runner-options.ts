/**
 * The run options the headless runner and the batch runner share (docs/runner.md, docs/batch.md):
 * the endpoint, the dialect and its settings, files, steps, the viewport, a headed window. Read
 * from node:util parseArgs values into the extension's settings, with a clear message for each
 * bad value.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_DIALECT, DIALECTS } from '../src/core/dialects/registry';
import { runOptionsFrom, type RunOptions } from '../src/core/run-options';
import { readOptionPairs } from '../src/core/dialects/options';
import { readInputFile, readInputText, humanBytes } from './read-input';
import { MAX_FILES_BYTES } from '../src/core/files';

/** Exit codes of a command a signal ended, as a shell reports them (128 + the signal's number): Ctrl+C, SIGTERM. */
export const EXIT_INTERRUPTED = 130;
export const EXIT_TERMINATED = 143;

/** What follows a usage error: where the options are, in one line (the error stays on screen). */
export function helpLine(command: string, doc: string): string {
  return `Run "npm run ${command} -- --help" for the options, or read ${doc}.`;
}

/** parseArgs' option spec of the shared run options. */
export const RUN_OPTIONS = {
  'base-url': { type: 'string' }, 'api-key': { type: 'string' }, 'api-key-file': { type: 'string' },
  model: { type: 'string' }, dialect: { type: 'string' }, 'dialect-option': { type: 'string', multiple: true }, bbox: { type: 'string' }, device: { type: 'string' },
  app: { type: 'string', multiple: true }, file: { type: 'string', multiple: true }, 'max-steps': { type: 'string' }, 'max-minutes': { type: 'string' },
  'read-pictures': { type: 'string' }, viewport: { type: 'string' }, headed: { type: 'boolean' },
} as const;

export interface RunOptionValues {
  'base-url'?: string; 'api-key'?: string; 'api-key-file'?: string; model?: string; dialect?: string; 'dialect-option'?: string[]; bbox?: string; device?: string;
  app?: string[]; file?: string[]; 'max-steps'?: string; 'max-minutes'?: string; 'read-pictures'?: string; viewport?: string; headed?: boolean;
}

/** The usage lines of the shared options: the endpoint and dialect ones, then steps, then the viewport and window. */
export const RUN_USAGE = {
  endpoint: `  --base-url URL       OpenAI-compatible base URL (env VLM_BASE_URL), e.g. http://127.0.0.1:8000/v1
  --api-key-file FILE  the key, read from a file (first line); or set VLM_API_KEY
  --api-key KEY        the key on the command line (shown by ps and echoed by npm: prefer the two above)
  --model NAME         model name (env VLM_MODEL), default glm-4.5v
  --dialect NAME       model dialect, default ${DEFAULT_DIALECT} (known: ${Object.keys(DIALECTS).join(', ')})
  --dialect-option NAME=VALUE  a setting of the dialect's own; repeatable (docs/dialects.md):
${dialectOptionLines()}
  --bbox CONVENTION    the same as --dialect-option bbox=CONVENTION (midscene: how the model
                       writes boxes; pixels pads the screenshot to multiples of 28)
  --device phone|desktop  the same as --dialect-option device=… (appagent: the tab as a phone,
                       the default, or the desktop viewport)
  --app NAME=URL       a site the model may open as an app: glm-mobile's open_app (listed in
                       its prompt) and cogagent's LAUNCH(app=…); the sites count as the task's
                       own for the leave-site guard; repeatable
  --file PATH          a file for the page's file fields (what a click on one chooses, as the side
                       panel's "Files for the task"); repeatable; up to 20 MB in all`,
  steps: `  --max-steps N        default 15\n  --max-minutes N      the run's time limit, default 30
  --read-pictures on|off  read the words in the pictures on screen on this machine (OCR) and
                       screen them for instructions aimed at the agent, default on`,
  window: `  --viewport WxH       page size in CSS pixels, default 1280x800
  --headed             show the browser window`,
};

export type { RunOptions };

/** Flags that are another name for a dialect option (flag → the option's name): `--bbox X` is `--dialect-option bbox=X`. */
export const OPTION_FLAGS = { bbox: 'bbox', device: 'device' } as const;

/** The --dialect-option values with the aliases' added; an alias and the option given apart must agree. */
function withAliases(values: RunOptionValues, given: Record<string, string>, usage: (problem: string) => never): Record<string, string> {
  const out = { ...given };
  for (const [flag, option] of Object.entries(OPTION_FLAGS)) {
    const v = values[flag as keyof typeof OPTION_FLAGS];
    if (v === undefined) continue;
    if (out[option] !== undefined && out[option] !== v) usage(`--${flag} ${v} and --dialect-option ${option}=${out[option]} disagree.`);
    out[option] = v;
  }
  return out;
}

/** The usage lines of every dialect's own settings, from their declarations. */
function dialectOptionLines(): string {
  return Object.values(DIALECTS).flatMap((d) => (d.options ?? []).map((o) => `                       ${d.id}: ${o.name}=${o.choices.join('|')} (default ${o.default})`)).join('\n');
}

/** A file's MIME type from its extension (what a browser's file chooser would say), '' when unknown. */
const MIME: Record<string, string> = {
  '.txt': 'text/plain', '.csv': 'text/csv', '.html': 'text/html', '.json': 'application/json', '.pdf': 'application/pdf',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.svg': 'image/svg+xml',
  '.zip': 'application/zip', '.doc': 'application/msword', '.xls': 'application/vnd.ms-excel',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '.mp3': 'audio/mpeg', '.mp4': 'video/mp4',
};
function mimeOf(file: string): string {
  return MIME[path.extname(file).toLowerCase()] ?? '';
}

/** An API key file larger than this is not a key file (read-input.ts refuses it unread). */
export const API_KEY_FILE_MAX_BYTES = 64 * 1024;

/**
 * The API key: from --api-key-file or VLM_API_KEY; --api-key still works but says why not (any
 * user's `ps` shows a process's arguments, and npm echoes the command it runs).
 */
/** Where options come from besides the flags: the environment, and where a warning goes (the process's by default; a test's run in process gives its own). */
export interface OptionsFrom { env?: NodeJS.ProcessEnv; warn?: (line: string) => void }

export function readApiKey(onCommandLine: string | undefined, file: string | undefined, usage: (problem: string) => never, env = 'VLM_API_KEY', from: OptionsFrom = {}): string {
  if (file !== undefined) {
    try {
      return readInputText(file, API_KEY_FILE_MAX_BYTES).split(/\r?\n/)[0].trim();
    } catch (e) {
      return usage(`--api-key-file ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (onCommandLine !== undefined) {
    const warn = from.warn ?? ((l: string) => process.stderr.write(`${l}\n`));
    warn('warning: --api-key puts the key on the command line, where `ps` shows it and npm echoes it; use --api-key-file FILE or the VLM_API_KEY environment variable instead.');
    return onCommandLine;
  }
  return (from.env ?? process.env)[env] ?? '';
}

/**
 * The shared options read, or `usage` called with what is wrong. The values are checked by
 * runOptionsFrom (src/core/run-options.ts), the same check a queue's worker makes of a job.
 */
export function readRunOptions(values: RunOptionValues, usage: (problem: string) => never, from: OptionsFrom = {}): RunOptions {
  const env = from.env ?? process.env;
  const baseUrl = values['base-url'] ?? env.VLM_BASE_URL;
  if (!baseUrl) usage('No model endpoint: give --base-url or set VLM_BASE_URL (for a run without a model, try "npm run demo").');
  const apiKey = readApiKey(values['api-key'], values['api-key-file'], usage, 'VLM_API_KEY', from);
  const apps = (values.app ?? []).map((a) => {
    const m = /^([^=]+)=(https?:\/\/\S+)$/.exec(a.trim());
    if (!m) usage(`--app must look like Shop=https://shop.example/, got "${a}".`);
    return `${m[1].trim()} = ${m[2]}`;
  });
  // the --file files together: MAX_FILES_BYTES, as for files attached in the side panel
  let filesBytes = 0;
  const files = (values.file ?? []).map((f) => {
    try {
      const left = MAX_FILES_BYTES - filesBytes;
      const bytes = readInputFile(f, left, {
        limit: `${humanBytes(MAX_FILES_BYTES)} for all the --file files together${filesBytes ? ` (${humanBytes(left)} left after the files before it)` : ''}`,
      });
      filesBytes += bytes.length;
      return { name: path.basename(f), type: mimeOf(f), lastModified: statSync(f).mtimeMs, base64: bytes.toString('base64') };
    } catch (e) {
      return usage(`--file ${f}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  const maxSteps = values['max-steps'] === undefined ? 15 : Number(values['max-steps']);
  const vp = /^(\d+)x(\d+)$/.exec(values.viewport ?? '1280x800');
  if (!vp) usage('--viewport must look like 1280x800.');
  const pairs = readOptionPairs(values['dialect-option'] ?? []);
  if (!pairs.ok) usage(pairs.problem);
  const options = withAliases(values, pairs.values, usage);
  const read = runOptionsFrom({
    baseUrl, model: values.model ?? env.VLM_MODEL ?? 'glm-4.5v', dialect: values.dialect ?? DEFAULT_DIALECT, apps: apps.join('\n'),
    ...(Object.keys(options).length ? { dialectOptions: options } : {}), maxSteps, width: Number(vp[1]), height: Number(vp[2]), headed: !!values.headed, files,
    ...(values['max-minutes'] !== undefined ? { maxMinutes: Number(values['max-minutes']) } : {}),
    ...(values['read-pictures'] !== undefined ? { readPictures: values['read-pictures'] === 'on' ? true : values['read-pictures'] === 'off' ? false : values['read-pictures'] } : {}),
  });
  if (!read.ok) usage(read.problem);
  return { ...read.run, config: { ...read.run.config, apiKey } };
}
