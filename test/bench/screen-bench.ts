/**
 * The picture check's cost ("screen" in bench-results.json): the demo task with the built extension
 * and the scripted demo model, BENCH_SCREEN_RUNS runs (default 3) with Settings → "Check pictures
 * for instructions aimed at the agent" off (the default) and on, side by side: each step's total
 * time, the model's time, the check's own time, and the requests the model server got (the run's,
 * and the checks apart; the demo model's stand-in answers NONE on the demo site). The demo model
 * answers at once, so the check (sent beside the step's request) shows its whole cost here; with a
 * real model that takes seconds per reply, a check that is quicker than the reply adds no wait.
 */
import { Readable } from 'node:stream';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveDir } from '../../scripts/static-server';
import { runAgent } from '../../scripts/run-agent';
import { DEMO_MODEL, DEMO_TASK, demoCatalog, demoReply } from '../../scripts/demo-model';
import { startFakeModel } from '../fixtures/model/server';
import type { Trace } from '../../src/core/trace';

const RUNS = Number(process.env.BENCH_SCREEN_RUNS ?? 3);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

interface Side { runs: number; steps: number; stepMs: number; modelMs: number; screenMs: number | null; requests: number; checks: number; checksReused: number; checkTokens: number }

export async function screenBench() {
  const site = await serveDir(path.join(import.meta.dirname, '..', '..', 'scripts', 'demo-site'));
  // the demo model's replies on the fake model, which keeps the requests and answers the picture checks
  const titles = demoCatalog().map((b) => b.title);
  const model = await startFakeModel({ models: [DEMO_MODEL], policy: (req) => demoReply(req.prompt, titles) });
  const dir = mkdtempSync(path.join(tmpdir(), 'webagent-screen-bench-'));
  const side = async (on: boolean): Promise<Side> => {
    const total: number[] = [], modelMs: number[] = [], screenMs: number[] = [];
    let steps = 0, reused = 0, tokens = 0;
    const requests = model.requests.length, checks = model.screenings.length;
    for (let i = 0; i < RUNS; i++) {
      const traceFile = path.join(dir, `${on ? 'on' : 'off'}-${i}.json`);
      const r = await runAgent(null, {
        task: DEMO_TASK, url: site.url, config: { baseUrl: model.baseUrl, model: 'demo-scripted', apiKey: '', screenImages: on },
        traceFile, width: 1280, height: 800, headed: false,
      }, {
        out: () => undefined, err: () => undefined, input: Readable.from([]),
      });
      if (r.status !== 'finished') throw new Error(`screen bench run did not finish: ${r.stopReason}`);
      const t = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
      for (const s of t.steps) {
        steps++;
        total.push(s.timings.totalMs - s.timings.actMs);
        modelMs.push(s.timings.modelMs);
        if (s.imageScreen?.reused) reused++;
        else if (s.imageScreen) {
          screenMs.push(s.imageScreen.ms);
          tokens += (s.imageScreen.usage?.promptTokens ?? 0) + (s.imageScreen.usage?.completionTokens ?? 0);
        }
      }
    }
    return {
      runs: RUNS, steps, stepMs: median(total), modelMs: median(modelMs), screenMs: screenMs.length ? median(screenMs) : null,
      requests: model.requests.length - requests, checks: model.screenings.length - checks, checksReused: reused, checkTokens: tokens,
    };
  };
  try {
    const off = await side(false);
    const on = await side(true);
    const result = {
      date: new Date().toISOString(), task: DEMO_TASK, off, on,
      /** median ms a step takes from its observation to its action, on minus off */
      extraMsPerStep: on.stepMs - off.stepMs,
      extraRequestsPerStep: on.steps ? Math.round((on.checks / on.steps) * 100) / 100 : 0,
    };
    console.log('\npicture check (demo task, demo model)   off       on');
    console.log(`steps                                ${String(off.steps).padStart(6)} ${String(on.steps).padStart(8)}`);
    console.log(`median ms observe→action per step    ${String(off.stepMs).padStart(6)} ${String(on.stepMs).padStart(8)}`);
    console.log(`median model ms                      ${String(off.modelMs).padStart(6)} ${String(on.modelMs).padStart(8)}`);
    console.log(`median check ms                      ${'-'.padStart(6)} ${String(on.screenMs ?? '-').padStart(8)}`);
    console.log(`run requests / checks (reused)       ${`${off.requests}/${off.checks}`.padStart(6)} ${`${on.requests}/${on.checks} (${on.checksReused})`.padStart(8)}`);
    console.log(`extra: ${result.extraMsPerStep} ms and ${result.extraRequestsPerStep} requests per step, ${on.checkTokens} check tokens in all`);
    return result;
  } finally {
    await model.close();
    await site.close();
  }
}
