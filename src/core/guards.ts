/**
 * Guards: actions that pause a run for the person's approval even in auto mode.
 * Pure: the background gives the target's details (from the labeled element) and the pages' URLs.
 *
 * Rules (each can be switched off and its words edited in settings):
 * - password: typing into a password field;
 * - payment: clicking something whose text starts with a pay / order word ("Pay now", "Place order");
 * - delete: ... a delete word ("Delete this project", "Remove");
 * - send: ... a send / publish word ("Send", "Post comment"), or typing into a message, comment, reply
 *   or chat field (the Type action presses Enter, which sends in most such boxes);
 * - download: a link with a `download` attribute, to a file with a listed extension, or whose text starts
 *   with "download" (an early warning: a download the browser really starts is asked about after the
 *   action, guard-after.ts);
 * - leave-site: a link, a form's submit button (its form's `action` or its own `formaction`), Enter
 *   typed into a field of such a form, a button whose click handler sets a URL in its markup, or the
 *   search / navigate / open-app action, that goes to another site than the task's (sites by the
 *   public suffix list, site.ts). What the page does after an action (a script's navigation, a
 *   redirect, a download) is judged after it (guard-after.ts).
 *
 * Text rules match a word or phrase at the start of the element's text, on a word boundary: "Pay £25"
 * and "Delete" match, the look-alikes "Payment methods", "Deleted items", "Sent mail" do not.
 * Per-site "always allow" lists rules that never pause on a site (by host, "www." dropped).
 */
import type { Action } from './action/action';
import type { Translate } from './i18n';
import { english } from './locales';
import { awayHost } from './site';

export type GuardId = 'password' | 'payment' | 'delete' | 'send' | 'download' | 'leave-site';

export interface GuardRule {
  id: GuardId;
  on: boolean;
  /** phrases (text rules) or file extensions (download); unused by password and leave-site */
  words: string[];
}

export interface GuardSettings {
  rules: GuardRule[];
  /** host (without "www.") -> rules always allowed there */
  allow: Record<string, GuardId[]>;
}

export const GUARD_IDS: GuardId[] = ['password', 'payment', 'delete', 'send', 'download', 'leave-site'];

/** Each rule's name for the person: a message key (public/_locales). */
export const GUARD_NAME_KEYS: Record<GuardId, string> = {
  'password': 'guardPassword',
  'payment': 'guardPayment',
  'delete': 'guardDelete',
  'send': 'guardSend',
  'download': 'guardDownload',
  'leave-site': 'guardLeaveSite',
};

/** Each rule's name in English (the runner's approval prompt). */
export const GUARD_NAMES = Object.fromEntries(GUARD_IDS.map((id) => [id, english(GUARD_NAME_KEYS[id])])) as Record<GuardId, string>;

export const DEFAULT_GUARDS: GuardSettings = {
  rules: [
    { id: 'password', on: true, words: [] },
    { id: 'payment', on: true, words: ['pay', 'pay now', 'place order', 'place your order', 'buy now', 'buy', 'purchase', 'complete purchase', 'complete order', 'confirm order', 'confirm purchase', 'confirm and pay', 'submit order', 'subscribe', 'donate'] },
    { id: 'delete', on: true, words: ['delete', 'remove', 'erase', 'destroy', 'discard', 'trash', 'move to trash', 'empty trash', 'permanently delete'] },
    { id: 'send', on: true, words: ['send', 'post', 'publish', 'tweet', 'reply all', 'submit comment', 'share now'] },
    { id: 'download', on: true, words: ['zip', 'exe', 'msi', 'dmg', 'pkg', 'apk', 'deb', 'rpm', 'iso', 'tar', 'gz', 'tgz', '7z', 'rar', 'bin', 'jar'] },
    { id: 'leave-site', on: true, words: [] },
  ],
  allow: {},
};

/** What the background knows about the action's target. */
export interface GuardTarget {
  tag: string;
  text: string;
  inputType?: string;
  /** the absolute URL of the link the element is or is inside, if any */
  href?: string | null;
  /** the link has a download attribute */
  download?: boolean;
  /**
   * where a click (a submit button) or Enter (a field of a form) submits the element's form: the
   * button's `formaction`, else the form's `action` (absolute URL); null: it submits no form
   */
  formAction?: string | null;
  /** a URL the element's inline click handler navigates to (`location.href = '…'`, `window.open('…')`) */
  navigatesTo?: string | null;
}

export interface GuardContext {
  /** the task's site ({Web}): "https://shop.example/" */
  site: string;
  /** where the search action goes */
  searchStartPage: string;
  /** sites the person listed as apps (glm-mobile's open_app): they count as the task's own */
  apps?: { name: string; url: string }[];
  /** the person's language for the hit's reason (English when absent) */
  t?: Translate;
}

export interface GuardHit { id: GuardId; reason: string }

/** Settings from storage, made whole: every rule present once, in order; unknown ones dropped. */
export function normalizeGuards(input: unknown): GuardSettings {
  const src = (input && typeof input === 'object' ? input : {}) as Partial<GuardSettings>;
  const given = Array.isArray(src.rules) ? src.rules : [];
  const rules = DEFAULT_GUARDS.rules.map((d) => {
    const g = given.find((r) => r && (r as GuardRule).id === d.id) as Partial<GuardRule> | undefined;
    const words = Array.isArray(g?.words) ? g.words.filter((w): w is string => typeof w === 'string').map((w) => w.trim().toLowerCase()).filter(Boolean) : d.words;
    return { id: d.id, on: typeof g?.on === 'boolean' ? g.on : d.on, words };
  });
  const allow: Record<string, GuardId[]> = {};
  if (src.allow && typeof src.allow === 'object') {
    for (const [host, ids] of Object.entries(src.allow)) {
      const ok = Array.isArray(ids) ? ids.filter((i): i is GuardId => GUARD_IDS.includes(i as GuardId)) : [];
      if (ok.length) allow[hostKey(host)] = [...new Set(ok)];
    }
  }
  return { rules, allow };
}

