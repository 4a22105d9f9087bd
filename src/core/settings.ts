import { DEFAULT_GUARDS, normalizeGuards, type GuardSettings } from './guards';
import { asCurrency, DEFAULT_CURRENCY, DEFAULT_PRICES, isKnownCurrency, normalizePrices, type PriceTable } from './costs';
import { DIALECTS, dialectOf, isDialect } from './dialects/registry';
import type { App } from './dialects/types';
import { normalizeDialectOptions, oldOptionFields, optionValues } from './dialects/options';
import type { DialectOptionValues } from './dialects/types';
import { isLanguageSetting, type LanguageSetting, type Translate } from './i18n';
import { english } from './locales';
import { normalizeSecrets, secretsProblem, type Secret } from './secrets';

/** User settings, kept in the extension's local storage (the API key never leaves it except in the Authorization header). */
export interface Settings {
  /** OpenAI-compatible base URL, ending in /v1 for most servers */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** the model dialect (prompt, action grammar, coordinates): dialects/registry.ts */
  dialect: string;
  /** sites the model may open as "apps" (glm-mobile's open_app), one "Name = https://…" a line */
  apps: string;
  /** the values of each dialect's own settings (Dialect.options: midscene's bounding boxes, appagent's device, ui-tars' coordinates), by dialect id */
  dialectOptions: Record<string, DialectOptionValues>;
  maxSteps: number;
  /** a run that has gone on this many minutes is stopped with that reason, wherever it is (background/run/driver.ts) */
  maxMinutes: number;
  /** where the "Bing" action goes */
  searchStartPage: string;
  temperature: number;
  maxTokens: number;
  /** stream replies (SSE) */
  stream: boolean;
  /** extra JSON fields merged into the request body, e.g. {"skip_special_tokens": false} for vLLM/SGLang */
  extraBody: string;
  /** ask the person before every action (the side panel's "Approve each step" switch) */
  approveSteps: boolean;
  /** actions that pause even in auto mode (guards/index.ts), and where they are always allowed */
  guards: GuardSettings;
  /** seconds one model request may take before it is abandoned (and retried) */
  requestTimeoutSec: number;
  /** retries of a model request after 429, 5xx, a network error or a timeout (with backoff) */
  maxRetries: number;
  /** stop a run past this many tokens (prompt + completion); 0: no cap */
  maxRunTokens: number;
  /** stop a run past this cost (prices below); 0: no cap */
  maxRunCost: number;
  /** price per million tokens by model name (costs.ts) */
  prices: PriceTable;
  /** the currency of the prices (and so of every cost and the cost cap): an ISO 4217 code, USD by default */
  currency: string;
  /** saved endpoint profiles: name -> the endpoint fields (the API key included, stored locally only) */
  profiles: Record<string, EndpointProfile>;
  /** the interface's language: 'auto' follows the browser; what the model reads is always English */
  language: LanguageSetting;
  /** named values the model never sees (core/secrets/index.ts): it writes {{secret:name}}, filled in when typed */
  secrets: Secret[];
  /**
   * The language model an action may ask in text only (CogAgent's LLM action): empty fields use
   * the endpoint above. A separate base URL takes its own key.
   */
  textBaseUrl: string;
  textApiKey: string;
  textModel: string;
  /**
   * The picture check (image-screen.ts), off by default: each step whose screenshot changed sends
   * one more request, to the run's own endpoint and model, asking whether the picture holds text
   * aimed at the agent (text drawn in images is not in the page text the detector reads).
   */
  screenImages: boolean;
  /**
   * The words drawn in the pictures on screen (images, canvases, background images, posters) are
   * read on this machine by OCR at each step and screened like the page's text (picture-text.ts);
   * on by default. Off: only the page's text is screened (and the picture check, when on).
   */
  readPictures: boolean;
}

/** One saved endpoint: what a preset fills, plus the key. */
/** An endpoint saved by name: its fields, and the values of its dialect's options (how its model writes boxes, say). */
export type EndpointProfile = Pick<Settings, 'baseUrl' | 'apiKey' | 'model' | 'dialect' | 'temperature' | 'maxTokens' | 'stream' | 'extraBody'> & { dialectOptions: DialectOptionValues };

/** The endpoint fields a profile keeps (the key included) and its dialect's option values. */
export function endpointOf(s: Settings): EndpointProfile {
  return { baseUrl: s.baseUrl, apiKey: s.apiKey, model: s.model, dialect: s.dialect, temperature: s.temperature, maxTokens: s.maxTokens, stream: s.stream, extraBody: s.extraBody,
    dialectOptions: optionValues(dialectOf(s.dialect), s.dialectOptions[s.dialect]) };
}

