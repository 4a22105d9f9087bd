/**
 * Guards: actions that pause a run for the person's approval even in auto mode.
 * Pure: the background gives the target's details (from the labeled element) and the pages' URLs.
 *
 * Rules (each can be switched off and its words edited in settings):
 * - password: typing into a password field, a shown password (type=text, but a password by its
 *   autocomplete, name, id or label), a PIN or a one-time code field (guards/fields.ts);
 * - payment: clicking something whose text is a pay / order phrase ("Pay now", "Place order",
 *   "立即购买", "Jetzt kaufen");
 * - delete: ... a delete phrase ("Delete this project", "Remove", "删除", "メッセージを削除");
 * - send: ... a send / publish phrase ("Send", "Post comment", "Antworten"), or typing into a
 *   message, comment, reply or chat field (the Type action presses Enter, which sends in most such boxes);
 * - download: a link with a `download` attribute, to a file with a listed extension, or whose text starts
 *   with "download" (an early warning: a download the browser really starts is asked about after the
 *   action, guards/after.ts);
 * - leave-site: a link, a form's submit button (its form's `action` or its own `formaction`), Enter
 *   typed into a field of such a form, a button whose click handler sets a URL in its markup, or the
 *   search / navigate / open-app action, that goes to another site than the task's (sites by the
 *   public suffix list, site.ts). What the page does after an action (a script's navigation, a
 *   redirect, a download) is judged after it (guards/after.ts).
 *
 * Enter submits forms, so a Type that presses Enter, or a Key Enter, in a form counts as clicking
 * the form's default submit button (payment, delete, send by its text), and in a form with payment
 * card fields (or into a card field) as paying. Typing into a <select> counts as clicking the
 * option the text chooses.
 *
 * Text rules match per language (guards/words.ts): at the start of the text on a word boundary
 * (English, French, Spanish), as whole words anywhere (German), anywhere (Chinese, Japanese);
 * "=phrase" must be the whole text and "-phrase" marks a look-alike that never trips the rule.
 * "Pay £25" and "Delete" match, the look-alikes "Payment methods", "Deleted items", "Sent mail",
 * "支付方式", "送信済み" do not. Text and phrases (and field labels) are folded alike first
 * (foldGuardText, fold-text.ts): NFKC, zero-width / soft-hyphen / bidi characters dropped, accents
 * dropped from Latin, Cyrillic and Greek letters, look-alike Cyrillic / Greek letters read as Latin,
 * Traditional Chinese read as Simplified, "&" and "+" between words read as "and", case folded; so
 * "Pla\u200bce order", "Ｐｌａｃｅ ｏｒｄｅｒ", "Confirm & pay" and "立即購買" match. A text ending in "?"
 * is exempt only when it reads as a question ("How do I delete…?", "如何删除账户？"; not "Delete account?").
 * Per-site "always allow" lists rules that never pause on a site (by host, "www." dropped).
 */
import type { Action } from '../action/action';
import type { Translate } from '../i18n';
import { english } from '../locales';
import { isCardField, isPasswordField, type FieldInfo, type FormInfo } from './fields';
import { DEFAULT_PHRASES, GUARD_LANGS, matchPhrase, OLD_DEFAULT_WORDS, type Phrases, type TextRuleId } from './words';

export type { FieldInfo, FormInfo } from './fields';
export { GUARD_LANGS, GUARD_LANG_KEYS, type GuardLang } from './words';
import { awayHost, siteKey } from '../site';
import { activations, type Reach } from './gate';
import { foldGuardText } from '../fold-text';

export type GuardId = 'password' | 'payment' | 'delete' | 'send' | 'download' | 'leave-site';

