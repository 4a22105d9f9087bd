/**
 * The guards' second line (docs/guards.md, "Two lines"): a request a page sends while one of the
 * run's actions is under way is judged by what it would do, whatever element, event, key or dialog
 * set it off. The first line (guards/index.ts) judges the element before the action, by its words; a
 * page can tie any effect to any event, draw any words and swap the element under the pointer,
 * but what reaches the site is a request.
 *
 * A request would order or pay, delete, or send when:
 * - its method is DELETE (delete);
 * - the words of its address (path segments, query keys), its form or JSON keys, the values of
 *   keys that name an action (`action=delete`, `{"op": "placeOrder"}`) and a GraphQL mutation's
 *   name (`mutation PlaceOrder`, `operationName`) say so: the rule's own phrases, in every guard
 *   language (guards/words.ts), found anywhere in those words, and the names APIs give such
 *   requests (`POST /orders`, `/payment_intents/…/confirm`, `POST /messages`);
 * - a GET (following a link, a form with method GET) only by strong words at the start of its
 *   path's last segment: an order placed or confirmed, an account deleted, a message sent, or a
 *   short last segment that begins with place, delete, remove or destroy (not buy or pay: a
 *   product's page is often /buy-…).
 *
 * Never by the free text a request carries (a search for "delete account", a message saying
 * "send me the invoice"): only names, not values, except those of action keys. A request whose
 * words say it reads or records (search, list, preview, validate, track, collect, analytics…) is
 * not an effect. Pure: the background pauses the requests (hold.ts) and calls this only during an
 * action (watch.ts).
 */
import type { GuardId, GuardSettings } from '.';
import { hostKey } from '.';
import { matchPhrase, type Phrases } from './words';
import type { Translate } from '../i18n';
import { english } from '../locales';
import type { HeldHit, OutRequest } from './request-hold';

export type EffectRule = Extract<GuardId, 'payment' | 'delete' | 'send'>;
const EFFECT_RULES: EffectRule[] = ['payment', 'delete', 'send'];

/** Keys whose value names what a request does. */
const ACTION_KEYS = new Set(['action', '_action', 'cmd', 'command', 'op', 'operation', 'operationname', 'do', 'intent', 'verb', 'method', '_method', 'mutation']);

/** Words that say a request reads, checks or records: never an effect. */
const READS = new Set([
  'search', 'find', 'query', 'list', 'get', 'fetch', 'lookup', 'read', 'view', 'show', 'preview', 'validate', 'validation', 'verify', 'estimate', 'calculate',
  'quote', 'count', 'autocomplete', 'suggest', 'suggestions', 'typeahead', 'log', 'logs', 'track', 'tracking', 'collect', 'analytics', 'event', 'events',
  'metrics', 'telemetry', 'beacon', 'pixel', 'status', 'history', 'draft', 'drafts', 'autosave', 'save_draft', 'filter', 'filters', 'sort', 'page', 'more', 'load',
  'impression', 'impressions', 'rum', 'vitals', 'perf', 'heartbeat', 'ping', 'healthz', 'health',
]);

/** The names APIs give effects, anywhere in what a request says, beyond the rules' phrases. */
const API_NAMES: Record<EffectRule, string[]> = {
  payment: ['payment intents', 'placeorder', 'saveorder', 'submitorder', 'createorder', 'checkout complete', 'complete checkout', 'charge'],
  delete: ['destroy', 'trash', 'purge', 'deactivate', 'unregister', 'deleteaccount', 'removeaccount'],
  send: ['sendmessage', 'sendmail', 'sendemail', 'createcomment', 'createpost', 'tweet'],
};
/** What a POST to a collection creates: the last word of its path (POST /api/orders, POST /chat/messages). */
const CREATES: Record<EffectRule, string[]> = {
  payment: ['orders', 'order', 'payments', 'payment', 'charges', 'checkouts', 'purchases', 'subscriptions'],
  delete: [],
  send: ['messages', 'message', 'comments', 'replies', 'posts', 'tweets', 'emails', 'mail', 'mails', 'chat'],
};

/** What a GET must say to count (following a link, a GET form): strong words only. */
const GET_PHRASES: Record<EffectRule, string[]> = {
  payment: ['place order', 'submit order', 'confirm order', 'complete order', 'complete purchase', 'confirm purchase', 'confirm payment', 'placeorder', 'submitorder', 'confirmorder'],
  delete: ['delete account', 'close account', 'deactivate account', 'remove account', 'deleteaccount'],
  send: ['send message', 'send email', 'sendmessage', 'sendmail'],
};
const GET_LAST: Record<EffectRule, string[]> = { payment: ['place'], delete: ['delete', 'remove', 'destroy'], send: [] };

