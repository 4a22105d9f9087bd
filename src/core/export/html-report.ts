/**
 * A trace -> one self-contained HTML report that opens offline in any browser (file://, no
 * network). Two parts side by side (stacked on a narrow screen):
 *
 * 1. The whole run at a glance, written into the page itself (so Ctrl+F finds any of it and it
 *    prints): a summary (task, answer or why it ended, status, steps, duration, tokens, cost,
 *    model, start page, start and end in the reader's local time) and every step's thought,
 *    action with the element it acted on, and outcome.
 * 2. A step player: one step at a time (←/→, j/k, Home/End, or a click on a step), the labelled
 *    screenshot with a toggle to the clean one, a full-window view, and the step's details.
 *
 * Everything in a trace is untrusted (page text, model output). The page's own text is escaped
 * (escapeHtml); the player's data is embedded once as JSON in <script type="application/json">
 * with `<`, U+2028 and U+2029 escaped (the JSON cannot close the script element), the script
 * writes with textContent only (never innerHTML), images are only ever image data URLs, and a
 * CSP forbids any network access.
 *
 * Size: images are the bulk. Each distinct image is embedded once (steps refer to it by number,
 * so an unchanged page costs nothing twice). When the report would pass `maxChars` (default: the
 * export budget, fit.ts), clean views are left out, largest first, until it fits (the report says
 * so); the labelled screenshots are always kept.
 *
 * Words: REPORT_TEXT (English, report-text.ts); the panel passes reportText() in the person's language as `text`.
 */
import { playwrightScript, scriptFileName } from './playwright';
import { asCurrency, asPrice, costOf, formatCost, tokensOf } from '../costs';
import { describedStep } from '../run/person-text';
import type { Trace, TraceStep } from '../trace';
import { base64Encode, imageMimeOf } from './data-url';
import { EXPORT_MAX_BYTES, largestFirst } from './fit';
import { durationText, fill, REPORT_TEXT, type ReportText } from './report-text';
import { REPORT_SCRIPT, REPORT_STYLE } from './report-page';

export interface ReportOptions { maxChars?: number; text?: ReportText }

/** JSON that is safe inside a <script> element: no `<` (so no `</script>` or `<!--`), no line separators. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Text as HTML text or attribute value (the line separators too, which some tools take for line breaks). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'\u2028\u2029]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\u2028': '&#x2028;', '\u2029': '&#x2029;' })[c]!);
}

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

const group = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** What a step did, in the person's words: the action with its element, or the take-over. */
export function stepWords(s: TraceStep, text: ReportText = REPORT_TEXT, dialect = 'glm-web'): string {
  if (s.action.type === 'takeover') return text.takeover;
  const t = (key: string, ...args: unknown[]) => (text.actionWords[key] ?? key).replace(/\{(\d)\}/g, (_, n: string) => String(args[Number(n) - 1] ?? ''));
  return describedStep(dialect, { ...s, action: s.action }, t).words;
}

/** The run's facts as label/value rows (values are plain text; times are ISO, shown local by the page). */
export function summaryRows(trace: Trace, text: ReportText = REPORT_TEXT): Array<{ key: string; label: string; value: string; time?: boolean }> {
  const r = trace.run;
  const tokens = tokensOf(trace.steps.map((s) => s.usage));
  const counted = trace.steps.some((s) => s.usage);
  const cost = costOf(tokens, asPrice(r.price));
  const dur = r.endedAt ? Date.parse(r.endedAt) - Date.parse(r.startedAt) : null;
  // (the status is the badge above these rows)
  const rows = [
    { key: 'steps', label: text.steps, value: String(trace.steps.length) },
    { key: 'duration', label: text.duration, value: dur === null || Number.isNaN(dur) ? text.stillRunning : durationText(dur, text) },
    { key: 'tokens', label: text.tokens, value: counted ? fill(text.tokensValue, { total: group(tokens.promptTokens + tokens.completionTokens), prompt: group(tokens.promptTokens), completion: group(tokens.completionTokens) }) : text.notReported },
    { key: 'cost', label: text.cost, value: cost === null ? text.costUnknown : formatCost(cost, asCurrency(r.currency), text.lang) },
    { key: 'model', label: text.model, value: r.dialect ? `${r.model} (${r.dialect})` : r.model },
    { key: 'start-page', label: text.startPage, value: r.startUrl },
    { key: 'started', label: text.started, value: r.startedAt, time: true },
  ];
  if (r.endedAt) rows.push({ key: 'ended', label: text.ended, value: r.endedAt, time: true });
  return rows;
}

