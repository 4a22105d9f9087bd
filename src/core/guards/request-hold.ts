/**
 * The request hold: a second line of the guards that does not depend on reading the page right
 * (docs/guards.md, "The request hold"). The requests a run's page sends are judged here before they
 * leave (background/hold.ts pauses them), in two ways:
 *
 * 1. **By where they go.** A value the run put into a page (a Settings secret or a password it
 *    typed, a card number typed into a card field) has its destinations (`home`: where it was
 *    typed; `to`: where the person let it go since; destinations are a site and a port,
 *    site.ts destinationOf). While it is in the tab, every request to any other destination is
 *    held, whatever it carries and however it is encoded: a page can reverse, split or encrypt a
 *    value, so what a request looks like cannot clear it. Matching the value (below) only explains
 *    the question. Approving an action never releases a value to another destination.
 * 2. **By what they carry**, for requests to a value's own destinations and for values not put
 *    into a page (a secret the run has not typed yet):
 *    - one of the person's Settings secrets or a password typed in this run (the password rule),
 *      or a card number typed in this run (the payment rule), in any encoding we can read: raw,
 *      URL-encoded (either case of %hex, `+` for space, or any mix: the text is also read
 *      percent-decoded), JSON-escaped (`\"`, `\uXXXX` for every character or some), HTML
 *      entities (`&#64;`, `&#x40;`, `&amp;`… for the whole value), base64 (standard or URL-safe,
 *      padded or not, at any of the 3 byte alignments inside a larger base64 string, and every
 *      base64-looking token decoded), and these nested (base64 of a URL-encoded value,
 *      URL-encoded JSON…); a card number also as its digits alone, with or without spaces or
 *      dashes between groups. The encoded forms are secrets/encodings.ts's, the same list masking
 *      (secrets/index.ts) uses. A secret or password goes to the site it was typed on freely; a card
 *      number is held on its own site too, unless the person approved a payment for the action;
 *    - a payment card number under a card-number-like key (`cc-number`, `cardNumber`,
 *      `card[number]`, `number` in a `card` object, `pan`…) in a form-encoded, JSON or multipart
 *      body or the URL's query, Luhn-valid, 13–19 digits (the payment rule), whoever typed it.
 *
 * A rule that is off or always allowed on the task's site never holds. GET and HEAD requests are
 * judged by their URL only. Values shorter than MIN_SECRET_CHARS are never looked for. Pure.
 */
import { encodedForms, type Carried } from '../secrets/encodings';
import { base64Decode } from '../export/data-url';
import { isCardField } from './fields';
import { hostKey, type GuardHit, type GuardId, type GuardSettings } from '.';
import type { Translate } from '../i18n';
import { english } from '../locales';
import { MIN_SECRET_CHARS } from '../secrets';
import { destinationOf, httpHost, sameSite, siteKey } from '../site';

/** A value a run's requests must not carry without the person's word. */
export interface Watched {
  value: string;
  /** a Settings secret, a password typed in this run, a card number typed in this run */
  /** 'file': a file the person attached, given to a page's file field (its value is fileValue(name): never looked for in a request) */
  kind: 'secret' | 'password' | 'card' | 'file';
  /** a Settings secret's name (its placeholder is shown, never its value) */
  name?: string;
  /**
   * the person approved typing it on this site (a URL or a host): requests to that same site
   * (by the public suffix list) carry it freely
   */
  site?: string | null;
  /**
   * the destinations (site.ts destinationOf) of the page the run put it into: the tab's page, and
   * the frame's when it was typed in another site's frame. Present once it is in a page: from then
   * on, requests to any destination but these and `to` are held whatever they carry.
   */
  home?: readonly string[];
  /** destinations the person let it go to since (a held request they approved) */
  to?: readonly string[];
}

/** A request as the page sends it. */
export interface OutRequest {
  url: string;
  method: string;
  /** the body as text (UTF-8), null when it has none or is not known */
  body: string | null;
  /** the CDP resource type (Document, XHR, Fetch…), for the record */
  resourceType?: string;
}

/** How a value was found in a request's text (secrets/encodings.ts). */
export type { Carried };

