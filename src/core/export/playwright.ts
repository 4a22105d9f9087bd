/**
 * A run exported as a standalone Playwright script (docs/playwright-export.md): the recorded
 * actions done again without a model. Each target is found by the fingerprint the in-extension
 * replay uses (core/trace/replay.ts: tag, text, structural path, recorded place), so a changed page
 * stops the script with a clear message instead of acting on another element. A step a guard (or
 * the page's words, or the model itself) asked the person about in the run asks again before it is
 * done, unless the script is run with --yes. Pure: the script is text.
 */
import { dialectOf, isDialect } from '../dialects/registry';
import { fillVariables } from '../run/variables';
import { PASSWORD_MASK } from '../run/state';
import { fromTrace } from '../trace/import';
import { replayPlan } from '../trace/replay';
import type { Trace } from '../trace';

/** One step of the script: the action, what it acts on, and what the person was asked about it in the run. */
export interface ScriptStep {
  /** the recorded step's number (1-based) */
  n: number;
  url: string;
  action: unknown;
  target: { tag: string; text: string; path: string | null; rect: { x: number; y: number; width: number; height: number } } | null;
  guard: { rule: string | null; reason: string } | null;
  /** why the step cannot be done without the person (a password, a secret, an app): the script stops there */
  cannot?: string;
}

/** The data the script carries. */
export interface ScriptRun {
  id: string;
  task: string;
  startUrl: string;
  viewport: { width: number; height: number };
  steps: ScriptStep[];
  answer: string | null;
}

/** The recorded run as the script's steps. */
export function scriptRun(trace: Trace): ScriptRun {
  const state = fromTrace(trace);
  const plan = replayPlan(state.id, state.steps, state.dialect);
  const vars = Object.fromEntries(Object.entries(state.variables ?? {}).filter(([, v]) => !v.secret));
  const dialect = isDialect(state.dialect) ? dialectOf(state.dialect) : null;
  const steps: ScriptStep[] = plan.steps.map((p) => {
    const rec = state.steps.find((s) => s.index === p.from)!;
    const filled = dialect ? fillVariables(p.action, dialect, vars) : { action: p.action, missing: [] };
    const a = filled.action;
    const cannot = a.type === 'type' && (a.text === PASSWORD_MASK || /\{\{[a-z]+:[^}]+\}\}/i.test(a.text))
      ? 'it typed a password or one of your secrets, which traces never keep: do it yourself, then run the script again from there'
      : filled.missing.length ? `it uses the run variables ${filled.missing.join(', ')}, which the trace does not keep` : a.type === 'openApp' ? 'it opened an app from your settings, which the trace does not keep' : undefined;
    return {
      n: p.from + 1, url: rec.url, action: a,
      target: p.target ? { tag: p.target.tag, text: p.target.text, path: p.target.fingerprint?.path ?? null, rect: p.target.rect } : null,
      guard: rec.guard ?? null,
      ...(cannot ? { cannot } : {}),
    };
  });
  const first = state.steps[0];
  return {
    id: state.id, task: state.task, startUrl: state.startUrl,
    viewport: first ? { width: first.viewport.width, height: first.viewport.height } : { width: 1280, height: 800 },
    steps, answer: state.answer,
  };
}

/** The file name a run's script is saved under. */
export function scriptFileName(trace: Trace): string {
  return `webagent-run-${trace.run.id.slice(0, 8)}.playwright.mjs`;
}

/** The standalone script (an ES module for Node 18+ with the `playwright` or `playwright-core` package). */
export function playwrightScript(trace: Trace): string {
  const run = scriptRun(trace);
  const head = [
    '#!/usr/bin/env node',
    `// webagent: run ${run.id}, exported as a Playwright script (docs/playwright-export.md).`,
    `// Task: ${run.task.replace(/[\r\n\u2028\u2029]+/g, ' ').slice(0, 300)}`,
    '// It does the recorded actions again, without a model. Each element is found by the fingerprint',
    '// recorded in the run (tag, text, place in the page); when the page changed and it cannot be',
    '// found, the script stops and says which step. A step the person was asked about in the run',
    '// asks again before it is done (answer y), unless the script is run with --yes.',
    '//',
    '//   npm install playwright   (or playwright-core, with --browser PATH)',
    '//   node this-file.mjs [--yes] [--headed] [--browser PATH] [--start-url URL]',
    '//',
    '// Exit status: 0 every step done; 1 a step could not be done; 3 stopped before a step that asks.',
  ].join('\n');
  return `${head}\n\nconst RUN = ${JSON.stringify(run, null, 1).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'))};\n${RUNTIME}`;
}

