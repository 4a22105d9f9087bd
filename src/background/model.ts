/**
 * Model adapter: one chat-completions request through the `openai` package,
 * streamed when the settings say so. Errors come back as a user-facing
 * message (core/model-errors.ts), never as a thrown exception.
 */
import OpenAI, { APIError, APIConnectionTimeoutError, APIUserAbortError } from 'openai';
import type { ChatMessage } from '../core/dialects/types';
import { explainModelError } from '../core/model-errors';
import type { Usage } from '../core/run';
import { parseExtraBody, type Settings } from '../core/settings';

export type ModelResult =
  | { ok: true; content: string; reasoning: string | null; usage: Usage | null; ms: number }
  | { ok: false; error: string; aborted: boolean };

const REQUEST_TIMEOUT_MS = 180_000;

function client(s: Settings): OpenAI {
  return new OpenAI({
    baseURL: s.baseUrl,
    // The openai package insists on a key; with none set, send no Authorization header at all.
    apiKey: s.apiKey || 'none',
    ...(s.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    timeout: REQUEST_TIMEOUT_MS,
  });
}

type Extra = Record<string, unknown>;

export async function askModel(s: Settings, messages: ChatMessage[], signal: AbortSignal): Promise<ModelResult> {
  const started = Date.now();
  const extra: Extra = parseExtraBody(s.extraBody) ?? {};
  try {
    return { ...(await request(s, messages, extra, signal)), ms: Date.now() - started };
  } catch (err) {
    // A strict server may reject our optional fields (skip_special_tokens, stream_options): retry once without them.
    if (err instanceof APIError && err.status === 400 && mentionsOptional(err.message, extra)) {
      try {
        return { ...(await request(s, messages, {}, signal, false)), ms: Date.now() - started };
      } catch (err2) {
        return await failure(s, err2);
      }
    }
    return await failure(s, err);
  }
}

function mentionsOptional(message: string, extra: Extra): boolean {
  return [...Object.keys(extra), 'stream_options', 'include_usage'].some((k) => message.includes(k));
}

async function request(s: Settings, messages: ChatMessage[], extra: Extra, signal: AbortSignal, streamOptions = true) {
  const body = {
    model: s.model,
    messages: messages as OpenAI.Chat.ChatCompletionMessageParam[],
    temperature: s.temperature,
    max_tokens: s.maxTokens,
    ...extra,
  };
  const api = client(s);
  if (!s.stream) {
    return fromCompletion(await api.chat.completions.create({ ...body, stream: false }, { signal }));
  }
  const { data: stream, response } = await api.chat.completions
    .create({ ...body, stream: true, ...(streamOptions ? { stream_options: { include_usage: true } } : {}) }, { signal })
    .withResponse();
  // Some servers ignore "stream": true and answer with one JSON completion: read that instead.
  if (!/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
    return fromCompletion((await response.json()) as OpenAI.Chat.ChatCompletion);
  }
  let content = '';
  let reasoning = '';
  let usage: Usage | null = null;
  for await (const chunk of stream) {
    const delta = chunk.choices?.[0]?.delta as ReasoningFields & { content?: string | null } | undefined;
    if (delta?.content) content += delta.content;
    const r = delta?.reasoning_content ?? delta?.reasoning;
    if (r) reasoning += r;
    if (chunk.usage) usage = usageOf(chunk.usage);
  }
  // The SDK ends the stream quietly when it is aborted: a cut-off reply is not a reply.
  if (signal.aborted) throw new APIUserAbortError();
  return { ok: true as const, content, reasoning: reasoning || null, usage };
}

/** Servers name the separate reasoning field differently (vLLM/SGLang: reasoning_content; OpenRouter, Ollama: reasoning). */
type ReasoningFields = { reasoning_content?: string | null; reasoning?: string | null };

function fromCompletion(res: OpenAI.Chat.ChatCompletion) {
  const msg = res.choices?.[0]?.message as (OpenAI.Chat.ChatCompletionMessage & ReasoningFields) | undefined;
  return { ok: true as const, content: msg?.content ?? '', reasoning: msg?.reasoning_content ?? msg?.reasoning ?? null, usage: usageOf(res.usage) };
}

function usageOf(u: OpenAI.CompletionUsage | undefined | null): Usage | null {
  return u ? { promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0 } : null;
}

async function failure(s: Settings, err: unknown): Promise<ModelResult> {
  if (err instanceof APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) {
    return { ok: false, error: 'Stopped.', aborted: true };
  }
  const base = { baseUrl: s.baseUrl, model: s.model };
  if (err instanceof APIConnectionTimeoutError) return { ok: false, aborted: false, error: explainModelError({ ...base, message: '', timedOut: true }) };
  if (err instanceof APIError && err.status === undefined && err.error) {
    return { ok: false, aborted: false, error: `The model server reported an error in the middle of its reply: ${serverMessage(err)}` };
  }
  if (err instanceof APIError && err.status !== undefined) {
    const available = err.status === 404 ? await listModels(s).catch(() => undefined) : undefined;
    return { ok: false, aborted: false, error: explainModelError({ ...base, status: err.status, message: serverMessage(err), available }) };
  }
  const message = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  return { ok: false, aborted: false, error: explainModelError({ ...base, message }) };
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

/** Settings → "Test connection": lists models and says whether ours is there. */
export async function testConnection(s: Settings): Promise<{ ok: true; ms: number; models: string[]; message: string } | { ok: false; error: string }> {
  const started = Date.now();
  try {
    const models = await listModels(s);
    const ms = Date.now() - started;
    if (!models.includes(s.model)) {
      return { ok: false, error: `The model "${s.model}" was not found at ${s.baseUrl} (connected in ${ms} ms). The server offers: ${models.slice(0, 20).join(', ') || '(none)'}. Set the model name in settings.` };
    }
    const message = `Connected in ${ms} ms; the server offers "${s.model}".`;
    return { ok: true, ms, models, message };
  } catch (err) {
    const r = await failure(s, err);
    return { ok: false, error: r.ok ? 'unknown' : r.error };
  }
}
