/** How the panel writes sizes, durations, dates and token counts. */

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
  if (used === null) return 'Storage used: unknown';
  return quota === null ? `${formatBytes(used)} used` : `${formatBytes(used)} of ${formatBytes(quota)} used`;
}

/** 850 ms, 4.2 s, 3 min 05 s, 1 h 02 min. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

export function formatDate(t: number | null): string {
  if (t === null || !Number.isFinite(t)) return '—';
  return new Date(t).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function formatTokens(prompt: number, completion: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(prompt + completion)} tokens (${n(prompt)} prompt + ${n(completion)} completion)`;
}

/** A step's timings: "observe 120 ms · model 2.3 s (first token 400 ms) · act 80 ms". */
export function formatTimings(t: { observeMs: number; modelMs: number; modelFirstTokenMs?: number | null; actMs: number }): string {
  const first = typeof t.modelFirstTokenMs === 'number' ? ` (first token ${formatDuration(t.modelFirstTokenMs)})` : '';
  return `observe ${formatDuration(t.observeMs)} · model ${formatDuration(t.modelMs)}${first} · act ${formatDuration(t.actMs)}`;
}

const EXPORT_NAMES = { json: 'JSON', html: 'HTML report', zip: 'zip' } as const;

/** "Preparing the zip… converting screenshot 12 of 100": what an export is doing. */
export function progressText(kind: keyof typeof EXPORT_NAMES, p: { stage: 'fetch' | 'images' | 'pack'; done: number; total: number } | null): string {
  const base = `Preparing the ${EXPORT_NAMES[kind]}…`;
  if (!p || p.stage === 'fetch') return base;
  if (p.stage === 'images') return `${base} converting screenshot ${p.done} of ${p.total} to PNG`;
  return `${base} packing the files`;
}

/** "Saved shop.example-….zip (without screenshots)." and what was left out to stay under 25 MB. */
export function savedText(fileName: string, excluded: boolean, cleanLeftOut: number): string {
  const left = cleanLeftOut === 1 ? ' The clean view of 1 step was left out to keep it under 25 MB.'
    : cleanLeftOut > 1 ? ` The clean views of ${cleanLeftOut} steps were left out to keep it under 25 MB.` : '';
  return `Saved ${fileName}${excluded ? ' (without screenshots)' : ''}.${left}`;
}

/** Text on one line, cut at `max` characters with "…" (an answer in the history list). */
export function preview(text: string, max = 160): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