function approvalText(s: TraceStep, text: ReportText): string {
  const a = s.approval;
  if (!a) return text.approvalNames.none;
  const name = text.approvalNames[a.decision] ?? a.decision;
  return a.feedback ? `${name}: ${a.feedback}` : name;
}

/** One step of the list: number, action with element, outcome badge, thought, outcome text, page. */
function stepItem(s: TraceStep, i: number, text: ReportText, dialect: string): string {
  const e = escapeHtml;
  const ok = s.result.ok;
  return `<li class="step" id="step-${i + 1}" data-i="${i}">
<div class="step-top"><button type="button" class="step-n" data-i="${i}" aria-label="${e(fill(text.showStep, { n: i + 1 }))}">${i + 1}</button>
<span class="act">${e(stepWords(s, text, dialect))}</span><span class="badge ${ok ? 'ok' : 'fail'}">${e(ok ? text.ok : text.failed)}</span></div>
${s.thought ? `<p class="thought"><span class="k">${e(text.thought)}</span> ${e(s.thought)}</p>` : ''}
<p class="outcome ${ok ? 'ok' : 'fail'}"><span class="k">${e(text.outcome)}</span> ${e(s.observation || (ok ? text.ok : text.failed))}</p>
<p class="meta"><span class="url">${e(s.url)}</span> · ${e(durationText(s.timings.totalMs, text))} · ${e(approvalText(s, text))}</p>
</li>`;
}

/** What the player needs of a step (images by number in `images`; -1: none). */
function playerStep(s: TraceStep, shot: number, clean: number, text: ReportText, dialect: string) {
  const t = s.timings;
  const target = (s.action as { target?: { kind: string; x?: number; y?: number } }).target;
  const point = target?.kind === 'point' && typeof target.x === 'number' && typeof target.y === 'number' ? { x: target.x, y: target.y } : null;
  return {
    url: s.url, title: s.title, thought: s.thought, words: stepWords(s, text, dialect), ok: s.result.ok,
    outcome: s.observation || (s.result.ok ? text.ok : text.failed),
    approval: approvalText(s, text),
    timings: fill(text.timingsValue, { observe: durationText(t.observeMs, text), model: durationText(t.modelMs, text), act: durationText(t.actMs, text), total: durationText(t.totalMs, text) })
      + (t.observeStages ? ` (${fill(text.stagesValue, {
        settle: durationText(t.observeStages.settleMs, text), label: durationText(t.observeStages.labelMs, text), capture: durationText(t.observeStages.captureMs, text),
        request: t.observeStages.requestMs === undefined ? text.empty : durationText(t.observeStages.requestMs, text),
      })})` : ''),
    tokens: s.usage ? fill(text.tokensValue, { total: group(s.usage.promptTokens + s.usage.completionTokens), prompt: group(s.usage.promptTokens), completion: group(s.usage.completionTokens) }) : text.notReported,
    memory: typeof s.memory === 'string' ? s.memory : JSON.stringify(s.memory, null, 2),
    reasoning: s.reply.reasoning ?? '', raw: s.reply.raw,
    elements: s.elements.map((el) => `[${el.label}] <${el.tag}> ${el.text}`).join('\n'), elementCount: s.elements.length,
    point,
    box: boxOf(s, point !== null),
    viewport: { width: s.viewport.width, height: s.viewport.height },
    shot, clean,
  };
}

/**
 * The box the report draws on the screenshot: the one the action named (a quoted text's box), else
 * for an action at a point the element found there (CSS px of the viewport); null: none.
 */
function boxOf(s: TraceStep, atPoint: boolean): { x: number; y: number; width: number; height: number } | null {
  const named = (s.action as { box?: unknown }).box;
  const r = (named ?? (atPoint ? s.target?.rect : null)) as { x?: unknown; y?: unknown; width?: unknown; height?: unknown } | null | undefined;
  if (!r || typeof r.x !== 'number' || typeof r.y !== 'number' || typeof r.width !== 'number' || typeof r.height !== 'number') return null;
  return r.width > 0 && r.height > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
}

