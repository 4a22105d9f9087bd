/** A finished run's answer as JSON, when it matched the task's answer schema (docs/answer-schema.md). */
import type { RunView } from '../../src/core/messages';
import { t } from '../i18n';

export function AnswerJson({ run }: { run: Pick<RunView, 'answerJson'> }) {
  if (run.answerJson === undefined) return null;
  return (
    <div class="answer-json">
      <small class="hint">{t('histAnswerJson')}</small>
      <pre data-testid="answer-json">{JSON.stringify(run.answerJson, null, 2)}</pre>
    </div>
  );
}
