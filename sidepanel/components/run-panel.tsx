import { useEffect, useState } from 'preact/hooks';
import type { RunStream, RunView, StepView } from '../../src/core/messages';
import { formatCost } from '../../src/core/costs';
import { onRunStream, send } from '../api';
import { formatTimings, formatTokens } from '../format';
import { liveReply } from '../live';
import { dialectOf } from '../../src/core/dialects/registry';
import { ApprovalCard } from './approval-card';
import { TabNote } from './tab-note';
import type { Command } from '../api';

const PHASE_TEXT = { observe: 'labelling the page and taking a screenshot…', model: 'waiting for the model…', approve: 'waiting for your approval', act: 'acting', done: '' };

export function RunPanel({ run, command }: { run: RunView; command: Command }) {
  const p = run.status === 'running' ? run.pending : null;
  const live = useLive(run.id);
  // The streamed reply belongs to the step still asking the model; once that step is done it is gone.
  const showLive = p && p.phase === 'model' && live && live.index === p.index ? live : null;
  const t = run.totals;
  return (
    <section class="run" data-testid="run" data-status={run.status}>
      <p class="run-head"><b>{run.task}</b><br /><small>{run.startUrl} · {run.model}</small></p>
      {t && (
        <p class="run-totals" data-testid="run-totals">
          <span data-testid="run-total-tokens">{formatTokens(t.promptTokens, t.completionTokens)}</span>
          {' · cost '}<span data-testid="run-cost" data-cost={t.cost ?? ''}>{formatCost(t.cost)}</span>
        </p>
      )}
      <ol class="steps">
        {run.steps.map((s) => (s.kind === 'person' ? <PersonStep key={s.index} step={s} /> : <Step key={s.index} runId={run.id} step={s} />))}
      </ol>
      {p?.approval && <ApprovalCard key={`${run.id}:${p.index}`} run={run} pending={p} approval={p.approval} command={command} />}
      {p && !p.approval && (
        <p class="pending" data-testid="pending">
          Step {p.index + 1}: {pendingText(run, p)}
        </p>
      )}
      {showLive && <LiveReplyView live={showLive} dialect={run.dialect} />}
      {run.status === 'running' && !run.pending && <p class="pending">{run.paused ? 'Paused.' : 'Starting…'}</p>}
      {run.status === 'finished' && (
        <div class="answer" data-testid="answer"><h2>Answer</h2><p>{run.answer}</p></div>
      )}
      {(run.status === 'stopped' || run.status === 'failed') && (
        <p class={run.status === 'failed' ? 'error' : 'note'} role="alert" data-testid="stop-reason">
          {run.status === 'failed' ? 'The run failed: ' : 'The run stopped: '}{run.stopReason}
        </p>
      )}
    </section>
  );
}

/** The latest streamed reply and retry note of this run (any step: the caller picks the pending one). */
function useLive(runId: string): { index: number; content: string; reasoning: string; note: string | null } | null {
  const [live, setLive] = useState<{ index: number; content: string; reasoning: string; note: string | null } | null>(null);
  useEffect(() => {
    setLive(null);
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
          <summary>Reasoning…</summary>
          <pre>{reasoning}</pre>
        </details>
      )}
      {thought && <p class="thought live-thought" data-testid="live-thought">{thought}</p>}
    </div>
  );
}

function pendingText(run: RunView, p: NonNullable<RunView['pending']>): string {
  // Paused after the reply came: the action has not started and will not until Resume.
  if (run.paused && p.phase === 'act' && p.actionText) return `paused before: ${p.actionText}`;
  if (p.phase === 'act' && p.actionText) return `acting: ${p.actionText}`;
  return PHASE_TEXT[p.phase];
}

/** How the person let the step through; automatic steps show nothing. */
function Decision({ step }: { step: StepView }) {
  const a = step.approval;
  if (!a || a.decision === 'auto') return null;
  const text = a.decision === 'rejected' && a.feedback ? `rejected: ${a.feedback}` : a.decision;
  return <span class={`tag ${a.decision}`} data-testid="approval-tag">{text}</span>;
}

function PersonStep({ step }: { step: StepView }) {
  return (
    <li class="step person" data-testid="step" data-kind="person">
      <div class="step-head">Step {step.index + 1} <small>{step.url}</small></div>
      <p class="action" data-testid="action"><b>You took over</b></p>
      <p class="obs ok" data-testid="observation">{step.observation}</p>
    </li>
  );
}

function Step({ runId, step }: { runId: string; step: StepView }) {
  const [shot, setShot] = useState<string | null>(null);
  const [big, setBig] = useState(false);
  useEffect(() => {
    send('run/screenshot', { runId, index: step.index }).then(setShot, () => setShot(null));
  }, [runId, step.index]);
  return (
    <li class="step" data-testid="step">
      <div class="step-head">Step {step.index + 1} <Decision step={step} /> <small>{step.url}</small></div>
      {shot && <img class="thumb" src={shot} alt={`Labelled screenshot of step ${step.index + 1}`} onClick={() => setBig(true)} />}
      {step.thought && <p class="thought" data-testid="thought">{step.thought}</p>}
      <p class="action" data-testid="action"><code>{step.actionText}</code></p>
      <p class={step.result.ok ? 'obs ok' : 'obs bad'} data-testid="observation">{step.observation}</p>
      <TabNote step={step} />
      <p class="step-facts">
        <small>
          <span data-testid="step-tokens">{step.usage ? formatTokens(step.usage.promptTokens, step.usage.completionTokens) : 'tokens not reported'}</span>
          {' · '}<span data-testid="step-timings">{formatTimings(step.timings)}</span>
        </small>
      </p>
      <details class="memory"><summary>Memory</summary><pre data-testid="memory">{JSON.stringify(step.memory, null, 2)}</pre></details>
      {step.reasoning && <details><summary>Reasoning</summary><pre>{step.reasoning}</pre></details>}
      {big && shot && (
        <div class="lightbox" role="dialog" onClick={() => setBig(false)}>
          <img src={shot} alt={`Labelled screenshot of step ${step.index + 1}, full size`} />
        </div>
      )}
    </li>
  );
}
