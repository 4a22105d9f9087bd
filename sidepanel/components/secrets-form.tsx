/**
 * The person's secrets in settings (core/secrets/index.ts): a name and a value each, the value hidden
 * unless shown. Saved with the settings form's Save, in chrome.storage.local only.
 */
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import type { Secret } from '../../src/core/secrets';

export function SecretsForm({ secrets, problem, onChange }: {
  secrets: Secret[];
  problem: string | undefined;
  onChange: (s: Secret[]) => void;
}) {
  // Rows whose value is shown (by index); hidden by default.
  const [shown, setShown] = useState<Set<number>>(new Set());
  const setRow = (i: number, patch: Partial<Secret>) => onChange(secrets.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const remove = (i: number) => {
    setShown(new Set([...shown].filter((j) => j !== i).map((j) => (j > i ? j - 1 : j))));
    onChange(secrets.filter((_, j) => j !== i));
  };
  const toggle = (i: number) => {
    const next = new Set(shown);
    if (!next.delete(i)) next.add(i);
    setShown(next);
  };

  return (
    <fieldset class="secrets" data-testid="secrets">
      <legend>{t('secrets')}</legend>
      <small class="help" id="secrets-help">{t('secretsHelp')}</small>
      {secrets.length === 0 && <p class="hint" data-testid="secrets-none">{t('secretsNone')}</p>}
      {secrets.map((s, i) => (
        <div class="row" key={i} data-testid="secret-row">
          <input type="text" class="grow" data-testid="secret-name" aria-label={t('secretName')} placeholder={t('secretName')} value={s.name} autocomplete="off"
            onInput={(e) => setRow(i, { name: (e.target as HTMLInputElement).value })} />
          <input type={shown.has(i) ? 'text' : 'password'} class="grow" data-testid="secret-value" aria-label={t('secretValue')} placeholder={t('secretValue')} value={s.value} autocomplete="off"
            onInput={(e) => setRow(i, { value: (e.target as HTMLInputElement).value })} />
          <button type="button" data-testid="secret-show" aria-pressed={shown.has(i)} onClick={() => toggle(i)}>{shown.has(i) ? t('secretHide') : t('secretShow')}</button>
          <button type="button" data-testid="secret-delete" onClick={() => remove(i)}>{t('secretDelete')}</button>
        </div>
      ))}
      {problem && <small class="help bad" data-testid="secrets-problem">{problem}</small>}
      <div class="row">
        <button type="button" data-testid="secret-add" onClick={() => onChange([...secrets, { name: '', value: '' }])}>{t('secretAdd')}</button>
      </div>
    </fieldset>
  );
}