export interface GuardRule {
  id: GuardId;
  on: boolean;
  /** file extensions (download); unused by the others */
  words: string[];
  /** the text rules' phrases (payment, delete, send), per language (guards/words.ts); empty for the others */
  phrases: Partial<Phrases>;
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
    { id: 'password', on: true, words: [], phrases: {} },
    { id: 'payment', on: true, words: [], phrases: DEFAULT_PHRASES.payment },
    { id: 'delete', on: true, words: [], phrases: DEFAULT_PHRASES.delete },
    { id: 'send', on: true, words: [], phrases: DEFAULT_PHRASES.send },
    { id: 'download', on: true, words: ['zip', 'exe', 'msi', 'dmg', 'pkg', 'apk', 'deb', 'rpm', 'iso', 'tar', 'gz', 'tgz', '7z', 'rar', 'bin', 'jar'], phrases: {} },
    { id: 'leave-site', on: true, words: [], phrases: {} },
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
  /** the element's own field attributes, when it is a form field */
  field?: FieldInfo;
  /** the form it is in */
  form?: FormInfo;
  /** a <select>'s usable options' texts */
  options?: string[];
  /**
   * where a click (a submit button) or Enter (a field of a form) submits the element's form: the
   * button's `formaction`, else the form's `action` (absolute URL); null: it submits no form
   */
  formAction?: string | null;
  /** a URL the element's inline click handler navigates to (`location.href = '…'`, `window.open('…')`) */
  navigatesTo?: string | null;
  /** its other names, when they differ from `text`: CSS-generated text, alt, value, title, aria-label */
  names?: string[];
  /** it takes typed text (a field); absent: judged from its tag and type */
  editable?: boolean;
  /** it is a button of this form (`submits`: a submit button, which a press submits) */
  buttonOf?: FormInfo & { submits: boolean };
}

/** An element an action's input reaches, and how (gate.ts); `target` null: nothing known there. */
export interface Reached { how: Reach; target: GuardTarget | null }

export interface GuardContext {
  /** the task's site ({Web}): "https://shop.example/" */
  site: string;
  /** where the search action goes */
  searchStartPage: string;
  /** sites the person listed as apps (glm-mobile's open_app, cogagent's LAUNCH(app=…)): they count as the task's own */
  apps?: { name: string; url: string }[];
  /** the person's language for the hit's reason (English when absent) */
  t?: Translate;
}

export interface GuardHit {
  id: GuardId;
  reason: string;
  /** leave-site: the site the action would act on (a yes allows it for the rest of the run: core/allowed-sites.ts) */
  site?: string;
}

