import { useEffect, useState } from 'preact/hooks';
import type { RunView, StepView } from '../../src/core/messages';
import { send } from '../api';

const PHASE_TEXT = { observe: 'labelling the page and taking a screenshot…', model: 'waiting for the model…', approve: 'waiting for your approval', act: 'acting', done: '' };

export function RunPanel({ run }: { run: RunView }) {
  return (
    <section class="run" data-testid="run" data-status={run.status}>
      <p class="run-head"><b>{run.task}</b><br /><small>{run.startUrl} · {run.model}</small></p>
      <ol class="steps">
        {run.steps.map((s) => <Step key={s.index} runId={run.id} step={s} />)}
      </ol>
      {run.pending && run.status === 'running' && (
        <p class="pending" data-testid="pending">
          Step {run.pending.index + 1}: {run.pending.phase === 'act' && run.pending.actionText ? `acting: ${run.pending.actionText}` : PHASE_TEXT[run.pending.phase]}
        </p>
      )}
      {run.status === 'running' && !run.pending && <p class="pending">Starting…</p>}
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

function Step({ runId, step }: { runId: string; step: StepView }) {
  const [shot, setShot] = useState<string | null>(null);
  const [big, setBig] = useState(false);
  useEffect(() => {
    send('run/screenshot', { runId, index: step.index }).then(setShot, () => setShot(null));
  }, [runId, step.index]);
  return (
    <li class="step" data-testid="step">
      <div class="step-head">Step {step.index + 1} <small>{step.url}</small></div>
      {shot && <img class="thumb" src={shot} alt={`Labelled screenshot of step ${step.index + 1}`} onClick={() => setBig(true)} />}
      {step.thought && <p class="thought" data-testid="thought">{step.thought}</p>}
      <p class="action" data-testid="action"><code>{step.actionText}</code></p>
      <p class={step.result.ok ? 'obs ok' : 'obs bad'} data-testid="observation">{step.observation}</p>
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
