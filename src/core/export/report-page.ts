/**
 * The HTML report's style and script (html-report.ts builds the page around them).
 *
 * Style: the system font, one spacing scale (--s1 … --s6), light and dark colours from
 * prefers-color-scheme, two columns (the step list, the player sticky beside it) from 960 px,
 * one column below (it reflows down to 320 px), and a print stylesheet: the summary and the whole
 * step list, no player, no buttons.
 *
 * Script (no library, no network): times shown in the reader's local time, the step player
 * (keys, clicks on the list, the clean / labelled toggle, the full-window view), all written with
 * textContent. Its words come from the embedded data (`data.text`, REPORT_TEXT).
 */

export const REPORT_STYLE = `
:root{--s1:4px;--s2:8px;--s3:12px;--s4:16px;--s5:24px;--s6:32px;--radius:8px;
--bg:#f6f7f9;--surface:#fff;--text:#1b1f24;--muted:#5c6670;--line:#d9dee4;--accent:#1f6feb;--accent-bg:#e3edfd;
--ok:#1a7f37;--ok-bg:#dcf5e3;--fail:#b42318;--fail-bg:#fde4e1;--warn:#8a5a00;--warn-bg:#fdf0d2;--code:#eef1f4;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--surface:#171b21;--text:#e6e9ed;--muted:#9aa4ae;--line:#2c333b;--accent:#6ea8fe;--accent-bg:#1c2b44;
--ok:#5cd08a;--ok-bg:#133322;--fail:#ff8d80;--fail-bg:#3d1714;--warn:#f2c164;--warn-bg:#3a2c0c;--code:#20262d}}
*{box-sizing:border-box}[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,sans-serif}
h1,h2,p,dl,dd,ol{margin:0}
h1{font-size:1.45rem;line-height:1.3;font-weight:650;overflow-wrap:anywhere}
h2{font-size:.8rem;font-weight:650;letter-spacing:.05em;text-transform:uppercase;color:var(--muted);margin-bottom:var(--s2)}
button{font:inherit;color:inherit}
pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);padding:var(--s2) var(--s3);border-radius:6px;max-height:24em;overflow:auto}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.muted,.hint{color:var(--muted)}.hint{font-size:.85rem}
.url{color:var(--accent);overflow-wrap:anywhere}
.turn-start{list-style:none;margin:var(--s3) 0 var(--s2);padding:var(--s1) var(--s3);border-left:3px solid var(--accent);font-weight:600;overflow-wrap:anywhere}
.turns{margin:var(--s3) 0}.turns li{overflow-wrap:anywhere}
.summary{background:var(--surface);border-bottom:1px solid var(--line);padding:var(--s5) var(--s5) var(--s4);display:grid;gap:var(--s3)}
.eyebrow{font-size:.8rem;color:var(--muted);font-weight:600;letter-spacing:.05em;text-transform:uppercase}
.status{justify-self:start;font-size:.85rem;font-weight:650;padding:2px var(--s3);border-radius:999px;background:var(--code)}
.status.finished{background:var(--ok-bg);color:var(--ok)}.status.failed{background:var(--fail-bg);color:var(--fail)}.status.stopped{background:var(--warn-bg);color:var(--warn)}
.answer,.reason{border-radius:var(--radius);padding:var(--s3) var(--s4);background:var(--ok-bg)}
.answer p{font-size:1.1rem;font-weight:600;white-space:pre-wrap;overflow-wrap:anywhere}
.answer.none{background:var(--code)}.answer.none p{font-weight:400;font-size:1rem}
.reason{background:var(--warn-bg)}.reason.failed{background:var(--fail-bg)}.reason p{white-space:pre-wrap;overflow-wrap:anywhere}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:var(--s2) var(--s4)}
.fact dt{font-size:.78rem;color:var(--muted)}.fact dd{overflow-wrap:anywhere}
.fact[data-key="start-page"]{grid-column:span 2}
.note{font-size:.85rem;color:var(--warn)}
.layout{display:grid;grid-template-columns:minmax(0,1fr);gap:var(--s5);padding:var(--s5)}
.run-steps{min-width:0}
.steps{list-style:none;padding:0;display:grid;gap:var(--s3);margin-top:var(--s3)}
.step{background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);padding:var(--s3) var(--s4);display:grid;gap:var(--s1);cursor:pointer;scroll-margin:var(--s4)}
.step:hover{border-color:var(--accent)}
.step.current{border-color:var(--accent);box-shadow:0 0 0 2px var(--accent-bg)}
.step-top{display:flex;gap:var(--s2);align-items:baseline}
.step-n{flex:none;min-width:2em;border:0;border-radius:6px;background:var(--code);font-weight:650;padding:0 var(--s2);cursor:pointer}
.step.current .step-n{background:var(--accent);color:#fff}
.act{flex:1;min-width:0;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88rem;overflow-wrap:anywhere}
.badge{flex:none;font-size:.75rem;font-weight:650;padding:0 var(--s2);border-radius:999px}
.badge.ok{background:var(--ok-bg);color:var(--ok)}.badge.fail{background:var(--fail-bg);color:var(--fail)}
.thought,.outcome{overflow-wrap:anywhere;white-space:pre-wrap}
.outcome.fail{color:var(--fail)}
.k{font-size:.75rem;font-weight:650;color:var(--muted);text-transform:uppercase;letter-spacing:.04em;margin-right:var(--s1)}
.meta{font-size:.8rem;color:var(--muted);overflow-wrap:anywhere}
.player{background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);padding:var(--s4);display:grid;gap:var(--s3);align-content:start;min-width:0}
.bar{display:flex;flex-wrap:wrap;gap:var(--s2);align-items:center}
.bar button{padding:var(--s1) var(--s3);border:1px solid var(--line);background:var(--surface);border-radius:6px;cursor:pointer}
.bar button:hover:not(:disabled){border-color:var(--accent)}.bar button:disabled{opacity:.45;cursor:default}
#counter{font-weight:650;margin-right:auto}
#shot{border:1px solid var(--line);border-radius:6px;overflow:hidden;background:var(--code)}
.pic{position:relative}
#img{display:block;width:100%;height:auto;cursor:zoom-in}
#noshot{padding:var(--s6);text-align:center;color:var(--muted)}
#cross{position:absolute;width:24px;height:24px;margin:-12px 0 0 -12px;pointer-events:none;border-radius:50%;box-shadow:0 0 0 2px #fff;background:linear-gradient(#e11d48,#e11d48) center/2px 100% no-repeat,linear-gradient(#e11d48,#e11d48) center/100% 2px no-repeat}
#box{position:absolute;pointer-events:none;border:2px solid #e11d48;box-shadow:0 0 0 1px #fff;border-radius:2px}
#shot.full{position:fixed;inset:0;z-index:10;border:0;border-radius:0;background:#0b0b0b;overflow:hidden;display:flex}
#shot.full .pic{margin:auto}#shot.full #img{width:auto;height:auto;max-width:100vw;max-height:100vh;cursor:zoom-out}
.kv{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:var(--s1) var(--s3)}
.kv dt{color:var(--muted);font-size:.85rem}.kv dd{white-space:pre-wrap;overflow-wrap:anywhere}
.kv dd.fail{color:var(--fail)}
details summary{cursor:pointer;color:var(--muted);padding:var(--s1) 0}
details[open] summary{margin-bottom:var(--s1)}
.empty{color:var(--muted)}
@media (min-width:960px){
.layout{grid-template-columns:minmax(0,1fr) minmax(0,1.15fr);align-items:start}
.player{position:sticky;top:var(--s4);max-height:calc(100vh - 2*var(--s4));overflow:auto}
.layout.no-steps{grid-template-columns:minmax(0,1fr)}}
@media (max-width:959px){.player{order:-1}}
@media (max-width:520px){
.summary{padding:var(--s4)}.layout{padding:var(--s3);gap:var(--s4)}
.facts{grid-template-columns:repeat(2,minmax(0,1fr))}.fact[data-key="start-page"]{grid-column:1/-1}
.kv{grid-template-columns:minmax(0,1fr)}.kv dd{margin-bottom:var(--s2)}
.player{padding:var(--s3)}.step{padding:var(--s2) var(--s3)}}
@media print{
:root{--bg:#fff;--surface:#fff;--text:#000;--muted:#444;--line:#bbb;--code:#f2f2f2}
body{font-size:11pt}.player,.hint{display:none!important}
.step-n,.step.current .step-n{background:none;color:#000;padding:0;min-width:0}.step-n::after{content:"."}
.summary{border:0;padding:0 0 12pt}.layout{display:block;padding:0}
.step,.step.current{break-inside:avoid;border-color:#bbb;box-shadow:none;padding:6pt 8pt}.steps{gap:6pt}
.url{color:#000}}
`;

