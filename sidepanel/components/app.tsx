import { useEffect, useRef, useState } from 'preact/hooks';
import type { RunView } from '../../src/core/messages';
import { keepConnected, messageOf, onSettingsChange, onRunUpdate, send, targetTab, type Command } from '../api';
import { SettingsForm } from './settings-form';
import { RunPanel } from './run-panel';
import { RunControls } from './run-controls';
import { HistoryView } from './history-view';
import { Attachments } from './attachments';

/** Runs a command for the person; its error goes to the panel's error line. Resolves true when it worked. */

export function App() {
  const [run, setRun] = useState<RunView | null>(null);
  const [task, setTask] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [labelInfo, setLabelInfo] = useState<string | null>(null);
  const [approveSteps, setApproveSteps] = useState(false);
  const [view, setView] = useState<'run' | 'history'>('run');
  // Bumped by each click on the History tab: it goes back to the list from a run's detail.
  const [historyHome, setHistoryHome] = useState(0);
  const runId = useRef<string | undefined>(undefined);
  runId.current = run?.id;

  // Counts run updates, so a fetched view can tell whether an update came while it was on its way.
  const updates = useRef(0);

  /**
   * Fetches the run (at start, after starting one, after the worker restarted). A reply and an update
   * travel separately and may arrive out of order: when an update came in meanwhile, the reply may be
   * the older of the two and is dropped; every change is broadcast, so nothing newer is lost.
   */
  async function fetchRun(id?: string): Promise<void> {
    const seen = updates.current;
    const r = await send('run/get', { runId: id });
    if (r && updates.current === seen) setRun(r);
  }

  useEffect(() => {
    const off = onRunUpdate((r) => {
      updates.current++;
      setRun((cur) => (!cur || cur.id === r.id || r.status === 'running' ? r : cur));
    });
    fetchRun().catch(() => undefined);
    send('settings/get', {}).then((s) => setApproveSteps(s.approveSteps), () => undefined);
    const offSettings = onSettingsChange((s) => setApproveSteps(s.approveSteps));
    // After a worker restart the updates sent while it was gone are lost: fetch the run again.
    const disconnect = keepConnected(() => { fetchRun(runId.current).catch(() => undefined); });
    return () => { off(); offSettings(); disconnect(); };
  }, []);

  const running = run?.status === 'running';

  const command: Command = async (fn) => {
    setError(null);
    try {
      await fn();
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    }
  };

  async function start(e: Event) {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const tab = await targetTab();
      if (!tab?.id) throw new Error('Open the web page you want the agent to work on in this window, then press Start.');
      const { runId } = await send('run/start', { task, tabId: tab.id });
      await fetchRun(runId);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  /** Label the target tab now, without running anything: see what the model would see. */
  async function showLabels(show: boolean) {
    await command(async () => {
      const tab = await targetTab();
      if (!tab?.id) throw new Error('Open a web page in this window first.');
      if (show) {
        const snap = await send('marks/label', { tabId: tab.id });
        setLabelInfo(`${snap.marks.length} elements labelled on ${snap.title || snap.url}.`);
      } else {
        await send('marks/clear', { tabId: tab.id });
        setLabelInfo(null);
      }
    });
  }

  /** The switch is a setting (remembered) and applies to the live run at once. */
  async function switchMode(on: boolean) {
    setApproveSteps(on);
    const ok = await command(() => send('run/mode', { runId: running ? run.id : undefined, approveSteps: on }));
    if (!ok) setApproveSteps(!on);
  }

  /** Re-run from the history: the new run is shown in the Run view. */
  function started(id: string) {
    setError(null);
    setView('run');
    fetchRun(id).catch(() => undefined);
  }

  const waiting = running && run.pending?.phase === 'approve';
  const nav = (
    <nav class="views" role="tablist">
      <button type="button" role="tab" data-testid="view-run" aria-selected={view === 'run'} class={view === 'run' ? 'on' : ''} onClick={() => setView('run')}>
        Run{running && <span class={waiting ? 'dot wait' : 'dot'} data-testid="run-indicator" title={waiting ? 'waiting for your approval' : 'running'} />}
      </button>
      <button type="button" role="tab" data-testid="view-history" aria-selected={view === 'history'} class={view === 'history' ? 'on' : ''} onClick={() => { setView('history'); setHistoryHome((n) => n + 1); }}>History</button>
    </nav>
  );

  if (view === 'history') {
    return (
      <main>
        <h1>Web Agent</h1>
        {nav}
        <HistoryView onStarted={started} home={historyHome} />
      </main>
    );
  }

  return (
    <main>
      <h1>Web Agent</h1>
      {nav}
      <SettingsForm />
      <form class="task" onSubmit={start}>
        <label for="task">Task</label>
        <textarea id="task" data-testid="task" rows={3} value={task} placeholder="e.g. Find the price of the cheapest red t-shirt on this site"
          onInput={(e) => setTask((e.target as HTMLTextAreaElement).value)} />
        <label class="check" title="Before each action, show it here and wait for Approve, Edit or Reject">
          <input type="checkbox" data-testid="approve-steps" checked={approveSteps} onChange={(e) => switchMode((e.target as HTMLInputElement).checked)} />
          Approve each step
        </label>
        <Attachments />
        <div class="row">
          <button type="submit" data-testid="start" disabled={busy || running || !task.trim()}>Start</button>
          <button type="button" data-testid="stop" disabled={!running} onClick={() => command(() => send('run/stop', { runId: run?.id }))}>Stop</button>
          <button type="button" data-testid="show-labels" disabled={running} onClick={() => showLabels(true)} title="Label the page now, as the model would see it">Show labels</button>
          <button type="button" data-testid="clear-labels" disabled={running} onClick={() => showLabels(false)}>Clear labels</button>
        </div>
        {labelInfo && <p class="note" data-testid="label-info">{labelInfo}</p>}
      </form>
      {run && running && <RunControls run={run} command={command} />}
      {error && <p class="error" role="alert" data-testid="start-error">{error}</p>}
      {run && <RunPanel run={run} command={command} />}
    </main>
  );
}
