import { useEffect, useState } from 'preact/hooks';
import type { RunView } from '../../src/core/messages';
import { onRunUpdate, send, targetTab } from '../api';
import { SettingsForm } from './settings-form';
import { RunPanel } from './run-panel';

export function App() {
  const [run, setRun] = useState<RunView | null>(null);
  const [task, setTask] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const off = onRunUpdate((r) => setRun((cur) => (!cur || cur.id === r.id || r.status === 'running' ? r : cur)));
    send('run/get', {}).then((r) => r && setRun((cur) => cur ?? r), () => undefined);
    return off;
  }, []);

  const running = run?.status === 'running';

  async function start(e: Event) {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const tab = await targetTab();
      if (!tab?.id) throw new Error('Open the web page you want the agent to work on in this window, then press Start.');
      const { runId } = await send('run/start', { task, tabId: tab.id });
      setRun(await send('run/get', { runId }));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function stop() {
    try {
      await send('run/stop', { runId: run?.id });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <main>
      <h1>Web Agent</h1>
      <SettingsForm />
      <form class="task" onSubmit={start}>
        <label for="task">Task</label>
        <textarea id="task" data-testid="task" rows={3} value={task} placeholder="e.g. Find the price of the cheapest red t-shirt on this site"
          onInput={(e) => setTask((e.target as HTMLTextAreaElement).value)} />
        <div class="row">
          <button type="submit" data-testid="start" disabled={busy || running || !task.trim()}>Start</button>
          <button type="button" data-testid="stop" disabled={!running} onClick={stop}>Stop</button>
        </div>
      </form>
      {error && <p class="error" role="alert" data-testid="start-error">{error}</p>}
      {run && <RunPanel run={run} />}
    </main>
  );
}
