/**
 * Export sizes of a real 100-step run on real text-heavy pages ("exportReal" in bench-results.json).
 *
 * 1. Pages: Debian's documentation packages, served from /usr/share/doc on 127.0.0.1: the Node.js
 *    API docs (nodejs ships them; nodejs-doc on older releases) and the PostgreSQL 15 manual
 *    (postgresql-doc-15), installed with apt-get when missing (root on Debian; otherwise the
 *    part is skipped with a note). Long documentation pages, long link lists (the manual's
 *    index has thousands of entries).
 * 2. The run: the built extension, through the headless runner (scripts/run-agent.ts), with a
 *    scripted glm-web model that reads the element list (policyFor): a walk through each manual,
 *    scrolling and opening links it has not opened before, 50 steps a site, 100 in all; the
 *    last one answers. Everything a real run keeps is real: screenshots as the extension encodes
 *    them, element lists, prompts, replies.
 * 3. The exports: the trace JSON, the HTML report and the zip as the panel builds them
 *    (sidepanel/export.ts, the runner's --trace / --report / --zip). Numbers are reported, never asserted.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runAgent } from '../../scripts/run-agent';
import { serveDir } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';
import { startFakeModel, type ModelReply } from '../fixtures/model/server';
import type { Element } from '../fixtures/dialects/glm-web/request';
import { DOC, ensureDocs } from './debian-docs';

const STEPS = 100;
const BUDGET = 25_000_000;
const SITES = [
  { name: 'Node.js API docs', index: 'nodejs/api/index.html', pkg: 'nodejs-doc' },
  { name: 'PostgreSQL 15 manual index', index: 'postgresql-doc-15/html/bookindex.html', pkg: 'postgresql-doc-15' },
];

const glm = (thought: string, action: string, memory: Record<string, unknown>): ModelReply => ({
  content: `<think>${thought} Let me look at the page before I act.</think><answer>Thought: ${thought}\nAction: <|begin_of_box|>${action}<|end_of_box|>\nMemory_Updated: ${JSON.stringify(memory)}</answer>`,
});

/**
 * The scripted model (it reads the element list, not the screenshot): a walk through each
 * manual, 50 steps a site, the last step answers. On a page: scroll twice, then open a link not
 * opened before (or go back when there is none). To change sites: `Bing` (the hub, set as the
 * search start page) and the hub's link to the next manual. An action a guard stops (a link off
 * the site, a download) is rejected by the runner's input ("n"), and the walk goes on.
 */
function policyFor() {
  let site = 0;
  let scrolls = 0;
  const opened = new Set<string>();
  const per = STEPS / SITES.length;
  return (els: Element[], n: number): ModelReply => {
    const memory = { site: SITES[site].name, opened: opened.size };
    if (n >= STEPS - 1) return glm('I have read enough of both manuals.', 'ANSWER; <content>Both manuals were read.</content>', memory);
    const want = Math.min(SITES.length - 1, Math.floor(n / per));
    const hubLink = els.find((e) => e.text.includes(SITES[want].name));
    if (hubLink && els.length <= SITES.length + 1) {
      site = want;
      scrolls = 0;
      return glm(`I open the ${SITES[site].name}.`, `Click [${hubLink.label}]`, memory);
    }
    if (want > site) return glm('I go back to the start page to open the other manual.', 'Bing', memory);
    if (scrolls < 2 && els.length) {
      scrolls++;
      return glm('I read on down the page.', 'Scroll [WINDOW]; [down]', memory);
    }
    scrolls = 0;
    const links = els.filter((e) => e.tag !== 'input' && e.text.trim().length >= 4 && !opened.has(e.text.trim()));
    const link = links[(opened.size * 7 + 3) % Math.max(1, links.length)];
    if (!link) return glm('Nothing new to open here; back to the page before.', 'GoBack', memory);
    opened.add(link.text.trim());
    return glm(`I open "${link.text.trim().slice(0, 40)}".`, `Click [${link.label}]`, memory);
  };
}

