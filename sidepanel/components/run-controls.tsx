/**
 * Pause, take over, resume and stop a live run, and the banner that says which of them holds.
 * Pause lets nothing new start; take over also removes the labels so the person can use the page,
 * and on resume the model is told what changed.
 */
import type { RunView } from '../../src/core/messages';
import { send } from '../api';
import type { Command } from '../api';

export function RunControls({ run, command }: { run: RunView; command: Command }) {
  const paused = run.paused;
  return (
    <div class="controls">
      <div class="row">
        {paused && <button type="button" class="tonal" data-testid="resume" onClick={() => command(() => send('run/resume', { runId: run.id }))}>Resume</button>}
        <button type="button" data-testid="pause" disabled={!!paused} onClick={() => command(() => send('run/pause', { runId: run.id }))}>Pause</button>
        <button type="button" data-testid="takeover" disabled={paused?.kind === 'takeover'} onClick={() => command(() => send('run/takeover', { runId: run.id }))}
          title="Pause and use the page yourself; the labels are removed">Take over</button>
        <button type="button" class="danger-text" data-testid="stop" onClick={() => command(() => send('run/stop', { runId: run.id }))}>Stop</button>
      </div>
      {paused && (
        <p class="banner" role="status" data-testid="paused-banner" data-kind={paused.kind}>
          {paused.kind === 'pause'
            ? 'Paused — nothing new will start.'
            : 'You have the page: the labels are removed. Press Resume when you are done; the agent will be told what you did.'}
        </p>
      )}
    </div>
  );
}