/** Phrase words too common in addresses to count there ("post" is also HTTP's verb and a blog's noun). */
const NOT_IN_ADDRESSES = new Set(['post', 'share', '=confirm', 'reply all']);

/**
 * What a request says about itself: `says` (its path's segments, the values of action keys, a
 * GraphQL mutation's names) and `keys` (its query's, form's and JSON's keys), as written.
 */
export interface RequestWords { says: string[]; keys: string[]; method: string }

/** "placeOrder" -> "place order", "payment_intents" -> "payment intents", "pi_3/confirm" -> words. */
function words(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !/^\d+$/.test(w) && !/^[0-9a-f]{12,}$/.test(w) && w.length <= 40);
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Keys (into `w.keys`) and action values (into `w.says`) of a JSON value, a few levels deep. */
function jsonNames(v: unknown, w: RequestWords, depth = 0): void {
  if (depth > 4 || w.keys.length > 200 || v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const x of v.slice(0, 20)) jsonNames(x, w, depth + 1);
    return;
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>).slice(0, 60)) {
    if (k === 'query' || k === 'variables' || k === 'extensions') continue;
    w.keys.push(k);
    if (ACTION_KEYS.has(k.toLowerCase()) && typeof x === 'string' && x.length <= 60) w.says.push(x);
    jsonNames(x, w, depth + 1);
  }
}

