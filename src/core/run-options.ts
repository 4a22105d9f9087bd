/**
 * The run options a headless run is made from (docs/runner.md, docs/batch.md): the endpoint, the
 * model, the dialect and its settings, the step limit, the viewport, files. One check, whoever
 * gives them: the runner's and the batch's flags (scripts/runner-options.ts) and a queue's job on
 * a worker (batch/job.ts), which is a stranger's request. The options come back rebuilt from the
 * known fields only (a job cannot slip in any other setting), with the request options the
 * dialect's model was tuned with. Pure.
 */
import { MAX_RUN_MINUTES, type Settings } from './settings';
import { DIALECTS, dialectOf, isDialect } from './dialects/registry';
import { oldOptionFields, optionProblem, optionValues } from './dialects/options';
import { formatBytes, MAX_FILES_BYTES } from './files';

/** A file for the page's file fields (--file), its bytes in base64. */
export interface RunFile { name: string; type: string; lastModified?: number; base64: string }

export interface RunOptions {
  /** the run's settings (approveSteps and the key left to the caller) */
  config: Partial<Settings>;
  files: RunFile[];
  width: number;
  height: number;
  headed: boolean;
}

/** What a run may be given; beyond these a run is refused (a flag's value, a job's field). */
export const RUN_LIMITS = {
  urlChars: 2_048, modelChars: 200, maxSteps: 1_000, apps: 50, files: 20, fileNameChars: 255, typeChars: 200,
  minSide: 100, maxSide: 10_000,
} as const;

/** The fields the options are made from: what the flags say, or what a job carries. */
export interface RunChoices {
  baseUrl: unknown; model: unknown; dialect: unknown;
  /** the dialect's own settings by name (absent: their defaults) */
  dialectOptions?: unknown;
  /** one "Name = https://…" a line */
  apps: unknown;
  maxSteps: unknown; width: unknown; height: unknown; headed: unknown; files: unknown;
  /** the run's time limit in minutes (absent: Settings' default) */
  maxMinutes?: unknown;
  /** read the words in pictures on screen by OCR (absent: Settings' default, on) */
  readPictures?: unknown;
}

export type RunOptionsRead = { ok: true; run: RunOptions } | { ok: false; problem: string };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function httpUrl(x: unknown, max: number): string | null {
  if (typeof x !== 'string' || !x || x.length > max) return null;
  try {
    const u = new URL(x);
    return u.protocol === 'http:' || u.protocol === 'https:' ? x : null;
  } catch {
    return null;
  }
}

/** A whole number from `min` to `max` (any JSON value may be given). */
export const whole = (x: unknown, min: number, max: number): x is number => typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;

function fileProblem(f: unknown, i: number): string | null {
  const o = f as Partial<RunFile> | null;
  if (!o || typeof o !== 'object') return `--file ${i + 1}: not a file`;
  if (typeof o.name !== 'string' || !o.name || o.name.length > RUN_LIMITS.fileNameChars || /[/\\]/.test(o.name) || CONTROL.test(o.name) || /^\.+$/.test(o.name)) {
    return `--file ${i + 1}: its name is not a plain file name`;
  }
  if (typeof o.type !== 'string' || o.type.length > RUN_LIMITS.typeChars || CONTROL.test(o.type)) return `--file ${o.name}: its type is not a MIME type`;
  if (o.lastModified !== undefined && !(typeof o.lastModified === 'number' && Number.isFinite(o.lastModified))) return `--file ${o.name}: its date is not a number`;
  if (typeof o.base64 !== 'string' || o.base64.length % 4 !== 0 || !BASE64.test(o.base64)) return `--file ${o.name}: its bytes are not base64`;
  return null;
}

/** The decoded size of base64 text. */
function decodedBytes(b64: string): number {
  return (b64.length / 4) * 3 - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
}

