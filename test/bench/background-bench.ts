/**
 * Part "background" of `npm run bench`: step times of a run in a tab in front and of the same run
 * in a tab behind another, side by side. Headed Chromium started as a person's (hidden tabs
 * throttled: scripts/browser.ts, personsBrowser) under Xvfb, or on $DISPLAY when Xvfb is not
 * installed. The task scrolls a long documentation page (test/fixtures/pages/docs/guide.html,
 * a local page written for this, about 28 screens) to the ticket link at its end, with the
 * scripted model, so the model's own time is ~0. Runs alternate front / behind,
 * BENCH_BACKGROUND_RUNS of each (default 2).
 */
import path from 'node:path';
import { launchWithExtension, openPanel } from '../../scripts/browser';
import { serveDir } from '../../scripts/static-server';
import { hasXvfb, startXvfb } from '../../scripts/xvfb';
import { startFakeModel } from '../fixtures/model/server';
import { scriptedPolicy } from '../../scripts/scripted-model';
import { runInTab, type TabRun } from '../fixtures/run-in-tab';

const RUNS = Number(process.env.BENCH_BACKGROUND_RUNS ?? 2);
const PAGES = path.join(import.meta.dirname, '..', 'fixtures', 'pages');

interface Stats { n: number; median: number; p95: number; max: number }

function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { n: s.length, median: at(0.5), p95: at(0.95), max: s[s.length - 1] ?? NaN };
}

function summary(runs: TabRun[]) {
  // The first step of a run includes the page's load: left out.
  const steps = runs.flatMap((r) => r.steps.slice(1));
  return {
    finished: runs.filter((r) => r.status === 'finished').length,
    runMs: stats(runs.map((r) => r.ms)),
    observeMs: stats(steps.map((s) => s.observeMs)),
    actMs: stats(steps.map((s) => s.actMs)),
    stepMs: stats(steps.map((s) => s.observeMs + s.actMs)),
  };
}

export async function backgroundBench() {
  if (!hasXvfb() && !process.env.DISPLAY) {
    console.log('\nbackground: skipped (headed Chromium needs a display: install Xvfb, apt-get install xvfb)');
    return { skipped: 'no display: Xvfb not installed and DISPLAY not set' };
  }
  const display = hasXvfb() ? await startXvfb() : null;
  const site = await serveDir(PAGES);
  const policy = scriptedPolicy([{ do: 'answer', from: /documentation ticket (DOC-\d+)/ }], 'glm');
  const model = await startFakeModel({ policy: (req) => policy(req.prompt) });
  const browser = await launchWithExtension({ headed: true, personsBrowser: true, display: display?.display });
  const runs: Record<'front' | 'behind', TabRun[]> = { front: [], behind: [] };
  try {
    const panel = await openPanel(browser);
    for (let i = 0; i < RUNS; i++) {
      for (const where of ['front', 'behind'] as const) {
        const r = await runInTab(browser, panel, {
          task: 'What is the ticket number for reporting a mistake in this guide?', url: `${site.url}docs/guide.html`,
          behind: where === 'behind', timeoutMs: 300_000,
          config: { baseUrl: model.baseUrl, model: 'glm-4.5v', apiKey: '', maxSteps: 60 },
        });
        if (r.status !== 'finished') console.log(`background: the run ${where} did not finish in ${Math.round(r.ms / 1000)} s (${r.steps.length} steps done)`);
        runs[where].push(r);
      }
    }
  } finally {
    await browser.close();
    await model.close();
    await site.close();
    await display?.close();
  }
  const front = summary(runs.front), behind = summary(runs.behind);
  const ratio = Math.round((behind.stepMs.median / front.stepMs.median) * 100) / 100;
  console.log(`\nbackground: a run scrolling a long documentation page, its tab in front / behind another (${RUNS} runs each, steps after the first)`);
  console.log('metric         front: median    p95 | behind: median    p95');
  const cell = (x: number, w: number) => (Number.isFinite(x) ? String(x) : '-').padStart(w);
  for (const k of ['observeMs', 'actMs', 'stepMs', 'runMs'] as const) {
    console.log(`${k.padEnd(14)} ${cell(front[k].median, 14)} ${cell(front[k].p95, 6)} | ${cell(behind[k].median, 15)} ${cell(behind[k].p95, 6)}`);
  }
  console.log(`runs finished: front ${front.finished}/${RUNS}, behind ${behind.finished}/${RUNS}; median step behind / in front: ${ratio}x`);
  return { date: new Date().toISOString(), runs: RUNS, page: 'test/fixtures/pages/docs/guide.html', front, behind, stepRatio: ratio };
}