/** A request the hold stops: which rule, why (in the person's language), and what it is. */
export interface HeldHit extends GuardHit {
  /** the request, short, for the person: "POST shop.example/api/pay" */
  what: string;
  /**
   * the request's URL without its query and fragment, and without its path too when the value is
   * in it: safe to keep in the run's state
   */
  url: string;
  /** how a watched value was carried (absent for a card number found by its key, or not seen in it) */
  how?: Carried;
  /**
   * the request's destination, when it is held for going where a value in the page may not go
   * (whatever it carries): the person's yes lets the tab's values go there from now on
   */
  away?: string;
  /** held for what it would do (guards/request-effect.ts): the words that say so */
  effect?: string;
}

/** A request held paused in a run's tab until the person answers (kept in the run's state). */
export interface Held {
  /** the Fetch domain's id of the paused request */
  requestId: string;
  tabId: number;
  /** as HeldHit.url: without query, fragment, or a path that carries the value */
  url: string;
  method: string;
  rule: GuardId;
  reason: string;
  what: string;
  /** when it was paused (ms) */
  at: number;
  how?: Carried;
  /** a page load (a form post): blocking it keeps the page where it is (no error page) */
  document?: boolean;
  /** as HeldHit.away */
  away?: string;
  /** the debugger session of the frame or worker that sent it (a child target), absent: the tab's page */
  sessionId?: string;
  /** as HeldHit.effect: held for what it would do (an order, a deletion, a message), not for a value it carries */
  effect?: string;
}

export interface HoldContext {
  /** the task's site (a URL): its "always allow" list applies */
  site: string;
  /** the values to look for, or watchPatterns() of them (kept by the caller: judged once per request) */
  watched: readonly Watched[] | WatchPatterns;
  guards: GuardSettings;
  /** the rule the person already approved for the action under way: it does not hold again */
  approved?: GuardId | null;
  /** the person's language for the reason (English when absent) */
  t?: Translate;
}

/** One watched value with its encodings, computed once. */
interface Pattern {
  watched: Watched;
  rule: GuardId;
  value: string;
  /** the card's digits with optional spaces / dashes between them; null when not a card */
  digits: RegExp | null;
  /** the value encoded (secrets/encodings.ts: URL, form, JSON, HTML entities, base64 at each alignment), each with how */
  needles: Array<[Carried, string]>;
  /** the host of the site the value is released to */
  releasedTo: string | null;
}

/** watchPatterns' result: keep it while the watched values do not change. */
export interface WatchPatterns { readonly patterns: readonly Pattern[] }

/** Attached files are the person's own data, like their secrets: the password rule ("passwords and secrets") guards them. */
const RULE_OF: Record<Watched['kind'], GuardId> = { secret: 'password', password: 'password', card: 'payment', file: 'password' };

const FILE_MARK = '\u0000file\u0000';
/** The watched value standing for an attached file (its bytes are not looked for in requests: only where they go counts). */
export const fileValue = (name: string) => `${FILE_MARK}${name}`;
/** The file's name when `value` stands for one (fileValue), else null. */
export const fileNameOf = (value: string) => (value.startsWith(FILE_MARK) ? value.slice(FILE_MARK.length) : null);

/**
 * Text past this is not decoded: a large upload stays quick to judge (a 2 MB JSON body in about
 * 0.1 s, a few kB in well under 1 ms). It is still searched whole for the value raw and in each
 * single encoding (the needles); only nested or mixed encodings past it go unseen.
 */
const MAX_DECODE_CHARS = 256_000;
/** A body past this is not parsed for card-number keys. */
const MAX_PARSE_CHARS = 4_000_000;
/** Decoded readings of a request at most (raw, percent-decoded, JSON-unescaped, base64… nested). */
const MAX_VIEWS = 16;
const DECODE_DEPTH = 3;

const decoder = new TextDecoder('utf-8');
/** UTF-8 that never throws: invalid bytes become U+FFFD (an ASCII byte after one is kept). */
const fromUtf8 = (b: Uint8Array) => decoder.decode(b);

