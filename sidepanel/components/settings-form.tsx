import { useEffect, useState } from 'preact/hooks';
import { checkSettings, DEFAULT_SETTINGS, type Settings } from '../../src/core/settings';
import type { GuardId, GuardSettings } from '../../src/core/guards';
import { messageOf, onSettingsChange, send } from '../api';
import { GuardsForm } from './guards-form';

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
];

export function SettingsForm() {
  const [s, setS] = useState<Settings>(DEFAULT_SETTINGS);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [open, setOpen] = useState(false);
  // Bumped when the guards come fresh from storage, so the word boxes drop what was typed before.
  const [loaded, setLoaded] = useState(0);

  useEffect(() => {
    send('settings/get', {}).then((v) => {
      setS(v);
      setLoaded((n) => n + 1);
      if (!v.apiKey && v.baseUrl === DEFAULT_SETTINGS.baseUrl) setOpen(true);
    }, () => setOpen(true));
    // The background changes some settings itself ("Always allow" in an approval, the step-approval
    // switch): take those, keep the person's unsaved edits of the rest.
    return onSettingsChange((fresh) => setS((cur) => ({ ...cur, approveSteps: fresh.approveSteps, guards: { ...cur.guards, allow: fresh.guards.allow } })));
  }, []);

  const problems = checkSettings(s);

  function set(key: keyof Settings, raw: string | boolean) {
    const cur = s[key];
    const value = typeof cur === 'number' ? Number(raw) : raw;
    setS({ ...s, [key]: value });
  }

  async function save(e: Event) {
    e.preventDefault();
    try {
      // The step-approval switch saves itself (run/mode); the always-allowed sites are the stored ones.
      const { approveSteps: _a, guards, ...rest } = s;
      const stored = await send('settings/get', {});
      setS(await send('settings/set', { ...rest, guards: { rules: guards.rules, allow: stored.guards.allow } }));
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

  async function test() {
    setStatus({ ok: true, text: 'Testing…' });
    try {
      const r = await send('model/test', { config: s });
      setStatus({ ok: true, text: r.message });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
    }
  }

  const field = (f: Field) => (
    <label class={f.type === 'checkbox' ? 'check' : 'field'} key={f.key}>
      <span>{f.label}</span>
      {f.type === 'checkbox'
        ? <input type="checkbox" data-testid={`setting-${f.key}`} checked={Boolean(s[f.key])} onChange={(e) => set(f.key, (e.target as HTMLInputElement).checked)} />
        : <input type={f.type} data-testid={`setting-${f.key}`} value={String(s[f.key])} autocomplete="off"
            step={f.key === 'temperature' ? 'any' : undefined}
            onInput={(e) => set(f.key, (e.target as HTMLInputElement).value)} />}
      <small>{problems[f.key] ?? f.help}</small>
    </label>
  );

  return (
    <details class="settings" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>Settings</summary>
      <form onSubmit={save}>
        {MAIN.map(field)}
        <details>
          <summary>Advanced</summary>
          {ADVANCED.map(field)}
        </details>
        <details data-testid="guards-section">
          <summary>Guards</summary>
          <GuardsForm key={loaded} guards={s.guards} onChange={(guards) => setS({ ...s, guards })} onRemoveAllow={removeAllow} />
        </details>
        <div class="row">
          <button type="submit" data-testid="save-settings" disabled={Object.keys(problems).length > 0}>Save</button>
          <button type="button" data-testid="test-connection" onClick={test}>Test connection</button>
        </div>
        {status && <p class={status.ok ? 'note' : 'error'} data-testid="settings-status" role="status">{status.text}</p>}
      </form>
    </details>
  );
}
