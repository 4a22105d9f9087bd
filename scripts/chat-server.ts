/**
 * A small OpenAI-compatible chat server on 127.0.0.1: GET /v1/models and POST
 * /v1/chat/completions (JSON, or SSE streaming with usage when the request asks), an optional
 * Bearer key, CORS for the extension, and faults on demand (an HTTP error, a cut or stalled stream,
 * no choices). What to answer is the caller's: the scripted demo model (scripts/demo-model.ts)
 * and the tests' fake model (test/fixtures/model/server.ts) are built on it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONNECTION_TEST_TEXT } from '../src/core/connection-test';

export interface ModelReply {
  content: string;
  reasoning?: string;
  /** 'length': the reply was cut at max_tokens (the finish reason says so) */
  finishReason?: 'stop' | 'length';
  /** a fault: stream only this many content chunks, then close the connection ('end': cleanly, 'destroy': abruptly) */
  cut?: { afterChunks: number; how: 'end' | 'destroy' };
  /** a fault: send the headers (and, streaming, the first empty chunk), then nothing, never closing */
  stall?: boolean;
  /** a fault: HTTP 200 with `choices: []` (JSON, or a stream whose chunks have no choices) */
  noChoices?: boolean;
  /** characters per streamed chunk for this reply (a huge reply in big pieces); default the server's chunkSize */
  chunkSize?: number;
}
export interface ModelFault { status: number; message: string; headers?: Record<string, string> }

/** How one chat completion is answered: a reply (with its id and usage), a fault, or a JSON body sent as it is. */
export type ChatAnswer =
  | { reply: ModelReply; id: string; usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } }
  | ModelFault
  | { json: unknown; status?: number };

export interface ChatServerOptions {
  /** required Bearer key (401 otherwise); undefined = no auth */
  apiKey?: string;
  models: string[];
  /** what to answer to a chat completion of a listed model */
  answer: (body: Record<string, unknown>, authorization: string | undefined) => ChatAnswer | Promise<ChatAnswer>;
  /** split streamed content into this many characters per chunk (default 24) */
  chunkSize?: number;
  /** answer with one JSON completion even when the request asks to stream (some servers do) */
  ignoreStream?: boolean;
  /** pause between streamed chunks (to watch a reply arrive) */
  chunkDelayMs?: number;
  /** the port to listen on (127.0.0.1); default 0, a free one */
  port?: number;
}

export interface ChatServer {
  baseUrl: string;
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
  res.end(JSON.stringify(body));
}

/** An OpenAI-style error body. */
export function errorBody(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A chat completion's usage for a reply of `content` to a prompt of `promptTokens` (about four characters a token). */
export function usageOf(promptTokens: number, content: string) {
  const completion = Math.ceil(content.length / 4);
  return { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion };
}

/** The extension's "Test connection" request (src/core/connection-test.ts): one user message, a picture and the test's text. */
export function isConnectionTest(body: Record<string, unknown>): boolean {
  const msgs = body.messages as { content?: { type?: string; text?: string }[] }[] | undefined;
  const parts = Array.isArray(msgs) && msgs.length === 1 && Array.isArray(msgs[0].content) ? msgs[0].content : [];
  return parts.length === 2 && parts[0].type === 'image_url' && parts[1].text === CONNECTION_TEST_TEXT;
}

/** A whole (not streamed) completion of `content`. */
export function completion(id: string, body: Record<string, unknown>, content: string, usage: object) {
  return { id, object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }], usage };
}

export async function startChatServer(opts: ChatServerOptions): Promise<ChatServer> {
  const models = opts.models;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'GET, POST' });
      return res.end();
    }
    const auth = req.headers.authorization;
    if (opts.apiKey !== undefined && auth !== `Bearer ${opts.apiKey}`) {
      return send(res, 401, errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
    }
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return send(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })) });
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      return send(res, 404, errorBody(`Not found: ${req.method} ${url.pathname}`, 'invalid_request_error'));
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return send(res, 400, errorBody('Body is not JSON.', 'invalid_request_error'));
    }
    if (!models.includes(String(body.model))) {
      return send(res, 404, errorBody(`The model \`${String(body.model)}\` does not exist.`, 'invalid_request_error', 'model_not_found'));
    }
    const out = await opts.answer(body, auth);
    if ('json' in out) return send(res, out.status ?? 200, out.json);
    if ('status' in out) {
      res.writeHead(out.status, { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'access-control-expose-headers': '*', ...(out.headers ?? {}) });
      return res.end(JSON.stringify(errorBody(out.message, 'server_error')));
    }
    const { id, usage } = out;
    const reply = out.reply;
    const created = Math.floor(Date.now() / 1000);
    if (reply.stall && (!body.stream || opts.ignoreStream)) {
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.flushHeaders();
      return; // headers, then silence
    }
    if (reply.noChoices && (!body.stream || opts.ignoreStream)) {
      return send(res, 200, { id, object: 'chat.completion', created, model: body.model, choices: [], usage });
    }
    if (!body.stream || opts.ignoreStream) {
      return send(res, 200, {
        id, object: 'chat.completion', created, model: body.model,
        choices: [{ index: 0, finish_reason: reply.finishReason ?? 'stop', message: { role: 'assistant', content: reply.content, ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}) } }],
        usage,
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'access-control-allow-origin': '*' });
    const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
    if (reply.noChoices) {
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`);
      res.write('data: [DONE]\n\n');
      return res.end();
    }
    chunk({ role: 'assistant', content: '' });
    if (reply.stall) return; // headers and one empty chunk, then silence (closed only by the client)
    const size = reply.chunkSize ?? opts.chunkSize ?? 24;
    const pause = () => (opts.chunkDelayMs ? new Promise((r) => setTimeout(r, opts.chunkDelayMs)) : Promise.resolve());
    for (let i = 0; reply.reasoning && i < reply.reasoning.length; i += size) { chunk({ reasoning_content: reply.reasoning.slice(i, i + size) }); await pause(); }
    for (let i = 0, k = 0; i < reply.content.length; i += size, k++) {
      if (reply.cut && k >= reply.cut.afterChunks) {
        if (reply.cut.how === 'destroy') res.destroy(); else res.end();
        return;
      }
      chunk({ content: reply.content.slice(i, i + size) });
      await pause();
    }
    chunk({}, reply.finishReason ?? 'stop');
    const so = body.stream_options as { include_usage?: boolean } | undefined;
    if (so?.include_usage) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`);
    res.write('data: [DONE]\n\n');
    res.end();
  });
  await new Promise<void>((r, j) => { server.once('error', j); server.listen(opts.port ?? 0, '127.0.0.1', r); });
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
