/**
 * The observe step on real heavy pages ("observe" in bench-results.json): the built extension
 * through the headless runner (scripts/run-agent.ts) at 1280x800, one run per page of
 * real-pages.ts (Debian's Node.js API and PostgreSQL documentation, debian-docs.ts), with a
 * scripted glm-web model that scrolls, opens a link and goes back. Numbers are reported, never
 * asserted.
 *
 * Per page (with its DOM node count, counted in a plain browser) over the steps that observed it:
 * - the stages the trace records (timings.observeStages, docs/trace-format.md): the settle wait
 *   apart, then labeling, the model's screenshot, the request's images, and the time from the end
 *   of the settle wait until the request left ("observe": what the model waits for);
 * - "wait": seen from the model's side, from the end of the previous action (its reply sent,
 *   minus the trace's actMs) until this request arrived; this one needs no stages, so it also
 *   measures a build that records none (a run of the bench from an older checkout);
 * - the model's image size;
 * - a bare capture of the same page in the same run (bare-capture.ts: three after every fourth step,
 *   taken before the reply goes out, so in no step's time), and each stage's median beside its
 *   budget as a share of it (BUDGET: observe in all 1.3×).
 * Each: median and p95. BENCH_OBSERVE_STEPS steps a page (default 16).
 */
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runAgent } from '../../scripts/run-agent';
import { serveDir } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';
import { startFakeModel, type ModelReply } from '../fixtures/model/server';
import type { Element } from '../fixtures/dialects/glm-web/request';
import { DOC, ensureDocs } from './debian-docs';
import { plainSession } from './marks-browser';
import { REAL_PAGES } from './real-pages';
import { bareCaptures } from './bare-capture';
import type { Launched } from '../../scripts/browser';

const STEPS = Number(process.env.BENCH_OBSERVE_STEPS ?? 16);

export interface Stat { n: number; median: number; p95: number }

function stat(xs: number[]): Stat | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, median: Math.round(at(0.5)), p95: Math.round(at(0.95)) };
}

const glm = (thought: string, action: string): ModelReply => ({
  content: `<think>${thought}</think><answer>Thought: ${thought}\nAction: <|begin_of_box|>${action}<|end_of_box|>\nMemory_Updated: {}</answer>`,
});

/** Scroll, scroll, open a link, go back; the last step answers. */
function policy(els: Element[], n: number): ModelReply {
  if (n >= STEPS - 1) return glm('I have seen enough.', 'ANSWER; <content>done</content>');
  switch (n % 4) {
    case 2: {
      const links = els.filter((e) => e.tag === 'a' && e.text.trim().length >= 4);
      const link = links[(n * 7 + 3) % Math.max(1, links.length)];
      if (link) return glm(`I open "${link.text.trim().slice(0, 40)}".`, `Click [${link.label}]`);
      return glm('I read on down the page.', 'Scroll [WINDOW]; [down]');
    }
    case 3: return glm('Back to the page before.', 'GoBack');
    default: return glm('I read on down the page.', 'Scroll [WINDOW]; [down]');
  }
}

async function countNodes(urls: string[]): Promise<number[]> {
  const plain = await plainSession();
  try {
    const out: number[] = [];
    for (const url of urls) {
      const page = await plain.open(url, 1);
      out.push(await page.evaluate(() => {
        const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
        let n = 0;
        while (w.nextNode()) n++;
        return n;
      }));
      await plain.done(page);
    }
    return out;
  } finally {
    await plain.close();
  }
}

export interface ObserveRow {
  page: string;
  nodes: number;
  steps: number;
  settle: Stat | null; label: Stat | null; capture: Stat | null; encode: Stat | null; observe: Stat | null;
  wait: Stat | null; observeMs: Stat | null; imageKB: Stat | null;
  /** part of label: the text and picture screens in the page; part of capture: decode, drawing, encode */
  screen: Stat | null; draw: Stat | null;
  /** a bare capture of the same page in the same run (bare-capture.ts), and observe's median ÷ its */
  bare: Stat | null; observePerCapture: number | null;
}

/** Each stage's budget, as a share of a bare capture: observe in all ≤ 1.3×, the capture itself 1×. */
const BUDGET = { observe: 1.3, capture: 1, labelAndScreen: 0.15, draw: 0.1, rest: 0.05 };

