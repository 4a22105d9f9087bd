/**
 * Judging one finished task folder (`OUT/task{id}/`, WebVoyager's files) with a vision model:
 * WebVoyager's auto-evaluation or Online-Mind2Web's three-stage WebJudge (src/core/batch/judge.ts
 * builds the requests and reads the replies; this file reads the folder and talks to the model).
 *
 * As auto_eval.py does, a folder without an answer (or with only the system message) is a failure
 * without asking the model, for the WebVoyager judge. WebJudge judges a run from its actions and
 * screenshots, an answer being only part of it, so it judges an answerless folder too (its final
 * response is then "(none)"); a folder without a task is a failure for both.
 * The action history for WebJudge is `actions` when given, else each step's action in words from
 * the folder's trace.json, else none.
 * Errors (no folder, an interact_messages.json that is no message list, a model that fails after its retries, a stop) come back as `{ error }`,
 * with the API key cut out of the message; nothing returned carries the key.
 * What goes to the judge is the folder's own: a folder that is a symbolic link, or a file in it
 * that is one (or a FIFO, a device), is refused, never followed (docs/batch.md, "Who trusts what":
 * --out may hold what someone else put there).
 */
import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import OpenAI from 'openai';
import type { Verdict } from '../../src/core/batch/types';
import { DEFAULT_JUDGE_SCREENSHOTS, lastScreenshots, readInteractMessages } from '../../src/core/batch/webvoyager-folder';
import {
  KEEP_SCORE, keyPointsRequest, mind2webVerdictText, outcomeRequest, readKeyPoints, readOutcome, readScore,
  readWebVoyagerVerdict, screenshotScoreRequest, webVoyagerJudgeRequest, type JudgeRequest, type ScoredScreenshot,
} from '../../src/core/batch/judge';
import { stepActionInWords, type StepLike } from '../../src/core/run/person-text';

export interface JudgeOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  judge: 'webvoyager' | 'mind2web';
  /**
   * How many of the last screenshots the judge sees: default 3 for WebVoyager
   * (DEFAULT_JUDGE_SCREENSHOTS), and for WebJudge, which scores each one and keeps the relevant
   * ones, 50 (its own cap, MAX_IMAGE).
   */
  screenshots?: number;
  /** WebJudge's action history (the steps' action sentences); default: read from trace.json */
  actions?: string[];
  /** the answer as JSON, when it matched the task's answer schema (results.jsonl answerJson): the judge reads it as the answer */
  answerJson?: unknown;
  signal?: AbortSignal;
}

const MIND2WEB_SCREENSHOTS = 50;

type Usage = { promptTokens: number; completionTokens: number };

function cutKey(text: string, key: string): string {
  return key ? text.split(key).join('[key]') : text;
}

