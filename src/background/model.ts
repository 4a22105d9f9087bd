/**
 * Model adapter: one chat-completions request through the `openai` package,
 * streamed when the settings say so. Errors come back as a user-facing
 * message (core/model-errors.ts), never as a thrown exception.
 */
import { personT } from './person';
import OpenAI, { APIError, APIConnectionTimeoutError, APIUserAbortError } from 'openai';
import type { ChatMessage } from '../core/dialects/request';
import { explainModelError } from '../core/model-errors';
import { CONNECTION_TEST_IMAGE, CONNECTION_TEST_TEXT } from '../core/connection-test';
import type { Usage } from '../core/costs';
import { parseExtraBody, type Settings } from '../core/settings';
import { capReply } from '../core/limits';

export type ModelResult =
  | { ok: true; content: string; reasoning: string | null; usage: Usage | null; ms: number; firstTokenMs: number | null; truncated: boolean }
  | { ok: false; error: string; aborted: boolean };

/** What the run hears while a reply is on its way: the text so far, and retries. */
export interface ModelProgress {
  onDelta?(content: string, reasoning: string): void;
  onRetry?(note: string): void;
  /** the request left (fetch was called; each attempt) */
  onSent?(): void;
}

/** Longest wait before a retry, whatever Retry-After says. */
const MAX_RETRY_WAIT_MS = 60_000;