export async function observeBench(log: (s: string) => void = console.log) {
  if (!ensureDocs(REAL_PAGES, 'observe', log)) return { skipped: true };
  const docs = await serveDir(DOC);
  const dir = mkdtempSync(path.join(tmpdir(), 'webagent-observe-'));
  const rows: ObserveRow[] = [];
  try {
    const nodes = await countNodes(REAL_PAGES.map((p) => `${docs.url}${p.file}`));
    for (const [k, p] of REAL_PAGES.entries()) {
      const url = `${docs.url}${p.file}`;
      /** when each request arrived, and when its reply went out (ms, this process) */
      const arrived: number[] = [], replied: number[] = [];
      const bare: number[] = [];
      let launched: Launched | null = null;
      const model = await startFakeModel({
        models: ['glm-4.5v'],
        policy: async (req, n) => {
          arrived[n] = performance.now();
          // a bare capture of the page as it is (after a scroll), before the reply: in no step's `wait`
          if (launched && n % 4 === 1) bare.push(...await bareCaptures(launched.context, 3));
          const r = policy(req.prompt?.elements ?? [], n);
          replied[n] = performance.now();
          return r;
        },
      });
      const traceFile = path.join(dir, `observe-${k}.json`);
      try {
        await runAgent(null, {
          task: 'Read the page.', url,
          config: { baseUrl: model.baseUrl, model: 'glm-4.5v', apiKey: '', maxSteps: STEPS, dialect: 'glm-web' },
          traceFile, width: 1280, height: 800, headed: false,
        }, {
          out: () => undefined, err: () => undefined,
          // a guard (a download, another site) is answered "no"; the walk goes on
          input: Readable.from(Array.from({ length: STEPS }, () => 'n\n')),
          onLaunched: (b) => { launched = b; },
        });
      } finally {
        await model.close();
      }
      const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
      const on = trace.steps.filter((s) => s.url.replace(/#.*$/, '') === url);
      const st = on.map((s) => s.timings.observeStages).filter((o) => !!o);
      const wait = on.filter((s) => s.index > 0 && arrived[s.index] !== undefined && replied[s.index - 1] !== undefined)
        .map((s) => arrived[s.index] - replied[s.index - 1] - trace.steps[s.index - 1].timings.actMs);
      rows.push({
        page: p.name, nodes: nodes[k], steps: on.length,
        settle: stat(st.map((o) => o.settleMs)), label: stat(st.map((o) => o.labelMs)), capture: stat(st.map((o) => o.captureMs)),
        encode: stat(st.flatMap((o) => o.encodeMs ?? [])), observe: stat(st.flatMap((o) => o.requestMs ?? [])),
        wait: stat(wait), observeMs: stat(on.map((s) => s.timings.observeMs)), imageKB: stat(on.map((s) => s.request.imageBytes / 1000)),
        screen: stat(st.flatMap((o) => o.screenMs ?? [])), draw: stat(st.flatMap((o) => o.drawMs ?? [])),
        bare: stat(bare), observePerCapture: null,
      });
      const row = rows[rows.length - 1];
      if (row.bare && row.observe) row.observePerCapture = Math.round((row.observe.median / row.bare.median) * 100) / 100;
      log(`observe: ${p.name} done (${on.length} of ${trace.steps.length} steps on the page)`);
    }
  } finally {
    await docs.close();
  }
  const f = (s: Stat | null) => (s ? `${s.median}/${s.p95}` : '-').padStart(10);
  log('\nobserve step on real pages at 1280x800, median/p95 ms (settle apart; observe = label + capture + list + request out)');
  log(`page               nodes  steps${['settle', 'label', 'capture', 'encode', 'observe', 'wait', 'observeMs', 'image kB'].map((h) => h.padStart(10)).join('')}`);
  for (const r of rows) {
    log(`${r.page.padEnd(17)} ${String(r.nodes).padStart(6)} ${String(r.steps).padStart(6)}${f(r.settle)}${f(r.label)}${f(r.capture)}${f(r.encode)}${f(r.observe)}${f(r.wait)}${f(r.observeMs)}${f(r.imageKB)}`);
  }
  // each stage's median beside its budget (a share of the page's bare capture in the same run)
  log(`\nstages beside their budgets, median ms (budget: observe ≤ ${BUDGET.observe}× a bare capture of the page: the capture ${BUDGET.capture}×, label and screen ${BUDGET.labelAndScreen}×, draw ${BUDGET.draw}×, the rest ${BUDGET.rest}×)`);
  log(`page              ${['bare cap', 'label', '(screen)', 'capture', '(draw)', 'observe', 'obs/cap'].map((h) => h.padStart(15)).join('')}`);
  const vs = (s: Stat | null, share: number, bare: number | undefined) => `${s ? s.median : '-'} / ${bare ? Math.round(bare * share) : '-'}`.padStart(15);
  for (const r of rows) {
    const b = r.bare?.median;
    log(`${r.page.padEnd(17)} ${String(b ?? '-').padStart(15)}${vs(r.label, BUDGET.labelAndScreen, b)}${(r.screen ? String(r.screen.median) : '-').padStart(15)}${vs(r.capture, BUDGET.capture + BUDGET.draw, b)}${vs(r.draw, BUDGET.draw, b)}${vs(r.observe, BUDGET.observe, b)}${`${r.observePerCapture ?? '-'} / ${BUDGET.observe}`.padStart(15)}`);
  }
  return { date: new Date().toISOString(), steps: STEPS, viewport: { width: 1280, height: 800 }, pages: rows };
}
