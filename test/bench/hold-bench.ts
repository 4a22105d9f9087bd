/**
 * The request hold's cost on page loads ("hold" in bench-results.json): the real documentation
 * pages of real-pages.ts (Debian's Node.js API and PostgreSQL manuals, with their styles, scripts
 * and images) and a fixture page that sends 40 API requests (fetch and XHR, JSON bodies) after it
 * loads, each loaded BENCH_HOLD_LOADS times (default 8; twice that in a run, the two run modes alternated)
 * in the built extension's browser:
 *
 * - "no run": the debugger is not attached, nothing is paused;
 * - "off": in the tab of a run waiting for its (stalled) model, with the password, payment,
 *   delete and send rules off, so the run holds nothing (background/watch.ts): the debugger alone;
 * - "docs": the rules on and nothing to watch: every request that can carry a body is paused for
 *   the judge, which during an action also judges it by what it would do (the guards' second
 *   line, core/guards/request-effect.ts): what an ordinary run costs;
 * - "all": the rules on and a secret to watch: the Fetch domain pauses every document, XHR, fetch,
 *   ping and "Other" request for the run's judge (background/hold.ts);
 * - "typed": the rules on and a card number typed by the run into the API page's card field (the
 *   bench approves the payment question): every request of every type, the page's and its
 *   workers', is paused and judged by where it goes (all on the value's own site here, so none is
 *   held). The pages are served from one server, so they are one site. A page whose markup loads
 *   something from another site (the Node.js manual's pages: a font stylesheet from
 *   fonts.googleapis.com) is not loaded in this mode: that request is held for the person by
 *   design (docs/guards.md), and with nobody to answer, the page's load would wait; its row says so.
 * typed/off is what the hold costs at most.
 *
 * Per page: the load's duration (Navigation Timing, navigationStart to loadEventEnd) and, for the
 * API page, the time until its 40 requests all came back; median per mode and on ÷ off.
 * Numbers are reported, never asserted.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchWithExtension, openPanel } from '../../scripts/browser';
import { serveDir } from '../../scripts/static-server';
import { startFakeModel } from '../fixtures/model/server';
import { DOC, ensureDocs } from './debian-docs';
import { REAL_PAGES } from './real-pages';

const LOADS = Number(process.env.BENCH_HOLD_LOADS ?? 8);

const API_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>API</title></head><body><h1>Orders</h1><ul id="l"></ul>
<form onsubmit="event.preventDefault()"><label>Card number <input id="cc" autocomplete="cc-number" aria-label="Card number"></label></form>
<script>
window.apiDone = (async () => {
  const t = performance.now();
  const one = (i) => i % 2
    ? fetch('/api.json?i=' + i, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order: i, note: 'x'.repeat(400) }) }).then((r) => r.text())
    : new Promise((res) => { const x = new XMLHttpRequest(); x.open('POST', '/api.json?i=' + i); x.onloadend = res; x.send(JSON.stringify({ order: i })); });
  await Promise.all(Array.from({ length: 40 }, (_, i) => one(i)));
  return performance.now() - t;
})();
</script></body></html>`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.floor(s.length / 2)] * 10) / 10 : NaN;
}

async function loadTimes(page: Page, url: string): Promise<{ load: number[]; api: number[] }> {
  const load: number[] = [], api: number[] = [];
  for (let i = 0; i < LOADS + 1; i++) {
    await page.goto(`${url}${url.includes('?') ? '&' : '?'}n=${i}`, { waitUntil: 'load' });
    const t = await page.evaluate(async () => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const w = window as unknown as { apiDone?: Promise<number> };
      return { load: nav.loadEventEnd - nav.startTime, api: w.apiDone ? await w.apiDone : null };
    });
    if (i === 0) continue; // a warm-up load: caches and the content script's first injection
    load.push(t.load);
    if (t.api !== null) api.push(t.api);
  }
  return { load, api };
}

type Mode = 'off' | 'documents' | 'all' | 'typed';
type Times = Record<string, { load: number[]; api: number[] }>;

export interface HoldRow {
  page: string; off: number; debugger: number; documents: number; all: number; typed: number; ratio: number;
  /** its markup loads from another site: not loaded with a card typed (held for the person) */
  elsewhere?: boolean;
  apiOff?: number; apiDebugger?: number; apiDocuments?: number; apiAll?: number; apiTyped?: number;
}

