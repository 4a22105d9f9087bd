/**
 * The settings: endpoint (presets, saved profiles), model, dialect, limits; Advanced (request
 * options, caps, prices) and Guards folded away. The form knows whether it shows something else
 * than what is stored: it says so, Save stores it, and Start saves it first (through the handle),
 * so a run always uses what the person sees. Any change clears an old message and a preset's hint
 * that no longer applies. Each field's help is its description, not part of its name.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MutableRef } from 'preact/hooks';
import { checkSettings, DEFAULT_SETTINGS, type EndpointProfile, type Settings } from '../../src/core/settings';
import type { GuardId, GuardSettings } from '../../src/core/guards';
import { PRESETS, presetById, type Preset } from '../../src/core/presets';
import { DIALECTS, dialectOf } from '../../src/core/dialects/registry';
import { messageOf, onSettingsChange, send } from '../api';
import { differsFromSaved, savablePart } from '../settings-draft';
import { GuardsForm } from './guards-form';
import { emptyRow, PriceTableForm, rowsOf, tableOf, type PriceRow } from './price-table';

type Field = { key: keyof Settings; label: string; help: string; type: 'text' | 'password' | 'number' | 'checkbox' };

const MAIN: Field[] = [
  { key: 'baseUrl', label: 'Base URL', help: 'OpenAI-compatible endpoint, usually ending in /v1', type: 'text' },
  { key: 'apiKey', label: 'API key', help: 'Sent only as "Authorization: Bearer …"; stored in this browser only', type: 'password' },
  { key: 'model', label: 'Model', help: 'The model name the server knows, e.g. glm-4.5v', type: 'text' },
  { key: 'maxSteps', label: 'Max steps', help: 'The run stops after this many actions', type: 'number' },
  { key: 'searchStartPage', label: 'Search start page', help: 'Where the "Bing" action goes', type: 'text' },
];
const ADVANCED: Field[] = [
  { key: 'temperature', label: 'Temperature', help: '0.001 as in the GLM-4.5V reference client', type: 'number' },
  { key: 'maxTokens', label: 'Max tokens', help: 'Longest reply the model may write', type: 'number' },
  { key: 'stream', label: 'Stream replies', help: 'Server-sent events', type: 'checkbox' },
  { key: 'extraBody', label: 'Extra request fields (JSON)', help: '{"skip_special_tokens": false} for vLLM/SGLang; empty for strict servers', type: 'text' },
  { key: 'requestTimeoutSec', label: 'Request timeout (s)', help: 'A model request slower than this is abandoned (and retried)', type: 'number' },
  { key: 'maxRetries', label: 'Retries', help: 'After HTTP 429, a 5xx, a network error or a timeout, with growing waits', type: 'number' },
  { key: 'maxRunTokens', label: 'Token cap per run', help: 'The run stops past this many tokens (prompt + completion); 0 = none', type: 'number' },
  { key: 'maxRunCost', label: 'Cost cap per run', help: 'The run stops past this cost (prices below); 0 = none', type: 'number' },
];

/** What each dialect is for, in the person's words (one line each; the model never reads these). */
export const DIALECT_NOTES: Record<string, string> = {
  'glm-web': 'Web pages with numbered labels: the model picks a label (GLM-4.5V web format). The default.',
  'glm-pc': 'Desktop-style: the model clicks, drags and types at points of the screenshot (GLM-4.5V computer format).',
  'glm-mobile': 'Phone-style: the tab is shown as a phone and the model taps and swipes at points (GLM-4.5V mobile format).',
};

const PRESET_HELP = 'Fills base URL, model and request options (not the key); every field stays editable.';

/** Number fields that take fractions. */
const FRACTIONAL = new Set<keyof Settings>(['temperature', 'requestTimeoutSec', 'maxRunCost']);