/** GraphQL: the mutations a body runs (operation name and first field); a query is a read. */
function graphqlNames(body: unknown): string[] {
  const ops = Array.isArray(body) ? body : [body];
  const names: string[] = [];
  for (const op of ops.slice(0, 10)) {
    if (!op || typeof op !== 'object') continue;
    const { query, operationName } = op as { query?: unknown; operationName?: unknown };
    if (typeof query !== 'string' && typeof operationName !== 'string') continue;
    if (typeof query === 'string') {
      const m = /^\s*mutation\b\s*(\w+)?\s*(?:\([^)]*\))?\s*\{\s*(\w+)/.exec(query.replace(/#[^\n]*/g, ''));
      if (m) names.push(...[m[1], m[2]].filter((x): x is string => !!x));
      else continue; // a query or a subscription reads
    }
    if (typeof operationName === 'string') names.push(operationName);
  }
  return names;
}

/** The words a request says about itself (see the module's comment). */
export function requestWords(req: OutRequest): RequestWords | null {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const w: RequestWords = { says: [], keys: [], method: (req.method || 'GET').toUpperCase() };
  for (const seg of url.pathname.split('/')) w.says.push(decode(seg));
  const pair = (key: string, value: string) => {
    w.keys.push(key);
    if (ACTION_KEYS.has(key.toLowerCase()) && value.length <= 60) w.says.push(value);
  };
  for (const [k, v] of url.searchParams) pair(k, v);
  const body = w.method === 'GET' || w.method === 'HEAD' ? null : req.body;
  if (body) {
    const text = body.slice(0, 200_000).trim();
    if (text.startsWith('{') || text.startsWith('[')) {
      try {
        const json = JSON.parse(text) as unknown;
        w.says.push(...graphqlNames(json));
        jsonNames(json, w);
      } catch { /* not JSON */ }
    } else if (/^[\w.%[\]-]+=/.test(text)) {
      for (const kv of text.split('&').slice(0, 100)) {
        const [k, v = ''] = kv.split('=');
        pair(decode(k), decode(v));
      }
    } else if (text.startsWith('--')) {
      // multipart: the fields' names
      for (const m of text.matchAll(/name="([^"]{1,60})"/g)) w.keys.push(m[1]);
    }
  }
  return w;
}

/** A Phrases object without the entries too common in addresses, made once per list. */
const trimmed = new WeakMap<Partial<Phrases>, Partial<Phrases>>();
function forAddresses(phrases: Partial<Phrases>): Partial<Phrases> {
  let t = trimmed.get(phrases);
  if (!t) {
    t = Object.fromEntries(Object.entries(phrases).map(([lang, list]) => [lang, (list ?? []).filter((w) => !NOT_IN_ADDRESSES.has(w.trim().toLowerCase()))]));
    trimmed.set(phrases, t);
  }
  return t;
}

/** The words of the last path segment that has any (ids and hashes are not words). */
function lastWords(u: string): string[] {
  const segs = new URL(u).pathname.split('/').map((x) => words(decode(x))).filter((x) => x.length);
  return segs.at(-1) ?? [];
}

/** Whether `seq` holds `phrase` (its words, in order, side by side). */
function holds(seq: string[], phrase: string): boolean {
  const p = phrase.split(' ');
  for (let i = 0; i + p.length <= seq.length; i++) if (p.every((w, j) => seq[i + j] === w)) return true;
  return false;
}

/**
 * The effect a request would have, by its words (see the module's comment): the rule and the
 * words that said it; null for a request that does not look like one.
 */
export function requestEffect(req: OutRequest, phrases: Partial<Record<EffectRule, Partial<Phrases>>>): { rule: EffectRule; said: string } | null {
  const w = requestWords(req);
  if (!w) return null;
  const says = w.says.map(words).filter((s) => s.length);
  if (says.flat().some((x) => READS.has(x))) return null;
  if (w.method === 'DELETE') return { rule: 'delete', said: 'DELETE' };
  if (w.method === 'GET' || w.method === 'HEAD') {
    // the last segment of the path says it, from its first word ("/checkout/confirm-order", "/items/3/delete")
    const last = lastWords(req.url);
    for (const rule of EFFECT_RULES) {
      if (!phrases[rule] || !last.length) continue;
      const strong = GET_PHRASES[rule].find((p) => holds(last.slice(0, p.split(' ').length), p)) ?? (GET_LAST[rule].includes(last[0]) && last.length <= 2 ? last.join(' ') : undefined);
      if (strong) return { rule, said: strong };
    }
    return null;
  }
  // POST, PUT, PATCH: the rules' phrases anywhere in what it says and in its keys, then the APIs' names in what it says
  const seqs = [...says, ...w.keys.map(words).filter((s) => s.length)];
  for (const rule of EFFECT_RULES) {
    const list = phrases[rule];
    if (!list) continue;
    const ph = forAddresses(list);
    for (const seq of seqs) {
      for (let i = 0; i < seq.length; i++) {
        const hit = matchPhrase(seq.slice(i).join(' '), ph);
        if (hit) return { rule, said: hit.replace(/^=/, '') };
      }
    }
  }
  const last = lastWords(req.url);
  for (const rule of EFFECT_RULES) {
    if (!phrases[rule]) continue;
    const word = API_NAMES[rule].find((p) => says.some((s) => holds(s, p))) ?? (last.length === 1 ? CREATES[rule].find((p) => last[0] === p) : undefined);
    if (word) return { rule, said: word };
  }
  return null;
}

export interface EffectContext {
  /** the task's site (its "always allow" list applies) */
  site: string;
  guards: GuardSettings;
  /** the rule the person approved for the action under way: its effect goes on */
  approved?: GuardId | null;
  t?: Translate;
}

/** The request's effect as a guard hit (its rule on, not allowed on the site, not the one approved), or null. */
export function effectCheck(req: OutRequest, ctx: EffectContext): HeldHit | null {
  const allowed = ctx.guards.allow[hostKey(ctx.site)] ?? [];
  const phrases: Partial<Record<EffectRule, Partial<Phrases>>> = {};
  for (const r of ctx.guards.rules) {
    if (!r.on || allowed.includes(r.id) || r.id === ctx.approved || !(EFFECT_RULES as GuardId[]).includes(r.id)) continue;
    phrases[r.id as EffectRule] = r.phrases ?? {};
  }
  if (!Object.keys(phrases).length) return null;
  const hit = requestEffect(req, phrases);
  if (!hit || !(hit.rule in phrases)) return null;
  const url = new URL(req.url);
  const method = (req.method || 'GET').toUpperCase();
  const what = `${method} ${url.host}${url.pathname.length > 60 ? `${url.pathname.slice(0, 60)}…` : url.pathname}`;
  const t = ctx.t ?? english;
  const key = hit.rule === 'payment' ? 'whyEffectPayment' : hit.rule === 'delete' ? 'whyEffectDelete' : 'whyEffectSend';
  return { id: hit.rule, reason: t(key, what, hit.said), what, url: `${url.origin}${url.pathname}`, effect: hit.said };
}
