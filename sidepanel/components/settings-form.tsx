import { useEffect, useState } from 'preact/hooks';
import { checkSettings, DEFAULT_SETTINGS, type EndpointProfile, type Settings } from '../../src/core/settings';
import type { GuardId, GuardSettings } from '../../src/core/guards';
import { PRESETS, presetById } from '../../src/core/presets';
import { DIALECTS, dialectOf } from '../../src/core/dialects/registry';
import { messageOf, onSettingsChange, send } from '../api';
import { GuardsForm } from './guards-form';
import { PriceTableForm, rowsOf, tableOf, type PriceRow } from './price-table';

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

/** Number fields that take fractions. */
const FRACTIONAL = new Set<keyof Settings>(['temperature', 'requestTimeoutSec', 'maxRunCost']);

/** The endpoint fields a profile keeps (the key included). */
function endpointOf(s: Settings): EndpointProfile {
  return { baseUrl: s.baseUrl, apiKey: s.apiKey, model: s.model, dialect: s.dialect, temperature: s.temperature, maxTokens: s.maxTokens, stream: s.stream, extraBody: s.extraBody };
}

export function SettingsForm() {
  const [s, setS] = useState<Settings>(DEFAULT_SETTINGS);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [open, setOpen] = useState(false);
  // Bumped when the guards come fresh from storage, so the word boxes drop what was typed before.
  const [loaded, setLoaded] = useState(0);
  // The price table as typed (a row may be half filled); parsed into settings.prices on Save.
  const [priceRows, setPriceRows] = useState<PriceRow[]>(() => rowsOf(DEFAULT_SETTINGS.prices));
  const [presetId, setPresetId] = useState('');
  const [profile, setProfile] = useState('');
  const [profileName, setProfileName] = useState('');

  useEffect(() => {
    send('settings/get', {}).then((v) => {
      setS(v);
      setPriceRows(rowsOf(v.prices));
      setLoaded((n) => n + 1);
      if (!v.apiKey && v.baseUrl === DEFAULT_SETTINGS.baseUrl) setOpen(true);
    }, () => setOpen(true));
    // The background changes some settings itself ("Always allow" in an approval, the step-approval
    // switch), and another panel may save profiles: take those, keep the person's unsaved edits of the rest.
    return onSettingsChange((fresh) => setS((cur) => ({ ...cur, approveSteps: fresh.approveSteps, profiles: fresh.profiles, guards: { ...cur.guards, allow: fresh.guards.allow } })));
  }, []);

  const problems = checkSettings(s);
  const prices = tableOf(priceRows);

  function set(key: keyof Settings, raw: string | boolean) {
    const cur = s[key];
    const value = typeof cur === 'number' ? Number(raw) : raw;
    setS({ ...s, [key]: value });
  }

  async function save(e: Event) {
    e.preventDefault();
    try {
      // The step-approval switch saves itself (run/mode); the always-allowed sites are the stored ones.
      // Profiles are saved by their own buttons: the stored ones are kept.
      const { approveSteps: _a, guards, profiles: _p, prices: _t, ...rest } = s;
      if (prices.problem) throw new Error(prices.problem);
      const stored = await send('settings/get', {});
      const saved = await send('settings/set', { ...rest, prices: prices.table, guards: { rules: guards.rules, allow: stored.guards.allow } });
      setS(saved);
      setPriceRows(rowsOf(saved.prices));
      setLoaded((n) => n + 1);
      setStatus({ ok: true, text: 'Saved.' });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
    }
  }

  /** Removing an always-allowed rule is saved at once, whatever else is being edited. */
  async function removeAllow(host: string, id: GuardId) {
    try {
      const stored = await send('settings/get', {});
      const left = (stored.guards.allow[host] ?? []).filter((x) => x !== id);
      const allow: GuardSettings['allow'] = { ...stored.guards.allow, [host]: left };
      if (!left.length) delete allow[host];
      const saved = await send('settings/set', { guards: { rules: stored.guards.rules, allow } });
      setS((cur) => ({ ...cur, guards: { ...cur.guards, allow: saved.guards.allow } }));
      setStatus({ ok: true, text: `${host} no longer always allows that.` });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
    }
  }

  /** A preset fills the endpoint fields (not the key); every field stays editable. */
  function choosePreset(id: string) {
    setPresetId(id);
    const p = presetById(id);
    if (p) setS({ ...s, ...p.fields });
  }

  /** A saved profile fills the endpoint fields, the key included; Save makes it the one in use. */
  function chooseProfile(name: string) {
    setProfile(name);
    const p = s.profiles[name];
    if (!p) return;
    setProfileName(name);
    setS({ ...s, ...p });
    setStatus({ ok: true, text: `Loaded the profile "${name}"; press Save to use it.` });
  }

  /** Saving or deleting a profile is stored at once (only the profiles: other edits wait for Save). */
  async function storeProfiles(change: (profiles: Settings['profiles']) => Settings['profiles'], done: string) {
    try {
      const stored = await send('settings/get', {});
      const saved = await send('settings/set', { profiles: change({ ...stored.profiles }) });
      setS((cur) => ({ ...cur, profiles: saved.profiles }));
      setStatus({ ok: true, text: done });
      return saved;
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
      return null;
    }
  }

  async function saveProfile() {
    const name = profileName.trim();
    if (!name) return;
    const existed = name in s.profiles;
    const saved = await storeProfiles((p) => ({ ...p, [name]: endpointOf(s) }), existed ? `Updated the profile "${name}".` : `Saved the profile "${name}".`);
    if (saved) setProfile(name);
  }

  async function deleteProfile() {
    const name = profile;
    if (!name) return;
    const saved = await storeProfiles((p) => { delete p[name]; return p; }, `Deleted the profile "${name}".`);
    if (saved) setProfile('');
  }

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
    setS({ ...s, dialect: id, temperature: r.temperature, maxTokens: r.maxTokens, extraBody: r.extraBody });
  }

  const field = (f: Field) => (
    <label class={f.type === 'checkbox' ? 'check' : 'field'} key={f.key}>
      <span>{f.label}</span>
      {f.type === 'checkbox'
        ? <input type="checkbox" data-testid={`setting-${f.key}`} checked={Boolean(s[f.key])} onChange={(e) => set(f.key, (e.target as HTMLInputElement).checked)} />
        : <input type={f.type} data-testid={`setting-${f.key}`} value={String(s[f.key])} autocomplete="off"
            step={FRACTIONAL.has(f.key) ? 'any' : undefined}
            onInput={(e) => set(f.key, (e.target as HTMLInputElement).value)} />}
      <small>{problems[f.key] ?? f.help}</small>
    </label>
  );

  return (
    <details class="settings" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>Settings</summary>
      <form onSubmit={save}>
        <fieldset class="endpoint" data-testid="endpoint">
          <legend>Endpoint</legend>
          <label class="field">
            <span>Preset</span>
            <select data-testid="preset" value={presetId} onChange={(e) => choosePreset((e.target as HTMLSelectElement).value)}>
              <option value="">Choose a preset to fill the fields…</option>
              {PRESETS.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
            </select>
            <small data-testid="preset-note">{presetById(presetId)?.note ?? 'Fills base URL, model and request options (not the key); every field stays editable.'}</small>
          </label>
          <label class="field">
            <span>Saved profiles</span>
            <select data-testid="profile-select" value={profile} onChange={(e) => chooseProfile((e.target as HTMLSelectElement).value)}>
              <option value="">{profileNames(s).length ? 'Load a saved profile…' : 'No saved profiles yet'}</option>
              {profileNames(s).map((n) => <option key={n} value={n}>{n}</option>)}
            </select>
          </label>
          <div class="row">
            <input type="text" class="grow" data-testid="profile-name" placeholder="Profile name" value={profileName} autocomplete="off"
              onInput={(e) => setProfileName((e.target as HTMLInputElement).value)} />
            <button type="button" data-testid="save-profile" disabled={!profileName.trim()} onClick={saveProfile}
              title="Store base URL, key, model and request options under this name">Save as profile</button>
            <button type="button" data-testid="delete-profile" disabled={!profile} onClick={deleteProfile}>Delete profile</button>
          </div>
        </fieldset>
        {MAIN.slice(0, 3).map(field)}
        <label class="field">
          <span>Dialect</span>
          <select data-testid="setting-dialect" value={s.dialect} onChange={(e) => chooseDialect((e.target as HTMLSelectElement).value)}>
            {Object.keys(DIALECTS).map((id) => <option key={id} value={id}>{id}</option>)}
          </select>
          <small data-testid="dialect-note">{problems.dialect ?? DIALECT_NOTES[s.dialect] ?? ''}</small>
        </label>
        {dialectOf(s.dialect).observes.device === 'phone' && (
          <label class="field">
            <span>Apps</span>
            <textarea data-testid="setting-apps" rows={3} value={s.apps} placeholder={'Shop = https://shop.example/\nMail = https://mail.example/'}
              onInput={(e) => set('apps', (e.target as HTMLTextAreaElement).value)} />
            <small>{problems.apps ?? 'Sites the model may open as apps, one "Name = https://address" a line; they count as the task\'s own sites.'}</small>
          </label>
        )}
        {MAIN.slice(3).map(field)}
        <details data-testid="advanced-section">
          <summary>Advanced</summary>
          {ADVANCED.map(field)}
          <PriceTableForm rows={priceRows} onChange={setPriceRows} problem={prices.problem} />
        </details>
        <details data-testid="guards-section">
          <summary>Guards</summary>
          <GuardsForm key={loaded} guards={s.guards} onChange={(guards) => setS({ ...s, guards })} onRemoveAllow={removeAllow} />
        </details>
        <div class="row">
          <button type="submit" data-testid="save-settings" disabled={Object.keys(problems).length > 0 || !!prices.problem}>Save</button>
          <button type="button" data-testid="test-connection" onClick={test}>Test connection</button>
        </div>
        {status && <p class={status.ok ? 'note' : 'error'} data-testid="settings-status" role="status">{status.text}</p>}
      </form>
    </details>
  );
}

function profileNames(s: Settings): string[] {
  return Object.keys(s.profiles).sort((a, b) => a.localeCompare(b));
}
