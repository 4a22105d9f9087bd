/**
 * The batch's summary page (summary.html): one self-contained HTML page (inline CSS, no script)
 * from the result lines: success rates overall and per site, counts by stop kind, the spread of
 * steps and costs, the cost and tokens per model (the judges' tokens apart), the slowest and the
 * most expensive tasks, and a table of every task linking
 * to its `task{id}/report.html`. Every string from the results is escaped: tasks, answers and
 * verdicts come from web pages and models.
 *
 * A task counts as a success when a judge said so, if it was judged; a task that was not judged
 * counts when it finished (kind 'finished'). The page says which rule each rate used.
 * Also: `summaryStats` (the numbers the page shows, for tests and the runner's last line) and
 * `readReferences` (WebVoyager's reference_answer.json, keyed `Site--id`, shown beside verdicts).
 */
import type { StopKind, TaskResult } from './types';
import { escapeHtml } from '../export/html-report';
import { asCurrency, formatMoney } from '../costs';
import { costTotals } from '../cost-totals';
import { count } from '../i18n';

/** Whether a task counts as a success: the judge's verdict when judged, else whether it finished. */
export function succeeded(r: TaskResult): boolean {
  return r.verdict ? r.verdict.success : r.kind === 'finished';
}

export interface Rate { tasks: number; succeeded: number; rate: number }

export interface SummaryStats {
  overall: Rate;
  /** per site, sites sorted by name */
  sites: Array<{ site: string } & Rate>;
  /** how many tasks were judged (their success is the judge's); the others count when finished */
  judged: number;
  /** the judged tasks and how many the judge said succeeded */
  byJudge: Rate;
  /** the tasks not judged and how many of them finished (counted as a success) */
  unjudged: Rate;
  kinds: Record<StopKind, number>;
  steps: { min: number; median: number; mean: number; max: number };
  /** over the tasks with a cost; null when none has one */
  cost: { total: number; min: number; median: number; mean: number; max: number; priced: number } | null;
  tokens: { prompt: number; completion: number };
  /** the judges' tokens, summed over the verdicts that report them */
  judgeTokens: { prompt: number; completion: number };
  durationMs: { total: number; median: number; max: number };
}

const rate = (tasks: number, ok: number): Rate => ({ tasks, succeeded: ok, rate: tasks ? ok / tasks : 0 });

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function spread(xs: number[]) {
  return xs.length
    ? { min: Math.min(...xs), median: median(xs), mean: xs.reduce((a, b) => a + b, 0) / xs.length, max: Math.max(...xs) }
    : { min: 0, median: 0, mean: 0, max: 0 };
}

/** The numbers the summary page shows. */
export function summaryStats(results: TaskResult[]): SummaryStats {
  const bySite = new Map<string, TaskResult[]>();
  for (const r of results) bySite.set(r.site, [...(bySite.get(r.site) ?? []), r]);
  const kinds: Record<StopKind, number> = { finished: 0, agent: 0, guard: 0, infrastructure: 0 };
  for (const r of results) if (r.kind in kinds) kinds[r.kind]++;
  const costs = results.map((r) => r.cost).filter((c): c is number => typeof c === 'number' && Number.isFinite(c));
  const durations = results.map((r) => r.durations?.totalMs ?? 0);
  const judgeTokens = { prompt: 0, completion: 0 };
  for (const r of results) {
    judgeTokens.prompt += r.verdict?.usage?.promptTokens ?? 0;
    judgeTokens.completion += r.verdict?.usage?.completionTokens ?? 0;
  }
  return {
    overall: rate(results.length, results.filter(succeeded).length),
    sites: [...bySite.keys()].sort().map((site) => {
      const rs = bySite.get(site)!;
      return { site, ...rate(rs.length, rs.filter(succeeded).length) };
    }),
    judged: results.filter((r) => r.verdict).length,
    byJudge: rate(results.filter((r) => r.verdict).length, results.filter((r) => r.verdict?.success).length),
    unjudged: rate(results.filter((r) => !r.verdict).length, results.filter((r) => !r.verdict && r.kind === 'finished').length),
    kinds,
    steps: spread(results.map((r) => r.steps)),
    cost: costs.length ? { total: costs.reduce((a, b) => a + b, 0), priced: costs.length, ...spread(costs) } : null,
    tokens: {
      prompt: results.reduce((a, r) => a + (r.tokens?.prompt ?? 0), 0),
      completion: results.reduce((a, r) => a + (r.tokens?.completion ?? 0), 0),
    },
    judgeTokens,
    durationMs: { total: durations.reduce((a, b) => a + b, 0), median: median(durations), max: durations.length ? Math.max(...durations) : 0 },
  };
}

