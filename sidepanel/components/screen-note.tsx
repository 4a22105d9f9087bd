/**
 * What was read in a step's pictures, in the person's words: the opt-in picture check
 * (src/core/image-screen.ts) and the pictures read by OCR (src/core/picture-text.ts). For each, a
 * note under the step when it could not be done (the run went on), and one line for the run's
 * details (the check: its verdict, tokens and time; OCR: the pictures read, reused and left).
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

/** Under the step: pictures on screen that could not be read by OCR (in time, or at all). Nothing otherwise. */
export function PicturesNote({ step }: { step: StepView }) {
  const p = step.pictureText;
  if (!p || (!p.error && !p.unread)) return null;
  const text = p.error ? t('picturesFailed', p.error) : t('picturesUnread', p.unread, p.pictures);
  return <p class="obs" role="note" data-testid="pictures-note">{text}</p>;
}

/** The run's details: the step's pictures read on this machine (nothing when none were on screen, or the option was off). */
export function PicturesField({ step }: { step: StepView }) {
  const p = step.pictureText;
  if (!p) return null;
  return <p class="field" data-testid="detail-pictures"><b>{t('detailPictures')}</b> {t('detailPicturesLine', p.pictures, p.read, p.reused, p.unread, p.ms)}</p>;
}
