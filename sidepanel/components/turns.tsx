/**
 * Follow-ups (docs/follow-ups.md) in the panel: the line where a follow-up's steps begin, in the
 * live run and in History's detail, and the box under an ended run to type the next turn.
 */
import { useState } from 'preact/hooks';
import type { RunView } from '../../src/core/messages';
import { send, targetTab } from '../api';
import { useAction } from '../use-action';
import { t } from '../i18n';

/** The follow-up whose steps begin at step `index` (null: none does), as a line of the steps list. */
export function TurnStart({ run, index }: { run: Pick<RunView, 'turns'>; index: number }) {
  const turns = run.turns ?? [];
  const n = turns.findIndex((x, i) => i > 0 && x.fromStep === index);
  return n < 0 ? null : <TurnLine n={n} task={turns[n].task} />;
}

function TurnLine({ n, task }: { n: number; task: string }) {
  return <li class="turn-start" data-testid="turn-start" data-turn={n}>{t('turnFollowUp', n, task)}</li>;
}

/** Follow-ups still waiting for their first step (just sent): shown after the steps. */
export function TurnsAhead({ run }: { run: Pick<RunView, 'turns' | 'steps' | 'stepsFrom'> }) {
  const turns = run.turns ?? [];
  const next = (run.stepsFrom ?? 0) + run.steps.length;
  return <>{turns.map((x, i) => (i > 0 && x.fromStep >= next ? <TurnLine key={i} n={i} task={x.task} /> : null))}</>;
}

/** The box under an ended run: the next task, sent as its next turn in the same tab. */
export function FollowUpForm({ run }: { run: RunView }) {
  const [text, setText] = useState('');
  const { act, busy, error } = useAction();
  if (run.status === 'running' || run.replay || run.imported) return null;
  const submit = (e?: Event) => {
    e?.preventDefault();
    if (!text.trim() || busy) return;
    void act(async () => {
      const tab = await targetTab();
      await send('run/continue', { runId: run.id, task: text, ...(tab?.id !== undefined ? { tabId: tab.id } : {}) });
      setText('');
    });
  };
  return (
    <form class="follow-up card" data-testid="follow-up-form" onSubmit={submit}>
      <label for="follow-up" class="label" title={t('followUpTitle')}>{t('followUpLabel')}</label>
      <textarea id="follow-up" data-testid="follow-up" rows={2} value={text} placeholder={t('followUpPlaceholder')} title={t('followUpTitle')}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e); }} />
      <div class="row">
        <button type="submit" class="primary" data-testid="follow-up-send" disabled={busy || !text.trim()}>{t('followUpSend')}</button>
      </div>
      {error && <p class="error" role="alert" data-testid="follow-up-error">{error}</p>}
    </form>
  );
}