/** Each distinct image once; steps refer to them by number. */
function imageTable(steps: TraceStep[]) {
  const images: string[] = [];
  const at = new Map<string, number>();
  const ref = (url: string) => {
    if (!imageMimeOf(url)) return -1;
    let n = at.get(url);
    if (n === undefined) { n = images.push(url) - 1; at.set(url, n); }
    return n;
  };
  const refs = steps.map((s) => ({ shot: ref(s.screenshot), clean: ref(s.cleanScreenshot) }));
  return { images, refs };
}

/** The run as a Playwright script (core/export/playwright.ts), as a link that saves it. */
function scriptLink(trace: Trace, text: ReportText): string {
  if (!trace.steps.length) return '';
  const e = escapeHtml;
  const href = `data:text/javascript;base64,${base64Encode(new TextEncoder().encode(playwrightScript(trace)))}`;
  return `<p class="script"><a id="playwright" download="${e(scriptFileName(trace))}" href="${href}">${e(text.playwright)}</a> <span class="muted">${e(text.playwrightHint)}</span></p>`;
}

/** A run with follow-ups: each turn's task and how it ended (the last one's is the run's, above). */
function turnsSection(trace: Trace, text: ReportText): string {
  const e = escapeHtml;
  const turns = trace.run.turns ?? [];
  if (turns.length < 2) return '';
  const items = turns.map((x, n) => {
    const name = n === 0 ? text.firstTurn : fill(text.followUp, { n, task: '' }).replace(/[:：]\s*$/, '');
    const status = x.status ?? (n === turns.length - 1 ? trace.run.status : null);
    const end = n === turns.length - 1 ? '' : x.answer ? ` <span class="muted">${e(text.answerLabel)} ${e(x.answer)}</span>` : x.stopReason ? ` <span class="muted">${e(x.stopReason)}</span>` : '';
    return `<li data-turn="${n}"><b>${e(name)}</b> ${e(x.task)}${status ? ` <span class="status ${e(status)}">${e(text.statusNames[status] ?? status)}</span>` : ''}${end}</li>`;
  }).join('');
  return `<section class="turns" id="turns"><h2>${e(text.turns)}</h2><ol>${items}</ol></section>`;
}