/** The settings with a profile loaded: its endpoint fields, and its option values for its dialect. */
export function withProfile(s: Settings, p: EndpointProfile): Settings {
  return { ...s, ...p, dialectOptions: { ...s.dialectOptions, [p.dialect]: p.dialectOptions } };
}

/** Each dialect's stored option values, with what an older version kept as fields of its own (options.ts oldOptionFields). */
function withOldFields(input: Record<string, unknown>, given: unknown): Record<string, unknown> {
  const g = typeof given === 'object' && given !== null ? given as Record<string, unknown> : {};
  const out: Record<string, unknown> = { ...g };
  for (const d of Object.values(DIALECTS)) {
    const old = oldOptionFields(d, input);
    if (Object.keys(old).length) out[d.id] = { ...old, ...(typeof g[d.id] === 'object' && g[d.id] !== null ? g[d.id] as object : {}) };
  }
  return out;
}

/** Values of the reference GLM-4.5V WebVoyager client (seed 003): temperature 0.001, max_tokens 8192, skip_special_tokens false. */
/** the longest time limit a run may have, in minutes (a day) */
export const MAX_RUN_MINUTES = 1440;

export const DEFAULT_SETTINGS: Settings = {
  baseUrl: 'http://127.0.0.1:8000/v1',
  apiKey: '',
  model: 'glm-4.5v',
  dialect: 'glm-web',
  apps: '',
  dialectOptions: {},
  maxSteps: 15,
  maxMinutes: 30,
  searchStartPage: 'https://www.bing.com/',
  temperature: 0.001,
  maxTokens: 8192,
  stream: true,
  extraBody: '{"skip_special_tokens": false}',
  approveSteps: false,
  guards: DEFAULT_GUARDS,
  requestTimeoutSec: 180,
  maxRetries: 3,
  maxRunTokens: 0,
  maxRunCost: 0,
  prices: DEFAULT_PRICES,
  currency: DEFAULT_CURRENCY,
  profiles: {},
  language: 'auto',
  secrets: [],
  textBaseUrl: '',
  textApiKey: '',
  textModel: '',
  screenImages: false,
  readPictures: true,
};

export type SettingsProblems = Partial<Record<keyof Settings, string>>;

/** Fills defaults for missing fields and drops unknown ones. */
export function normalizeSettings(input: Partial<Settings> | undefined | null): Settings {
  const out: Settings = { ...DEFAULT_SETTINGS };
  if (!input) return out;
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    const v = input[key];
    if (v === undefined || v === null) continue;
    if (typeof v === typeof DEFAULT_SETTINGS[key]) (out as unknown as Record<string, unknown>)[key] = v;
  }
  out.baseUrl = out.baseUrl.trim().replace(/\/+$/, '');
  out.textBaseUrl = out.textBaseUrl.trim().replace(/\/+$/, '');
  out.textModel = out.textModel.trim();
  out.textApiKey = out.textApiKey.trim();
  out.model = out.model.trim();
  out.apiKey = out.apiKey.trim();
  out.guards = normalizeGuards(out.guards);
  out.prices = normalizePrices(out.prices);
  // upper-cased when well formed; anything else is kept as typed, for checkSettings to name
  out.currency = asCurrency(out.currency) ?? out.currency.trim();
  out.profiles = normalizeProfiles(out.profiles);
  if (!isLanguageSetting(out.language)) out.language = 'auto';
  out.secrets = normalizeSecrets(out.secrets);
  out.dialectOptions = normalizeDialectOptions(withOldFields(input as Record<string, unknown>, out.dialectOptions));
  return out;
}

function normalizeProfiles(input: unknown): Record<string, EndpointProfile> {
  const out: Record<string, EndpointProfile> = {};
  if (!input || typeof input !== 'object') return out;
  for (const [name, p] of Object.entries(input as Record<string, Partial<EndpointProfile>>)) {
    if (!name.trim() || !p || typeof p !== 'object' || typeof p.baseUrl !== 'string') continue;
    // a profile keeps its dialect's options (an older one its "bbox" field, moved there by normalizeSettings)
    const own = typeof p.dialect === 'string' && typeof p.dialectOptions === 'object' && p.dialectOptions !== null ? { [p.dialect]: p.dialectOptions } : {};
    out[name.trim()] = endpointOf(normalizeSettings({ ...(p as Partial<Settings>), dialectOptions: own }));
  }
  return out;
}

