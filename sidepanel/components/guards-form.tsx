/**
 * The guards in settings: each rule on or off, the phrases of the text rules (one list per
 * language, one phrase a line; the help about them said once), the download rule's file extensions, and the
 * sites where a rule is always allowed (added by "Always allow this on <site>" in the approval card).
 * Rule edits are saved with the settings form's Save; removing an always-allow saves at once.
 */
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { GUARD_LANG_KEYS, GUARD_LANGS, GUARD_NAME_KEYS, type GuardId, type GuardLang, type GuardRule, type GuardSettings } from '../../src/core/guards';

/** Rules whose words mean something (guards/index.ts): the others ignore them. */
const HAS_WORDS = new Set<GuardId>(['payment', 'delete', 'send', 'download']);

/** A list as typed: one phrase a line (commas also separate, as the lists were once typed). */
export function splitWords(text: string): string[] {
  return text.split(/[\n,]/).map((w) => w.trim()).filter(Boolean);
}

/** A list as shown: one phrase a line. */
const joinWords = (words: readonly string[]) => words.join('\n');

/** Rows for a list's box: up to 4 lines shown (the box scrolls past that, and can be pulled taller). */
const rowsFor = (text: string) => Math.min(4, Math.max(2, text.split('\n').length));

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
      <small class="help" id="guard-words-help" data-testid="guard-words-help">{t('guardWordsHelp')}</small>
      {guards.rules.map((r) => (
        <div class="guard" key={r.id}>
          <label class="check">
            <input type="checkbox" data-testid={`guard-${r.id}`} checked={r.on} onChange={(e) => setRule(r.id, { on: (e.target as HTMLInputElement).checked })} />
            {t(GUARD_NAME_KEYS[r.id])}
          </label>
          {HAS_WORDS.has(r.id) && r.id === 'download' && (() => {
            const text = drafts[r.id] ?? joinWords(r.words);
            return (
              <label class="field words">
                <textarea data-testid={`guard-words-${r.id}`} aria-label={t('guardWords', t(GUARD_NAME_KEYS[r.id]))} disabled={!r.on}
                  rows={rowsFor(text)} value={text} spellcheck={false} aria-describedby={`guard-ext-help`}
                  onInput={(e) => {
                    const typed = (e.target as HTMLTextAreaElement).value;
                    setDrafts({ ...drafts, [r.id]: typed });
                    setRule(r.id, { words: splitWords(typed) });
                  }} />
                <small id="guard-ext-help">{t('guardExtHelp')}</small>
              </label>
            );
          })()}
          {HAS_WORDS.has(r.id) && r.id !== 'download' && (
            <div class="words">
              {GUARD_LANGS.map((lang: GuardLang) => {
                const text = drafts[`${r.id} ${lang}`] ?? joinWords(r.phrases[lang] ?? []);
                return (
                  <label class="field" key={lang}>
                    <span>{t(GUARD_LANG_KEYS[lang])}</span>
                    <textarea data-testid={`guard-words-${r.id}-${lang}`} aria-label={`${t('guardWords', t(GUARD_NAME_KEYS[r.id]))} (${t(GUARD_LANG_KEYS[lang])})`} disabled={!r.on}
                      rows={rowsFor(text)} value={text} spellcheck={false} wrap="off" aria-describedby="guard-words-help"
                      onInput={(e) => {
                        const typed = (e.target as HTMLTextAreaElement).value;
                        setDrafts({ ...drafts, [`${r.id} ${lang}`]: typed });
                        setRule(r.id, { phrases: { ...r.phrases, [lang]: splitWords(typed) } });
                      }} />
                  </label>
                );
              })}
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
