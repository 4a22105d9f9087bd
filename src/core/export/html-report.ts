/**
 * A trace -> one self-contained HTML report that opens offline in any browser (file://, no
 * network): a run header and a step player (one step at a time; ←/→, j/k, Home/End; a step list
 * to jump; the labelled screenshot with a toggle to the clean one, click to zoom).
 *
 * Everything in a trace is untrusted (page text, model output). So the trace is embedded once as
 * JSON in <script type="application/json"> with `<`, U+2028 and U+2029 escaped (the JSON cannot
 * close the script element), the viewer script builds the page with textContent only (never
 * innerHTML), images are only ever image data URLs, and a CSP forbids any network access.
 *
 * Size: images are the bulk. When the report would pass `maxChars` (default 24.5 million, under
 * the 25 MB export budget), clean views are left out, largest first, until it fits (the report
 * says so); the labelled screenshots are always kept.
 */
import type { Trace } from '../trace';
import { imageMimeOf } from './data-url';

export interface ReportOptions { maxChars?: number }

/** JSON that is safe inside a <script> element: no `<` (so no `</script>` or `<!--`), no line separators. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

const STYLE = `
*{box-sizing:border-box}[hidden]{display:none!important}body{margin:0;font:14px/1.45 system-ui,sans-serif;color:#1d2329;background:#f4f5f7}
header{padding:12px 18px;background:#fff;border-bottom:1px solid #d8dce1}h1{font-size:17px;margin:0 0 6px}
#run{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}#run dt{color:#5b6672}#run dd{margin:0;white-space:pre-wrap;word-break:break-word}
.wrap{display:grid;grid-template-columns:260px 1fr;min-height:calc(100vh - 160px)}
aside{border-right:1px solid #d8dce1;background:#fff;overflow:auto;max-height:calc(100vh - 40px);position:sticky;top:0}
#list{list-style:none;margin:0;padding:4px}#list button{display:block;width:100%;text-align:left;border:0;background:none;padding:5px 8px;border-radius:4px;cursor:pointer;font:inherit;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#list button:hover{background:#eef1f4}#list button[aria-current="true"]{background:#dbe8fb;font-weight:600}
main{padding:12px 18px;min-width:0}.bar{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
.bar button{font:inherit;padding:3px 10px;border:1px solid #b9c0c8;background:#fff;border-radius:4px;cursor:pointer}.bar button:disabled{opacity:.45;cursor:default}
#counter{font-weight:600}.hint{color:#6b7580;font-size:12px}#url{color:#275fad;word-break:break-all}
#shot{border:1px solid #d8dce1;background:#fff;overflow:auto;margin:6px 0;width:fit-content;max-width:100%}#shot img{display:block;cursor:zoom-in;max-width:100%;max-height:75vh}
.pic{position:relative;display:inline-block;vertical-align:top}#cross{position:absolute;width:24px;height:24px;margin:-12px 0 0 -12px;pointer-events:none;border-radius:50%;box-shadow:0 0 0 2px #fff;background:linear-gradient(#e11d48,#e11d48) center/2px 100% no-repeat,linear-gradient(#e11d48,#e11d48) center/100% 2px no-repeat}
#shot.full{max-height:85vh;width:auto}#shot.full img{max-width:none;max-height:none;cursor:zoom-out}#noshot{padding:40px;text-align:center;color:#6b7580}
section{margin:10px 0}h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:#5b6672;margin:0 0 3px}
pre,.text{white-space:pre-wrap;word-break:break-word;margin:0}pre{background:#fff;border:1px solid #e1e4e8;padding:6px 8px;border-radius:4px;font:12px/1.4 ui-monospace,monospace}
.fail{color:#b3261e}details{margin:8px 0}summary{cursor:pointer;color:#5b6672}
`;

const SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('trace-data').textContent);
  var run = data.trace.run, steps = data.trace.steps, cur = 0, clean = false, full = false;
  function $(id) { return document.getElementById(id); }
  function el(tag, text) { var e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); return e; }
  function isImg(s) { return typeof s === 'string' && /^data:image\\/(png|jpeg|webp|gif);base64,/.test(s); }
  function ms(n) { return n < 1000 ? n + ' ms' : (n / 1000).toFixed(1) + ' s'; }
  function set(id, text) { $(id).textContent = text === null || text === undefined || text === '' ? '—' : String(text); }
  document.title = 'Run report: ' + run.task;
  var prompt = 0, completion = 0, counted = 0, i;
  for (i = 0; i < steps.length; i++) if (steps[i].usage) { counted++; prompt += steps[i].usage.promptTokens; completion += steps[i].usage.completionTokens; }
  var dur = run.endedAt ? Date.parse(run.endedAt) - Date.parse(run.startedAt) : null;
  var rows = [['Task', run.task], ['Site', run.startUrl], ['Model', run.model + ' (' + run.dialect + ')'], ['Status', run.status]];
  if (run.answer !== null) rows.push(['Answer', run.answer]);
  if (run.stopReason !== null) rows.push(['Stop reason', run.stopReason]);
  rows.push(['Steps', steps.length]);
  rows.push(['Tokens', counted ? (prompt + completion) + ' (prompt ' + prompt + ', completion ' + completion + ')' : '—']);
  rows.push(['Duration', dur === null || isNaN(dur) ? 'still running' : ms(dur)]);
  rows.push(['Started', run.startedAt]);
  if (data.cleanLeftOut) rows.push(['Note', 'The clean view of ' + data.cleanLeftOut + ' of ' + steps.length + ' steps was left out to keep this report small.']);
  rows.forEach(function (r) { $('run').appendChild(el('dt', r[0])); $('run').appendChild(el('dd', r[1])); });
  if (!steps.length) { $('player').hidden = true; $('empty').hidden = false; return; }
  steps.forEach(function (s, k) {
    var b = el('button', (k + 1) + '. ' + (s.actionText || s.action.type));
    b.title = s.actionText || s.action.type;
    b.addEventListener('click', function () { show(k); });
    var li = el('li'); li.appendChild(b); $('list').appendChild(li);
  });
  function show(k) {
    cur = Math.max(0, Math.min(steps.length - 1, k));
    var s = steps[cur];
    set('counter', 'Step ' + (cur + 1) + ' of ' + steps.length);
    $('prev').disabled = cur === 0; $('next').disabled = cur === steps.length - 1;
    set('url', s.url); set('title', s.title);
    var labelled = isImg(s.screenshot) ? s.screenshot : '', plain = isImg(s.cleanScreenshot) ? s.cleanScreenshot : '';
    var src = clean ? (plain || labelled) : (labelled || plain);
    $('img').hidden = !src; $('noshot').hidden = !!src;
    if (src) { $('img').src = src; $('img').alt = 'Screenshot of step ' + (cur + 1) + (src === plain ? ' (clean view)' : ' (labelled)'); } else $('img').removeAttribute('src');
    // An action at a point: a crosshair where it acted (the image shows the whole viewport).
    var tg = s.action && s.action.target, vp = s.viewport;
    var pt = src && tg && tg.kind === 'point' && vp && vp.width > 0 && vp.height > 0;
    $('cross').hidden = !pt;
    if (pt) { $('cross').style.left = (100 * tg.x / vp.width) + '%'; $('cross').style.top = (100 * tg.y / vp.height) + '%'; $('cross').title = 'acted at (' + Math.round(tg.x) + ', ' + Math.round(tg.y) + ')'; }
    $('toggle').disabled = !(labelled && plain);
    $('toggle').textContent = src && src === plain ? 'Show labels' : (!plain && data.cleanLeftOut ? 'Clean view left out' : 'Show clean view');
    $('shot').className = full ? 'full' : '';
    set('thought', s.thought);
    set('action', s.actionText + ' (' + s.action.type + ')');
    $('result').className = 'text' + (s.result.ok ? '' : ' fail');
    set('result', s.result.ok ? 'ok' : 'failed: ' + s.result.error);
    set('observation', s.observation);
    set('approval', s.approval ? s.approval.decision + (s.approval.feedback ? ': ' + s.approval.feedback : '') : 'none (no action was proposed)');
    set('memory', JSON.stringify(s.memory, null, 2));
    set('reasoning', s.reply.reasoning);
    set('raw', s.reply.raw);
    set('elements', s.elements.map(function (e) { return '[' + e.label + '] <' + e.tag + '> ' + e.text; }).join('\\n'));
    $('elements-n').textContent = 'Elements (' + s.elements.length + ')';
    var t = s.timings;
    set('timings', 'observe ' + ms(t.observeMs) + ' · model ' + ms(t.modelMs) + ' · act ' + ms(t.actMs) + ' · total ' + ms(t.totalMs));
    set('tokens', s.usage ? 'prompt ' + s.usage.promptTokens + ' · completion ' + s.usage.completionTokens : null);
    var items = $('list').querySelectorAll('button');
    for (var j = 0; j < items.length; j++) items[j].setAttribute('aria-current', j === cur ? 'true' : 'false');
    items[cur].scrollIntoView({ block: 'nearest' });
  }
  $('prev').addEventListener('click', function () { show(cur - 1); });
  $('next').addEventListener('click', function () { show(cur + 1); });
  $('toggle').addEventListener('click', function () { clean = !clean; show(cur); });
  $('img').addEventListener('click', function () { full = !full; show(cur); });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var k = e.key;
    if (k === 'ArrowRight' || k === 'j') show(cur + 1);
    else if (k === 'ArrowLeft' || k === 'k') show(cur - 1);
    else if (k === 'Home') show(0);
    else if (k === 'End') show(steps.length - 1);
    else if (k === 'c') { clean = !clean; show(cur); }
    else if (k === 'z') { full = !full; show(cur); }
    else return;
    e.preventDefault();
  });
  show(0);
})();
`;

const BODY = `
<header><h1>Run report</h1><dl id="run"></dl></header>
<p id="empty" hidden>This run has no steps.</p>
<div class="wrap" id="player">
<aside><ol id="list"></ol></aside>
<main>
<div class="bar"><button id="prev" type="button">← Prev</button><span id="counter"></span><button id="next" type="button">Next →</button>
<button id="toggle" type="button">Show clean view</button><span class="hint">← → or j k: step · Home End · c: clean/labelled · click the image or z: zoom</span></div>
<div id="url"></div><div id="title" class="hint"></div>
<div id="shot"><div class="pic"><img id="img" alt=""><div id="cross" hidden></div></div><div id="noshot" hidden>screenshot excluded</div></div>
<section><h2>Thought</h2><p id="thought" class="text"></p></section>
<section><h2>Action</h2><p id="action" class="text"></p><p id="result" class="text"></p></section>
<section><h2>Observation</h2><p id="observation" class="text"></p></section>
<section><h2>Approval</h2><p id="approval" class="text"></p></section>
<section><h2>Memory</h2><pre id="memory"></pre></section>
<details><summary>Reasoning</summary><pre id="reasoning"></pre></details>
<details><summary>Raw reply</summary><pre id="raw"></pre></details>
<details><summary id="elements-n">Elements</summary><pre id="elements"></pre></details>
<section><h2>Timings</h2><p id="timings" class="text"></p></section>
<section><h2>Tokens</h2><p id="tokens" class="text"></p></section>
</main>
</div>`;

function page(data: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Run report</title>
<style>${STYLE}</style>
</head><body>${BODY}
<script type="application/json" id="trace-data">${data}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}

export function buildHtmlReport(trace: Trace, opts: ReportOptions = {}): string {
  const max = opts.maxChars ?? 24_500_000;
  const img = (s: string) => (imageMimeOf(s) ? s : '');
  const steps = trace.steps.map((s) => ({ ...s, screenshot: img(s.screenshot), cleanScreenshot: img(s.cleanScreenshot) }));
  const html = page(jsonForScript({ trace: { ...trace, steps }, cleanLeftOut: 0 }));
  let excess = html.length - max;
  if (excess <= 0) return html;
  // base64 needs no escaping: leaving a clean view out saves its length
  let cleanLeftOut = 0;
  for (const s of [...steps].sort((a, b) => b.cleanScreenshot.length - a.cleanScreenshot.length)) {
    if (excess <= 0 || !s.cleanScreenshot) break;
    excess -= s.cleanScreenshot.length;
    s.cleanScreenshot = '';
    cleanLeftOut++;
  }
  return page(jsonForScript({ trace: { ...trace, steps }, cleanLeftOut }));
}
