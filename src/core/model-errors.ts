/**
 * Turns a failed model request into a message that says what happened and
 * what the user can do. Pure: the adapter passes what it knows.
 */
export interface ModelFailure {
  /** HTTP status, or undefined when the server could not be reached */
  status?: number;
  /** the server's error message, or the network error text */
  message: string;
  baseUrl: string;
  model: string;
  /** model ids from GET /models, when they could be listed */
  available?: string[];
  timedOut?: boolean;
}

export function explainModelError(f: ModelFailure): string {
  const where = f.baseUrl;
  const detail = f.message ? ` (server said: ${truncate(f.message, 300)})` : '';
  if (f.timedOut) return `The model endpoint ${where} did not answer in time. Check that the server is running and not overloaded, or raise the timeout.`;
  if (f.status === undefined) {
    const v1 = /\/v\d+$/.test(where) ? '' : ' Most servers expect the base URL to end in /v1.';
    return `Cannot reach the model endpoint at ${where}: ${truncate(f.message, 200)}. Check that the server is running and the base URL is right.${v1}`;
  }
  if (f.status === 401) return `The endpoint ${where} refused the API key (HTTP 401). Check the API key in settings.${detail}`;
  if (f.status === 403) {
    if (/ollama|origin/i.test(f.message) || f.message === '') {
      return `The endpoint ${where} refused the request (HTTP 403). If this is Ollama, allow the extension's origin: start it with OLLAMA_ORIGINS=chrome-extension://* . Otherwise check the API key's permissions.${detail}`;
    }
    return `The endpoint ${where} refused the request (HTTP 403): check the API key's permissions.${detail}`;
  }
  if (f.status === 404) {
    if (/model/i.test(f.message) || (f.available && !f.available.includes(f.model))) {
      const list = f.available?.length ? ` The server offers: ${f.available.slice(0, 20).join(', ')}.` : '';
      return `The model "${f.model}" was not found at ${where} (HTTP 404).${list} Set the model name in settings.${detail}`;
    }
    const v1 = /\/v\d+$/.test(where) ? '' : ' Most servers expect the base URL to end in /v1.';
    return `The endpoint ${where} has no chat-completions API (HTTP 404).${v1}${detail}`;
  }
  if (f.status === 429) return `The endpoint ${where} is rate-limiting requests (HTTP 429). Wait a moment and try again.${detail}`;
  if (f.status === 400 && /image|vision|multimodal/i.test(f.message)) return `The model "${f.model}" at ${where} does not accept images. Use a vision-language model such as GLM-4.5V.${detail}`;
  if (f.status === 400 && /context|too long|maximum.*tokens/i.test(f.message)) return `The request is too long for the model's context at ${where}. Lower max tokens or use a model with a longer context.${detail}`;
  if (f.status >= 500) return `The model server at ${where} failed (HTTP ${f.status}). Try again; if it keeps failing, check the server's logs.${detail}`;
  return `The model request to ${where} failed (HTTP ${f.status}).${detail}`;
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
