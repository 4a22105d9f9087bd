/**
 * The headless runner's engine (docs/runner.md), shared by `npm run agent` and
 * `npm run demo`: starts Chromium with the built extension, hands the task to
 * the extension through the side panel page's messages, prints what the
 * extension reports, and writes the exported trace (and, when asked, the HTML report and the
 * zip, built by the extension's panel page: sidepanel/export.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { RunView, StepView } from '../src/core/messages';
import type { Settings } from '../src/core/settings';
import { actionInWords, oneLine, personText, stepActionInWords } from '../src/core/run/person-text';
import { mergeView } from '../src/core/run/view';
import type { AllowedSites } from '../src/core/allowed-sites';
import type { Page } from 'playwright-core';
import type { ExportKind, ExportResult, exportRuns } from '../sidepanel/export';
import { launchWithExtension, openPanel, type Launched } from './browser';

/** What a run is: the task, its settings and the exports to write. */
export interface AgentOptions {
  task: string;
  url: string;
  /** files for the page's file fields (--file), attached before the run starts */
  files?: Array<{ name: string; type: string; lastModified?: number; base64: string }>;
  config: Partial<Settings>;
  traceFile?: string;
  /** also write the self-contained HTML report here */
  reportFile?: string;
  /** also write the zip export (trace, screenshots, webvoyager/ folder) here */
  zipFile?: string;
  /** also write the run as a standalone Playwright script here (docs/playwright-export.md) */
  scriptFile?: string;
  width: number;
  height: number;
  headed: boolean;
  /**
   * a trace (parsed JSON) to go on from (--continue, docs/follow-ups.md): it is imported, and the
   * run goes on with `task` as its follow-up, in a new tab at `url`; the trace's steps are not printed again
   */
  continueFrom?: { steps?: unknown[] };
  /** where the run may act besides its start site (docs/allowed-sites.md) */
  allowedSites?: AllowedSites;
  /** a JSON Schema the answer must match (docs/answer-schema.md), checked by the extension at start */
  answerSchema?: Record<string, unknown>;
  /** more keys to scrub from the exports besides config.apiKey (a worker's real key when the browser has a proxy's token) */
  secrets?: string[];
}

/** Where the run talks: its output, the person's answers, and who may stop it. */
export interface AgentIO {
  out?: (line: string) => void;
  err?: (line: string) => void;
  /**
   * Where the answers to approval prompts come from, one line each (default process.stdin).
   * Read only when an action waits for approval: every step with config.approveSteps, or a guard
   * that trips in auto mode. When it ends while an action waits, the run is stopped.
   */
  input?: NodeJS.ReadableStream;
  /**
   * Answers approvals instead of stdin (the batch runner, where nobody is there to type): called
   * once for each action that waits (a guard in auto mode; every step with approveSteps).
   */
  decide?: (run: RunView) => Promise<Answer>;
  /** stops the run (its reason given by the abort's reason, a string), as Ctrl+C does */
  signal?: AbortSignal;
  /** stop the run on Ctrl+C (default true; the batch runner and the tests handle Ctrl+C themselves) */
  handleSigint?: boolean;
  /** called once the browser is up (the bench samples the worker's heap through it) */
  onLaunched?: (browser: Launched) => void;
  /** called once the run has ended, before the exports are built (the batch frees the task's slot then) */
  onRunEnd?: (run: RunView) => void;
}

export interface AgentResult {
  status: RunView['status']; answer: string | null; stopReason: string | null; traceFile: string; runId: string; reportFile?: string; zipFile?: string;
  /** the run as it ended */
  run: RunView;
  /** ms: starting the browser with the extension, the run, writing the exports */
  timings: { startMs: number; runMs: number; exportMs: number };
  /** Ctrl+C stopped the run (the command exits 130, as a program interrupted by SIGINT does) */
  interrupted?: boolean;
}

export const APPROVE_PROMPT = 'Approve? [y = run it / n FEEDBACK = reject / e ACTION = edit / q = stop]';
export const STDIN_CLOSED = 'stdin closed while an action waited for approval';

/**
 * Lines from a stream, one per ask: lines that arrive before they are asked for are queued
 * (piped input), and null means the stream ended with nothing left.
 */
class LineQueue {
  private lines: string[] = [];
  private waiting: ((line: string | null) => void)[] = [];
  private ended = false;
  private rl: Interface;