/** The options from `c`, or the first thing wrong with them (named by the flag that sets it). */
export function runOptionsFrom(c: RunChoices): RunOptionsRead {
  const no = (problem: string): RunOptionsRead => ({ ok: false, problem });
  const baseUrl = httpUrl(c.baseUrl, RUN_LIMITS.urlChars);
  if (!baseUrl) return no(`--base-url must be an http(s) URL of at most ${RUN_LIMITS.urlChars} characters`);
  if (typeof c.model !== 'string' || !c.model.trim() || c.model.length > RUN_LIMITS.modelChars || CONTROL.test(c.model)) {
    return no(`--model must be a model name of at most ${RUN_LIMITS.modelChars} characters`);
  }
  if (!isDialect(c.dialect)) return no(`Unknown dialect "${String(c.dialect).slice(0, 40)}"; known: ${Object.keys(DIALECTS).join(', ')}.`);
  const optionsWrong = optionProblem(dialectOf(c.dialect), c.dialectOptions);
  if (optionsWrong) return no(`${optionsWrong}.`);
  if (typeof c.apps !== 'string') return no('--app: not a list of apps');
  const apps = c.apps.split('\n').map((a) => a.trim()).filter(Boolean);
  if (apps.length > RUN_LIMITS.apps) return no(`--app: at most ${RUN_LIMITS.apps} apps`);
  for (const a of apps) {
    const m = /^([^=]+?)\s*=\s*(\S+)$/.exec(a);
    if (!m || CONTROL.test(a) || !httpUrl(m[2], RUN_LIMITS.urlChars)) return no(`--app must look like Shop=https://shop.example/, got "${a.slice(0, 80)}".`);
  }
  if (!whole(c.maxSteps, 1, RUN_LIMITS.maxSteps)) return no(`--max-steps must be a whole number from 1 to ${RUN_LIMITS.maxSteps}.`);
  if (!whole(c.width, RUN_LIMITS.minSide, RUN_LIMITS.maxSide) || !whole(c.height, RUN_LIMITS.minSide, RUN_LIMITS.maxSide)) {
    return no(`--viewport must be from ${RUN_LIMITS.minSide} to ${RUN_LIMITS.maxSide} pixels a side, like 1280x800.`);
  }
  if (typeof c.headed !== 'boolean') return no('--headed: not true or false');
  if (c.maxMinutes !== undefined && !(typeof c.maxMinutes === 'number' && c.maxMinutes > 0 && c.maxMinutes <= MAX_RUN_MINUTES)) {
    return no(`--max-minutes must be a number of minutes above 0 and at most ${MAX_RUN_MINUTES}.`);
  }
  if (c.readPictures !== undefined && typeof c.readPictures !== 'boolean') return no('--read-pictures must be on or off.');
  if (!Array.isArray(c.files)) return no('--file: not a list of files');
  if (c.files.length > RUN_LIMITS.files) return no(`--file: at most ${RUN_LIMITS.files} files`);
  let bytes = 0;
  for (const [i, f] of c.files.entries()) {
    const bad = fileProblem(f, i);
    if (bad) return no(bad);
    bytes += decodedBytes((f as RunFile).base64);
  }
  if (bytes > MAX_FILES_BYTES) return no(`--file: the files add up to ${formatBytes(bytes)}; the limit is ${formatBytes(MAX_FILES_BYTES)} in all`);
  const files = (c.files as RunFile[]).map((f) => ({ name: f.name, type: f.type, ...(f.lastModified !== undefined ? { lastModified: f.lastModified } : {}), base64: f.base64 }));
  return {
    ok: true,
    run: {
      // the request options the dialect's model was tuned with, as choosing it in Settings does
      config: { baseUrl, model: c.model, dialect: c.dialect, ...dialectOf(c.dialect).request, apps: apps.join('\n'), maxSteps: c.maxSteps,
        ...(c.maxMinutes !== undefined ? { maxMinutes: c.maxMinutes as number } : {}), ...(c.readPictures !== undefined ? { readPictures: c.readPictures as boolean } : {}),
        ...(dialectOf(c.dialect).options?.length ? { dialectOptions: { [c.dialect]: optionValues(dialectOf(c.dialect), c.dialectOptions) } } : {}) },
      files, width: c.width, height: c.height, headed: c.headed,
    },
  };
}

/**
 * The dialect's option values a job carries. A job queued by a version before issue 44 carries its
 * bounding-box convention and device as config fields (`bbox`, `appagentDevice`): they count as the
 * options of those names where the dialect has them.
 */
function jobOptions(c: Partial<Record<string, unknown>>): unknown {
  const all = typeof c.dialectOptions === 'object' && c.dialectOptions !== null ? (c.dialectOptions as Record<string, unknown>)[String(c.dialect)] : undefined;
  const old = isDialect(c.dialect) ? oldOptionFields(dialectOf(c.dialect), c) : {};
  if (!Object.keys(old).length) return all;
  return { ...old, ...(typeof all === 'object' && all !== null ? all : {}) };
}

/** The choices options were made from: what a job carries back to runOptionsFrom on a worker (any JSON value). */
export function choicesOf(run: unknown): RunChoices {
  const r = (run && typeof run === 'object' ? run : {}) as Partial<Record<keyof RunOptions, unknown>>;
  const c = (r.config && typeof r.config === 'object' ? r.config : {}) as Partial<Record<string, unknown>>;
  return {
    baseUrl: c.baseUrl, model: c.model, dialect: c.dialect, apps: c.apps ?? '',
    dialectOptions: jobOptions(c),
    maxSteps: c.maxSteps, width: r.width, height: r.height, headed: r.headed, files: r.files,
    ...(c.maxMinutes !== undefined ? { maxMinutes: c.maxMinutes } : {}), ...(c.readPictures !== undefined ? { readPictures: c.readPictures } : {}),
  };
}
