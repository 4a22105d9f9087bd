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
  const [labelInfo, setLabelInfo] = useState<string | null>(null);

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

  /** Label the target tab now, without running anything: see what the model would see. */
  async function showLabels(show: boolean) {
    setError(null);
    try {
      const tab = await targetTab();
      if (!tab?.id) throw new Error('Open a web page in this window first.');
      if (show) {
        const snap = await send('marks/label', { tabId: tab.id });
        setLabelInfo(`${snap.marks.length} elements labelled on ${snap.title || snap.url}.`);
      } else {
        await send('marks/clear', { tabId: tab.id });
        setLabelInfo(null);
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
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
          <button type="button" data-testid="show-labels" disabled={running} onClick={() => showLabels(true)} title="Label the page now, as the model would see it">Show labels</button>
          <button type="button" data-testid="clear-labels" disabled={running} onClick={() => showLabels(false)}>Clear labels</button>
        </div>
        {labelInfo && <p class="note" data-testid="label-info">{labelInfo}</p>}
      </form>
      {error && <p class="error" role="alert" data-testid="start-error">{error}</p>}
      {run && <RunPanel run={run} />}
    </main>
  );
}
