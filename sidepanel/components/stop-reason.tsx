/** Why a run stopped or failed: one line, the whole reason a click away when it is long (reason.ts). */
import { t } from '../i18n';
import { shownReason } from '../reason';
import type { RunView } from '../../src/core/messages';

export function StopReason({ run, testid, words }: { run: Pick<RunView, 'status' | 'stopReason'>; testid: string; words: { failed: string; stopped: string } }) {
  const r = shownReason(run.stopReason);
  const failed = run.status === 'failed';
  return (
    <div class={`${failed ? 'error' : 'note'} stop-reason`} role="alert" data-testid={testid}>
      <p>{t(failed ? words.failed : words.stopped, r.line)}</p>
      {r.more && (
        <details data-testid={`${testid}-more`}>
          <summary>{t('reasonDetails')}</summary>
          <pre>{r.more}</pre>
        </details>
      )}
    </div>
  );
}
