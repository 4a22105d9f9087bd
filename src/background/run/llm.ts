/** The `llm` action: one text-only request to the text model, stopped with the run. */
import { hideRun } from '../../core/run/secrets';
import { textModelSettings } from '../../core/settings';
import { peelReasoning } from '../../core/dialects/shared/reply-text';
import type { ChatMessage } from '../../core/dialects/request';
import type { Usage } from '../../core/costs';
import { askModel } from '../model';
import type { Active } from './active';

/**
 * One text-only request to the text model (Settings: empty fields use the run's endpoint), stopped
 * with the run. Its tokens are added to the step's (the run's totals and caps count them).
 */
export async function askText(a: Active, prompt: string): Promise<{ ok: true; text: string; usage: Usage | null } | { ok: false; error: string }> {
  const request = new AbortController();
  a.request = request;
  try {
    // a stored value filled into the prompt may hold a secret or a typed password: the model gets its placeholder
    const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: hideRun(a.state, prompt) }] }];
    const r = await askModel(textModelSettings(a.settings), messages, request.signal);
    if (!r.ok) return { ok: false, error: r.error };
    const { body } = peelReasoning(r.content, r.reasoning);
    return { ok: true, text: body.trim(), usage: r.usage };
  } finally {
    if (a.request === request) a.request = null;
  }
}