/** Settings from storage, made whole: every rule present once, in order; unknown ones dropped. */
export function normalizeGuards(input: unknown): GuardSettings {
  const src = (input && typeof input === 'object' ? input : {}) as Partial<GuardSettings>;
  const given = Array.isArray(src.rules) ? src.rules : [];
  const rules = DEFAULT_GUARDS.rules.map((d) => {
    const g = given.find((r) => r && (r as GuardRule).id === d.id) as Partial<GuardRule> | undefined;
    const on = typeof g?.on === 'boolean' ? g.on : d.on;
    if (isTextRule(d.id)) return { id: d.id, on, words: [], phrases: normalizePhrases(d.id, g) };
    return { id: d.id, on, words: cleanList(g?.words) ?? d.words, phrases: {} };
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

function cleanList(list: unknown): string[] | null {
  return Array.isArray(list) ? list.filter((w): w is string => typeof w === 'string').map((w) => w.trim().toLowerCase()).filter(Boolean) : null;
}

function isTextRule(id: GuardId): id is TextRuleId {
  return id === 'payment' || id === 'delete' || id === 'send';
}

/**
 * A text rule's phrases: each language's saved list, or its default. A flat `words` list saved
 * before phrases were per language becomes the English list when the person had edited it (a list
 * equal to the old default takes the new English default).
 */
function normalizePhrases(id: TextRuleId, g: Partial<GuardRule> | undefined): Phrases {
  const out = { ...DEFAULT_PHRASES[id] };
  const saved = g?.phrases && typeof g.phrases === 'object' ? g.phrases as Record<string, unknown> : null;
  if (saved) {
    for (const lang of GUARD_LANGS) out[lang] = cleanList(saved[lang]) ?? out[lang];
    return out;
  }
  const old = cleanList(g?.words);
  if (old && old.join(',') !== OLD_DEFAULT_WORDS[id].join(',')) out.en = old;
  return out;
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

function normalizeText(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The phrase starts the text and ends on a word boundary (the download rule's "download"). */
function startsWithPhrase(text: string, phrase: string): boolean {
  if (!phrase || !text.startsWith(phrase)) return false;
  const next = text.charAt(phrase.length);
  return next === '' || !/[\p{L}\p{N}_]/u.test(next);
}

function firstPhrase(text: string, words: string[]): string | null {
  const t = normalizeText(text).replace(/^[^\p{L}\p{N}]+/u, '');
  return words.find((w) => startsWithPhrase(t, normalizeText(w))) ?? null;
}

/** The option typing `text` into a select chooses (as content-scripts/select-pick.ts finds it), or the text itself. */
function chosenOption(text: string, options: string[] | undefined): string {
  const want = normalizeText(text);
  const list = options ?? [];
  return list.find((o) => normalizeText(o) === want)
    ?? (want ? list.find((o) => normalizeText(o).startsWith(want)) ?? list.find((o) => normalizeText(o).includes(want)) : undefined)
    ?? text;
}

/** Words of a field for a message, comment, reply or post, in the guard languages. */
const MESSAGE_WORDS = /\b(message|messages|comment|comments|reply|chat|post|tweet|nachricht|kommentar|antwort|commentaire|réponse|mensaje|comentario|respuesta)\b|消息|留言|评论|評論|回复|回覆|私信|メッセージ|コメント|返信/;

/**
 * A field for a message, comment, reply or post: typing presses Enter, which sends in most chat and
 * comment boxes, and its form's button sends it. Search fields ("Search messages") are not.
 */
function typesAMessage(text: string): boolean {
  const t = foldGuardText(text);
  return !/^search\b/.test(t) && MESSAGE_WORDS.test(t);
}

/** A form field that holds a message: by its label, or its name / id words ("comment_body"). */
function isMessageField(f: FieldInfo): boolean {
  if (f.tag !== 'textarea' && f.tag !== 'input' && f.tag !== undefined && f.type !== undefined) return false;
  if (f.tag === 'input' && f.type && !['text', ''].includes(f.type)) return false;
  const words = (s: string | undefined) => (s ?? '').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.[\]]+/g, ' ');
  return [f.label, words(f.name), words(f.id)].some((s) => !!s && typesAMessage(s));
}

/**
 * A message composer: a contenteditable box outside any form (chat boxes: Messenger's "Aa", a
 * reply box): Enter there sends, as nothing else can submit it. Text areas and one-line fields
 * outside a form are not (search boxes are often a <textarea> whose Enter searches); a text area
 * for a message is one by its words (typesAMessage). A box named as a search is not one either.
 */
function isComposer(t: GuardTarget): boolean {
  if (t.form || t.editable !== true) return false;
  const tag = t.field?.tag ?? t.tag;
  if (tag === 'input' || tag === 'textarea' || tag === 'select') return false;
  return !namesOf(t).some((n) => /^search\b/.test(foldGuardText(n)));
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

/** Each text rule's reasons (message keys): a press, Enter in a form, an option chosen, a button of a form. */
const WHY: Record<TextRuleId, { click: string; form: string; choose: string }> = {
  payment: { click: 'whyClickPay', form: 'whyFormPay', choose: 'whyChoosePay' },
  delete: { click: 'whyClickDelete', form: 'whyFormDelete', choose: 'whyChooseDelete' },
  send: { click: 'whyClickSend', form: 'whyFormSend', choose: 'whyChooseSend' },
};

/** Input types that hold no typed value: a press or Space activates them, Enter is not typing. */
const NOT_TYPED = new Set(['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'file', 'color', 'range']);

/** Tags that are pressed, never typed into. */
const PRESSED = new Set(['button', 'a', 'area', 'summary', 'option', 'label', 'select']);

/**
 * The element takes typed text (a text field, a text area, contenteditable), as the page reported
 * (the background always says); when unknown, by its tag (a <div> may be contenteditable).
 */
function takesText(t: GuardTarget): boolean {
  if (t.editable !== undefined) return t.editable && t.tag !== 'select';
  if (t.tag === 'input') return !NOT_TYPED.has(t.inputType ?? 'text');
  return !PRESSED.has(t.tag);
}

const isSelect = (t: GuardTarget) => t.tag === 'select' || t.field?.tag === 'select';

/**
 * What an input does to the element it reaches (gate.ts): a press activates it; typing into a
 * field types, into a <select> chooses an option, into anything else clicks it first; Enter in a
 * field submits its form, on anything else activates it; Space activates what is not a field.
 */
type Effect = 'press' | 'type' | 'choose' | 'submit' | null;

function effectOf(r: Reached): Effect {
  const t = r.target;
  if (!t) return null;
  switch (r.how) {
    case 'press': return 'press';
    case 'type': return isSelect(t) ? 'choose' : takesText(t) ? 'type' : 'press';
    case 'enter': return isSelect(t) ? null : takesText(t) ? 'submit' : 'press';
    case 'space': return takesText(t) || isSelect(t) ? null : 'press';
  }
}

/** The element's names the text rules read: its text, then its other names (CSS text, alt, value, title, aria-label). */
function namesOf(t: GuardTarget): string[] {
  return [t.text, ...(t.names ?? [])].filter((n) => n && n.trim());
}

const short = (s: string) => s.trim().slice(0, 60);

function checkText(rule: GuardRule & { id: TextRuleId }, effect: Effect, target: GuardTarget, action: Action, t: Translate): string | null {
  const why = WHY[rule.id];
  if (effect === 'press') {
    const named = namesOf(target).find((n) => matchPhrase(n, rule.phrases));
    if (named) return t(why.click, short(named));
    // A button of a form: a form with payment card fields pays, whatever its button says; its
    // submit button sends a form with a message field.
    const form = target.buttonOf;
    if (!form) return null;
    if (rule.id === 'payment' && form.fields.some((f) => isCardField(f, f.label))) return t('whyClickCardForm', short(namesOf(target)[0] ?? ''));
    if (rule.id === 'send' && form.submits && form.fields.some(isMessageField)) return t('whyClickMessageForm', short(namesOf(target)[0] ?? ''));
    return null;
  }
  if (effect === 'choose') {
    const option = chosenOption(action.type === 'type' ? action.text : '', target.options);
    return matchPhrase(option, rule.phrases) ? t(why.choose, short(option)) : null;
  }
  if (effect !== 'submit') return null;
  // Enter in a field submits its form through its default button.
  if (rule.id === 'send' && (typesAMessage(target.text) || (target.field && isMessageField(target.field)) || isComposer(target))) {
    return action.type === 'type' ? t('whyTypeEnterSend', short(target.text)) : t('whyEnterSend', short(target.text));
  }
  if (rule.id === 'payment') {
    const field = target.field ?? { tag: target.tag, type: target.inputType };
    if (isCardField(field, field.label ?? target.text) || target.form?.fields.some((f) => isCardField(f, f.label))) return t('whyEnterCard');
  }
  if (rule.id === 'send' && target.form?.fields.some(isMessageField)) return t('whyEnterSend', short(target.text));
  const submit = target.form?.submit;
  return submit && matchPhrase(submit, rule.phrases) ? t(why.form, short(submit)) : null;
}

function check(rule: GuardRule, action: Action, reached: Reached[], ctx: GuardContext): string | null {
  const t = ctx.t ?? english;
  if (rule.id === 'leave-site') {
    const away = awayOf(action, reached, ctx);
    return away ? t('whyLeave', hostKey(hostOf(ctx.site) ?? ctx.site), hostKey(away)) : null;
  }
  for (const r of reached) {
    const effect = effectOf(r);
    const target = r.target;
    if (!effect || !target) continue;
    const reason = checkOne(rule, effect, target, action, t);
    if (reason) return reason;
  }
  return null;
}

function checkOne(rule: GuardRule, effect: Effect, target: GuardTarget, action: Action, t: Translate): string | null {
  switch (rule.id) {
    case 'password': {
      if (effect !== 'type' || action.type !== 'type') return null;
      if (target.inputType === 'password') return t('whyPassword');
      const field = target.field ?? { tag: target.tag, type: target.inputType };
      return isPasswordField(field, field.label ?? target.text) ? t('whyPasswordLike', short(target.text)) : null;
    }
    case 'payment':
    case 'delete':
    case 'send':
      return checkText(rule as GuardRule & { id: TextRuleId }, effect, target, action, t);
    case 'download': {
      if (effect !== 'press') return null;
      if (target.download) return t('whyDownloadLink');
      const ext = target.href ? fileExtension(target.href) : null;
      if (ext && rule.words.includes(ext)) return t('whyDownloadExt', ext);
      const named = namesOf(target).find((n) => firstPhrase(n, ['download']));
      return named ? t('whyDownloadText', short(named)) : null;
    }
    case 'leave-site':
      return null;
  }
}

/** Another site the action may go to (every way: the address it opens, or what the elements it reaches open or submit to), or null. */
function awayOf(action: Action, reached: Reached[], ctx: GuardContext): string | null {
  if (!hostOf(ctx.site)) return null;
  const app = action.type === 'openApp' ? ctx.apps?.find((a) => a.name.toLowerCase() === action.name.toLowerCase()) : undefined;
  const to: (string | null | undefined)[] = action.type === 'search' ? [ctx.searchStartPage]
    : action.type === 'navigate' ? [action.url]
      : app ? [app.url] : [];
  for (const r of reached) {
    const effect = effectOf(r);
    if (effect === 'press') to.push(r.target?.href, r.target?.formAction, r.target?.navigatesTo);
    else if (effect === 'submit') to.push(r.target?.formAction);
  }
  return to.map((u) => (u ? awayHost(ctx.site, u, ctx.apps) : null)).find((h) => h !== null) ?? null;
}

/**
 * The first guard the action trips, judged on every element its input reaches (`reached`: the
 * gate's activations, gate.ts, each resolved to the element there by the background), or null.
 * Rules allowed on the task's site are skipped.
 */
export function guardCheckReached(action: Action, reached: Reached[], ctx: GuardContext, guards: GuardSettings): GuardHit | null {
  const allowed = guards.allow[hostKey(ctx.site)] ?? [];
  for (const rule of guards.rules) {
    if (!rule.on || allowed.includes(rule.id)) continue;
    const reason = check(rule, action, reached, ctx);
    if (!reason) continue;
    const away = rule.id === 'leave-site' ? awayOf(action, reached, ctx) : null;
    return { id: rule.id, reason, ...(away ? { site: siteKey(away) } : {}) };
  }
  return null;
}

/**
 * guardCheckReached with one element known: the action's target, which is also the focused
 * element for a key or for typing into no particular field (a drag's release point: unknown).
 */
export function guardCheck(action: Action, target: GuardTarget | null, ctx: GuardContext, guards: GuardSettings): GuardHit | null {
  const reached = activations(action).map((x) => ({ how: x.how, target: x.where.at === 'point' ? null : target }));
  return guardCheckReached(action, reached, ctx, guards);
}

/** The settings with `id` always allowed on the task's site. */
export function allowOnSite(guards: GuardSettings, site: string, id: GuardId): GuardSettings {
  const key = hostKey(site);
  const now = guards.allow[key] ?? [];
  return now.includes(id) ? guards : { ...guards, allow: { ...guards.allow, [key]: [...now, id] } };
}