/**
 * The success count as the runner's last line says it, judged and unjudged tasks apart (a task
 * stopped before its judge counts by finishing, never under the judge's name):
 * "success 2/2 (100%: 1/1 judged a success by the judge; 1/1 not judged, counted because it finished)".
 */
export function successText(s: SummaryStats): string {
  const pc = (r: Rate) => `${Math.round(r.rate * 1000) / 10}%`;
  const head = `success ${s.overall.succeeded}/${s.overall.tasks} (${pc(s.overall)}`;
  if (!s.judged) return `${head}: finished tasks, none judged)`;
  if (!s.unjudged.tasks) return `${head}, by the judge's verdict on ${count(s.judged, 'task')})`;
  return `${head}: ${s.byJudge.succeeded}/${s.byJudge.tasks} judged a success by the judge; `
    + `${s.unjudged.succeeded}/${s.unjudged.tasks} not judged, counted as a success when ${s.unjudged.tasks === 1 ? 'it' : 'they'} finished)`;
}

/**
 * WebVoyager's reference_answer.json (`{ Site: { notice, answers: [{ id, type, ans }] } }`) as
 * `Site--id` → the reference answers. Entries of the wrong shape are skipped.
 */
export function readReferences(json: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!json || typeof json !== 'object' || Array.isArray(json)) return out;
  for (const [site, entry] of Object.entries(json as Record<string, unknown>)) {
    const answers = (entry as { answers?: unknown } | null)?.answers;
    if (!Array.isArray(answers)) continue;
    for (const a of answers) {
      const { id, ans } = (a ?? {}) as { id?: unknown; ans?: unknown };
      if (!(typeof id === 'number' && Number.isInteger(id)) && !(typeof id === 'string' && /^\d+$/.test(id))) continue;
      if (typeof ans !== 'string' || !ans.trim()) continue;
      const key = `${site}--${Number(id)}`;
      (out[key] ??= []).push(ans);
    }
  }
  return out;
}

// --- the page ---

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const seconds = (ms: number) => (ms >= 60_000 ? `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s` : `${(ms / 1000).toFixed(1)} s`);
const group = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const e = (s: string | number | null | undefined) => escapeHtml(String(s ?? ''));

/** "Nov 27, 2026, 18:40 GMT+1" in a <time> holding the ISO time; an unreadable time as it is. */
function generated(iso: string, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return e(iso);
  const shown = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23', timeZone }).format(d);
  const zone = new Intl.DateTimeFormat('en', { timeZoneName: 'short', timeZone }).formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? '';
  return `<time datetime="${e(d.toISOString())}">${e(`${shown}${zone ? ` ${zone}` : ''}`)}</time>`;
}

/** A horizontal bar (CSS width), 0..1. */
function bar(fraction: number, cls = ''): string {
  const w = Math.max(0, Math.min(1, fraction)) * 100;
  return `<span class="bar${cls ? ` ${cls}` : ''}"><span style="width:${w.toFixed(1)}%"></span></span>`;
}

/**
 * A histogram as an inline SVG: counts of values in `bins` equal-width bins (whole numbers over a
 * range of at most 20 get one bin each).
 */