  constructor(input: NodeJS.ReadableStream) {
    // terminal: false keeps Ctrl+C a real SIGINT (the runner stops the run on it).
    this.rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
    this.rl.on('line', (line) => {
      const w = this.waiting.shift();
      if (w) w(line);
      else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.ended = true;
      for (const w of this.waiting.splice(0)) w(null);
    });
  }

  next(): Promise<string | null> {
    if (this.lines.length) return Promise.resolve(this.lines.shift()!);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => { this.waiting.push(resolve); });
  }

  close(): void {
    this.rl.close();
  }
}

export type Answer =
  | { kind: 'approve'; edit?: string }
  /** `thenStop`: (decide only) the run stops right after the rejected step is recorded, with this reason */
  | { kind: 'reject'; feedback?: string; thenStop?: string }
  | { kind: 'stop'; reason?: string }
  | { kind: 'invalid'; message: string };

/** One line typed at an approval prompt. */
export function parseAnswer(line: string): Answer {
  const t = line.trim();
  if (t === '' || /^(y|yes)$/i.test(t)) return { kind: 'approve' };
  if (/^(q|quit|stop)$/i.test(t)) return { kind: 'stop' };
  const n = /^(?:n|no)(?:\s+([\s\S]*))?$/i.exec(t);
  if (n) return { kind: 'reject', feedback: n[1]?.trim() || undefined };
  const e = /^e(?:\s+([\s\S]*))?$/i.exec(t);
  if (e) {
    const action = e[1]?.trim();
    return action ? { kind: 'approve', edit: action } : { kind: 'invalid', message: '"e" needs the action to run instead, e.g. e Click [3]' };
  }
  return { kind: 'invalid', message: `"${t}" is not an answer here` };
}

function approvalBlock(run: RunView): string {
  const p = run.pending!;
  const a = p.approval;
  const at = a?.point ? `  at (${Math.round(a.point.x)}, ${Math.round(a.point.y)})${a.target ? '' : ' (no element found there)'}` : '';
  const lines = [
    a?.after ? `Step ${p.index + 1} ran; keep what it did?  ${oneLine(p.url)}` : `Step ${p.index + 1} waits for approval  ${oneLine(p.url)}`,
    `  Thought: ${oneLine(p.thought || '(none)')}`,
    `  Proposed action: ${oneLine(p.actionText === null ? '(none)' : actionInWords(p.actionText, a?.target ?? p.target))}${at}`,
  ];
  if (a?.reason) lines.push(`  Guard: ${oneLine(a.reason)}${a.rule ? ` (rule "${a.rule}")` : ''}`);
  if (a?.rule === 'leave-site' && a.site) lines.push(`  y also allows ${oneLine(a.site)} for the rest of this run (asked once)`);
  if (a?.after) lines.push('  y keeps it (a held request is sent, the page\'s question answered OK, a file chooser given the files); n undoes it (the browser goes back, a download is cancelled, a held request blocked, the page\'s question answered Cancel, a file chooser given nothing)');
  lines.push(APPROVE_PROMPT);
  return lines.join('\n');
}

/**
 * A finished step as the runner prints it. Every field that comes from a page or the model is
 * on one line (oneLine), so no page can print a line of its own, such as a fake `ANSWER:`.
 */
export function stepBlock(s: StepView): string {
  const lines = [
    `Step ${s.index + 1}  ${oneLine(s.url)}`,
    `  Thought: ${oneLine(s.thought || '(none)')}`,
    `  Action: ${oneLine(s.kind === 'person' ? s.actionText : stepActionInWords(s))}`,
    `  Observation: ${oneLine(s.observation)}`,
    `  Memory: ${oneLine(JSON.stringify(s.memory))}`,
  ];
  for (const c of s.tabs ?? []) lines.push(`  Tab: ${oneLine(personText.tabChange(c))}`);
  // the opt-in picture check (src/core/image-screen.ts), when it was on
  const pic = s.imageScreen;
  if (pic) {
    const said = pic.verdict === 'found' ? `words aimed at the agent: "${pic.words ?? ''}"` : pic.verdict === 'failed' ? `the picture could not be checked (${pic.error ?? ''}); the run went on`
      : pic.verdict === 'unreadable' ? `the answer could not be read, nothing counted as found: "${pic.reply ?? ''}"` : 'nothing aimed at the agent';
    lines.push(`  Picture check: ${oneLine(said)}${pic.reused ? ' (the same picture as before: no request)' : ` (${pic.ms} ms)`}`);
  }
  // the words in the pictures on screen, read on this machine (src/core/picture-text.ts)
  const p = s.pictureText;
  if (p) {
    const late = p.error ? `; they could not be read (${p.error}), the run went on` : p.unread ? `; ${p.unread} of the ${p.pictures} pictures on screen could not be read in time (read at the next step)` : '';
    lines.push(`  Pictures: ${p.pictures} on screen, read on this machine: ${p.read} read now, ${p.reused} as read before${oneLine(late)} (${p.ms} ms)`);
  }
  return lines.join('\n');
}