/** What is wrong with an endpoint's base URL, in the person's words, or null: the scheme, a server after it, no spaces. */
export function baseUrlProblem(url: string, t: Translate = english): string | null {
  if (/\s/.test(url)) return t('setBaseUrlSpace');
  const scheme = /^(https?:\/\/)/i.exec(url);
  if (!scheme) return t('setBaseUrl');
  try {
    if (new URL(url).hostname) return null;
  } catch {
    // no host, or one that cannot be a host ("http://:80")
  }
  return t('setBaseUrlHost', scheme[1]);
}

/** What is wrong with the settings, field by field (empty object when fine), in the person's language. */
export function checkSettings(s: Settings, t: Translate = english): SettingsProblems {
  const p: SettingsProblems = {};
  const baseUrl = baseUrlProblem(s.baseUrl, t);
  if (baseUrl) p.baseUrl = baseUrl;
  if (!isDialect(s.dialect)) p.dialect = t('setDialect', s.dialect);
  const textBaseUrl = s.textBaseUrl ? baseUrlProblem(s.textBaseUrl, t) : null;
  if (textBaseUrl) p.textBaseUrl = textBaseUrl;
  const apps = readApps(s.apps);
  if (apps.bad.length) p.apps = t('setApps', apps.bad.slice(0, 3).join('; '));
  if (!s.model) p.model = t('setModel');
  if (!Number.isInteger(s.maxSteps) || s.maxSteps < 1 || s.maxSteps > 200) p.maxSteps = t('setMaxSteps');
  if (!(s.maxMinutes > 0 && s.maxMinutes <= MAX_RUN_MINUTES)) p.maxMinutes = t('setMaxMinutes', MAX_RUN_MINUTES);
  if (!/^https?:\/\//i.test(s.searchStartPage)) p.searchStartPage = t('setSearch');
  if (!(s.temperature >= 0 && s.temperature <= 2)) p.temperature = t('setTemperature');
  if (!Number.isInteger(s.maxTokens) || s.maxTokens < 16) p.maxTokens = t('setMaxTokens');
  if (!(s.requestTimeoutSec >= 5 && s.requestTimeoutSec <= 3600)) p.requestTimeoutSec = t('setTimeout');
  if (!Number.isInteger(s.maxRetries) || s.maxRetries < 0 || s.maxRetries > 10) p.maxRetries = t('setRetries');
  if (!Number.isInteger(s.maxRunTokens) || s.maxRunTokens < 0) p.maxRunTokens = t('setTokenCap');
  if (!(s.maxRunCost >= 0)) p.maxRunCost = t('setCostCap');
  if (!isKnownCurrency(s.currency)) p.currency = t('setCurrency');
  if (parseExtraBody(s.extraBody) === null) p.extraBody = t('setExtraBody');
  const secrets = secretsProblem(s.secrets, t);
  if (secrets) p.secrets = secrets;
  return p;
}

/** The settings a text-only call (the llm action) is made with: the text model's endpoint where one is set. */
export function textModelSettings(s: Settings): Settings {
  const own = !!s.textBaseUrl && s.textBaseUrl !== s.baseUrl;
  return {
    ...s,
    baseUrl: own ? s.textBaseUrl : s.baseUrl,
    apiKey: own ? s.textApiKey : s.apiKey,
    model: s.textModel || s.model,
    // the vision endpoint's extra fields may mean nothing to another server
    extraBody: own ? '' : s.extraBody,
  };
}

/** The extra body object, {} when empty, null when not a JSON object. */
export function parseExtraBody(text: string): Record<string, unknown> | null {
  if (!text.trim()) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The apps setting's lines ("Name = https://…", also "Name: https://…" or "Name | https://…"). */
function readApps(text: string): { apps: App[]; bad: string[] } {
  const apps: App[] = [];
  const bad: string[] = [];
  for (const raw of String(text ?? '').split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^(.+?)\s*(?:=|\||:(?!\/\/))\s*(https?:\/\/\S+)$/i.exec(line);
    if (m && m[1].trim()) apps.push({ name: m[1].trim(), url: m[2] });
    else bad.push(line.slice(0, 60));
  }
  return { apps, bad };
}

/** The apps the person listed (lines that cannot be read are left out; checkSettings names them). */
export function parseApps(text: string): App[] {
  return readApps(text).apps;
}