function histogram(values: number[], label: (lo: number, hi: number) => string, bins = 10): string {
  if (!values.length) return '<p class="muted">No data.</p>';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const whole = values.every(Number.isInteger) && hi - lo < 20;
  const n = hi === lo ? 1 : whole ? hi - lo + 1 : bins;
  const width = whole ? 1 : (hi - lo) / n || 1;
  const counts = new Array<number>(n).fill(0);
  for (const v of values) counts[Math.min(n - 1, Math.floor((v - lo) / width))]++;
  const top = Math.max(...counts);
  const bw = 36;
  const h = 90;
  const rects = counts.map((c, i) => {
    const bh = top ? (c / top) * h : 0;
    const from = lo + i * width;
    const title = `${label(from, whole || hi === lo ? from : from + width)}: ${c}`;
    return `<g><title>${e(title)}</title><rect x="${i * bw + 2}" y="${(h - bh + 14).toFixed(1)}" width="${bw - 4}" height="${bh.toFixed(1)}"/>`
      + `<text x="${i * bw + bw / 2}" y="${(h - bh + 10).toFixed(1)}">${c || ''}</text></g>`;
  }).join('');
  const axis = `<text x="2" y="${h + 28}" class="l">${e(label(lo, lo))}</text><text x="${n * bw - 2}" y="${h + 28}" class="r">${e(label(hi, hi))}</text>`;
  return `<svg class="hist" viewBox="0 0 ${n * bw} ${h + 32}" width="${n * bw}" height="${h + 32}" role="img">${rects}${axis}</svg>`;
}

function status(r: TaskResult): string {
  const ok = succeeded(r);
  return `<span class="badge ${ok ? 'ok' : 'no'}">${ok ? 'success' : 'failure'}</span>`;
}

function verdictCell(r: TaskResult): string {
  if (!r.verdict) return '<span class="muted">not judged</span>';
  const v = r.verdict;
  const word = v.judge === 'webvoyager' ? (v.success ? 'SUCCESS' : 'NOT SUCCESS') : (v.success ? 'success' : 'failure');
  return `<details><summary>${e(word)} <span class="muted">(${e(v.judge)}, ${e(v.model)}, ${e(count(v.screenshots, 'screenshot'))})</span></summary><pre>${e(v.text)}</pre></details>`;
}

function link(r: TaskResult, text: string): string {
  const folder = r.folder || `task${r.id}`;
  return `<a href="${e(`${encodeURIComponent(folder)}/report.html`)}">${e(text)}</a>`;
}