/** The card's digits when `value` is 13–19 digits with spaces or dashes between, else null (not Luhn-checked). */
function digitsOf(value: string): string | null {
  if (!/^[\d\s-]+$/.test(value)) return null;
  const d = value.replace(/\D/g, '');
  return d.length >= 13 && d.length <= 19 ? d : null;
}

/** The Luhn check of a digit string. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let n = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) { n *= 2; if (n > 9) n -= 9; }
    sum += n;
  }
  return sum % 10 === 0;
}

/** The digits of a payment card number (13–19 digits, spaces or dashes allowed between, Luhn-valid, not all zeros), or null. */
export function cardNumberOf(value: string): string | null {
  const d = digitsOf(value.trim());
  return d && luhnValid(d) && !/^0+$/.test(d) ? d : null;
}

function patternOf(w: Watched): Pattern | null {
  if (typeof w?.value !== 'string' || w.value.length < MIN_SECRET_CHARS) return null;
  const value = w.value;
  // a base64 form shorter than MIN_BASE64_NEEDLE is left to the decoded reading (a short one matches by chance)
  const needles = w.kind === 'file' ? [] : encodedForms(value);
  const d = w.kind === 'card' ? digitsOf(value) : null;
  const releasedTo = w.site ? httpHost(w.site) ?? (w.site.trim() ? hostKey(w.site.trim()) : null) : null;
  return {
    watched: w,
    rule: RULE_OF[w.kind] ?? 'password',
    value,
    digits: d ? new RegExp(d.split('').join('[\\s-]?')) : null,
    needles,
    releasedTo,
  };
}

const memo = new WeakMap<readonly Watched[], WatchPatterns>();

/** The watched values' encodings, computed once (values shorter than MIN_SECRET_CHARS dropped). */
export function watchPatterns(watched: readonly Watched[]): WatchPatterns {
  const known = memo.get(watched);
  if (known) return known;
  const made: WatchPatterns = { patterns: watched.map(patternOf).filter((p): p is Pattern => p !== null) };
  memo.set(watched, made);
  return made;
}

/** A reading of the text: as it is, or decoded once or more (`how`: the last decoding). */
interface View { how: Carried; text: string }

/** Percent-decoding that never throws: each run of %XX is UTF-8 (invalid bytes become U+FFFD). */
function percentDecode(s: string, plusIsSpace: boolean): string {
  const src = plusIsSpace ? s.replace(/\+/g, ' ') : s;
  return src.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(3 * i + 1, 3 * i + 3), 16);
    return fromUtf8(bytes);
  });
}

const JSON_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function jsonUnescape(s: string): string {
  return s.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, (_, hex: string | undefined, c: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : JSON_ESCAPES[c!]));
}

const BASE64_TOKEN = /[A-Za-z0-9+/_-]{6,}={0,2}/g;

function base64Text(token: string): string {
  try {
    const t = token.replace(/-/g, '+').replace(/_/g, '/');
    return fromUtf8(base64Decode(t.length % 4 === 1 ? t.slice(0, -1) : t));
  } catch {
    return '';
  }
}

/** Every base64-looking token decoded (also each "/"-separated piece: a path's segments), one a line. */
function base64Decoded(s: string): string {
  const out: string[] = [];
  for (const m of s.matchAll(BASE64_TOKEN)) {
    out.push(base64Text(m[0]));
    if (m[0].includes('/')) for (const piece of m[0].split('/')) if (piece.length >= 6) out.push(base64Text(piece));
  }
  return out.join('\n');
}

