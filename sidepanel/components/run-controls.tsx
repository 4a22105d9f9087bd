/**
 * Pause, take over, resume and stop a live run, and the banner that says which of them holds.
 * Pause lets nothing new start; take over also removes the labels so the person can use the page,
 * and on resume the model is told what changed.
 */
import { t } from '../i18n';
import type { RunView } from '../../src/core/messages';
import { send } from '../api';
import type { Command } from '../api';

export function RunControls({ run, command }: { run: RunView; command: Command }) {
  const paused = run.paused;
  return (
    <div class="controls">
      <div class="row">
        {paused && <button type="button" class="tonal" data-testid="resume" onClick={() => command(() => send('run/resume', { runId: run.id }))}>{t('resume')}</button>}
        <button type="button" data-testid="pause" disabled={!!paused} onClick={() => command(() => send('run/pause', { runId: run.id }))}>{t('pause')}</button>
        <button type="button" data-testid="takeover" disabled={paused?.kind === 'takeover'} onClick={() => command(() => send('run/takeover', { runId: run.id }))}
          title={t('takeOverTitle')}>{t('takeOver')}</button>
        <button type="button" class="danger-text" data-testid="stop" onClick={() => command(() => send('run/stop', { runId: run.id }))}>{t('stop')}</button>
      </div>
      {paused && (
        <p class="banner" role="status" data-testid="paused-banner" data-kind={paused.kind}>
          {paused.kind === 'pause'
            ? t('pausedBanner')
            : t('takeoverBanner')}
        </p>
      )}
    </div>
  );
}
