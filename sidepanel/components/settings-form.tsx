/**
 * The settings: endpoint (presets, saved profiles), model, dialect, limits; Advanced (request
 * options, caps, prices) and Guards folded away. The form knows whether it shows something else
 * than what is stored: it says so, Save stores it, and Start saves it first (through the handle),
 * so a run always uses what the person sees. Any change clears an old message and a preset's hint
 * that no longer applies. Each field's help is its description, not part of its name.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MutableRef } from 'preact/hooks';
import { checkSettings, DEFAULT_SETTINGS, endpointOf, normalizeSettings, withProfile, type EndpointProfile, type Settings } from '../../src/core/settings';
import type { GuardId } from '../../src/core/guards';
import { PRESETS, presetById, type Preset } from '../../src/core/presets';
import { DIALECTS, dialectOf } from '../../src/core/dialects/registry';
import { optionValues } from '../../src/core/dialects/options';
import type { CalibrationResult } from '../../src/core/calibrate';
import { messageOf, onSettingsChange, send } from '../api';
import { differsFromSaved, draftOf, DRAFT_KEY, restoreDraft, savablePart, stableJson } from '../settings-draft';
import { SecretsForm } from './secrets-form';
import { GuardsForm } from './guards-form';
import { StorageLine } from './storage-line';
import { t } from '../i18n';
import type { LanguageSetting } from '../../src/core/i18n';
import { emptyRow, PriceTableForm, rowsOf, tableOf, type PriceRow } from './price-table';

type Field = { key: keyof Settings; label: string; help: string; type: 'text' | 'password' | 'number' | 'checkbox' };

/** The fields, in the panel's language (built at each render: the language can change). */
const mainFields = (): Field[] => [
  { key: 'baseUrl', label: t('fieldBaseUrl'), help: t('fieldBaseUrlHelp'), type: 'text' },
  { key: 'apiKey', label: t('fieldApiKey'), help: t('fieldApiKeyHelp'), type: 'password' },
  { key: 'model', label: t('fieldModel'), help: t('fieldModelHelp'), type: 'text' },
  { key: 'maxSteps', label: t('fieldMaxSteps'), help: t('fieldMaxStepsHelp'), type: 'number' },
  { key: 'maxMinutes', label: t('fieldMaxMinutes'), help: t('fieldMaxMinutesHelp'), type: 'number' },
  { key: 'searchStartPage', label: t('fieldSearch'), help: t('fieldSearchHelp'), type: 'text' },
  { key: 'readPictures', label: t('fieldReadPictures'), help: t('fieldReadPicturesHelp'), type: 'checkbox' },
  { key: 'screenImages', label: t('fieldScreenImages'), help: t('fieldScreenImagesHelp'), type: 'checkbox' },
];
const advancedFields = (s: Settings): Field[] => [
  { key: 'temperature', label: t('fieldTemperature'), help: t('fieldTemperatureHelp', s.dialect, dialectOf(s.dialect).request.temperature, t(dialectOf(s.dialect).messages.requestSource)), type: 'number' },
  { key: 'maxTokens', label: t('fieldMaxTokens'), help: t('fieldMaxTokensHelp'), type: 'number' },
  { key: 'stream', label: t('fieldStream'), help: t('fieldStreamHelp'), type: 'checkbox' },
  { key: 'extraBody', label: t('fieldExtraBody'), help: t('fieldExtraBodyHelp'), type: 'text' },
  { key: 'requestTimeoutSec', label: t('fieldTimeout'), help: t('fieldTimeoutHelp'), type: 'number' },
  { key: 'maxRetries', label: t('fieldRetries'), help: t('fieldRetriesHelp'), type: 'number' },
  { key: 'maxRunTokens', label: t('fieldTokenCap'), help: t('fieldTokenCapHelp'), type: 'number' },
  { key: 'maxRunCost', label: t('fieldCostCap'), help: t('fieldCostCapHelp', s.currency), type: 'number' },
  { key: 'textBaseUrl', label: t('fieldTextBaseUrl'), help: t('fieldTextBaseUrlHelp'), type: 'text' },
  { key: 'textApiKey', label: t('fieldTextApiKey'), help: t('fieldTextApiKeyHelp'), type: 'password' },
  { key: 'textModel', label: t('fieldTextModel'), help: t('fieldTextModelHelp'), type: 'text' },
];