type Send = (type: string, payload: unknown) => Promise<unknown>;

export async function holdBench(log: (s: string) => void = console.log) {
  if (!ensureDocs(REAL_PAGES, 'hold', log)) return { skipped: true };
  const apiDir = mkdtempSync(path.join(tmpdir(), 'webagent-hold-'));
  writeFileSync(path.join(apiDir, 'api.html'), API_PAGE);
  writeFileSync(path.join(apiDir, 'api.json'), '{"ok":true}');
  // one server, so one site: the documentation under /doc/
  const site = await serveDir(apiDir, 0, { mounts: { '/doc/': DOC } });
  // Every model request waits until the run is stopped: the run sits there, attached, with its page
  // observed; in mode "typed" the first reply types a card number first.
  let stall: () => void = () => undefined;
  let stalled = new Promise<void>((resolve) => { stall = resolve; });
  let typeFirst = false;
  const model = await startFakeModel({
    policy: async (req) => {
      const card = (req.prompt as { elements?: Array<{ label: number; text: string }> } | undefined)?.elements?.find((e) => e.text === 'Card number');
      if (typeFirst && card) {
        typeFirst = false;
        return { content: `Thought: Type it.\nAction: Type [${card.label}]; [4111 1111 1111 1111]\nMemory_Updated: {}` };
      }
      await stalled;
      return { content: 'Thought: Wait.\nAction: Wait\nMemory_Updated: {}' };
    },
  });
  const browser = await launchWithExtension();
  const rows: HoldRow[] = [];
  try {
    const panel = await openPanel(browser);
    const send: Send = (type, payload) => panel.evaluate(([t, p]) => (window as unknown as { webagent: { send: Send } }).webagent.send(t as string, p), [type, payload] as const);
    // a page whose markup loads from another site (a stylesheet, a script, an image at an http(s) address)
    const loadsElsewhere = (file: string) => /<(?:link|script|img)\b[^>]*\b(?:href|src)="https?:\/\/(?![^"]*\/\/(?:127\.0\.0\.1|localhost)[:/])[^"]*"[^>]*>/i.test(readFileSync(path.join(DOC, file), 'utf8').replace(/<link[^>]*rel="canonical"[^>]*>/gi, ''));
    const pages = [
      { name: 'API page (40 requests)', url: `${site.url}api.html`, elsewhere: false },
      ...REAL_PAGES.map((p) => ({ name: p.name, url: `${site.url}doc/${p.file}`, elsewhere: loadsElsewhere(p.file) })),
    ];
    const plain = await browser.context.newPage();
    const off: Times = {};
    for (const p of pages) off[p.name] = await loadTimes(plain, p.url);
    await plain.close();
    /**
     * every page loaded in the tab of a run waiting for its model: the password and payment rules
     * off (nothing held: the debugger alone), on with nothing to watch (page loads held), on with a
     * secret to watch (every kind held)
     */
    const inRun = async (mode: Mode) => {
      const rules = ['password', 'payment', 'delete', 'send'].map((id) => ({ id, on: mode !== 'off' }));
      await send('settings/patch', { set: { secrets: mode === 'all' ? [{ name: 'card', value: '4111 1111 1111 1111' }] : [], guards: { rules, allow: {} } } });
      const seen = model.requests.length;
      typeFirst = mode === 'typed';
      const { runId } = await send('run/start', {
        task: 'Wait.', url: pages[0].url, config: { baseUrl: model.baseUrl, model: 'glm-4.5v', apiKey: '', maxSteps: 5, dialect: 'glm-web' },
      }) as { runId: string };
      const reached = async (n: number) => {
        const until = Date.now() + 30_000;
        while (model.requests.length < seen + n && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
        if (model.requests.length < seen + n) throw new Error('the run did not reach its model request');
      };
      await reached(1);
      if (mode === 'typed') {
        // the card is typed once the bench approves (Enter in a card field asks), then the run waits on its model
        const until = Date.now() + 30_000;
        while (Date.now() < until && (await send('run/get', { runId }) as { phase?: string; status?: string } | null)?.phase !== 'approve') await new Promise((r) => setTimeout(r, 100));
        await send('run/approve', { runId });
        await reached(2);
      }
      const tab = browser.context.pages().filter((pg) => pg.url().startsWith(pages[0].url)).pop();
      if (!tab) throw new Error('the run\'s tab was not found');
      const out: Times = {};
      for (const p of pages) out[p.name] = mode === 'typed' && p.elsewhere ? { load: [], api: [] } : await loadTimes(tab, p.url);
      await send('run/stop', { runId });
      stall();
      stalled = new Promise<void>((resolve) => { stall = resolve; });
      await tab.close();
      return out;
    };
    // Alternated (off, documents, all, twice), so a warm-up or a drift of the machine weighs on each.
    const merge = (a: Times, b: Times): Times => Object.fromEntries(Object.keys(a).map((k) => [k, { load: [...a[k].load, ...b[k].load], api: [...a[k].api, ...b[k].api] }]));
    const modes: Mode[] = ['off', 'documents', 'all', 'typed'];
    const times: Record<Mode, Times> = { off: {}, documents: {}, all: {}, typed: {} };
    for (let round = 0; round < 2; round++) {
      for (const m of modes) times[m] = round ? merge(times[m], await inRun(m)) : await inRun(m);
    }
    for (const p of pages) {
      const med = (m: Mode) => median(times[m][p.name].load);
      const api = (m: Mode) => median(times[m][p.name].api);
      const row: HoldRow = { page: p.name, off: median(off[p.name].load), debugger: med('off'), documents: med('documents'), all: med('all'), typed: med('typed'), ratio: Math.round((med('typed') / med('off')) * 100) / 100, ...(p.elsewhere ? { elsewhere: true } : {}) };
      if (off[p.name].api.length) Object.assign(row, { apiOff: median(off[p.name].api), apiDebugger: api('off'), apiDocuments: api('documents'), apiAll: api('all'), apiTyped: api('typed') });
      rows.push(row);
    }
    log(`\nrequest hold: page loads (median of ${LOADS} loads with no run, ${LOADS * 2} in a run's tab, ms) with no run; in a run's tab with the hold off (the debugger alone), holding page loads only (nothing to watch), holding every kind that carries a body (a secret to watch), holding every request of every type (a card number typed into the page); "API" is the API page's 40 requests`);
    log(['page'.padEnd(24), 'no run'.padStart(7), 'off'.padStart(7), 'docs'.padStart(7), 'all'.padStart(7), 'typed'.padStart(7), 'typed/off'.padStart(10), 'API: no run'.padStart(12), 'off'.padStart(6), 'docs'.padStart(6), 'all'.padStart(6), 'typed'.padStart(6)].join(' '));
    for (const r of rows) {
      log([r.page.padEnd(24), String(r.off).padStart(7), String(r.debugger).padStart(7), String(r.documents).padStart(7), String(r.all).padStart(7), (r.elsewhere ? 'held*' : String(r.typed)).padStart(7), (r.elsewhere ? '—' : `${r.ratio}×`).padStart(10),
        String(r.apiOff ?? '').padStart(12), String(r.apiDebugger ?? '').padStart(6), String(r.apiDocuments ?? '').padStart(6), String(r.apiAll ?? '').padStart(6), String(r.apiTyped ?? '').padStart(6)].join(' '));
    }
    if (rows.some((r) => r.elsewhere)) log('* its markup loads a stylesheet from another site: with a card number typed, that request waits for the person (docs/guards.md), so the page is not timed in that mode');
    return { loads: LOADS, rows };
  } finally {
    stall();
    await browser.close();
    await model.close();
    await site.close();
  }
}