export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var T = data.text, steps = data.steps, images = data.images;
  function $(id) { return document.getElementById(id); }
  function fill(t, v) { return String(t).replace(/\\{(\\w+)\\}/g, function (m, k) { return k in v ? String(v[k]) : m; }); }
  function set(id, s) { $(id).textContent = s === null || s === undefined || s === '' ? T.empty : String(s); }
  // Times: the page carries ISO (UTC); the reader sees them in their own time zone, in the report's language.
  var times = document.querySelectorAll('time[datetime]');
  for (var t = 0; t < times.length; t++) {
    var d = new Date(times[t].getAttribute('datetime'));
    if (!isNaN(d.getTime())) { times[t].title = times[t].getAttribute('datetime'); times[t].textContent = d.toLocaleString(document.documentElement.lang || undefined, { dateStyle: 'medium', timeStyle: 'medium' }); }
  }
  if (!steps.length) return;
  var cur = 0, clean = false, full = false;
  var items = document.querySelectorAll('#steps .step');
  var wide = window.matchMedia('(min-width: 960px)');
  function image(n) { var u = n >= 0 ? images[n] : ''; return typeof u === 'string' && /^data:image\\/(png|jpeg|webp|gif);base64,/.test(u) ? u : ''; }
  function show(k, from) {
    cur = Math.max(0, Math.min(steps.length - 1, k));
    var s = steps[cur];
    set('counter', fill(T.counter, { n: cur + 1, total: steps.length }));
    $('prev').disabled = cur === 0; $('next').disabled = cur === steps.length - 1;
    set('url', s.url); set('title', s.title);
    var labelled = image(s.shot), plain = image(s.clean);
    var src = clean ? (plain || labelled) : (labelled || plain);
    $('img').hidden = !src; $('noshot').hidden = !!src;
    if (src) { $('img').src = src; $('img').alt = fill(src === plain && plain !== labelled ? T.altClean : T.altLabelled, { n: cur + 1 }); } else $('img').removeAttribute('src');
    // An action at a point: a crosshair where it acted (the image shows the whole viewport).
    var p = s.point, vp = s.viewport, cross = !!(src && p && vp.width > 0 && vp.height > 0);
    $('cross').hidden = !cross;
    if (cross) { $('cross').style.left = (100 * p.x / vp.width) + '%'; $('cross').style.top = (100 * p.y / vp.height) + '%'; $('cross').title = fill(T.actedAt, { x: Math.round(p.x), y: Math.round(p.y) }); }
    // The box the action named (a quoted text's), or the element found at its point.
    var b = s.box, boxed = !!(src && b && vp.width > 0 && vp.height > 0);
    $('box').hidden = !boxed;
    if (boxed) { var bs = $('box').style; bs.left = (100 * b.x / vp.width) + '%'; bs.top = (100 * b.y / vp.height) + '%'; bs.width = (100 * b.width / vp.width) + '%'; bs.height = (100 * b.height / vp.height) + '%'; }
    $('toggle').disabled = !(labelled && plain && labelled !== plain);
    $('toggle').textContent = src && src === plain && plain !== labelled ? T.showLabels : (!plain && data.cleanLeftOut ? T.cleanLeftOut : T.showClean);
    $('shot').className = full && src ? 'full' : '';
    set('thought', s.thought);
    set('action', s.words);
    set('result', s.outcome); $('result').className = s.ok ? '' : 'fail';
    set('approval', s.approval); set('timings', s.timings); set('tokens', s.tokens);
    set('memory', s.memory); set('raw', s.raw); set('reasoning', s.reasoning);
    $('reasoning-box').hidden = !s.reasoning;
    set('elements', s.elements); $('elements-n').textContent = fill(T.elements, { n: s.elementCount });
    for (var j = 0; j < items.length; j++) {
      var on = j === cur;
      items[j].classList.toggle('current', on);
      if (on) items[j].setAttribute('aria-current', 'step'); else items[j].removeAttribute('aria-current');
    }
    if (from === 'key') items[cur].scrollIntoView({ block: 'nearest' });
    if (from === 'list' && !wide.matches) $('player').scrollIntoView({ block: 'start' });
  }
  function zoom(on) { full = on; show(cur); }
  for (var i = 0; i < items.length; i++) {
    items[i].addEventListener('click', function (e) {
      var sel = window.getSelection();
      if (sel && String(sel).length && e.target.className !== 'step-n') return; // selecting text, not choosing
      show(Number(this.getAttribute('data-i')), 'list');
    });
  }
  $('prev').addEventListener('click', function () { show(cur - 1); });
  $('next').addEventListener('click', function () { show(cur + 1); });
  $('toggle').addEventListener('click', function () { clean = !clean; show(cur); });
  $('img').addEventListener('click', function () { zoom(!full); });
  $('shot').addEventListener('click', function (e) { if (full && e.target === $('shot')) zoom(false); });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var k = e.key;
    if (k === 'Escape' && full) zoom(false);
    else if (k === 'ArrowRight' || k === 'j') show(cur + 1, 'key');
    else if (k === 'ArrowLeft' || k === 'k') show(cur - 1, 'key');
    else if (k === 'Home') show(0, 'key');
    else if (k === 'End') show(steps.length - 1, 'key');
    else if (k === 'c') { clean = !clean; show(cur); }
    else if (k === 'z') zoom(!full);
    else return;
    e.preventDefault();
  });
  show(0);
})();
`;