/** The endpoint fields a profile keeps (the key included). */
function endpointOf(s: Settings): EndpointProfile {
  return { baseUrl: s.baseUrl, apiKey: s.apiKey, model: s.model, dialect: s.dialect, temperature: s.temperature, maxTokens: s.maxTokens, stream: s.stream, extraBody: s.extraBody };
}

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
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [open, setOpen] = useState(false);
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

  const problems = checkSettings(s);
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
    send('settings/get', {}).then((v) => {
      take(v);
      setReady(true);
      if (!v.apiKey && v.baseUrl === DEFAULT_SETTINGS.baseUrl) setOpen(true);
    }, (err) => {
      setReady(true);
      setOpen(true);
      setStatus({ ok: false, text: `The settings could not be loaded: ${messageOf(err)}` });
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
      setS((cur) => ({ ...cur, approveSteps: fresh.approveSteps, profiles: fresh.profiles, guards: { ...cur.guards, allow: fresh.guards.allow } }));
    });
  }, []);

  useEffect(() => { onState?.({ loaded: ready, dirty, problem: ready ? problem : null }); }, [ready, dirty, problem]);

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
    // The always-allowed sites and the profiles are the stored ones (they are saved on their own).
    const stored = await send('settings/get', {});
    const part = savablePart(s, prices.table);
    const fresh = await send('settings/set', { ...part, guards: { rules: part.guards.rules, allow: stored.guards.allow } });
    take(fresh);
  }

  async function save(e: Event) {
    e.preventDefault();
    try {
      await store();
      setStatus({ ok: true, text: 'Saved.' });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
    }
  }

  function discard() {
    take(saved);
    setStatus({ ok: true, text: 'Changes discarded: the form shows the saved settings.' });
  }

  if (handle) {
    handle.current = {
      async commit() {
        if (!dirty) return;
        if (problem) throw new Error(`Fix the settings first: ${problem}`);
        try {
          await store();
        } catch (err) {
          throw new Error(`Your changed settings could not be saved, so the run did not start: ${messageOf(err)}`);
        }
        setStatus({ ok: true, text: 'Saved: the run uses these settings.' });
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
      const stored = await send('settings/get', {});
      const left = (stored.guards.allow[host] ?? []).filter((x) => x !== id);
      const allow: GuardSettings['allow'] = { ...stored.guards.allow, [host]: left };
      if (!left.length) delete allow[host];
      const fresh = await send('settings/set', { guards: { rules: stored.guards.rules, allow } });
      setS((cur) => ({ ...cur, guards: { ...cur.guards, allow: fresh.guards.allow } }));
      setStatus({ ok: true, text: `${host} no longer always allows that.` });
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
    change({ ...s, ...p });
    setStatus({ ok: true, text: `Loaded the profile "${name}". Save, or Start, uses it.` });
  }

  /** Saving or deleting a profile is stored at once (only the profiles: other edits wait for Save). */
  async function storeProfiles(edit: (profiles: Settings['profiles']) => Settings['profiles'], done: string) {
    try {
      const stored = await send('settings/get', {});
      const fresh = await send('settings/set', { profiles: edit({ ...stored.profiles }) });
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
    const fresh = await storeProfiles((p) => ({ ...p, [name]: endpointOf(s) }), existed ? `Updated the profile "${name}".` : `Saved the profile "${name}".`);
    if (fresh) setProfile(name);
  }

  async function deleteProfile() {
    const name = profile;
    if (!name) return;
    const fresh = await storeProfiles((p) => { delete p[name]; return p; }, `Deleted the profile "${name}".`);
    if (fresh) setProfile('');
  }

  /** Tests what the form shows (saved or not). */
  async function test() {
    setStatus({ ok: true, text: 'Testing…' });
    try {
      const r = await send('model/test', { config: s });
      setStatus({ ok: true, text: r.message });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
    }
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

  const preset = presetById(presetId);
  const shownPreset = preset && holdsPreset(s, preset) ? preset : null;

  return (
    <details class="settings card" data-testid="settings" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        <span class="summary-title">Settings</span>
        {dirty && <span class="badge" data-testid="settings-unsaved">Unsaved changes</span>}
        {!open && !dirty && ready && <span class="summary-hint">{s.model} · {hostOf(s.baseUrl)}</span>}
      </summary>
      <form onSubmit={save}>
        {/* Nothing can be typed before the stored settings are in: a late load would overwrite it. */}
        <fieldset class="plain" disabled={!ready}>
          <fieldset class="endpoint" data-testid="endpoint">
            <legend>Endpoint</legend>
            <div class="field">
              <label for="preset">Preset</label>
              <select id="preset" data-testid="preset" value={shownPreset?.id ?? ''} aria-describedby="preset-note"
                onChange={(e) => choosePreset((e.target as HTMLSelectElement).value)}>
                <option value="">Choose a preset to fill the fields…</option>
                {PRESETS.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
              </select>
              <small id="preset-note" class="help" data-testid="preset-note">{shownPreset?.note ?? PRESET_HELP}</small>
            </div>
            <div class="field">
              <label for="profile-select">Saved profiles</label>
              <select id="profile-select" data-testid="profile-select" value={profile} onChange={(e) => chooseProfile((e.target as HTMLSelectElement).value)}>
                <option value="">{profileNames(s).length ? 'Load a saved profile…' : 'No saved profiles yet'}</option>
                {profileNames(s).map((n) => <option key={n} value={n}>{n}</option>)}
              </select>
            </div>
            <div class="row">
              <input type="text" class="grow" data-testid="profile-name" placeholder="Profile name" aria-label="Profile name" value={profileName} autocomplete="off"
                onInput={(e) => setProfileName((e.target as HTMLInputElement).value)} />
              <button type="button" data-testid="save-profile" disabled={!profileName.trim()} onClick={saveProfile}
                title="Store base URL, key, model and request options under this name">Save as profile</button>
              <button type="button" data-testid="delete-profile" disabled={!profile} onClick={deleteProfile}>Delete profile</button>
            </div>
          </fieldset>
          {MAIN.slice(0, 3).map(field)}
          <div class="field">
            <label for="setting-dialect">Dialect</label>
            <select id="setting-dialect" data-testid="setting-dialect" value={s.dialect} aria-describedby="dialect-note"
              onChange={(e) => chooseDialect((e.target as HTMLSelectElement).value)}>
              {Object.keys(DIALECTS).map((id) => <option key={id} value={id}>{id}</option>)}
            </select>
            <small id="dialect-note" class="help" data-testid="dialect-note">{problems.dialect ?? DIALECT_NOTES[s.dialect] ?? ''}</small>
          </div>
          {dialectOf(s.dialect).observes.device === 'phone' && (
            <div class="field">
              <label for="setting-apps">Apps</label>
              <textarea id="setting-apps" data-testid="setting-apps" rows={3} value={s.apps} placeholder={'Shop = https://shop.example/\nMail = https://mail.example/'}
                aria-describedby="setting-apps-help" aria-invalid={!!problems.apps || undefined}
                onInput={(e) => set('apps', (e.target as HTMLTextAreaElement).value)} />
              <small id="setting-apps-help" class={problems.apps ? 'help bad' : 'help'}>
                {problems.apps ?? 'Sites the model may open as apps, one "Name = https://address" a line; they count as the task\'s own sites.'}
              </small>
            </div>
          )}
          {MAIN.slice(3).map(field)}
          <details class="sub" data-testid="advanced-section" open={advancedOpen} onToggle={(e) => setAdvancedOpen((e.currentTarget as HTMLDetailsElement).open)}>
            <summary>Advanced</summary>
            {ADVANCED.map(field)}
            <PriceTableForm rows={priceRows} onChange={changeRows} problem={prices.problem} />
          </details>
          <details class="sub" data-testid="guards-section">
            <summary>Guards</summary>
            <GuardsForm key={loaded} guards={s.guards} onChange={(guards) => change({ ...s, guards })} onRemoveAllow={removeAllow} />
          </details>
          <div class="row actions">
            <button type="submit" class="tonal" data-testid="save-settings" disabled={Object.keys(problems).length > 0 || !!prices.problem}>Save</button>
            <button type="button" data-testid="test-connection" onClick={test} title="Asks the endpoint in the form (saved or not) for one short answer about an image">Test connection</button>
            {dirty && <button type="button" data-testid="discard-settings" onClick={discard}>Discard changes</button>}
          </div>
          {status && <p class={status.ok ? 'note' : 'error'} data-testid="settings-status" role="status">{status.text}</p>}
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