function page(trace: Trace, data: unknown, cleanLeftOut: number, text: ReportText): string {
  const e = escapeHtml;
  const r = trace.run;
  const rows = summaryRows(trace, text).map((row) => `<div class="fact" data-key="${row.key}"><dt>${e(row.label)}</dt><dd>${row.time ? `<time datetime="${e(row.value)}">${e(row.value)}</time>` : e(row.value)}</dd></div>`).join('');
  const status = r.status;
  const answer = r.answer !== null
    ? `<section class="answer" id="answer"><h2>${e(text.answer)}</h2><p>${e(r.answer)}</p></section>`
    : r.stopReason ? '' : `<section class="answer none" id="answer"><h2>${e(text.answer)}</h2><p>${e(text.noAnswer)}</p></section>`;
  const reason = r.stopReason !== null ? `<section class="reason ${status}" id="stop-reason"><h2>${e(text.stopReason)}</h2><p>${e(r.stopReason)}</p></section>` : '';
  const note = cleanLeftOut ? `<p class="note" id="left-out">${e(fill(text.cleanLeftOutNote, { n: cleanLeftOut, total: trace.steps.length }))}</p>` : '';
  const turns = r.turns ?? [];
  /** the line where follow-up n's steps begin */
  const turnLine = (n: number) => `<li class="turn-start" data-turn="${n}">${e(fill(text.followUp, { n, task: turns[n].task }))}</li>`;
  const startsAt = (i: number) => turns.flatMap((x, n) => (n > 0 && x.fromStep === i ? [turnLine(n)] : [])).join('');
  const list = trace.steps.length
    ? `<ol class="steps" id="steps">${trace.steps.map((s, i) => startsAt(i) + stepItem(s, i, text, trace.run.dialect)).join('\n')}${turns.flatMap((x, n) => (n > 0 && x.fromStep >= trace.steps.length ? [turnLine(n)] : [])).join('')}</ol>`
    : `<p class="empty" id="empty">${e(text.noSteps)}</p>`;
  const player = trace.steps.length ? `<aside class="player" id="player" aria-label="${e(text.playerHeading)}">
<h2 class="visually-hidden">${e(text.playerHeading)}</h2>
<div class="bar"><button id="prev" type="button">${e(text.prev)}</button><span id="counter" aria-live="polite"></span><button id="next" type="button">${e(text.next)}</button><button id="toggle" type="button">${e(text.showClean)}</button></div>
<div id="shot"><div class="pic"><img id="img" alt=""><div id="box" hidden></div><div id="cross" hidden></div></div><div id="noshot" hidden>${e(text.noShot)}</div></div>
<p class="hint">${e(text.keysHint)}</p>
<p id="url" class="url"></p><p id="title" class="muted"></p>
<dl class="kv">
<dt>${e(text.thought)}</dt><dd id="thought"></dd>
<dt>${e(text.action)}</dt><dd id="action"></dd>
<dt>${e(text.outcome)}</dt><dd id="result"></dd>
<dt>${e(text.approval)}</dt><dd id="approval"></dd>
<dt>${e(text.timings)}</dt><dd id="timings"></dd>
<dt>${e(text.tokens)}</dt><dd id="tokens"></dd>
</dl>
<details><summary>${e(text.memory)}</summary><pre id="memory"></pre></details>
<details id="reasoning-box"><summary>${e(text.reasoning)}</summary><pre id="reasoning"></pre></details>
<details><summary>${e(text.rawReply)}</summary><pre id="raw"></pre></details>
<details><summary id="elements-n"></summary><pre id="elements"></pre></details>
</aside>` : '';
  return `<!doctype html>
<html lang="${e(text.lang)}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${e(fill(text.pageTitle, { task: r.task }))}</title>
<style>${REPORT_STYLE}</style>
</head><body>
<header class="summary" id="run">
<p class="eyebrow">${e(text.reportTitle)}</p>
<h1 id="task">${e(r.task)}</h1>
<p class="status ${e(status)}" id="status"><span class="visually-hidden">${e(text.status)}: </span>${e(text.statusNames[status] ?? status)}</p>
${answer}${reason}
${turnsSection(trace, text)}
<dl class="facts">${rows}</dl>
${scriptLink(trace, text)}
${note}
</header>
<div class="layout${trace.steps.length ? '' : ' no-steps'}">
<section class="run-steps" aria-labelledby="steps-h"><h2 id="steps-h">${e(text.stepsHeading)}</h2><p class="hint">${e(text.stepsHint)}</p>
${list}
</section>
${player}
</div>
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${REPORT_SCRIPT}</script>
</body></html>
`;
}

/** The report, and how many steps' clean views were left out to keep it under `maxChars`. */
export function htmlReport(trace: Trace, opts: ReportOptions = {}): { html: string; cleanLeftOut: number } {
  const max = opts.maxChars ?? EXPORT_MAX_BYTES;
  const text = opts.text ?? REPORT_TEXT;
  const { images, refs } = imageTable(trace.steps);
  const build = (dropped: Set<number>) => {
    const steps = trace.steps.map((s, i) => playerStep(s, refs[i].shot, dropped.has(refs[i].clean) ? -1 : refs[i].clean, text, trace.run.dialect));
    const cleanLeftOut = trace.steps.filter((_, i) => dropped.has(refs[i].clean)).length;
    const data = { text, steps, images: images.map((u, n) => (dropped.has(n) ? '' : u)), cleanLeftOut };
    return page(trace, data, cleanLeftOut, text);
  };
  const html = build(new Set());
  if (html.length <= max) return { html, cleanLeftOut: 0 };
  // Clean views only (never a picture that is also some step's labelled one); base64 needs no
  // escaping, so leaving one out saves its length.
  const labelled = new Set(refs.map((x) => x.shot));
  const cleans = [...new Set(refs.map((x) => x.clean))].filter((n) => n >= 0 && !labelled.has(n));
  const dropped = largestFirst(cleans.map((n) => ({ key: n, size: images[n].length })), html.length - max);
  return { html: build(dropped), cleanLeftOut: trace.steps.filter((_, i) => dropped.has(refs[i].clean)).length };
}

export function buildHtmlReport(trace: Trace, opts: ReportOptions = {}): string {
  return htmlReport(trace, opts).html;
}