const DECODERS: Array<[Carried, (s: string) => string | null]> = [
  ['url', (s) => (/%[0-9A-Fa-f]{2}/.test(s) ? percentDecode(s, false) : null)],
  ['url', (s) => (s.includes('+') ? percentDecode(s, true) : null)],
  ['json', (s) => (/\\[u"\\/bfnrt]/.test(s) ? jsonUnescape(s) : null)],
  ['base64', (s) => { const d = base64Decoded(s); return d ? d : null; }],
];

/** The text and its decoded readings, nested up to DECODE_DEPTH, at most MAX_VIEWS. */
function viewsOf(text: string): View[] {
  const out: View[] = [{ how: 'raw', text }];
  // Compared by length first: hashing megabytes into a Set cost more than all the decoding.
  const seen = (t: string) => out.some((v) => v.text.length === t.length && v.text === t);
  let frontier = out.slice();
  for (let depth = 0; depth < DECODE_DEPTH && frontier.length && out.length < MAX_VIEWS; depth++) {
    const next: View[] = [];
    for (const v of frontier) {
      const src = v.text.length > MAX_DECODE_CHARS ? v.text.slice(0, MAX_DECODE_CHARS) : v.text;
      for (const [how, decode] of DECODERS) {
        if (out.length >= MAX_VIEWS) break;
        // base64 inside decoded base64 is left alone: decoding binary as base64 again finds only noise
        if (how === 'base64' && v.how === 'base64') continue;
        const t = decode(src);
        if (t === null || seen(t)) continue;
        const view = { how, text: t };
        out.push(view);
        next.push(view);
      }
    }
    frontier = next;
  }
  return out;
}

function findIn(views: readonly View[], p: Pattern): Carried | null {
  if (p.watched.kind === 'file') return null;
  for (const v of views) {
    if (v.text.includes(p.value) || (p.digits && p.digits.test(v.text))) return v.how;
    for (const [how, needle] of p.needles) if (v.text.includes(needle)) return how;
  }
  return null;
}

/**
 * How `text` carries `value`: raw, URL-encoded, JSON-escaped or base64 (see the module's
 * comment), or null; a card also by its digits alone. Values shorter than MIN_SECRET_CHARS: null.
 */
export function carriedIn(text: string, value: string, kind: Watched['kind']): Carried | null {
  const p = patternOf({ value, kind });
  return p ? findIn(viewsOf(text), p) : null;
}

// --- card numbers found by their key -------------------------------------------------------------

/** A name split into words: "cardNumber" -> " card number ", "cc-number" -> " cc number ". */
function words(s: string): string {
  return ` ${s.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `;
}

/** Card fields (guards/fields.ts) whose value is not the number, even when it is a long digit string. */
const NOT_NUMBER_KEY = / (id|uuid|guid|token|ref|reference|hash|fingerprint|last4|last 4|last four|bin|iin|count|cvv|cvc|csc|exp|expiry|expiration|holder|cardholder|name) /;
/** the number in a card object ({"card": {"number": …}}), or a key of its own ("pan") */
const NUMBER_IN_CARD = / (number|num|no|pan|card number) /;
const PAN_KEY = / (pan|primary account number) /;

const isCardName = (k: string) => isCardField({ tag: 'input', type: 'text', name: k }, undefined);

/** A field path (object keys or form name parts) whose value is a card number. */
function isCardNumberKey(path: readonly string[]): boolean {
  const keys = path.filter((k) => k && !/^\d+$/.test(k));
  const last = keys[keys.length - 1];
  if (!last) return false;
  const w = words(last);
  if (NOT_NUMBER_KEY.test(w)) return false;
  if (PAN_KEY.test(w) || isCardName(last)) return true;
  // the number in a card object: "card", "creditCard", "cards" (a list of them)
  return NUMBER_IN_CARD.test(w) && keys.slice(0, -1).some((k) => isCardName(k) || isCardName(k.replace(/s$/, '')));
}

interface Field { name: string; path: string[]; value: string }

/** "card[number]" / "card.number" -> ["card", "number"]. */
function pathOf(name: string): string[] {
  return name.split(/[[\].]+/).filter(Boolean);
}

const MAX_FIELDS = 5000;

function jsonFields(value: unknown, path: string[], out: Field[], depth: number): void {
  if (out.length >= MAX_FIELDS || depth > 32) return;
  if (typeof value === 'string' || typeof value === 'number') {
    out.push({ name: path.join('.'), path, value: String(value) });
    if (typeof value === 'string') nestedFields(value, path, out, depth + 1);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => jsonFields(v, [...path, String(i)], out, depth + 1));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) jsonFields(v, [...path, k], out, depth + 1);
  }
}

/** A value that is itself JSON or a form ("payload={…}"): its fields, under the value's path. */
function nestedFields(s: string, path: string[], out: Field[], depth: number): void {
  if (depth > 32 || s.length < 15) return;
  const t = s.trim();
  if (/^[{[]/.test(t)) {
    try {
      jsonFields(JSON.parse(t), path, out, depth);
    } catch { /* not JSON */ }
  }
}

function formFields(body: string, out: Field[], depth: number): void {
  for (const pair of body.split('&')) {
    if (out.length >= MAX_FIELDS) return;
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = percentDecode(pair.slice(0, eq), true);
    const value = percentDecode(pair.slice(eq + 1), true);
    const path = pathOf(name);
    out.push({ name, path, value });
    nestedFields(value, path, out, depth + 1);
  }
}

const MULTIPART_PART = /content-disposition:[^\r\n]*?\bname="([^"]*)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)\r?\n--/gi;

