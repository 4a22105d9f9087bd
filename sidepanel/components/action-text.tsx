/**
 * A step's action as a person reads it (run/person-text.ts describedAction): in words, and the
 * call as the model wrote it one click away, for a dialect whose calls are not words (JSON,
 * boxes, thousandths). A dialect whose calls read as words (glm-web) shows the call itself.
 */
import type { Action } from '../../src/core/action/action';
import { describedAction, type ElementWords } from '../../src/core/run/person-text';
import { t } from '../i18n';

export function ActionText({ dialect, actionText, action, element, testId, raw = true }: {
  dialect: string;
  actionText: string;
  action: Action | null | undefined;
  element: ElementWords | null | undefined;
  testId: string;
  /** false: the words alone (a one-line summary inside a button) */
  raw?: boolean;
}) {
  const d = describedAction(dialect, actionText, action, element, t);
  if (d.raw === null) return <code data-testid={testId}>{d.words}</code>;
  return (
    <>
      <span class="action-words" data-testid={testId} title={raw ? undefined : d.raw}>{d.words}</span>
      {raw && (
        <details class="raw-call" data-testid="raw-call">
          <summary>{t('rawCall')}</summary>
          <code>{d.raw}</code>
        </details>
      )}
    </>
  );
}
