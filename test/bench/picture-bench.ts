/**
 * What reading the words in pictures costs a step ("pictures" in bench-results.json; docs/labeling.md,
 * "Words in pictures"): runs through the runner (the built extension, a scripted glm-web model that
 * scrolls down three times and answers: four observations) over real pages served from
 * /usr/share/doc, installed by the bench (debian-docs.ts): two chapters of the Debian
 * Administrator's Handbook full of screenshots with words in them (debian-handbook), and two
 * documentation pages with no picture (nodejs-doc, postgresql-doc-15: what looking for pictures
 * costs when there are none). Each page is run with Settings → "Read words in pictures on this
 * machine" on and off, BENCH_PICTURE_RUNS times each (default 2, alternating), each run in a fresh
 * browser (so its first read starts the engine). The pictures are looked for in the page either way
 * (with the labeling pass: the real-pages part's "screen" column); only their reading is switched.
 *
 * Per page: the pictures on screen per step, read and reused; the reads' time at the first step
 * (the engine started, its data loaded) and at the later ones; and the median time a step takes
 * from its observation to its action, on and off. The model answers at once, so the reads show
 * their whole cost here; with a real model, which takes seconds to reply, they are made while it
 * thinks. BENCH_PICTURE_PAGES=a,b picks pages by name (substring).
 */
import { Readable } from 'node:stream';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveDir } from '../../scripts/static-server';
import { runAgent } from '../../scripts/run-agent';
import { startFakeModel } from '../fixtures/model/server';
import { DOC, ensureDocs, type DocPage } from './debian-docs';
import type { Trace } from '../../src/core/trace';

const RUNS = Number(process.env.BENCH_PICTURE_RUNS ?? 2);
const PICK = (process.env.BENCH_PICTURE_PAGES ?? '').split(',').map((x) => x.trim()).filter(Boolean);

export const PICTURE_PAGES: Array<DocPage & { name: string }> = [
  { name: 'handbook installation-steps', pkg: 'debian-handbook', file: 'debian-handbook/html/en-US/sect.installation-steps.html' },
  { name: 'handbook virtualization', pkg: 'debian-handbook', file: 'debian-handbook/html/en-US/sect.virtualization.html' },
  { name: 'node n-api', pkg: 'nodejs-doc', file: 'nodejs/api/n-api.html' },
  { name: 'pg bookindex', pkg: 'postgresql-doc-15', file: 'postgresql-doc-15/html/bookindex.html' },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};

interface PageRow {
  page: string;
  /** median pictures on screen per step, and in all over a run's four steps */
  picturesPerStep: number;
  /** over all runs: pictures read, reused (the same pixels again), not read in time */
  read: number; reused: number; unread: number;
  /** the reads' ms at the first step of a run (the engine starts), median */
  firstStepMs: number | null;
  /** the reads' ms at the later steps, median (null: no picture then) */
  laterStepMs: number | null;
  /** ms per picture read at the later steps (the engine warm), median */
  msPerPictureRead: number | null;
  /** median ms from the observation to the action, reading on and off */
  stepMsOn: number; stepMsOff: number;
}

export async function pictureBench(log: (s: string) => void = console.log) {
  const pages = PICK.length ? PICTURE_PAGES.filter((p) => PICK.some((x) => p.name.includes(x))) : PICTURE_PAGES;
  if (!ensureDocs(pages, 'pictures', log)) return { skipped: true };
  const docs = await serveDir(DOC);
  // scroll down three times, then answer: four observations of the page
  const model = await startFakeModel({
    policy: (req) => ((req.prompt?.history.length ?? 0) < 3
      ? { content: 'Thought: Read on.\nAction: Scroll [WINDOW]; [down]\nMemory_Updated: {}' }
      : { content: 'Thought: Done.\nAction: ANSWER; <content>read</content>\nMemory_Updated: {}' }),
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'webagent-picture-bench-'));
  const rows: PageRow[] = [];
  try {
    log(`\nwords in pictures: ${pages.length} real pages, ${RUNS} runs each with reading on and off, 4 steps a run (median ms)`);
    log('page                          pictures/step  read reused unread  1st step  later  per picture  step on  step off');
    for (const p of pages) {
      const url = `${docs.url}${p.file.split(path.sep).join('/')}`;
      const steps: Array<{ on: boolean; first: boolean; t: Trace['steps'][number] }> = [];
      // on and off alternate, so neither side has the warmer caches
      for (let i = 0; i < RUNS; i++) {
        for (const on of [true, false]) {
          const traceFile = path.join(dir, `${p.name.replace(/\W+/g, '-')}-${on ? 'on' : 'off'}-${i}.json`);
          const r = await runAgent(null, {
            task: 'Read the page', url, config: { baseUrl: model.baseUrl, model: 'glm-4.5v', apiKey: '', readPictures: on },
            traceFile, width: 1280, height: 800, headed: false,
          }, { out: () => undefined, err: () => undefined, input: Readable.from([]) });
          if (r.status !== 'finished') throw new Error(`picture bench run on ${p.name} did not finish: ${r.stopReason}`);
          const t = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
          t.steps.forEach((s, k) => steps.push({ on, first: k === 0, t: s }));
        }
      }
      const on = steps.filter((s) => s.on);
      const pics = on.map((s) => s.t.pictureText).filter((x) => !!x);
      const firsts = on.filter((s) => s.first && s.t.pictureText).map((s) => s.t.pictureText!.ms);
      const later = on.filter((s) => !s.first && s.t.pictureText);
      const perRead = later.filter((s) => s.t.pictureText!.read > 0).map((s) => s.t.pictureText!.ms / s.t.pictureText!.read);
      const stepMs = (xs: typeof steps) => median(xs.map((s) => s.t.timings.totalMs - s.t.timings.actMs));
      const row: PageRow = {
        page: p.name,
        picturesPerStep: median(on.map((s) => s.t.pictureText?.pictures ?? 0)),
        read: pics.reduce((n, x) => n + x.read, 0), reused: pics.reduce((n, x) => n + x.reused, 0), unread: pics.reduce((n, x) => n + x.unread, 0),
        firstStepMs: firsts.length ? median(firsts) : null,
        laterStepMs: later.length ? median(later.map((s) => s.t.pictureText!.ms)) : null,
        msPerPictureRead: perRead.length ? Math.round(median(perRead)) : null,
        stepMsOn: stepMs(on), stepMsOff: stepMs(steps.filter((s) => !s.on)),
      };
      rows.push(row);
      const cell = (x: number | null, w: number) => String(x ?? '-').padStart(w);
      log(`${p.name.padEnd(30)}${cell(row.picturesPerStep, 13)} ${cell(row.read, 5)} ${cell(row.reused, 6)} ${cell(row.unread, 6)} ${cell(row.firstStepMs, 9)} ${cell(row.laterStepMs, 6)} ${cell(row.msPerPictureRead, 12)} ${cell(row.stepMsOn, 8)} ${cell(row.stepMsOff, 9)}`);
    }
    return { date: new Date().toISOString(), runs: RUNS, stepsPerRun: 4, viewport: { width: 1280, height: 800 }, pages: rows };
  } finally {
    await model.close();
    await docs.close();
  }
}