function multipartFields(body: string, out: Field[], depth: number): void {
  for (const m of body.matchAll(MULTIPART_PART)) {
    if (out.length >= MAX_FIELDS) return;
    const path = pathOf(m[1]);
    out.push({ name: m[1], path, value: m[2] });
    nestedFields(m[2], path, out, depth + 1);
  }
}

/** The fields of a body: JSON, multipart/form-data or form-encoded, told apart by their look. */
function bodyFields(body: string): Field[] {
  const out: Field[] = [];
  if (body.length > MAX_PARSE_CHARS) return out;
  const t = body.trim();
  if (/^[{[]/.test(t)) {
    try {
      jsonFields(JSON.parse(t), [], out, 0);
      return out;
    } catch { /* not JSON */ }
  }
  if (/^--\S+\r?\n/.test(t) && /content-disposition:\s*form-data/i.test(t.slice(0, 2000))) {
    multipartFields(t, out, 0);
    return out;
  }
  if (/^[^&=\s]+=/.test(t)) formFields(t, out, 0);
  return out;
}

const CARD_RUN = /\d(?:(?:[\s+-]|%20)?\d){12}/;

/** The name of the first card-number field carrying a card number in the URL's query or the body, or null. */
function cardKeyIn(url: URL, body: string | null): string | null {
  // Quick: no run of 13 digits (spaces, dashes, "+" or "%20" between) anywhere, nothing to parse.
  if (!CARD_RUN.test(url.search) && !(body && CARD_RUN.test(body))) return null;
  const fields: Field[] = [];
  if (url.search.length > 1) formFields(url.search.slice(1), fields, 0);
  if (body) fields.push(...bodyFields(body));
  return fields.find((f) => cardNumberOf(f.value) !== null && isCardNumberKey(f.path))?.name ?? null;
}

// --- the judge ----------------------------------------------------------------------------------

const BODYLESS = new Set(['GET', 'HEAD']);

/** The request in short and its URL to keep, neither carrying `p`'s value (nor a long digit run). */
function summary(method: string, url: URL, p: Pattern | null): { what: string; url: string } {
  const carries = (s: string) => /\d(?:[\s-]?\d){11,}/.test(s) || (p !== null && findIn(viewsOf(s), p) !== null);
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname === '/' ? '' : url.pathname;
  const short = path.length > 60 ? `${path.slice(0, 59)}…` : path;
  if (!carries(url.host + path)) return { what: `${method} ${host}${short}`, url: `${url.origin}${path}` };
  const site = siteKey(url.hostname);
  if (!carries(url.host)) return { what: `${method} ${host}/…`, url: `${url.origin}/…` };
  return carries(site) ? { what: `${method} …`, url: `${url.protocol}//…` } : { what: `${method} ….${site}`, url: `${url.protocol}//….${site}` };
}

/** The reason a request to another destination is held: which value is in the page, where it would go. */
function awayReason(w: Watched, to: string, t: Translate, carried: boolean): string {
  const why = w.kind === 'secret' ? t('whyAwaySecret', w.name ?? '?', to)
    : w.kind === 'file' ? t('whyAwayFile', w.name ?? '?', to)
    : w.kind === 'password' ? t('whyAwayPassword', to)
      : w.name ? t('whyAwayCardSecret', w.name, to) : t('whyAwayCard', to);
  return carried ? `${why}; ${t('whyAwayCarried')}` : why;
}

/**
 * The hold for a request the page sends (see the module's comment): a value in the page going to
 * a destination not its own (whatever the request carries), else the first watched value it
 * carries (its rule on, not allowed on the task's site, not the one approved; not released to the
 * request's site), else a card number under a card-number key (payment); null when it may go.
 * Only http(s) requests; GET and HEAD by their URL only.
 */
export function holdCheck(req: OutRequest, ctx: HoldContext): HeldHit | null {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return null;
  }
  const host = httpHost(req.url);
  if (!host) return null;
  const allowed = ctx.guards.allow[hostKey(ctx.site)] ?? [];
  const on = (id: GuardId) => !allowed.includes(id) && ctx.guards.rules.some((r) => r.id === id && r.on);
  const password = on('password') && ctx.approved !== 'password';
  const payment = on('payment') && ctx.approved !== 'payment';
  if (!on('password') && !on('payment')) return null;
  const t = ctx.t ?? english;
  const method = (req.method || 'GET').toUpperCase();
  const body = BODYLESS.has(method) ? null : req.body;
  const to = hostKey(host);
  let seen: View[] | null = null;
  const views = () => (seen ??= viewsOf(body ? `${req.url}\n${body}` : req.url));

  const all = 'patterns' in ctx.watched ? (ctx.watched as WatchPatterns).patterns : watchPatterns(ctx.watched as readonly Watched[]).patterns;
  // 1. by where it goes: an approval never covers this
  const dest = destinationOf(req.url);
  for (const p of all) {
    const w = p.watched;
    if (!w.home?.length || !dest || !on(p.rule) || w.home.includes(dest) || w.to?.includes(dest)) continue;
    const how = findIn(views(), p);
    return { id: p.rule, reason: awayReason(w, url.host, t, how !== null), ...(how ? { how } : {}), away: dest, ...summary(method, url, p) };
  }
  // 2. by what it carries
  // a secret or password goes freely where it was typed (or released to); a card is held there too when it carries it
  const free = (p: Pattern) => (p.releasedTo !== null && sameSite(p.releasedTo, host)) || (dest !== null && (!!p.watched.to?.includes(dest) || (p.watched.kind !== 'card' && !!p.watched.home?.includes(dest))));
  const live = all.filter((p) => (p.rule === 'password' ? password : payment) && !free(p));
  for (const p of live) {
    const how = findIn(views(), p);
    if (!how) continue;
    const w = p.watched;
    const reason = w.kind === 'secret' ? t('whyRequestSecret', w.name ?? '?', to)
      : w.kind === 'password' ? t('whyRequestPassword', to)
        : w.name ? t('whyRequestCardSecret', w.name, to) : t('whyRequestCardTyped', to);
    return { id: p.rule, reason, how, ...summary(method, url, p) };
  }
  // (a card the person let go to this destination is not asked about again by its key)
  if (payment && !(dest && all.some((p) => p.watched.kind === 'card' && p.watched.to?.includes(dest)))) {
    const key = cardKeyIn(url, body);
    if (key !== null) return { id: 'payment', reason: t('whyRequestCard', to, key.slice(0, 60)), ...summary(method, url, null) };
  }
  return null;
}

/** The record of a held request, from the hit (`at`: ms). */
export function heldOf(hit: HeldHit, req: OutRequest, requestId: string, tabId: number, at: number, sessionId?: string): Held {
  return {
    ...(sessionId ? { sessionId } : {}),
    requestId, tabId, url: hit.url, method: (req.method || 'GET').toUpperCase(), rule: hit.id, reason: hit.reason, what: hit.what, at,
    ...(hit.how ? { how: hit.how } : {}),
    ...(hit.away ? { away: hit.away } : {}),
    ...(hit.effect ? { effect: hit.effect } : {}),
    ...(req.resourceType === 'Document' ? { document: true } : {}),
  };
}
