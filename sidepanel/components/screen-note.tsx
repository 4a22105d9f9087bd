/**
 * The opt-in picture check of a step (src/core/image-screen.ts), in the person's words: a note
 * under the step when the check could not be done or its answer could not be read (the run went
 * on), and one line for the run's details with the verdict, its tokens and time.
 */
import { t } from '../i18n';
import { formatTokens } from '../format';
import type { StepView } from '../../src/core/messages';
import type { ImageScreen } from '../../src/core/image-screen';

/** Under the step: the picture could not be checked (or the answer not read). Nothing otherwise. */
export function ScreenNote({ step }: { step: StepView }) {
  const s = step.imageScreen;
  if (!s || (s.verdict !== 'failed' && s.verdict !== 'unreadable')) return null;
  const text = s.verdict === 'failed' ? t('screenFailed', s.error ?? '') : t('screenUnreadable', s.reply ?? '');
  return <p class="obs bad" role="note" data-testid="screen-note" data-verdict={s.verdict}>{text}</p>;
}

/** The check in one line: verdict, then (when a request was made) tokens and ms. */
export function screenLine(s: ImageScreen): string {
  const verdict = s.verdict === 'none' ? t('detailScreenNone')
    : s.verdict === 'found' ? t('detailScreenFound', s.words ?? '')
      : s.verdict === 'unreadable' ? t('detailScreenUnreadable', s.reply ?? '')
        : t('detailScreenFailed', s.error ?? '');
  if (s.reused) return `${verdict} · ${t('detailScreenReused')}`;
  const cost = s.usage ? formatTokens(s.usage.promptTokens, s.usage.completionTokens) : t('detailNotReported');
  return `${verdict} · ${cost} · ${s.ms} ms`;
}

/** The run's details: the step's picture check (nothing when the option was off). */
export function ScreenField({ step }: { step: StepView }) {
  if (!step.imageScreen) return null;
  return <p class="field" data-testid="detail-screen" data-verdict={step.imageScreen.verdict}><b>{t('detailScreen')}</b> {screenLine(step.imageScreen)}</p>;
}