/** The runner's last stdout line when the run finished: the answer on one line. */
export function answerLine(answer: string | null): string {
  return `ANSWER: ${oneLine(answer ?? '')}`;
}

/** Exports built by the panel page from one read of the run (window.webagent.exportRuns), in English whatever the panel's language. */
function exportsFrom(panel: Page, runId: string, kinds: ExportKind[], secrets: string[]): Promise<ExportResult[]> {
  return panel.evaluate(
    ([id, k, sec]) => (window as unknown as { webagent: { exportRuns: typeof exportRuns } }).webagent.exportRuns(id, k, { secrets: sec, locale: 'en' }),
    [runId, kinds, secrets] as const,
  );
}

/** " (the clean views of 3 steps left out to stay under 25 MB)", or nothing. */
function leftOut(r: ExportResult): string {
  return r.cleanLeftOut ? ` (${r.cleanLeftOut === 1 ? 'the clean view of 1 step' : `the clean views of ${r.cleanLeftOut} steps`} left out to stay under 25 MB)` : '';
}

function writeExport(file: string, r: ExportResult): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'text' in r ? r.text : Buffer.from(r.base64, 'base64'));
}

/**
 * Runs one task in `given` (a browser with the extension that is as new: the batch's and the
 * tests' warm browsers, reset between runs, scripts/batch/pool.ts; it is left open at the end, its
 * pages too), or in a Chromium started for it and closed at the end (null). `o` is the run,
 * `io` where it prints, reads the person's answers and is stopped.
 */
