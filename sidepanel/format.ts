/** How the panel writes sizes, durations, dates and token counts, in the panel's language. */
import { languageOf } from '../src/core/i18n';
import { currentLocale, t } from './i18n';

/** 12.3 MB, 2.1 GB, 512 B (powers of 1000, as Chrome's settings show storage). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '?';
  if (n < 1000) return `${Math.round(n)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  return `${v < 100 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** "12.3 MB of 2.1 GB used", or why it is not known. */
export function storageText(used: number | null, quota: number | null): string {
  if (used === null) return t('storageUnknown');
  return quota === null ? t('storageUsed', formatBytes(used)) : t('storageUsedOf', formatBytes(used), formatBytes(quota));
}

/** 850 ms, 4.2 s, 3 min 05 s, 1 h 02 min. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return t('durMs', Math.round(ms));
  const s = ms / 1000;
  if (s < 60) return t('durS', s.toFixed(1));
  const m = Math.floor(s / 60);
  if (m < 60) return t('durMin', m, String(Math.floor(s % 60)).padStart(2, '0'));
  return t('durH', Math.floor(m / 60), String(m % 60).padStart(2, '0'));
}

/** Dates and numbers in the panel's language (Intl), not the browser's. */
const lang = () => languageOf(currentLocale());

export function formatDate(at: number | null): string {
  if (at === null || !Number.isFinite(at)) return '—';
  return new Date(at).toLocaleString(lang(), { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** 12,345: a count in the panel's language. */
export function formatCount(n: number): string {
  return n.toLocaleString(lang());
}

export function formatTokens(prompt: number, completion: number): string {
  return t('tokensLine', formatCount(prompt + completion), formatCount(prompt), formatCount(completion));
}

/** A step's timings: "observe 120 ms · model 2.3 s (first token 400 ms) · act 80 ms". */
export function formatTimings(tm: { observeMs: number; modelMs: number; modelFirstTokenMs?: number | null; actMs: number }): string {
  const first = typeof tm.modelFirstTokenMs === 'number' ? t('firstToken', formatDuration(tm.modelFirstTokenMs)) : '';
  return t('timingsLine', formatDuration(tm.observeMs), formatDuration(tm.modelMs) + first, formatDuration(tm.actMs));
}

/** An observe step's stages: "waiting for the page 20 ms · labels 60 ms · screenshot 35 ms · request sent after 100 ms". */
export function formatStages(o: { settleMs: number; labelMs: number; captureMs: number; requestMs?: number }): string {
  return t('observeStagesLine', formatDuration(o.settleMs), formatDuration(o.labelMs), formatDuration(o.captureMs), o.requestMs === undefined ? '—' : formatDuration(o.requestMs));
}

const EXPORT_NAMES = { json: 'exportJson', html: 'exportHtml', zip: 'exportZipWord', playwright: 'exportPlaywright' } as const;

/** "Preparing the zip… converting screenshot 12 of 100": what an export is doing. */
export function progressText(kind: keyof typeof EXPORT_NAMES, p: { stage: 'fetch' | 'images' | 'pack'; done: number; total: number } | null): string {
  const name = t(EXPORT_NAMES[kind]);
  if (!p || p.stage === 'fetch') return t('preparing', name);
  if (p.stage === 'images') return t('preparingImages', name, p.done, p.total);
  return t('preparingPack', name);
}

/** "Saved shop.example-….zip (without screenshots)." and what was left out to stay under 25 MB. */
export function savedText(fileName: string, excluded: boolean, cleanLeftOut: number): string {
  const left = cleanLeftOut === 1 ? t('cleanLeftOne') : cleanLeftOut > 1 ? t('cleanLeftMany', cleanLeftOut) : '';
  return (excluded ? t('savedFileNoShots', fileName) : t('savedFile', fileName)) + left;
}

/** Text on one line, cut at `max` characters with "…" (an answer in the history list). */
export function preview(text: string, max = 160): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
