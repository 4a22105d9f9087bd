/**
 * The gate's cost of reading names as a person reads them ("gate" in bench-results.json): the
 * runner with the built extension on the names fixture (test/fixtures/pages/guards/names.html),
 * a glm-web model that answers at once clicking, BENCH_GATE_REPEATS times each (default 5, the kinds in turn: the scripted model counts steps by the prompt's history, which shows 15):
 * - "picture": a role=button div whose "Buy now" is a background image, read by OCR
 *   (src/background/ocr.ts); the first read loads the engine (reported apart as "first");
 * - "drawn": a button drawn "Place order" by a bidi override (its letters in drawn order, no OCR);
 * - "plain": a button whose text says "Place my order" (the words alone).
 * Each question is answered no at once (stdin), so a step's gate time is what is left of it after
 * observing and the model: finding the element, its names, the judgement and the answer. Median
 * and the first. Numbers are reported, never asserted.
 */
import { Readable } from 'node:stream';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveDir } from '../../scripts/static-server';
import { runAgent } from '../../scripts/run-agent';
import { sequence, type Step } from '../e2e/scripted-runs';
import type { Trace } from '../../src/core/trace';

const REPEATS = Number(process.env.BENCH_GATE_REPEATS ?? 5);

const KINDS: Record<string, Step> = {
  picture: { click: /^$/, tag: null },
  drawn: { click: /^redro ecalP$/ },
  plain: { click: /^Place my order$/ },
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

export async function gateBench() {
  const site = await serveDir(path.join(import.meta.dirname, '..', 'fixtures', 'pages'));
  const dir = mkdtempSync(path.join(tmpdir(), 'webagent-gate-bench-'));
  const rows: Record<string, { first: number; median: number; asked: number; steps: number }> = {};
  const kinds = Object.keys(KINDS);
  // the kinds in turn, round after round (the same action five times in a row would stop the run as a loop)
  const plan = Array.from({ length: REPEATS }, () => kinds).flat();
  const model = await sequence([...plan.map((k) => KINDS[k]), { answer: 'done' }]);
  try {
    const traceFile = path.join(dir, 'gate.json');
    const r = await runAgent(null, {
      task: 'Look at the basket', url: `${site.url}guards/names.html`, config: { baseUrl: model.baseUrl, model: 'glm-4.5v', apiKey: '', maxSteps: plan.length + 2 },
      traceFile, width: 1280, height: 800, headed: false,
    }, { out: () => undefined, err: (l) => { if (process.env.BENCH_GATE_LOG) console.error(l); }, input: Readable.from(['n\n'.repeat(plan.length)]) });
    if (r.status !== 'finished') throw new Error(`gate bench run did not finish: ${r.stopReason}`);
    const t = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
    for (const kind of kinds) {
      const steps = t.steps.slice(0, plan.length).filter((_, i) => plan[i] === kind);
      const gate = steps.map((s) => s.timings.totalMs - s.timings.observeMs - s.timings.modelMs - s.timings.actMs);
      rows[kind] = { first: gate[0], median: median(gate.slice(1)), asked: steps.filter((s) => s.approval?.decision === 'rejected').length, steps: steps.length };
    }
  } finally {
    await model.close();
    await site.close();
  }
  console.log('\ngate (names.html, ms a step spends finding and judging its element; questions answered no at once)');
  console.log('kind        first   median   asked');
  for (const [kind, r] of Object.entries(rows)) console.log(`${kind.padEnd(10)} ${String(r.first).padStart(6)} ${String(r.median).padStart(8)}   ${r.asked}/${r.steps}`);
  return { date: new Date().toISOString(), repeats: REPEATS, rows };
}
