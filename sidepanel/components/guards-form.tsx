/**
 * The guards in settings: each rule on or off, the phrases of the text rules (one list per
 * language), the download rule's file extensions, and the
 * sites where a rule is always allowed (added by "Always allow this on <site>" in the approval card).
 * Rule edits are saved with the settings form's Save; removing an always-allow saves at once.
 */
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { GUARD_LANG_KEYS, GUARD_LANGS, GUARD_NAME_KEYS, type GuardId, type GuardLang, type GuardRule, type GuardSettings } from '../../src/core/guards';

/** Rules whose words mean something (guards.ts), with their help's message key: the others ignore them. */
const WORDS_HELP: Partial<Record<GuardId, string>> = {
  'payment': 'guardWordsHelp',
  'delete': 'guardWordsHelp',
  'send': 'guardWordsHelp',
  'download': 'guardExtHelp',
};

export function splitWords(text: string): string[] {
  return text.split(',').map((w) => w.trim()).filter(Boolean);
}

export function GuardsForm({ guards, onChange, onRemoveAllow }: {
  guards: GuardSettings;
  onChange: (g: GuardSettings) => void;
  onRemoveAllow: (host: string, id: GuardId) => void;
}) {
  // The lists as typed (commas and spaces kept while typing), by "rule" or "rule lang"; parsed into the rules on each key.
  const [drafts, setDrafts] = useState<Record<string, string>>({});

  const setRule = (id: GuardId, patch: Partial<GuardRule>) =>
    onChange({ ...guards, rules: guards.rules.map((r) => (r.id === id ? { ...r, ...patch } : r)) });

  const allowed = Object.entries(guards.allow).flatMap(([host, ids]) => ids.map((id) => ({ host, id })));

  return (
    <fieldset class="guards" data-testid="guards">
      <legend>{t('guardsLegend')}</legend>
      {guards.rules.map((r) => (
        <div class="guard" key={r.id}>
          <label class="check">
            <input type="checkbox" data-testid={`guard-${r.id}`} checked={r.on} onChange={(e) => setRule(r.id, { on: (e.target as HTMLInputElement).checked })} />
            {t(GUARD_NAME_KEYS[r.id])}
          </label>
          {WORDS_HELP[r.id] && r.id === 'download' && (
            <label class="field words">
              <input type="text" data-testid={`guard-words-${r.id}`} aria-label={t('guardWords', t(GUARD_NAME_KEYS[r.id]))} disabled={!r.on}
                value={drafts[r.id] ?? r.words.join(', ')}
                onInput={(e) => {
                  const text = (e.target as HTMLInputElement).value;
                  setDrafts({ ...drafts, [r.id]: text });
                  setRule(r.id, { words: splitWords(text) });
                }} />
              <small>{t(WORDS_HELP[r.id]!)}</small>
            </label>
          )}
          {WORDS_HELP[r.id] && r.id !== 'download' && (
            <div class="words">
              {GUARD_LANGS.map((lang: GuardLang) => (
                <label class="field" key={lang}>
                  <span>{t(GUARD_LANG_KEYS[lang])}</span>
                  <input type="text" data-testid={`guard-words-${r.id}-${lang}`} aria-label={`${t('guardWords', t(GUARD_NAME_KEYS[r.id]))} (${t(GUARD_LANG_KEYS[lang])})`} disabled={!r.on}
                    value={drafts[`${r.id} ${lang}`] ?? (r.phrases[lang] ?? []).join(', ')}
                    onInput={(e) => {
                      const text = (e.target as HTMLInputElement).value;
                      setDrafts({ ...drafts, [`${r.id} ${lang}`]: text });
                      setRule(r.id, { phrases: { ...r.phrases, [lang]: splitWords(text) } });
                    }} />
                </label>
              ))}
              <small>{t(WORDS_HELP[r.id]!)}</small>
            </div>
          )}
        </div>
      ))}
      <h3>{t('alwaysAllowed')}</h3>
      {allowed.length === 0 && <p class="hint" data-testid="allow-none">{t('allowNone')}</p>}
      <ul class="allow">
        {allowed.map(({ host, id }) => (
          <li key={`${host} ${id}`} data-testid={`allow-${host}-${id}`}>
            <span>{host}: {t(GUARD_NAME_KEYS[id])}</span>
            <button type="button" data-testid={`remove-allow-${host}-${id}`} onClick={() => onRemoveAllow(host, id)}>{t('remove')}</button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