function client(s: Settings, onSent?: () => void): OpenAI {
  return new OpenAI({
    // Only to say when the request left (the run does its store writes and clean screenshot then).
    ...(onSent ? { fetch: (url: string | URL | Request, init?: RequestInit) => { const sent = fetch(url, init); onSent(); return sent; } } : {}),
    baseURL: s.baseUrl,
    // The openai package insists on a key; with none set, send no Authorization header at all.
    apiKey: s.apiKey || 'none',
    ...(s.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    timeout: s.requestTimeoutSec * 1000,
  });
}

type Extra = Record<string, unknown>;

/**
 * One model reply, with retries: 429 (after Retry-After when the server gives it), 5xx, network
 * errors and timeouts are retried up to settings.maxRetries times with exponential backoff
 * (1 s, 2 s, 4 s, … capped at 60 s); anything else fails at once with a clear message.
 */
export async function askModel(s: Settings, messages: ChatMessage[], signal: AbortSignal, progress: ModelProgress = {}): Promise<ModelResult> {
  let attempt = 0;
  for (;;) {
    const started = Date.now();
    try {
      const r = await once(s, messages, signal, progress);
      return { ...r, ms: Date.now() - started, firstTokenMs: r.firstAt === null ? null : r.firstAt - started };
    } catch (err) {
      const wait = retryWait(err, attempt);
      if (wait === null || attempt >= s.maxRetries || signal.aborted) {
        const f = await failure(s, err);
        if (!f.ok && !f.aborted && attempt > 0) f.error = `${f.error} (gave up after ${attempt + 1} attempts)`;
        return f;
      }
      attempt++;
      progress.onRetry?.(`${whatFailed(err)}; retrying in ${Math.round(wait / 1000)} s (attempt ${attempt + 1} of ${s.maxRetries + 1})`);
      if (!(await sleep(wait, signal))) return { ok: false, error: 'Stopped.', aborted: true };
    }
  }
}

/** One attempt; a strict server that rejects our optional fields gets them once without. */
async function once(s: Settings, messages: ChatMessage[], signal: AbortSignal, progress: ModelProgress) {
  const extra: Extra = parseExtraBody(s.extraBody) ?? {};
  try {
    return await request(s, messages, extra, signal, progress);
  } catch (err) {
    if (err instanceof APIError && err.status === 400 && mentionsOptional(err.message, extra)) {
      return request(s, messages, {}, signal, progress, false);
    }
    throw err;
  }
}

/** The reply stream ended before the server said it was finished. */
export class StreamCutError extends Error {
  constructor() {
    super('the reply stream was cut off before it finished');
  }
}

/** The stream sent nothing for the whole request timeout (headers, then silence). */
export class StreamIdleError extends Error {
  constructor() {
    super('the reply stream went silent');
  }
}

/** HTTP 200 with no choices: the server's fault, not the model's format. */
export class NoChoicesError extends Error {
  constructor() {
    super('the server answered with no choices');
  }
}

/** ms to wait before retrying, or null when the error is not worth a retry. */
export function retryWait(err: unknown, attempt: number): number | null {
  const backoff = Math.min(MAX_RETRY_WAIT_MS, 1000 * 2 ** attempt);
  if (err instanceof APIUserAbortError) return null;
  if (err instanceof APIConnectionTimeoutError) return backoff;
  if (err instanceof APIError) {
    if (err.status === 429) {
      const after = retryAfterMs(err.headers);
      return after === null ? backoff : Math.min(MAX_RETRY_WAIT_MS, after);
    }
    if (err.status === undefined) return err.error ? null : backoff; // no status: the connection failed
    return err.status >= 500 || err.status === 408 ? backoff : null;
  }
  return err instanceof TypeError || err instanceof StreamCutError || err instanceof StreamIdleError || err instanceof NoChoicesError ? backoff : null; // network errors
}

function retryAfterMs(headers: Headers | Record<string, string> | undefined): number | null {
  const v = headers instanceof Headers ? headers.get('retry-after') : headers?.['retry-after'];
  if (!v) return null;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

function whatFailed(err: unknown): string {
  if (err instanceof APIConnectionTimeoutError) return 'The model did not answer in time';
  if (err instanceof StreamCutError) return 'The reply was cut off';
  if (err instanceof StreamIdleError) return 'The reply stream went silent';
  if (err instanceof NoChoicesError) return 'The server answered with no choices';
  if (err instanceof APIError && err.status === 429) return 'The endpoint is rate-limiting (HTTP 429)';
  if (err instanceof APIError && err.status !== undefined) return `The model server failed (HTTP ${err.status})`;
  return 'The model endpoint could not be reached';
}

/** Waits ms unless aborted first; false when aborted. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const t = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(true); }, ms);
    const onAbort = () => { clearTimeout(t); resolve(false); };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function mentionsOptional(message: string, extra: Extra): boolean {
  return [...Object.keys(extra), 'stream_options', 'include_usage'].some((k) => message.includes(k));
}

async function request(s: Settings, messages: ChatMessage[], extra: Extra, signal: AbortSignal, progress: ModelProgress, streamOptions = true) {
  const body = {
    model: s.model,
    messages: messages as OpenAI.Chat.ChatCompletionMessageParam[],
    temperature: s.temperature,
    max_tokens: s.maxTokens,
    ...extra,
  };
  const api = client(s, progress.onSent);
  // Our own controller, so a reply can be stopped when it goes silent or grows past the cap.
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => { idle = true; ctl.abort(); }, s.requestTimeoutSec * 1000);
  };
  try {
    if (!s.stream) {
      // The request timeout covers the wait for the headers; then the body is timed too (a server can stall it).
      const response = await api.chat.completions.create({ ...body, stream: false }, { signal: ctl.signal }).asResponse();
      arm();
      return { ...fromCompletion((await response.json()) as OpenAI.Chat.ChatCompletion), firstAt: null };
    }
    const { data: stream, response } = await api.chat.completions
      .create({ ...body, stream: true, ...(streamOptions ? { stream_options: { include_usage: true } } : {}) }, { signal: ctl.signal })
      .withResponse();
    // Some servers ignore "stream": true and answer with one JSON completion: read that instead.
    if (!/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
      return { ...fromCompletion((await response.json()) as OpenAI.Chat.ChatCompletion), firstAt: null };
    }
    // Headers came (the request timeout covers the wait for them); from now on, silence is timed.
    arm();
    let content = '';
    let reasoning = '';
    let usage: Usage | null = null;
    let firstAt: number | null = null;
    let finished = false;
    let truncated = false;
    let choices = false;
    for await (const chunk of stream) {
      arm();
      if (chunk.choices?.length) choices = true;
      const reason = chunk.choices?.[0]?.finish_reason;
      if (reason) {
        finished = true;
        truncated = reason === 'length';
      }
      const delta = chunk.choices?.[0]?.delta as ReasoningFields & { content?: string | null } | undefined;
      const r = delta?.reasoning_content ?? delta?.reasoning;
      if (delta?.content || r) {
        firstAt ??= Date.now();
        const capped = capReply(content + (delta?.content ?? ''), reasoning + (r ?? ''));
        content = capped.content;
        reasoning = capped.reasoning;
        progress.onDelta?.(content, reasoning);
        // Past the cap: stop reading and treat the reply as cut at max tokens.
        if (capped.cut) {
          finished = true;
          truncated = true;
          break;
        }
      }
      if (chunk.usage) usage = usageOf(chunk.usage);
    }
    if (idle) throw new StreamIdleError();
    // The SDK ends the stream quietly when it is aborted: a cut-off reply is not a reply.
    if (signal.aborted) throw new APIUserAbortError();
    // A stream that ends with neither a finish reason nor the usage we asked for was cut (a dropped
    // connection, a crashed server): half a reply would read as a format error, so it is retried
    // like a network error.
    if (!finished && !usage) throw new StreamCutError();
    // A stream with no choices at all is the server's fault, not a reply in the wrong format.
    if (!choices) throw new NoChoicesError();
    return { ok: true as const, content, reasoning: reasoning || null, usage, firstAt, truncated };
  } catch (err) {
    // Aborted for silence: whatever the SDK threw, the reason is the silence.
    if (idle && !(err instanceof StreamIdleError)) throw new StreamIdleError();
    throw err;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** Servers name the separate reasoning field differently (vLLM/SGLang: reasoning_content; OpenRouter, Ollama: reasoning). */
type ReasoningFields = { reasoning_content?: string | null; reasoning?: string | null };

function fromCompletion(res: OpenAI.Chat.ChatCompletion) {
  if (!Array.isArray(res?.choices) || res.choices.length === 0) throw new NoChoicesError();
  const msg = res.choices[0]?.message as (OpenAI.Chat.ChatCompletionMessage & ReasoningFields) | undefined;
  const capped = capReply(msg?.content ?? '', msg?.reasoning_content ?? msg?.reasoning ?? '');
  return { ok: true as const, content: capped.content, reasoning: capped.reasoning || null, usage: usageOf(res.usage), truncated: capped.cut || res.choices[0]?.finish_reason === 'length' };
}

function usageOf(u: OpenAI.CompletionUsage | undefined | null): Usage | null {
  return u ? { promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0 } : null;
}

async function failure(s: Settings, err: unknown): Promise<ModelResult> {
  if (err instanceof APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) {
    return { ok: false, error: 'Stopped.', aborted: true };
  }
  const base = { baseUrl: s.baseUrl, model: s.model, keySent: !!s.apiKey.trim() };
  const t = personT(s);
  if (err instanceof StreamCutError) return { ok: false, aborted: false, error: t('streamCut', s.baseUrl) };
  if (err instanceof StreamIdleError) return { ok: false, aborted: false, error: t('limStreamIdle', s.baseUrl, s.requestTimeoutSec) };
  if (err instanceof NoChoicesError) return { ok: false, aborted: false, error: t('limNoChoices', s.baseUrl) };
  if (err instanceof APIConnectionTimeoutError) return { ok: false, aborted: false, error: explainModelError({ ...base, message: '', timedOut: true }, t) };
  if (err instanceof APIError && err.status === undefined && err.error) {
    return { ok: false, aborted: false, error: t('streamError', serverMessage(err)) };
  }
  if (err instanceof APIError && err.status !== undefined) {
    const available = err.status === 404 ? await listModels(s).catch(() => undefined) : undefined;
    return { ok: false, aborted: false, error: explainModelError({ ...base, status: err.status, message: serverMessage(err), available }, t) };
  }
  const message = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  return { ok: false, aborted: false, error: explainModelError({ ...base, message }, t) };
}

function serverMessage(err: APIError): string {
  const body = err.error as { message?: unknown; error?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  if (body && typeof body.error === 'string') return body.error;
  return err.message.replace(/^\d+\s*/, '');
}

export async function listModels(s: Settings): Promise<string[]> {
  const page = await client(s).models.list();
  return page.data.map((m) => m.id);
}

/**
 * Settings → "Test connection": lists the server's models (when it can) and says whether ours is
 * there, then sends one small image with a short question, as a run would, and reports whether
 * the endpoint accepted it and how long it took.
 */
export async function testConnection(s: Settings): Promise<{ ok: true; ms: number; models: string[]; message: string } | { ok: false; error: string }> {
  const started = Date.now();
  let models: string[] = [];
  let listed = false;
  try {
    models = await listModels(s);
    listed = true;
  } catch {
    // Some servers have no /models: the image request below still tells.
  }
  if (listed && models.length && !models.includes(s.model)) {
    return { ok: false, error: personT(s)('modelNotOffered', s.model, s.baseUrl, models.slice(0, 20).join(', ')) };
  }
  const asked = Date.now();
  const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'image_url', image_url: { url: CONNECTION_TEST_IMAGE } }, { type: 'text', text: CONNECTION_TEST_TEXT }] }];
  const r = await askModel({ ...s, maxTokens: 16, maxRetries: 0, stream: false }, messages, AbortSignal.timeout(s.requestTimeoutSec * 1000));
  if (!r.ok) return { ok: false, error: r.error };
  const ms = Date.now() - started;
  const t = personT(s);
  const offered = listed ? t('connectedOffers', s.model) : t('connectedNoList');
  return { ok: true, ms, models, message: t('connected', offered, Date.now() - asked, ms) };
}