/** What each dialect is for, in the person's words (one line each; the model never reads these). */
export function dialectNote(id: string): string {
  return t(dialectOf(id).messages.note);
}

const LANGUAGES: { value: LanguageSetting; label: () => string }[] = [
  { value: 'auto', label: () => t('languageAuto') },
  { value: 'en', label: () => t('langEn') },
  { value: 'zh_CN', label: () => t('langZh') },
];

/** Number fields that take fractions. */
const FRACTIONAL = new Set<keyof Settings>(['temperature', 'requestTimeoutSec', 'maxRunCost']);

/** The form holds exactly this profile's endpoint (the profile selector shows it only then). */
function holdsProfile(s: Settings, p: EndpointProfile): boolean {
  return stableJson(endpointOf(normalizeSettings(s))) === stableJson(p);
}

/** The unsaved form, kept in memory-only session storage (settings-draft.ts); absent outside the extension. */
const draftStore = (): chrome.storage.StorageArea | null => globalThis.chrome?.storage?.session ?? null;

/** The form still holds what the preset filled in (its hint applies only then). */
function holdsPreset(s: Settings, p: Preset): boolean {
  return (Object.keys(p.fields) as (keyof Preset['fields'])[]).every((k) => s[k] === p.fields[k]);
}

/** What the app asks of the form. */
export interface SettingsHandle {
  /** stores what the form shows, if that differs from storage; throws what is wrong when it cannot */
  commit(): Promise<void>;
  /** opens the price table with a row for this model and puts the cursor in its input price */
  showPrices(model: string): void;
}

/** What the app shows next to Start: whether the form is loaded, differs from storage, or has a problem. */
export interface FormState { loaded: boolean; dirty: boolean; problem: string | null }