/** The script's code after its data. Plain JavaScript (no template literals): it is copied as it is. */
const RUNTIME = String.raw`
// (process is Node's global; readline is loaded when the person is asked)

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
if (flag('--help') || flag('-h')) {
  console.log('node ' + process.argv[1] + ' [--yes] [--headed] [--browser PATH] [--start-url URL]\n' +
    '  --yes            do the steps the person was asked about in the run without asking\n' +
    '  --headed         show the browser window\n' +
    '  --browser PATH   the Chromium to use (default: Playwright\'s own; or CHROMIUM_PATH)\n' +
    '  --start-url URL  start there instead (the same site elsewhere, e.g. a staging copy)');
  process.exit(0);
}
const yes = flag('--yes');
const startUrl = option('--start-url') || RUN.startUrl;
const executablePath = option('--browser') || process.env.CHROMIUM_PATH || undefined;
const from = new URL(RUN.startUrl).origin;
const to = new URL(startUrl).origin;
/** an address of the recorded start site, moved to --start-url's */
const rebase = (url) => (url.startsWith(from) ? to + url.slice(from.length) : url);

/** the person's answers, one line each (a closed input answers no) */
let reader = null;
const lines = [];
let waiting = null;
let closed = false;
async function nextLine() {
  if (!reader) {
    const { createInterface } = await import('node:' + 'readline');
    reader = createInterface({ input: process.stdin });
    reader.on('line', (l) => { if (waiting) { const w = waiting; waiting = null; w(l); } else lines.push(l); });
    reader.on('close', () => { closed = true; if (waiting) { const w = waiting; waiting = null; w(null); } });
  }
  if (lines.length) return lines.shift();
  if (closed) return null;
  return new Promise((resolve) => { waiting = resolve; });
}

function described(t) {
  if (!t) return 'the recorded point';
  const text = t.text.length > 60 ? t.text.slice(0, 59) + '…' : t.text;
  return '<' + t.tag + '> "' + text + '"';
}

/** In the page: the element the recorded target is, found as the extension's replay finds it; null when none is. */
function findInPage(t) {
  const norm = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  const textsOf = (el) => {
    const out = [];
    const add = (s) => { const n = norm(s); if (n) out.push(n); };
    add(el.getAttribute('aria-label'));
    const by = el.getAttribute('aria-labelledby');
    if (by) add(by.split(/\s+/).map((id) => { const x = document.getElementById(id); return x ? x.textContent : ''; }).join(' '));
    add(el.innerText); add(el.textContent); add(el.value); add(el.getAttribute('placeholder')); add(el.getAttribute('title')); add(el.getAttribute('alt'));
    if (el.labels) for (const l of el.labels) add(l.innerText);
    return out;
  };
  const want = norm(t.text);
  const same = (el) => !want || textsOf(el).includes(want);
  const like = (el) => !want || textsOf(el).some((x) => x.length >= 3 && want.length >= 3 && (x.includes(want) || want.includes(x)));
  const digitless = (s) => s.replace(/\d+/g, '#');
  const byPath = (path) => {
    let node = document;
    for (const part of path.split('>')) {
      if (part === '#shadow') { node = node.shadowRoot; if (!node) return null; continue; }
      const m = /^(.+):(\d+)$/.exec(part);
      if (!m) return null;
      const kids = node === document ? [document.documentElement] : Array.from(node.children);
      node = kids.filter((k) => k.localName === m[1])[Number(m[2]) - 1];
      if (!node) return null;
    }
    return node;
  };
  const all = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName === t.tag) all.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  const centre = (el) => { const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
  const want2 = [t.rect.x + t.rect.width / 2, t.rect.y + t.rect.height / 2];
  const nearest = (list) => list.reduce((best, el) => {
    const a = centre(el); const b = centre(best);
    return Math.hypot(a[0] - want2[0], a[1] - want2[1]) < Math.hypot(b[0] - want2[0], b[1] - want2[1]) ? el : best;
  });
  const atPath = t.path ? byPath(t.path) : null;
  if (atPath && atPath.localName === t.tag && same(atPath)) return atPath;
  for (const test of [same, like]) {
    const found = all.filter(test);
    if (found.length) return found.length === 1 ? found[0] : nearest(found);
  }
  // the same place, and the text differs only in its numbers (a counter: "Cart (1)" -> "Cart (2)")
  if (atPath && atPath.localName === t.tag && textsOf(atPath).some((x) => digitless(x) === digitless(want))) return atPath;
  return null;
}

/** The element for the step's target in any frame of the page, or null. */
async function find(page, t) {
  for (const frame of page.frames()) {
    const handle = await frame.evaluateHandle(findInPage, t).catch(() => null);
    const el = handle && handle.asElement();
    if (el) return el;
  }
  return null;
}

/** An option of a native select (the extension lists a select's options as its own items): chosen by its text. */
async function chooseOption(page, text) {
  for (const frame of page.frames()) {
    const select = await frame.evaluateHandle((want) => {
      const norm = (s) => String(s || '').replace(/\s+/g, ' ').trim();
      for (const o of document.querySelectorAll('select option')) if (norm(o.textContent) === norm(want)) return o.closest('select');
      return null;
    }, text).catch(() => null);
    const el = select && select.asElement();
    if (el) { await el.selectOption({ label: text }); return true; }
  }
  return false;
}

async function settle(page) {
  await page.waitForLoadState('domcontentloaded').catch(() => undefined);
  await page.waitForTimeout(300);
}

async function main() {
  let pw = null;
  for (const name of ['playwright', 'playwright-core']) {
    try { pw = await import(name); break; } catch (e) { /* the next one */ }
  }
  if (!pw) {
    console.error('This script needs Playwright: npm install playwright (or playwright-core, and --browser PATH to a Chromium).');
    return 2;
  }
  const browser = await pw.chromium.launch({ headless: !flag('--headed'), ...(executablePath ? { executablePath } : {}) });
  try {
    const page = await (await browser.newContext({ viewport: RUN.viewport })).newPage();
    await page.goto(startUrl);
    await settle(page);
    for (const step of RUN.steps) {
      const a = step.action;
      const what = a.type + (step.target ? ' ' + described(step.target) : '');
      if (step.cannot) {
        console.error('Step ' + step.n + ' (' + what + ') cannot be done by this script: ' + step.cannot + '.');
        return 1;
      }
      if (step.guard && !yes) {
        process.stderr.write('Step ' + step.n + ' (' + what + ') was asked about in the run: ' + step.guard.reason + '. Do it? [y/N] ');
        const answer = await nextLine();
        if (answer === null || !/^\s*y(es)?\s*$/i.test(answer)) {
          console.error(answer === null ? '\nNo answer: stopped before step ' + step.n + '. Run with --yes to do it without asking.' : 'Stopped before step ' + step.n + '.');
          return 3;
        }
      }
      let el = null;
      if (step.target) {
        if (step.target.tag === 'option' && a.type === 'click' && await chooseOption(page, step.target.text)) {
          console.log('Step ' + step.n + ': ' + what + ': done');
          await settle(page);
          continue;
        }
        el = await find(page, step.target);
        if (!el && a.target && a.target.kind === 'label') {
          console.error('Step ' + step.n + ': its target ' + described(step.target) + ' was not found on ' + page.url() + ' (no element with the same tag and text, or in the same place): the page changed. Stopped.');
          return 1;
        }
      }
      const point = a.target && a.target.kind === 'point' ? { x: a.target.x, y: a.target.y } : null;
      try {
        switch (a.type) {
          case 'click':
            if (el) await (a.count === 2 ? el.dblclick({ button: a.button }) : el.click({ button: a.button }));
            else if (point) await page.mouse.click(point.x, point.y, { button: a.button, clickCount: a.count });
            break;
          case 'hover':
            if (el) await el.hover(); else if (point) await page.mouse.move(point.x, point.y);
            break;
          case 'press':
            if (el) await el.hover(); else if (point) await page.mouse.move(point.x, point.y);
            await page.mouse.down(); await page.waitForTimeout(800); await page.mouse.up();
            break;
          case 'drag': {
            if (el) await el.hover(); else if (point) await page.mouse.move(point.x, point.y);
            await page.mouse.down(); await page.mouse.move(a.to.x, a.to.y, { steps: 10 }); await page.mouse.up();
            break;
          }
          case 'type':
            if (el) { await el.click(); if (a.clear) await el.fill('').catch(() => undefined); }
            else if (point) await page.mouse.click(point.x, point.y);
            await page.keyboard.type(a.text);
            if (a.enter) await page.keyboard.press('Enter');
            break;
          case 'scroll': {
            if (el) await el.hover(); else if (point) await page.mouse.move(point.x, point.y);
            const px = a.pixels || (a.ticks ? a.ticks * 100 : Math.round(RUN.viewport.height * 2 / 3));
            const dx = a.direction === 'left' ? -px : a.direction === 'right' ? px : 0;
            const dy = a.direction === 'up' ? -px : a.direction === 'down' ? px : 0;
            await page.mouse.wheel(dx, dy);
            break;
          }
          case 'key': await page.keyboard.press(a.keys); break;
          case 'wait': await page.waitForTimeout(1000); break;
          case 'goBack': await page.goBack(); break;
          case 'goHome': await page.goto(startUrl); break;
          case 'search': await page.goto('https://www.bing.com/'); break;
          case 'navigate': await page.goto(rebase(a.url)); break;
          case 'answer': case 'reply': case 'finish':
            console.log('Step ' + step.n + ': the run ended here' + (a.text ? ' with: ' + a.text : '') + '.');
            return 0;
          default:
            console.log('Step ' + step.n + ': ' + a.type + ' only read the page in the run: skipped.');
            continue;
        }
      } catch (e) {
        console.error('Step ' + step.n + ' (' + what + ') failed on ' + page.url() + ': ' + (e && e.message ? e.message.split('\n')[0] : String(e)));
        return 1;
      }
      console.log('Step ' + step.n + ': ' + what + ': done');
      await settle(page);
    }
    console.log('All ' + RUN.steps.length + ' recorded actions were done.');
    return 0;
  } finally {
    if (reader) reader.close();
    await browser.close();
  }
}

process.exitCode = await main();
`;
