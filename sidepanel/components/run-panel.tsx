/**
 * The live run: a bar that stays at the top (status dot, what the run is doing, "Step 3 of 15",
 * the time taken, Pause / Take over / Stop, and any error), the task and its tokens, the steps so
 * far (compact, with small screenshots), and the step in progress: the approval card, the line
 * saying what it waits for, the reply as it streams in, or the answer. The view follows the step
 * in progress unless the person scrolls away to read older steps.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { RunStream, RunView, StepView } from '../../src/core/messages';
import { tookOver } from '../../src/core/run/view';
import { dialectOf } from '../../src/core/dialects/registry';
import { onRunStream, send, type Command } from '../api';
import { formatTimings, formatTokens } from '../format';
import { liveReply } from '../live';
import { dotText, dotState, elapsedOf, formatElapsed, phaseText, stepText, type DotState } from '../status';
import { costNoteFor, costText } from '../cost-note';
import { useCommand } from '../use-command';
import { ApprovalCard } from './approval-card';
import { TabNote } from './tab-note';
import { PicturesNote, ScreenNote } from './screen-note';
import { AnswerJson } from './answer-json';
import { FollowUpForm, TurnStart, TurnsAhead } from './turns';
import { RunSites } from './sites';
import { t } from '../i18n';
import { RunControls } from './run-controls';
import { Lightbox } from './lightbox';
import { actedElement, observationInWords } from '../../src/core/run/person-text';
import { ActionText } from './action-text';
import { StopReason } from './stop-reason';

export function RunPanel({ run, onPrices }: { run: RunView; onPrices: (model: string) => void }) {
  const p = run.status === 'running' ? run.pending : null;
  const live = useLive(run.id);
  // The streamed reply belongs to the step still asking the model; once that step is done it is gone.
  const showLive = p && p.phase === 'model' && live && live.index === p.index ? live : null;
  const { command, error } = useCommand();
  // Turns that need the person: the run waits for them (which step), or has ended.
  const state = dotState(run);
  const attention = state === 'running' || state === 'paused' ? '' : `${state}:${p?.index ?? ''}`;
  const follow = useFollow(run.id, attention, [run, showLive]);
  return (
    <section class="run" data-testid="run" data-status={run.status}>
      <RunBar run={run} command={command} error={error} barRef={follow.bar} following={follow.following} onJump={follow.jump} />
      <header class="run-head">
        <p class="run-task-text">{run.task}</p>
        <p class="run-where"><small>{run.startUrl} · {run.model}</small></p>
        {run.replay
          ? <p class="hint" data-testid="replay-note">{t('replayNote', run.replay.steps.length, run.startUrl)}</p>
          : <Totals key={run.id} run={run} onPrices={onPrices} />}
        <VariablesView run={run} />
        {!run.replay && <RunSites run={run} />}
      </header>
      <ol class="steps">
        {run.steps.map((s) => [
          <TurnStart key={`turn-${s.index}`} run={run} index={s.index} />,
          s.kind === 'person' ? <PersonStep key={s.index} step={s} /> : <Step key={s.index} runId={run.id} dialect={run.dialect} step={s} />,
        ])}
        <TurnsAhead run={run} />
      </ol>
      <div class="current" ref={follow.current} data-testid="current">
        {p?.approval && <ApprovalCard key={`${run.id}:${p.index}`} run={run} pending={p} approval={p.approval} />}
        {p && !p.approval && (
          <p class={run.paused ? 'pending' : 'pending busy'} data-testid="pending">
            {t('stepPhase', p.index + 1, phaseText(run))}
          </p>
        )}
        {showLive && <LiveReplyView live={showLive} dialect={run.dialect} />}
        {run.status === 'running' && !run.pending && <p class="pending">{run.paused ? t('paused') : t('starting')}</p>}
        {run.status === 'finished' && (
          <div class="answer" data-testid="answer"><h2>{t('answer')}</h2><p>{run.answer}</p><AnswerJson run={run} /></div>
        )}
        <FollowUpForm key={run.id} run={run} />
      </div>
    </section>
  );
}

/** Longest part of a variable's value shown (the whole value is in the trace). */
const VARIABLE_SHOWN = 400;