export function SettingsForm({ handle, onState }: { handle?: MutableRef<SettingsHandle | null>; onState?: (s: FormState) => void }) {
  const [s, setS] = useState<Settings>(DEFAULT_SETTINGS);
  // What storage holds, as last loaded or saved: the form is "changed" when it says something else.
  const [saved, setSaved] = useState<Settings>(DEFAULT_SETTINGS);
  const [ready, setReady] = useState(false);
  // `text` as a function: words of ours, said in the language the panel has when it is drawn (a Save
  // that switches the language says "Saved." in the new one)
  const [status, setStatus] = useState<{ ok: boolean; text: string | (() => string) } | null>(null);
  // The coordinate check's last result (null: not run, or being run when `checking`).
  const [calibration, setCalibration] = useState<CalibrationResult | null>(null);
  const [checking, setChecking] = useState(false);
  const [open, setOpen] = useState(false);
  /** the settings were never set (the form opened by itself): the first Save brings the task box into view */
  const firstUse = useRef(false);
  const actions = useRef<HTMLDivElement>(null);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  // Bumped when the guards come fresh from storage, so the word boxes drop what was typed before.
  const [loaded, setLoaded] = useState(0);
  // The price table as typed (a row may be half filled); parsed into settings.prices on Save.
  const [priceRows, setPriceRows] = useState<PriceRow[]>(() => rowsOf(DEFAULT_SETTINGS.prices));
  const [presetId, setPresetId] = useState('');
  const [profile, setProfile] = useState('');
  const [profileName, setProfileName] = useState('');
  // The model whose input price gets the cursor once the price table is drawn.
  const [focusPrice, setFocusPrice] = useState<{ model: string } | null>(null);

  const problems = checkSettings(s, t);
  const prices = tableOf(priceRows);
  const dirty = ready && (prices.problem !== null || differsFromSaved(s, prices.table, saved));
  const problem = Object.values(problems)[0] ?? prices.problem;
  // Set at once by every edit (before the form is drawn again), cleared when stored settings are taken.
  const edited = useRef(false);

  /** Takes settings as stored into the form (at start, after Save, when unchanged and storage changes). */
  function take(v: Settings) {
    edited.current = false;
    setS(v);
    setSaved(v);
    setPriceRows(rowsOf(v.prices));
    setLoaded((n) => n + 1);
  }

  useEffect(() => {
    send('settings/get', {}).then(async (v) => {
      take(v);
      // Changes left unsaved when the panel was closed or reloaded come back, and say so.
      const kept = await draftStore()?.get(DRAFT_KEY).then((r) => r[DRAFT_KEY] as unknown, () => null);
      const draft = restoreDraft(kept, v, (rows) => tableOf(rows.map((r) => ({ ...r, key: 0 }))));
      if (draft) {
        edited.current = true;
        setS(draft.settings);
        setPriceRows(draft.rows.map((r) => ({ ...emptyRow(), ...r })));
        setStatus({ ok: true, text: () => t('settingsDraftKept') });
        setOpen(true);
      }
      setReady(true);
      if (!v.apiKey && v.baseUrl === DEFAULT_SETTINGS.baseUrl) {
        setOpen(true);
        firstUse.current = true;
      }
    }, (err) => {
      setReady(true);
      setOpen(true);
      setStatus({ ok: false, text: t('settingsLoadFailed', messageOf(err)) });
    });
    // The background changes some settings itself ("Always allow" in an approval, the step-approval
    // switch), and another panel may save any of them. An unchanged form shows them all; a changed
    // one keeps the person's edits and takes only those saved on their own.
    return onSettingsChange((fresh) => {
      if (!edited.current) {
        take(fresh);
        return;
      }
      setSaved(fresh);
      setS((cur) => ({ ...cur, approveSteps: fresh.approveSteps, profiles: fresh.profiles, language: fresh.language, guards: { ...cur.guards, allow: fresh.guards.allow } }));
    });
  }, []);

  useEffect(() => { onState?.({ loaded: ready, dirty, problem: ready ? problem : null }); }, [ready, dirty, problem]);

  // The unsaved form is kept as it changes (dropped once it matches storage), so closing the panel loses nothing.
  useEffect(() => {
    const store = ready ? draftStore() : null;
    if (!store) return;
    (dirty ? store.set({ [DRAFT_KEY]: draftOf(s, priceRows) }) : store.remove(DRAFT_KEY)).catch(() => { /* not kept: nothing else to do */ });
  }, [ready, dirty, s, priceRows]);

  useEffect(() => {
    if (!focusPrice) return;
    const row = [...document.querySelectorAll<HTMLElement>('[data-testid="price-row"]')].find((r) => r.dataset.model === focusPrice.model);
    const input = row?.querySelector<HTMLInputElement>('[data-testid="price-input"]');
    input?.scrollIntoView({ block: 'center' });
    input?.focus();
  }, [focusPrice]);

  /** Every change of a field: an old message no longer applies. */
  function change(next: Settings) {
    edited.current = true;
    setS(next);
    setStatus(null);
  }

  function set(key: keyof Settings, raw: string | boolean) {
    const cur = s[key];
    const value = typeof cur === 'number' ? Number(raw) : raw;
    change({ ...s, [key]: value });
  }

  function changeRows(rows: PriceRow[]) {
    edited.current = true;
    setPriceRows(rows);
    setStatus(null);
  }

  /** Stores what the form shows. */
  async function store(): Promise<void> {
    if (problem) throw new Error(problem);
    // The always-allowed sites and the profiles stay as stored (they are saved on their own).
    const { guards, ...part } = savablePart(s, prices.table);
    take(await send('settings/patch', { set: part, guardRules: guards.rules }));
  }

  async function save(e: Event) {
    e.preventDefault();
    try {
      await store();
      setStatus({ ok: true, text: () => t('settingsSaved') });
      // First use: the form filled the panel and pushed the task box far down. After the first
      // Save the panel scrolls to Save and Test connection, with "Saved." and the task box below
      // them (the form stays open: Test connection is the next thing a person does).
      if (firstUse.current) {
        firstUse.current = false;
        requestAnimationFrame(() => actions.current?.scrollIntoView({ block: 'start' }));
      }
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
    }
  }

  function discard() {
    take(saved);
    setStatus({ ok: true, text: () => t('settingsDiscarded') });
  }

  if (handle) {
    handle.current = {
      async commit() {
        if (!dirty) return;
        if (problem) throw new Error(t('settingsFixFirst', problem));
        try {
          await store();
        } catch (err) {
          throw new Error(t('settingsNotSaved', messageOf(err)));
        }
        setStatus({ ok: true, text: () => t('settingsSavedForRun') });
      },
      showPrices(model: string) {
        setOpen(true);
        setAdvancedOpen(true);
        if (!priceRows.some((r) => r.model.trim() === model)) changeRows([...priceRows, emptyRow(model)]);
        setFocusPrice({ model });
      },
    };
  }

  /** Removing an always-allowed rule is saved at once, whatever else is being edited. */
  async function removeAllow(host: string, id: GuardId) {
    try {
      const fresh = await send('settings/patch', { disallow: { host, rule: id } });
      setS((cur) => ({ ...cur, guards: { ...cur.guards, allow: fresh.guards.allow } }));
      setStatus({ ok: true, text: () => t('allowRemoved', host) });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
    }
  }

  /** The language applies at once and is saved on its own (like the step-approval switch). */
  async function chooseLanguage(language: LanguageSetting) {
    setS((cur) => ({ ...cur, language }));
    setSaved((cur) => ({ ...cur, language }));
    try {
      await send('settings/patch', { set: { language } });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
    }
  }

  /** A preset fills the endpoint fields (not the key); every field stays editable. */
  function choosePreset(id: string) {
    setPresetId(id);
    const p = presetById(id);
    change(p ? { ...s, ...p.fields } : s);
  }

  /** A saved profile fills the endpoint fields, the key included; Save (or Start) makes it the one in use. */
  function chooseProfile(name: string) {
    setProfile(name);
    const p = s.profiles[name];
    if (!p) return;
    setProfileName(name);
    change(withProfile(s, p));
    setStatus({ ok: true, text: () => t('profileLoaded', name) });
  }

  /** Saving or deleting a profile is stored at once (only the profiles: other edits wait for Save). */
  async function storeProfiles(profile: { name: string; endpoint: EndpointProfile | null }, done: string) {
    try {
      const fresh = await send('settings/patch', { profile });
      setS((cur) => ({ ...cur, profiles: fresh.profiles }));
      setStatus({ ok: true, text: done });
      return fresh;
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
      return null;
    }
  }

  async function saveProfile() {
    const name = profileName.trim();
    if (!name) return;
    const existed = name in s.profiles;
    const fresh = await storeProfiles({ name, endpoint: endpointOf(s) }, existed ? t('profileUpdated', name) : t('profileSaved', name));
    if (fresh) setProfile(name);
  }

  async function deleteProfile() {
    const name = shownProfile;
    if (!name) return;
    const fresh = await storeProfiles({ name, endpoint: null }, t('profileDeleted', name));
    if (fresh) setProfile('');
  }

  /** Tests what the form shows (saved or not). */
  async function test() {
    // a base URL the form already calls wrong is not sent: its own message says what to fix
    const bad = problems.baseUrl ?? problems.extraBody;
    if (bad) {
      setStatus({ ok: false, text: t('testBadUrl', bad) });
      return;
    }
    setStatus({ ok: true, text: t('testing') });
    try {
      const r = await send('model/test', { config: s });
      setStatus({ ok: true, text: r.message });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
    }
  }

  /** The coordinate check for what the form shows (saved or not). */
  async function checkCoordinates() {
    setCalibration(null);
    setChecking(true);
    setStatus({ ok: true, text: t('calibrating') });
    try {
      const r = await send('model/calibrate', { config: s });
      setCalibration(r);
      setStatus(null);
    } catch (err) {
      setStatus({ ok: false, text: t('calibrateFailed', messageOf(err)) });
    } finally {
      setChecking(false);
    }
  }
  /** Check coordinates and its result, under the dialect's option whose choices it tells apart. */
  function coordinateCheck(setting: string, current: string, nameOf: (choice: string) => string, apply: (choice: string) => void) {
    const r = calibration?.setting === setting ? calibration : null;
    return (
      <>
        <div class="row">
          <button type="button" data-testid="check-coordinates" disabled={checking} onClick={checkCoordinates} title={t('checkCoordsTitle')}>{t('checkCoords')}</button>
        </div>
        {r && (
          <p class={r.fits ? 'note' : 'error'} data-testid="calibration-result" data-fits={r.fits ?? ''} role="status">
            {r.fits ? t('calibrateFits', nameOf(r.fits)) : t('calibrateNone', r.reply || '—')}
            {r.fits && r.fits === current && <> {t('calibrateIsSet')}</>}
            {r.fits && r.fits !== current && (
              <> <button type="button" data-testid="apply-calibration" onClick={() => apply(r.fits!)}>{t('calibrateApply')}</button></>
            )}
          </p>
        )}
      </>
    );
  }


  /** A dialect brings the request options its model was tuned with; every field stays editable. */
  function chooseDialect(id: string) {
    const r = dialectOf(id).request;
    change({ ...s, dialect: id, temperature: r.temperature, maxTokens: r.maxTokens, extraBody: r.extraBody });
  }

  const field = (f: Field) => {
    const id = `setting-${f.key}`;
    const help = problems[f.key] ?? f.help;
    const bad = !!problems[f.key];
    const describe = { 'aria-describedby': `${id}-help`, 'aria-invalid': bad || undefined };
    if (f.type === 'checkbox') {
      return (
        <div class="field check-field" key={f.key}>
          <input type="checkbox" id={id} data-testid={id} checked={Boolean(s[f.key])} {...describe}
            onChange={(e) => set(f.key, (e.target as HTMLInputElement).checked)} />
          <label for={id}>{f.label}</label>
          <small id={`${id}-help`} class="help">{help}</small>
        </div>
      );
    }
    return (
      <div class="field" key={f.key}>
        <label for={id}>{f.label}</label>
        <input type={f.type} id={id} data-testid={id} value={String(s[f.key])} autocomplete="off" {...describe}
          step={FRACTIONAL.has(f.key) ? 'any' : undefined}
          onInput={(e) => set(f.key, (e.target as HTMLInputElement).value)} />
        <small id={`${id}-help`} class={bad ? 'help bad' : 'help'}>{help}</small>
      </div>
    );
  };

  // The profile the form holds: the one chosen while the form still holds it, else any it holds (none after an edit that departs from it).
  const chosen = s.profiles[profile];
  const shownProfile = chosen && holdsProfile(s, chosen) ? profile : (profileNames(s).find((n) => holdsProfile(s, s.profiles[n])) ?? '');
  const preset = presetById(presetId);
  const shownPreset = preset && holdsPreset(s, preset) ? preset : null;

  return (
    <details class="settings card" data-testid="settings" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        <span class="summary-title">{t('settingsTitle')}</span>
        {dirty && <span class="badge" data-testid="settings-unsaved">{t('unsavedChanges')}</span>}
        {!open && !dirty && ready && <span class="summary-hint">{s.model} · {hostOf(s.baseUrl)}</span>}
      </summary>
      <form onSubmit={save}>
        {/* Nothing can be typed before the stored settings are in: a late load would overwrite it. */}
        <fieldset class="plain" disabled={!ready}>
          <div class="field">
            <label for="setting-language">{t('language')}</label>
            <select id="setting-language" data-testid="setting-language" value={s.language} aria-describedby="setting-language-help"
              onChange={(e) => chooseLanguage((e.target as HTMLSelectElement).value as LanguageSetting)}>
              {LANGUAGES.map((l) => <option key={l.value} value={l.value}>{l.label()}</option>)}
            </select>
            <small id="setting-language-help" class="help">{t('languageHelp')}</small>
          </div>
          <fieldset class="endpoint" data-testid="endpoint">
            <legend>{t('endpoint')}</legend>
            <div class="field">
              <label for="preset">{t('preset')}</label>
              <select id="preset" data-testid="preset" value={shownPreset?.id ?? ''} aria-describedby="preset-note"
                onChange={(e) => choosePreset((e.target as HTMLSelectElement).value)}>
                <option value="">{t('presetChoose')}</option>
                {PRESETS.map((p) => <option key={p.id} value={p.id}>{t(p.nameKey)}</option>)}
              </select>
              <small id="preset-note" class="help" data-testid="preset-note">{shownPreset ? t(shownPreset.noteKey) : t('presetHelp')}</small>
            </div>
            <div class="field">
              <label for="profile-select">{t('savedProfiles')}</label>
              <select id="profile-select" data-testid="profile-select" value={shownProfile} onChange={(e) => chooseProfile((e.target as HTMLSelectElement).value)}>
                <option value="">{profileNames(s).length ? t('profileLoad') : t('profileNone')}</option>
                {profileNames(s).map((n) => <option key={n} value={n}>{n}</option>)}
              </select>
            </div>
            <div class="row">
              <input type="text" class="grow" data-testid="profile-name" placeholder={t('profileName')} aria-label={t('profileName')} value={profileName} autocomplete="off"
                onInput={(e) => setProfileName((e.target as HTMLInputElement).value)} />
              <button type="button" data-testid="save-profile" disabled={!profileName.trim()} onClick={saveProfile}
                title={t('profileSaveTitle')}>{t('profileSave')}</button>
              <button type="button" data-testid="delete-profile" disabled={!shownProfile} onClick={deleteProfile}>{t('profileDelete')}</button>
            </div>
          </fieldset>
          {mainFields().slice(0, 3).map(field)}
          <div class="field">
            <label for="setting-dialect">{t('dialect')}</label>
            <select id="setting-dialect" data-testid="setting-dialect" value={s.dialect} aria-describedby="dialect-note"
              onChange={(e) => chooseDialect((e.target as HTMLSelectElement).value)}>
              {Object.keys(DIALECTS).map((id) => <option key={id} value={id}>{id}</option>)}
            </select>
            <small id="dialect-note" class="help" data-testid="dialect-note">{problems.dialect ?? dialectNote(s.dialect)}</small>
          </div>
          {(dialectOf(s.dialect).options ?? []).map((o) => {
            const id = `setting-option-${o.name}`;
            const values = optionValues(dialectOf(s.dialect), s.dialectOptions[s.dialect]);
            const choose = (c: string) => change({ ...s, dialectOptions: { ...s.dialectOptions, [s.dialect]: { ...values, [o.name]: c } } });
            return (
              <div class="field" key={`${s.dialect}-${o.name}`} data-testid={`dialect-option-${o.name}`}>
                <label for={id}>{t(o.label)}</label>
                <select id={id} data-testid={id} value={values[o.name]} aria-describedby={`${id}-help`}
                  onChange={(e) => choose((e.target as HTMLSelectElement).value)}>
                  {o.choices.map((c) => <option key={c} value={c}>{t(o.choiceLabels[c] ?? c)}</option>)}
                </select>
                <small id={`${id}-help`} class="help">{t(o.help)}</small>
                {dialectOf(s.dialect).coordinateCheck?.option === o.name &&
                  coordinateCheck(o.name, values[o.name], (c) => t(o.choiceLabels[c] ?? c), choose)}
              </div>
            );
          })}
          {/* the grammars that open apps (Dialect.opensApps) */}
          {dialectOf(s.dialect).opensApps && (
            <div class="field">
              <label for="setting-apps">{t('apps')}</label>
              <textarea id="setting-apps" data-testid="setting-apps" rows={3} value={s.apps} placeholder={t('appsPlaceholder')}
                aria-describedby="setting-apps-help" aria-invalid={!!problems.apps || undefined}
                onInput={(e) => set('apps', (e.target as HTMLTextAreaElement).value)} />
              <small id="setting-apps-help" class={problems.apps ? 'help bad' : 'help'}>
                {problems.apps ?? t('appsHelp')}
              </small>
            </div>
          )}
          {mainFields().slice(3).map(field)}
          <details class="sub" data-testid="advanced-section" open={advancedOpen} onToggle={(e) => setAdvancedOpen((e.currentTarget as HTMLDetailsElement).open)}>
            <summary>{t('advanced')}</summary>
            {advancedFields(s).map(field)}
            <PriceTableForm rows={priceRows} onChange={changeRows} problem={prices.problem}
              currency={s.currency} currencyProblem={problems.currency} onCurrency={(code) => set('currency', code.toUpperCase())} />
          </details>
          <details class="sub" data-testid="secrets-section">
            <summary>{t('secrets')}</summary>
            <SecretsForm secrets={s.secrets} problem={problems.secrets} onChange={(secrets) => change({ ...s, secrets })} />
          </details>
          <details class="sub" data-testid="guards-section">
            <summary>{t('guards')}</summary>
            <GuardsForm key={loaded} guards={s.guards} onChange={(guards) => change({ ...s, guards })} onRemoveAllow={removeAllow} />
          </details>
          <StorageLine />
          <div class="row actions" ref={actions}>
            <button type="submit" class="tonal" data-testid="save-settings" disabled={!!problem} aria-describedby={problem ? 'save-blocked' : undefined}>{t('save')}</button>
            <button type="button" data-testid="test-connection" onClick={test} title={t('testConnectionTitle')}>{t('testConnection')}</button>
            {dirty && <button type="button" data-testid="discard-settings" onClick={discard}>{t('discardChanges')}</button>}
          </div>
          {problem && <p class="help bad" id="save-blocked" data-testid="save-blocked">{t('saveBlocked', problem)}</p>}
          {status && <p class={status.ok ? 'note' : 'error'} data-testid="settings-status" role="status">{typeof status.text === 'function' ? status.text() : status.text}</p>}
        </fieldset>
      </form>
    </details>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function profileNames(s: Settings): string[] {
  return Object.keys(s.profiles).sort((a, b) => a.localeCompare(b));
}