/** "www.shop.example" and "shop.example" are one site for per-site allowing. */
export function hostKey(urlOrHost: string): string {
  let host = urlOrHost;
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(urlOrHost)) host = new URL(urlOrHost).hostname;
  } catch { /* keep as given */ }
  return host.toLowerCase().replace(/:\d+$/, '').replace(/^www\./, '');
}

/** The site of a host, by the public suffix list (site.ts). */
export { siteKey } from './site';

function normalizeText(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The phrase starts the text and ends on a word boundary. */
function startsWithPhrase(text: string, phrase: string): boolean {
  if (!phrase || !text.startsWith(phrase)) return false;
  const next = text.charAt(phrase.length);
  return next === '' || !/[\p{L}\p{N}_]/u.test(next);
}

function firstPhrase(text: string, words: string[]): string | null {
  const t = normalizeText(text).replace(/^[^\p{L}\p{N}]+/u, '');
  return words.find((w) => startsWithPhrase(t, normalizeText(w))) ?? null;
}

/**
 * A field for a message, comment, reply or post: typing presses Enter, which sends in most chat and
 * comment boxes. Search fields ("Search messages") are not.
 */
function typesAMessage(text: string): boolean {
  const t = normalizeText(text);
  return !/^search\b/.test(t) && /\b(message|comment|reply|chat|post|tweet)\b/.test(t);
}

/** Type ending with Enter, or the Enter key: submits the focused field's form. */
function pressesEnter(action: Action): boolean {
  return (action.type === 'type' && action.enter) || (action.type === 'key' && /^(enter|return)$/i.test(action.keys.trim()));
}

function hostOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname : null;
  } catch {
    return null;
  }
}

function fileExtension(url: string): string | null {
  try {
    const m = /\.([a-z0-9]{1,5})$/i.exec(new URL(url).pathname);
    return m ? m[1].toLowerCase() : null;
  } catch {
    return null;
  }
}

function check(rule: GuardRule, action: Action, target: GuardTarget | null, ctx: GuardContext): string | null {
  const siteHost = hostOf(ctx.site);
  const t = ctx.t ?? english;
  const quoted = () => (target?.text ?? '').trim().slice(0, 60);
  switch (rule.id) {
    case 'password':
      return action.type === 'type' && target?.inputType === 'password' ? t('whyPassword') : null;
    case 'payment':
    case 'delete':
    case 'send': {
      const entersText = (action.type === 'type' && action.enter) || (action.type === 'key' && action.keys === 'Enter');
      if (rule.id === 'send' && entersText && target && typesAMessage(target.text)) {
        return action.type === 'type'
          ? t('whyTypeEnterSend', quoted())
          : t('whyEnterSend', quoted());
      }
      if (action.type !== 'click' || !target) return null;
      const hit = firstPhrase(target.text, rule.words);
      if (!hit) return null;
      return t(rule.id === 'payment' ? 'whyClickPay' : rule.id === 'delete' ? 'whyClickDelete' : 'whyClickSend', quoted());
    }
    case 'download': {
      if (action.type !== 'click' || !target) return null;
      if (target.download) return t('whyDownloadLink');
      const ext = target.href ? fileExtension(target.href) : null;
      if (ext && rule.words.includes(ext)) return t('whyDownloadExt', ext);
      if (firstPhrase(target.text, ['download'])) return t('whyDownloadText', quoted());
      return null;
    }
    case 'leave-site': {
      if (!siteHost) return null;
      const app = action.type === 'openApp' ? ctx.apps?.find((a) => a.name.toLowerCase() === action.name.toLowerCase()) : undefined;
      // Every way the action may go (a link with an inline handler: both).
      const to = action.type === 'search' ? [ctx.searchStartPage]
        : action.type === 'navigate' ? [action.url]
          : app ? [app.url]
            : action.type === 'click' ? [target?.href, target?.formAction, target?.navigatesTo]
              : pressesEnter(action) ? [target?.formAction] : [];
      const away = to.map((u) => (u ? awayHost(ctx.site, u, ctx.apps) : null)).find((h) => h !== null);
      return away ? t('whyLeave', hostKey(siteHost), hostKey(away)) : null;
    }
  }
}

/** The first guard the action trips, or null (rules allowed on the task's site are skipped). */
export function guardCheck(action: Action, target: GuardTarget | null, ctx: GuardContext, guards: GuardSettings): GuardHit | null {
  const allowed = guards.allow[hostKey(ctx.site)] ?? [];
  for (const rule of guards.rules) {
    if (!rule.on || allowed.includes(rule.id)) continue;
    const reason = check(rule, action, target, ctx);
    if (reason) return { id: rule.id, reason };
  }
  return null;
}

/** The settings with `id` always allowed on the task's site. */
export function allowOnSite(guards: GuardSettings, site: string, id: GuardId): GuardSettings {
  const key = hostKey(site);
  const now = guards.allow[key] ?? [];
  return now.includes(id) ? guards : { ...guards, allow: { ...guards.allow, [key]: [...now, id] } };
}