export async function runAgent(given: Launched | null, o: AgentOptions, io: AgentIO = {}): Promise<AgentResult> {
  const out = io.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = io.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  const t0 = performance.now();
  // Ctrl+C is ours (the run is stopped and its trace written; the batch runner stops its runs), not Playwright's.
  const browser = given ?? await launchWithExtension({ headed: o.headed, width: o.width, height: o.height, ownSignals: true });
  const stdin: { lines: LineQueue | null } = { lines: null };
  let onClose = () => undefined as void;
  try {
    io.onLaunched?.(browser);
    const panel = await openPanel(browser);
    const startMs = Math.round(performance.now() - t0);
    let printed = Array.isArray(o.continueFrom?.steps) ? o.continueFrom.steps.length : 0;
    let runId = '';
    let finish: (r: RunView) => void = () => undefined;
    let broke: (e: Error) => void = () => undefined;
    const ended = new Promise<RunView>((r, j) => { finish = r; broke = j; });
    // A browser that crashes or is closed under the run ends it here (the batch retries such a task).
    onClose = () => broke(new Error('The browser closed during the run.'));
    browser.context.once('close', onClose);
    panel.once('crash', () => broke(new Error('The runner\'s extension page crashed during the run.')));
    let done = false;
    /** the approval asked for last: step index, and whether about what its action did (each is asked once) */
    let asked = '';
    /** why the runner stopped the run itself (q, stdin closed) */
    let stopNote: string | null = null;
    /** the run as the runner knows it: each broadcast carries only the steps that changed (src/core/run/view.ts) */
    let held: RunView | null = null;
    const onUpdate = (got: RunView) => {
      if (!runId || got.id !== runId) return;
      const run = mergeView(held, got);
      if (!run) {
        // a broadcast that came before the whole view: fetch it
        void panel.evaluate((id) => (window as unknown as { webagent: { send(t: string, p: unknown): Promise<RunView | null> } }).webagent.send('run/get', { runId: id }), runId)
          .then((r) => { if (r) onUpdate(r); }, () => undefined);
        return;
      }
      if (run === held) return;
      held = run;
      while (printed < run.steps.length) out(stepBlock(run.steps[printed++]));
      if (run.status !== 'running') {
        done = true;
        finish(run);
        return;
      }
      const key = run.pending?.phase === 'approve' ? `${run.pending.index}${run.pending.approval?.after ? ' after' : ''}` : '';
      if (key && key !== asked) {
        asked = key;
        void askApproval(run).catch((e: unknown) => err(`Could not answer the approval: ${e instanceof Error ? e.message : String(e)}`));
      }
    };
    await panel.exposeFunction('__runnerUpdate', onUpdate);
    await panel.evaluate(() => {
      chrome.runtime.onMessage.addListener((m: { event?: string; run?: unknown }) => {
        if (m?.event === 'run/update') (window as unknown as { __runnerUpdate(r: unknown): void }).__runnerUpdate(m.run);
      });
    });
    // The key goes where the extension keeps keys (chrome.storage.local of this temporary profile),
    // so a run the browser's worker restart interrupts can go on with it.
    // The runner speaks English (docs/runner.md), whatever the machine's language: so do the run's
    // stop reasons and the extension's errors.
    await panel.evaluate((apiKey) => (window as unknown as { webagent: { send(t: string, p: unknown): Promise<unknown> } }).webagent.send('settings/patch', { set: { language: 'en', ...(apiKey ? { apiKey } : {}) } }), o.config.apiKey);
    for (const f of o.files ?? []) {
      const problem = await panel.evaluate(async (file) => {
        try {
          await (window as unknown as { webagent: { send(t: string, p: unknown): Promise<unknown> } }).webagent.send('files/add', file);
          return null;
        } catch (e) {
          return e instanceof Error ? e.message : String(e);
        }
      }, f);
      if (problem) throw new Error(problem);
    }
    const start = await panel.evaluate(
      async ([req, from]) => {
        const w = (window as unknown as { webagent: { send(t: string, p: unknown): Promise<{ runId: string }> } }).webagent;
        try {
          if (!from) return { ok: true as const, value: await w.send('run/start', req) };
          // a follow-up of a trace: imported (a new id if its own is taken here), then continued
          const { runId } = await w.send('history/import', { trace: from });
          return { ok: true as const, value: await w.send('run/continue', { runId, task: req.task, url: req.url, config: req.config }) };
        } catch (e) {
          return { ok: false as const, error: e instanceof Error ? e.message : String(e) };
        }
      },
      [{ task: o.task, url: o.url, config: o.config, ...(o.answerSchema ? { answerSchema: o.answerSchema } : {}), ...(o.allowedSites ? { allowedSites: o.allowedSites } : {}) }, o.continueFrom ?? null] as const,
    );
    if (!start.ok) throw new Error(start.error);
    runId = start.value.runId;
    const send = <T>(type: string, payload: unknown) =>
      panel.evaluate(([t, p]) => (window as unknown as { webagent: { send(t: string, p: unknown): Promise<unknown> } }).webagent.send(t as string, p), [type, payload] as const) as Promise<T>;
    /** like send, but the background's refusal comes back as a message instead of a thrown page error */
    const trySend = (type: string, payload: unknown) => panel.evaluate(async ([t, p]) => {
      try {
        await (window as unknown as { webagent: { send(t: string, p: unknown): Promise<unknown> } }).webagent.send(t as string, p);
        return null;
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    }, [type, payload] as const);
    const askApproval = async (run: RunView): Promise<void> => {
      if (io.decide) {
        const answer = await io.decide(run);
        if (done) return;
        if (answer.kind === 'stop') await send('run/stop', { runId, reason: answer.reason ?? 'stopped by the runner' });
        else if (answer.kind === 'approve') await trySend('run/approve', { runId, ...(answer.edit ? { edit: answer.edit } : {}) });
        else if (answer.kind === 'reject') {
          await trySend('run/reject', { runId, ...(answer.feedback ? { feedback: answer.feedback } : {}) });
          if (answer.thenStop && !done) await send('run/stop', { runId, reason: answer.thenStop });
        }
        return;
      }
      stdin.lines ??= new LineQueue(io.input ?? process.stdin);
      const lines = stdin.lines;
      err(approvalBlock(run));
      for (;;) {
        const line = await lines.next();
        if (done) return;
        if (line === null) {
          stopNote = STDIN_CLOSED;
          err(`${STDIN_CLOSED}: stopping the run.`);
          await send('run/stop', { runId, reason: STDIN_CLOSED });
          return;
        }
        const answer = parseAnswer(line);
        if (answer.kind === 'invalid') {
          err(`${answer.message}. Type y (or just Enter) to run it, n and optional feedback to reject it, e and an action to run that instead (e.g. e Click [3]), or q to stop.`);
          err(APPROVE_PROMPT);
          continue;
        }
        if (answer.kind === 'stop') {
          stopNote = 'q was typed at the approval prompt';
          await send('run/stop', { runId, reason: stopNote });
          return;
        }
        const problem = answer.kind === 'approve'
          ? await trySend('run/approve', { runId, ...(answer.edit ? { edit: answer.edit } : {}) })
          : await trySend('run/reject', { runId, ...(answer.feedback ? { feedback: answer.feedback } : {}) });
        if (problem === null || done) return;
        err(`Not accepted: ${problem}`);
        if (answer.kind !== 'approve' || !answer.edit) return; // the run moved on (stopped); nothing to answer any more
        err(APPROVE_PROMPT);
      }
    };
    // Catch up on anything broadcast before our id was known.
    const now = await send<RunView | null>('run/get', { runId });
    if (now) onUpdate(now);
    let interrupted = false;
    let sigint = false;
    const onSigint = () => { interrupted = true; sigint = true; void send('run/stop', { runId, reason: 'interrupted (Ctrl+C) in the runner' }).catch(() => undefined); };
    const onAbort = () => {
      interrupted = true;
      stopNote = typeof io.signal?.reason === 'string' ? io.signal.reason : 'stopped by the runner';
      void send('run/stop', { runId, reason: stopNote }).catch(() => undefined);
    };
    if (io.handleSigint !== false) process.once('SIGINT', onSigint);
    if (io.signal?.aborted) onAbort();
    else io.signal?.addEventListener('abort', onAbort, { once: true });
    const tRun = performance.now();
    let final: RunView;
    try {
      final = await ended;
    } finally {
      process.off('SIGINT', onSigint);
      io.signal?.removeEventListener('abort', onAbort);
    }
    const runMs = Math.round(performance.now() - tRun);
    io.onRunEnd?.(final);
    const tExport = performance.now();
    const secrets = [o.config.apiKey ?? '', ...(o.secrets ?? [])];
    // the same JSON export as the panel's (compact with screenshots, under 25 MB)
    const traceFile = path.resolve(o.traceFile ?? path.join('traces', `${runId}.json`));
    const reportFile = o.reportFile ? path.resolve(o.reportFile) : undefined;
    const zipFile = o.zipFile ? path.resolve(o.zipFile) : undefined;
    const scriptFile = o.scriptFile ? path.resolve(o.scriptFile) : undefined;
    const kinds: ExportKind[] = ['json', ...(reportFile ? ['html' as const] : []), ...(zipFile ? ['zip' as const] : []), ...(scriptFile ? ['playwright' as const] : [])];
    const [traced, ...others] = await exportsFrom(panel, runId, kinds, secrets);
    writeExport(traceFile, traced);
    if (final.status === 'finished' && final.answerJson !== undefined) out(`ANSWER_JSON: ${JSON.stringify(final.answerJson)}`);
    if (final.status === 'finished') out(answerLine(final.answer));
    else err(`${interrupted ? 'Interrupted' : final.status === 'failed' ? 'Failed' : 'Stopped'}: ${oneLine((final.status === 'stopped' && stopNote) || final.stopReason || 'no reason given')}`);
    err(`Trace written to ${traceFile}${leftOut(traced)}`);
    if (reportFile) {
      const r = others.shift()!;
      writeExport(reportFile, r);
      err(`Report written to ${reportFile}${leftOut(r)}`);
    }
    if (zipFile) {
      const r = others.shift()!;
      writeExport(zipFile, r);
      err(`Zip written to ${zipFile}${leftOut(r)}`);
    }
    if (scriptFile) {
      writeExport(scriptFile, others.shift()!);
      err(`Playwright script written to ${scriptFile}`);
    }
    return {
      status: final.status, answer: final.answer, stopReason: final.stopReason, traceFile, runId, reportFile, zipFile,
      run: final, timings: { startMs, runMs, exportMs: Math.round(performance.now() - tExport) }, ...(sigint ? { interrupted: true } : {}),
    };
  } finally {
    stdin.lines?.close();
    browser.context.off('close', onClose);
    if (!given) await browser.close();
  }
}