function ranking(title: string, rows: TaskResult[], value: (r: TaskResult) => string): string {
  if (!rows.length) return `<section><h2>${e(title)}</h2><p class="muted">No data.</p></section>`;
  const items = rows.map((r) => `<li>${link(r, r.id)} — ${e(value(r))} <span class="muted">${e(r.task.slice(0, 120))}</span></li>`).join('');
  return `<section><h2>${e(title)}</h2><ol>${items}</ol></section>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d1d1f;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.muted{color:#6b6b70}.big{font-size:30px;font-weight:600}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #e3e3e8;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f5f5f7;position:sticky;top:0}td.n,th.n{text-align:right;white-space:nowrap}td.id{white-space:nowrap}
.bar{display:inline-block;width:160px;height:10px;background:#ececf0;border-radius:5px;vertical-align:middle;overflow:hidden}
.bar>span{display:block;height:100%;background:#2f7d4f}.bar.k>span{background:#4a63c8}
.badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px}.ok{background:#dff3e6;color:#1d5e35}.no{background:#fbe3e3;color:#8a1c1c}
.grid{display:flex;flex-wrap:wrap;gap:32px}.grid>section{min-width:260px}
svg.hist rect{fill:#4a63c8}svg.hist text{font-size:10px;text-anchor:middle;fill:#444}svg.hist text.l{text-anchor:start}svg.hist text.r{text-anchor:end}
pre{white-space:pre-wrap;max-width:60ch;margin:4px 0}details summary{cursor:pointer}
.scroll{overflow-x:auto;max-width:100%}svg{max-width:100%;height:auto}
@media (max-width:480px){body{margin:12px}.bar{width:80px}.grid>section{min-width:0;flex:1 1 100%}}
.refs{margin:4px 0 0;padding-left:16px;color:#444}
@media (prefers-color-scheme:dark){body{background:#18181a;color:#e8e8ea}th{background:#26262a}th,td{border-color:#333}.bar{background:#333}.muted{color:#9a9aa0}.refs{color:#bbb}svg.hist text{fill:#ccc}}
`;

export interface SummaryOptions {
  title: string;
  /** when the page was made (ISO): shown as a readable date in the runner's time zone, the ISO time in its datetime attribute */
  generatedAt: string;
  /** the time zone to show it in (default the machine's) */
  timeZone?: string;
  /** reference answers by task id (readReferences), shown beside the verdicts */
  references?: Record<string, string[]>;
}

/** The summary page of a batch's results. */
export function summaryHtml(results: TaskResult[], o: SummaryOptions): string {
  const s = summaryStats(results);
  const refs = o.references ?? {};
  // one price table per batch: its currency as the results say it (results written before it was kept: the number alone)
  const currency = results.map((r) => asCurrency(r.currency)).find((c) => c !== null) ?? null;
  const money = (x: number) => formatMoney(x, currency);
  const rule = s.judged === results.length && results.length
    ? 'Every task was judged: a success is a task the judge said succeeded.'
    : s.judged
      ? `${s.judged} of ${count(results.length, 'task')} ${s.judged === 1 ? 'was' : 'were'} judged: for them a success is the judge's SUCCESS; the others count as a success when they finished (stop kind "finished").`
      : 'No task was judged: a success is a task that finished (stop kind "finished"), whether its answer is right or not.';

  const siteRows = s.sites.map((x) => `<tr><td>${e(x.site)}</td><td class="n">${x.succeeded} / ${x.tasks}</td><td class="n">${pct(x.rate)}</td><td>${bar(x.rate)}</td></tr>`).join('');
  const kindRows = (Object.keys(s.kinds) as StopKind[]).map((k) => `<tr><td>${e(k)}</td><td class="n">${s.kinds[k]}</td><td>${bar(results.length ? s.kinds[k] / results.length : 0, 'k')}</td></tr>`).join('');

  const slowest = [...results].sort((a, b) => (b.durations?.totalMs ?? 0) - (a.durations?.totalMs ?? 0)).slice(0, 5);
  const costly = results.filter((r) => typeof r.cost === 'number').sort((a, b) => (b.cost as number) - (a.cost as number)).slice(0, 5);

  const rows = results.map((r) => {
    const ref = refs[r.id];
    const refHtml = ref?.length ? `<ul class="refs">${ref.map((a) => `<li>reference: ${e(a)}</li>`).join('')}</ul>` : '';
    const why = r.stopReason ? `<div class="muted">${e(r.stopReason)}</div>` : '';
    return `<tr><td class="id">${link(r, r.id)}<div class="muted">${e(r.site)}</div></td><td>${e(r.task)}</td><td>${status(r)}<div class="muted">${e(r.status)}</div></td>`
      + `<td>${e(r.kind)}${why}</td><td>${verdictCell(r)}${refHtml}</td><td>${r.answer === null ? '<span class="muted">none</span>' : e(r.answer)}</td>`
      + `<td class="n">${e(r.steps)}</td><td class="n">${group(r.tokens?.prompt ?? 0)} + ${group(r.tokens?.completion ?? 0)}</td>`
      + `<td class="n">${r.cost === null ? '—' : e(money(r.cost))}</td><td class="n">${e(seconds(r.durations?.totalMs ?? 0))}</td></tr>`;
  }).join('');

  const costLine = s.cost
    ? `total ${money(s.cost.total)} over ${count(s.cost.priced, 'priced task')}; median ${money(s.cost.median)}, mean ${money(s.cost.mean)}, max ${money(s.cost.max)}`
    : 'no task has a cost (no price for its model)';
  // per model: the runs' (their cost, in their currency) and the judges' (tokens: a judge's calls are not priced)
  const byModel = costTotals(results.filter((r) => r.status !== 'error').map((r) => ({
    model: r.model ?? 'unknown (results written before the model was kept)', startedAt: Date.parse(r.startedAt) || 0,
    cost: r.cost, currency: r.currency, promptTokens: r.tokens?.prompt ?? 0, completionTokens: r.tokens?.completion ?? 0,
  }))).byModel;
  const judges = new Map<string, { tasks: number; tokens: number }>();
  for (const r of results) {
    if (!r.verdict) continue;
    const j = judges.get(r.verdict.model) ?? { tasks: 0, tokens: 0 };
    judges.set(r.verdict.model, { tasks: j.tasks + 1, tokens: j.tokens + (r.verdict.usage?.promptTokens ?? 0) + (r.verdict.usage?.completionTokens ?? 0) });
  }
  const modelRows = byModel.map((m) => `<tr><td>${e(m.key)}</td><td class="n">${m.runs}</td><td class="n">${group(m.tokens)}</td>`
    + `<td class="n">${m.amounts.length ? e(m.amounts.map((a) => formatMoney(a.amount, a.currency)).join(' + ')) : '—'}${m.unpriced ? `<div class="muted">${e(count(m.unpriced, 'task'))} without a price</div>` : ''}</td></tr>`).join('')
    + [...judges].map(([model, j]) => `<tr><td>${e(model)} <span class="muted">(judge)</span></td><td class="n">${j.tasks}</td><td class="n">${group(j.tokens)}</td><td class="n"><span class="muted">not priced</span></td></tr>`).join('');
  const judgeLine = s.judgeTokens.prompt || s.judgeTokens.completion
    ? `; the judge used ${group(s.judgeTokens.prompt)} + ${group(s.judgeTokens.completion)} tokens` : '';

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(o.title)}</title><style>${STYLE}</style></head><body>
<h1>${e(o.title)}</h1>
<p class="muted">Generated ${generated(o.generatedAt, o.timeZone)} · ${e(count(results.length, 'task'))} · ${group(s.tokens.prompt)} + ${group(s.tokens.completion)} tokens${e(judgeLine)} · ${e(seconds(s.durationMs.total))} of task time</p>
<section><h2>Success rate</h2><p><span class="big">${pct(s.overall.rate)}</span> <span class="muted">(${s.overall.succeeded} of ${s.overall.tasks})</span> ${bar(s.overall.rate)}</p><p>${e(rule)}</p></section>
<div class="grid">
<section><h2>Per site</h2><div class="scroll"><table><thead><tr><th>site</th><th class="n">succeeded</th><th class="n">rate</th><th></th></tr></thead><tbody>${siteRows}</tbody></table></div></section>
<section><h2>How tasks ended</h2><div class="scroll"><table><thead><tr><th>stop kind</th><th class="n">tasks</th><th></th></tr></thead><tbody>${kindRows}</tbody></table></div></section>
</div>
<div class="grid">
<section><h2>Steps</h2><p class="muted">min ${s.steps.min}, median ${s.steps.median}, mean ${s.steps.mean.toFixed(1)}, max ${s.steps.max}</p>${histogram(results.map((r) => r.steps), (a, b) => (Math.round(a) === Math.round(b) ? count(Math.round(a), 'step') : `${Math.round(a)}–${Math.round(b)} steps`))}</section>
<section><h2>Cost</h2><p class="muted">${e(costLine)}</p>${s.cost ? histogram(results.map((r) => r.cost).filter((c): c is number => typeof c === 'number'), (a, b) => (a === b ? money(a) : `${money(a)}–${money(b)}`)) : ''}</section>
</div>
<section><h2>Per model</h2><div class="scroll"><table data-per-model><thead><tr><th>model</th><th class="n">tasks</th><th class="n">tokens</th><th class="n">cost</th></tr></thead><tbody>${modelRows || '<tr><td colspan="4" class="muted">no run was made</td></tr>'}</tbody></table></div></section>
<div class="grid">
${ranking('Slowest tasks', slowest, (r) => seconds(r.durations?.totalMs ?? 0))}
${ranking('Most expensive tasks', costly, (r) => money(r.cost as number))}
</div>
<section><h2>All tasks</h2><div class="scroll"><table><thead><tr><th>task</th><th>instruction</th><th>status</th><th>stop kind</th><th>verdict</th><th>answer</th><th class="n">steps</th><th class="n">tokens</th><th class="n">cost</th><th class="n">duration</th></tr></thead>
<tbody>${rows}</tbody></table></div></section>
</body></html>
`;
}