/** The run variables actions stored (quotes, language-model answers, the clipboard), beside the memory; passwords masked by the view. */
function VariablesView({ run }: { run: RunView }) {
  const list = Object.entries(run.variables ?? {});
  if (!list.length) return null;
  return (
    <details class="variables" data-testid="variables" open>
      <summary>{t('variablesTitle', list.length)}</summary>
      <dl>
        {list.map(([name, v]) => (
          <div key={name} data-testid="variable" data-name={name}>
            <dt><code>{name}</code> <small>{t('variableFrom', v.step + 1)}</small></dt>
            <dd><pre>{v.value.length > VARIABLE_SHOWN ? `${v.value.slice(0, VARIABLE_SHOWN)}…` : v.value}</pre></dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** The status dot: a different colour and shape for each state; the words next to it say the same. */
export function Dot({ state, testid }: { state: DotState; testid?: string }) {
  return <span class={`dot ${state}`} data-state={state} data-testid={testid} title={dotText(state)} aria-hidden="true" />;
}

/** The current time, ticking every second while `on`. */
function useNow(on: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!on) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

function RunBar({ run, command, error, barRef, following, onJump }: {
  run: RunView; command: Command; error: string | null; barRef: { current: HTMLDivElement | null }; following: boolean; onJump: () => void;
}) {
  const running = run.status === 'running';
  const state = dotState(run);
  const now = useNow(running);
  const phase = phaseText(run);
  return (
    <div class="run-bar" ref={barRef} data-testid="run-bar" data-state={state}>
      <p class="run-status">
        <Dot state={state} testid="run-dot" />
        <b data-testid="run-state">{dotText(state)}</b>
        {phase && <span class="run-phase" data-testid="run-phase">{phase}</span>}
      </p>
      <p class="run-progress">
        <span data-testid="run-step">{stepText(run)}</span>
        {' · '}<span data-testid="run-elapsed" title={t('elapsedTitle')}>{formatElapsed(elapsedOf(run, now))}</span>
        {!following && <button type="button" class="link" data-testid="jump-current" onClick={onJump}>{t('showCurrent')}</button>}
      </p>
      {running && <RunControls run={run} command={command} />}
      {error && <p class="error" role="alert" data-testid="run-error">{error}</p>}
      {(run.status === 'stopped' || run.status === 'failed') && (
        <StopReason run={run} testid="stop-reason" words={{ failed: 'runFailed', stopped: 'runStopped' }} />
      )}
    </div>
  );
}

/** Tokens so far and the cost; when the model has no price, that is said once (per model) with a way to add it. */
function Totals({ run, onPrices }: { run: RunView; onPrices: (model: string) => void }) {
  const totals = run.totals;
  const [tell] = useState(() => totals.cost === null && !run.replay && !run.imported && costNoteFor(run.model, run.id));
  return (
    <>
      <p class="run-totals" data-testid="run-totals">
        <span data-testid="run-total-tokens">{formatTokens(totals.promptTokens, totals.completionTokens)}</span>
        {totals.cost !== null && <>{t('costSep')}<span data-testid="run-cost" data-cost={totals.cost}>{costText(totals.cost, totals.currency)}</span></>}
      </p>
      {tell && (
        <p class="hint" data-testid="cost-unknown">
          {t('costUnknown', run.model)}{' '}
          <button type="button" class="link" data-testid="cost-link" onClick={() => onPrices(run.model)}>{t('costAdd')}</button>
        </p>
      )}
    </>
  );
}

/**
 * Keeps the step in progress in view as the run goes on. A person who scrolls away from it (to
 * read older steps) stops the following; scrolling back to it, or "Show the current step",
 * starts it again. Only scrolls the person makes count: wheel, touch, scroll keys, the scrollbar.
 */
function useFollow(runId: string, attention: string, changes: unknown[]) {
  const bar = useRef<HTMLDivElement>(null);
  const current = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  const on = useRef(true);
  on.current = following;

  // A new run, and any moment that needs the person (an approval, the end), are followed again.
  useEffect(() => setFollowing(true), [runId, attention]);

  useEffect(() => {
    // When the person last did something that scrolls; a scroll soon after is theirs.
    let marked = -Infinity;
    const mark = () => { marked = performance.now(); };
    const onKey = (e: KeyboardEvent) => {
      if (['PageUp', 'PageDown', 'ArrowUp', 'ArrowDown', 'Home', 'End', ' '].includes(e.key) && !isTextField(e.target)) mark();
    };
    // A press on the page's scrollbar (its target is the root element), not on a button.
    const onPress = (e: MouseEvent) => { if (e.target === document.documentElement) mark(); };
    const onScroll = () => {
      if (performance.now() - marked > 500) return;
      if (current.current) setFollowing(isInView(current.current, bar.current));
    };
    const opts = { passive: true };
    addEventListener('wheel', mark, opts);
    addEventListener('touchmove', mark, opts);
    addEventListener('mousedown', onPress, opts);
    addEventListener('keydown', onKey, opts);
    addEventListener('scroll', onScroll, opts);
    return () => {
      removeEventListener('wheel', mark);
      removeEventListener('touchmove', mark);
      removeEventListener('mousedown', onPress);
      removeEventListener('keydown', onKey);
      removeEventListener('scroll', onScroll);
    };
  }, []);

  /** Brings the step in progress into view, unless the person looks elsewhere. */
  const follow = () => {
    // Not while the person types somewhere else (the task box, a setting): that is where they look.
    const active = document.activeElement;
    const typingElsewhere = isTextField(active) && !current.current?.contains(active);
    if (on.current && !typingElsewhere) reveal(current.current, bar.current);
  };
  useLayoutEffect(follow, [...changes, following]);
  // The step in progress also grows by itself (its screenshot loads, the reply streams in, an error shows).
  useEffect(() => {
    const el = current.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(() => follow());
    watch.observe(el);
    return () => watch.disconnect();
  }, []);

  const jump = () => {
    setFollowing(true);
    reveal(current.current, bar.current);
  };
  return { bar, current, following, jump };
}

function isTextField(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return true;
  return t instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(t.type);
}

/** The area the sticky header and run bar leave free. */
function freeArea(bar: HTMLElement | null): { top: number; bottom: number } {
  return { top: Math.max(0, bar?.getBoundingClientRect().bottom ?? 0), bottom: window.innerHeight };
}

function isInView(el: HTMLElement, bar: HTMLElement | null): boolean {
  const r = el.getBoundingClientRect();
  const { top, bottom } = freeArea(bar);
  return r.bottom > top && r.top < bottom;
}

/** Scrolls the least that shows the element below the bar: its bottom edge, or its top when it is taller than the room. */
function reveal(el: HTMLElement | null, bar: HTMLElement | null): void {
  if (!el || el.getClientRects().length === 0) return; // not drawn (the History view is shown)
  const r = el.getBoundingClientRect();
  const { top, bottom } = freeArea(bar);
  const gap = 8;
  if (r.top >= top + gap && r.bottom <= bottom - gap) return;
  const tooTall = r.height > bottom - top - 2 * gap;
  const dy = tooTall || r.top < top ? r.top - top - gap : r.bottom - bottom + gap;
  window.scrollBy(0, dy);
}

/** The latest streamed reply and retry note of this run (any step: the caller picks the pending one). */
function useLive(runId: string): { index: number; content: string; reasoning: string; note: string | null } | null {
  const [live, setLive] = useState<{ index: number; content: string; reasoning: string; note: string | null } | null>(null);
  useEffect(() => {
    setLive(null);
    // What streamed in before this view was open (a retry note waits seconds): asked once, newer events win.
    send('run/live', { runId }).then((ev) => {
      if (ev) setLive((cur) => cur ?? { index: ev.index, content: ev.content, reasoning: ev.reasoning, note: ev.note });
    }).catch(() => undefined);
    return onRunStream((ev: RunStream) => {
      if (ev.runId !== runId) return;
      setLive((cur) => {
        const same = cur && cur.index === ev.index;
        // A retry note comes alone (the reply starts over): keep it until the step is done.
        if (ev.note) return { index: ev.index, content: '', reasoning: '', note: ev.note };
        return { index: ev.index, content: ev.content, reasoning: ev.reasoning, note: same ? cur.note : null };
      });
    });
  }, [runId]);
  return live;
}

function LiveReplyView({ live, dialect }: { live: { content: string; reasoning: string; note: string | null }; dialect: string }) {
  const { thought, reasoning } = liveReply(live.content, live.reasoning, dialectOf(dialect).preview);
  return (
    <div class="live" data-testid="live-reply">
      {live.note && <p class="note retry" role="status" data-testid="retry-note">{live.note}</p>}
      {reasoning && (
        <details class="live-reasoning" data-testid="live-reasoning">
          <summary>{t('reasoningLive')}</summary>
          <pre>{reasoning}</pre>
        </details>
      )}
      {thought && <p class="thought live-thought" data-testid="live-thought">{thought}</p>}
    </div>
  );
}

/** How the person let the step through; automatic steps show nothing. A take-over is not a rejection. */
function Decision({ step }: { step: StepView }) {
  const a = step.approval;
  if (!a || a.decision === 'auto') return null;
  if (tookOver(step)) return <span class="tag takeover" data-testid="approval-tag">{t('notRunTookOver')}</span>;
  const text = a.decision === 'rejected' && a.feedback ? t('decisionRejectedWhy', a.feedback) : decisionWord(a.decision);
  return <span class={`tag ${a.decision}`} data-testid="approval-tag">{text}</span>;
}

function PersonStep({ step }: { step: StepView }) {
  return (
    <li class="step person" data-testid="step" data-kind="person">
      <div class="step-head"><b>{t('stepN', step.index + 1)}</b> <small>{step.url}</small></div>
      <p class="action" data-testid="action"><b>{t('youTookOver')}</b></p>
      <p class="obs ok" data-testid="observation">{observationInWords(step.observation, t)}</p>
    </li>
  );
}

function Step({ runId, dialect, step }: { runId: string; dialect: string; step: StepView }) {
  const [shot, setShot] = useState<string | null>(null);
  const [big, setBig] = useState(false);
  const closeBig = useCallback(() => setBig(false), []);
  useEffect(() => {
    send('run/screenshot', { runId, index: step.index }).then(setShot, () => setShot(null));
  }, [runId, step.index]);
  const n = step.index + 1;
  return (
    <li class="step" data-testid="step">
      <div class="step-top">
        {shot
          ? <button type="button" class="thumb-button" aria-label={t('enlargeShot', n)} onClick={() => setBig(true)}>
            <img class="thumb" src={shot} alt={t('labelledShot', n)} />
          </button>
          : <span class="thumb-button empty" aria-hidden="true" />}
        <div class="step-main">
          <div class="step-head"><b>{t('stepN', n)}</b> <Decision step={step} /> <small title={step.url}>{step.url}</small></div>
          <p class="action"><ActionText dialect={dialect} actionText={step.actionText} action={step.action} element={actedElement(step)} testId="action" /></p>
          <p class={step.result.ok ? 'obs ok' : 'obs bad'} data-testid="observation">{observationInWords(step.observation, t)}</p>
          {step.warning && <p class="obs bad" role="note" data-testid="model-warning">{t('modelWarning', step.warning)}</p>}
          <ScreenNote step={step} />
          <PicturesNote step={step} />
          <TabNote step={step} />
        </div>
      </div>
      {step.thought && step.approval?.decision === 'edited' && <p class="hint" data-testid="edited-note">{t('thoughtBeforeEdit')}</p>}
      {step.thought && <p class="thought" data-testid="thought">{step.thought}</p>}
      <details class="step-more">
        <summary>{t('stepMore')}</summary>
        <p class="step-facts">
          <span data-testid="step-tokens">{step.usage ? formatTokens(step.usage.promptTokens, step.usage.completionTokens) : t('tokensNotReported')}</span>
          <br /><span data-testid="step-timings">{formatTimings(step.timings)}</span>
        </p>
        <pre class="memory" data-testid="memory">{JSON.stringify(step.memory, null, 2)}</pre>
        {step.reasoning && <details><summary>{t('reasoning')}</summary><pre>{step.reasoning}</pre></details>}
      </details>
      {big && shot && <Lightbox src={shot} alt={t('labelledShotBig', n)} onClose={closeBig} />}
    </li>
  );
}

/** An approval decision in the person's words. */
export function decisionWord(d: 'approved' | 'edited' | 'rejected' | 'auto'): string {
  return d === 'approved' ? t('decisionApproved') : d === 'edited' ? t('decisionEdited') : d === 'rejected' ? t('decisionRejected') : '';
}