/** A file of the task folder, only when it is a regular file there: a symbolic link is not followed (O_NOFOLLOW). */
async function readOwn(dir: string, name: string): Promise<Buffer> {
  const file = await open(path.join(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((e: NodeJS.ErrnoException) => {
    throw e.code === 'ELOOP' ? new Error(`${name} is a symbolic link, which is not followed`) : e;
  });
  try {
    if (!(await file.stat()).isFile()) throw new Error(`${name} is not a regular file`);
    return await file.readFile();
  } finally {
    await file.close();
  }
}

async function actionsFromTrace(dir: string): Promise<string[]> {
  try {
    const trace = JSON.parse((await readOwn(dir, 'trace.json')).toString('utf8')) as { steps?: StepLike[] };
    return Array.isArray(trace.steps) ? trace.steps.map((s) => stepActionInWords(s)) : [];
  } catch {
    return [];
  }
}

/** Judges the task folder `dir`; a Verdict, or why none could be made. */
export async function judgeFolder(dir: string, o: JudgeOptions): Promise<Verdict | { error: string }> {
  let names: string[];
  let messagesText: string;
  try {
    if (!(await lstat(dir)).isDirectory()) throw new Error('it is not a folder (a symbolic link is not followed)');
    names = await readdir(dir);
    messagesText = (await readOwn(dir, 'interact_messages.json')).toString('utf8');
  } catch (e) {
    return { error: `Cannot read the task folder ${dir}: ${(e as Error).message}` };
  }
  const read = readInteractMessages(messagesText);
  if (!read.ok && read.broken) return { error: `${read.reason} (${dir})` };
  const k = o.screenshots ?? (o.judge === 'webvoyager' ? DEFAULT_JUDGE_SCREENSHOTS : MIND2WEB_SCREENSHOTS);
  const shotNames = lastScreenshots(names, k);
  const fail = (text: string): Verdict => ({ judge: o.judge, success: false, text, model: o.model, screenshots: 0, usage: null });
  if (!read.ok && o.answerJson === undefined && (o.judge === 'webvoyager' || read.task === null)) return fail(`${read.reason} Scored as a failure without asking the judge, as WebVoyager's auto_eval.py does.`);
  const task = read.task as string;
  // a schema-checked answer is judged as the JSON it was read as (its text may hold prose around it)
  const answer = o.answerJson !== undefined ? JSON.stringify(o.answerJson) : read.ok ? read.answer : null;

  let shots: string[];
  try {
    shots = await Promise.all(shotNames.map(async (n) => `data:image/png;base64,${(await readOwn(dir, n)).toString('base64')}`));
  } catch (e) {
    return { error: `Cannot read a screenshot in ${dir}: ${(e as Error).message}` };
  }

  // The openai package insists on a key; with none, no Authorization header at all (as the extension does).
  const client = new OpenAI({ baseURL: o.baseUrl, apiKey: o.apiKey || 'none', ...(o.apiKey ? {} : { defaultHeaders: { Authorization: null } }), maxRetries: 2 });
  const usage: Usage = { promptTokens: 0, completionTokens: 0 };
  let sawUsage = false;
  const ask = async (req: JudgeRequest): Promise<string> => {
    const res = await client.chat.completions.create(
      { model: o.model, messages: req.messages, temperature: req.temperature, max_tokens: req.max_tokens, stream: false },
      { signal: o.signal },
    );
    if (res.usage) {
      sawUsage = true;
      usage.promptTokens += res.usage.prompt_tokens ?? 0;
      usage.completionTokens += res.usage.completion_tokens ?? 0;
    }
    const content = res.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new Error('The judge sent a reply without content.');
    return content;
  };
  const verdict = (success: boolean, text: string, screenshots: number): Verdict =>
    ({ judge: o.judge, success, text, model: o.model, screenshots, usage: sawUsage ? { ...usage } : null });

  try {
    if (o.judge === 'webvoyager') {
      const reply = await ask(webVoyagerJudgeRequest(task, answer as string, shots));
      const ok = readWebVoyagerVerdict(reply);
      if (ok === null) return { error: `The judge's reply has neither SUCCESS nor NOT SUCCESS: ${reply.slice(0, 500)}` };
      return verdict(ok, reply, shots.length);
    }
    const keyPoints = readKeyPoints(await ask(keyPointsRequest(task))) || task;
    const scored: ScoredScreenshot[] = [];
    for (let i = 0; i < shots.length; i++) {
      const r = readScore(await ask(screenshotScoreRequest(task, keyPoints, shots[i])));
      scored.push({ name: shotNames[i], score: r.score ?? 0, missing: r.score === null, reasoning: r.reasoning });
    }
    const kept = scored.flatMap((s, i) => (s.score >= KEEP_SCORE ? [{ url: shots[i], reasoning: s.reasoning }] : []));
    const actions = o.actions ?? await actionsFromTrace(dir);
    const reply = await ask(outcomeRequest(task, keyPoints, kept, actions, answer));
    const ok = readOutcome(reply);
    if (ok === null) return { error: `The judge's last reply has no Status: "success" or "failure": ${reply.slice(0, 500)}` };
    return verdict(ok, mind2webVerdictText(keyPoints, scored, reply), shots.length);
  } catch (e) {
    return { error: cutKey(`The judge failed: ${(e as Error).message}`, o.apiKey) };
  }
}