function hubPage(docsUrl: string): string {
  const links = SITES.map((s) => `<li><a href="${docsUrl}${s.index}">${s.name}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Manuals</title></head><body><h1>Manuals</h1><ul>${links}</ul></body></html>`;
}

export async function exportRealBench(log: (s: string) => void = console.log) {
  if (!ensureDocs(SITES.map((s) => ({ pkg: s.pkg, file: s.index })), 'exportReal', log)) return { skipped: true };
  const docs = await serveDir(DOC);
  const hubDir = mkdtempSync(path.join(tmpdir(), 'webagent-hub-'));
  // The hub links into the docs server: same host, so the leave-site guard stays quiet.
  writeFileSync(path.join(hubDir, 'index.html'), hubPage(docs.url));
  const hub = await serveDir(hubDir);
  const policy = policyFor();
  const model = await startFakeModel({ models: ['glm-4.5v'], policy: (req, n) => policy(req.prompt?.elements ?? [], n) });
  const dir = process.env.BENCH_EXPORT_DIR ?? mkdtempSync(path.join(tmpdir(), 'webagent-export-real-'));
  mkdirSync(dir, { recursive: true });
  const files = { json: path.join(dir, 'real-trace.json'), html: path.join(dir, 'real-report.html'), zip: path.join(dir, 'real-run.zip') };
  const t0 = Date.now();
  try {
    const r = await runAgent(null, {
      task: 'Read the Node.js and PostgreSQL manuals and say when done.', url: `${docs.url}${SITES[0].index}`,
      config: { baseUrl: model.baseUrl, model: 'glm-4.5v', apiKey: '', maxSteps: STEPS, searchStartPage: hub.url, dialect: 'glm-web' },
      traceFile: files.json, reportFile: files.html, zipFile: files.zip,
      width: 1280, height: 800, headed: false,
    }, {
      out: () => undefined, err: () => undefined,
      // guards (a link off the site, a download) are answered "no": the model picks another link
      input: Readable.from(Array.from({ length: STEPS }, () => 'n not that one\n')),
    });
    const trace = JSON.parse(readFileSync(files.json, 'utf8')) as Trace;
    const steps = trace.steps.length;
    const size = (f: string) => statSync(f).size;
    // the panel's JSON export: compact when it carries screenshots (sidepanel/export.ts)
    const panelJson = Buffer.byteLength(JSON.stringify(trace, null, trace.steps.some((s) => s.screenshot) ? undefined : 2));
    const per100 = (bytes: number) => Math.round((bytes / Math.max(1, steps)) * 100);
    const results = {
      date: new Date().toISOString(), status: r.status, steps, runSeconds: Math.round((Date.now() - t0) / 1000),
      pages: [...new Set(trace.steps.map((s) => s.url.replace(docs.url, '/').replace(hub.url, 'hub/').replace(/#.*$/, '')))].length,
      elementsAvg: Math.round(trace.steps.reduce((a, s) => a + s.elements.length, 0) / Math.max(1, steps)),
      jsonBytes: size(files.json), panelJsonBytes: panelJson, htmlBytes: size(files.html), zipBytes: size(files.zip),
 per100Steps: { json: per100(size(files.json)), panelJson: per100(panelJson), html: per100(size(files.html)), zip: per100(size(files.zip)) },
      budgetBytes: BUDGET,
    };
    const mb = (x: number) => `${(x / 1e6).toFixed(2)} MB`.padStart(10);
    log(`\nexport sizes, real ${steps}-step run on ${results.pages} documentation pages (${results.elementsAvg} elements a step; budget ${(BUDGET / 1e6).toFixed(0)} MB per 100 steps)`);
    log('                 json (runner)  json (panel)        html         zip');
    log(`this run          ${mb(results.jsonBytes)}    ${mb(results.panelJsonBytes)}  ${mb(results.htmlBytes)}  ${mb(results.zipBytes)}`);
    log(`per 100 steps     ${mb(results.per100Steps.json)}    ${mb(results.per100Steps.panelJson)}  ${mb(results.per100Steps.html)}  ${mb(results.per100Steps.zip)}`);
    return results;
  } finally {
    await model.close();
    await hub.close();
    await docs.close();
    rmSync(hubDir, { recursive: true, force: true });
    if (!process.env.BENCH_EXPORT_DIR) rmSync(dir, { recursive: true, force: true });
  }
}
