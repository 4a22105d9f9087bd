/**
 * Turns a failed model request into a message that says what happened and
 * what the user can do. Pure: the adapter passes what it knows.
 */
import type { Translate } from './i18n';
import { english } from './locales';

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
  /** false when the request carried no API key (a 401 then asks for one; it refused none) */
  keySent?: boolean;
}

/** The message in the person's language (`t`; English by default: the runner and traces). */
export function explainModelError(f: ModelFailure, t: Translate = english): string {
  const where = f.baseUrl;
  const detail = f.message ? t('errServerSaid', truncate(f.message, 300)) : '';
  const v1 = /\/v\d+$/.test(where) ? '' : t('errHintV1');
  if (f.timedOut) return t('errTimeout', where);
  if (f.status === undefined) return t('errUnreachable', where, truncate(f.message, 200)) + v1;
  if (f.status === 401) return (f.keySent === false ? t('err401NoKey', where) : t('err401', where)) + detail;
  if (f.status === 403) {
    if (/ollama|origin/i.test(f.message) || f.message === '') return t('err403Ollama', where) + detail;
    return t('err403', where) + detail;
  }
  if (f.status === 404) {
    if (/model/i.test(f.message) || (f.available && !f.available.includes(f.model))) {
      const list = f.available?.length ? t('err404Offers', f.available.slice(0, 20).join(', ')) : '';
      return t('err404Model', f.model, where, list) + detail;
    }
    return t('err404Api', where) + v1 + detail;
  }
  if (f.status === 429) return t('err429', where) + detail;
  if (f.status === 400 && /image|vision|multimodal/i.test(f.message)) return t('errNoImages', f.model, where) + detail;
  if (f.status === 400 && /context|too long|maximum.*tokens/i.test(f.message)) return t('errTooLong', where) + detail;
  if (f.status >= 500) return t('err5xx', where, f.status) + detail;
  return t('errHttp', where, f.status) + detail;
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
