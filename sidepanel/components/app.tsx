import { WatchedTabs } from './watched-tabs';
import { StoreNotice } from './store-notice';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { RunView } from '../../src/core/messages';
import { fetchRunView, keepConnected, messageOf, onSettingsChange, onRunView, send, targetTab } from '../api';
import { dotState } from '../status';
import { useCommand } from '../use-command';
import { SettingsForm, type SettingsHandle, type FormState } from './settings-form';
import { Dot, RunPanel } from './run-panel';
import { HistoryView } from './history-view';
import { DocsView } from './docs-view';
import { Attachments } from './attachments';
import { SavedTasks } from './saved-tasks';
import { allowedOf, choiceOf, SitesField, type SitesChoice } from './sites';
import { t } from '../i18n';
import { dialectOf, isDialect } from '../../src/core/dialects/registry';
import { useLanguage } from '../use-language';
import { schemaOf } from '../answer-schema';

/** ⌘ on a Mac, Ctrl elsewhere: how the panel writes the Start shortcut. */
const MOD = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';

export function App() {
  // Re-renders the whole panel when the person picks another language.
  useLanguage();
  const [run, setRun] = useState<RunView | null>(null);
  const [task, setTask] = useState('');
  // an optional JSON Schema the answer must match (docs/answer-schema.md), as typed
  const [schemaText, setSchemaText] = useState('');
  // where the run may act besides its start site (docs/allowed-sites.md)
  const [sites, setSites] = useState<SitesChoice>({ mode: 'start', list: '' });
  const [startError, setStartError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [labelInfo, setLabelInfo] = useState<string | null>(null);
  const [approveSteps, setApproveSteps] = useState(false);
  /** the step-approval switch's last change, until stored (Start waits for it) */
  const modeSaved = useRef<Promise<void>>(Promise.resolve());
  // a dialect that learns a site's controls (AppAgent) may explore instead of doing the task
  const [dialect, setDialect] = useState('');
  const [explore, setExplore] = useState(false);
  const canExplore = isDialect(dialect) && !!dialectOf(dialect).observes.docs;
  // recording a demonstration in this tab: its id and the actions so far; then what was written
  const [demo, setDemo] = useState<{ tabId: number; actions: number; ready: boolean } | null>(null);
  const [demoNote, setDemoNote] = useState<string | null>(null);
  useEffect(() => {
    if (!demo) return;
    const timer = setInterval(() => {
      send('demo/state', { tabId: demo.tabId }).then((s) => setDemo((d) => (d && s.recording ? { ...d, actions: s.actions, ready: s.ready } : d)), () => undefined);
    }, 700);
    return () => clearInterval(timer);
  }, [demo?.tabId]);
  const [view, setView] = useState<'run' | 'history' | 'docs'>('run');
  // Bumped by each click on the History tab: it goes back to the list from a run's detail.
  const [historyHome, setHistoryHome] = useState(0);
  // Bumped by each click on the Site notes tab: the notes are read again (a run may have written some).
  const [docsHome, setDocsHome] = useState(0);
  const settings = useRef<SettingsHandle | null>(null);
  const [form, setForm] = useState<FormState>({ loaded: false, dirty: false, problem: null });
  const labels = useCommand();
  const runId = useRef<string | undefined>(undefined);
  runId.current = run?.id;

  // The view shown, as the update listener reads it (merging a broadcast onto it).
  const shown = useRef<RunView | null>(null);
  const show = (r: RunView) => { shown.current = r; setRun(r); };

  /**
   * Fetches the run (at start, after starting one, after the worker restarted). A reply and an update
   * travel separately and may arrive out of order: the older of the two (by rev) is dropped.
   */
  async function fetchRun(id?: string): Promise<void> {
    const r = await fetchRunView(() => shown.current, id);
    if (r) show(r);
  }

  useEffect(() => {
    // Another run's updates replace the one shown only while it is running.
    const off = onRunView(() => shown.current, show, (r) => !shown.current || shown.current.id === r.id || r.status === 'running');
    fetchRun().catch(() => undefined);
    send('settings/get', {}).then((s) => { setApproveSteps(s.approveSteps); setDialect(s.dialect); }, () => undefined);
    const offSettings = onSettingsChange((s) => { setApproveSteps(s.approveSteps); setDialect(s.dialect); });
    // After a worker restart the updates sent while it was gone are lost: fetch the run again.
    const disconnect = keepConnected(() => { fetchRun(runId.current).catch(() => undefined); });
    return () => { off(); offSettings(); disconnect(); };
  }, []);

  const running = run?.status === 'running';

  /**
   * Start runs with what the person sees: unsaved settings in the form are saved first (the form
   * says so), so Test connection and Start never disagree. A form with a problem blocks Start.
   */
  async function start(e?: Event) {
    e?.preventDefault();
    if (busy || running || !task.trim() || form.problem || !form.loaded || demo) return;
    setStartError(null);
    setBusy(true);
    try {
      const answerSchema = schemaOf(schemaText);
      const tab = await targetTab();
      if (!tab?.id) throw new Error(t('noWebPage'));
      await settings.current?.commit();
      // a click on the step-approval switch just before Start is stored first: the run starts with the switch as shown
      await modeSaved.current;
      const { runId } = await send('run/start', { task, tabId: tab.id, ...(canExplore && explore ? { explore: true } : {}), ...(answerSchema ? { answerSchema } : {}), ...(allowedOf(sites) ? { allowedSites: allowedOf(sites) } : {}) });
      // the last demonstration's result is old news once a run starts
      setDemoNote(null);
      // exploring is for this run only: the next Start does the task unless ticked again
      setExplore(false);
      await fetchRun(runId);
    } catch (err) {
      setStartError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  /** Reasons each written as a sentence, joined without doubled punctuation ("a.; b" was shown). */
  function listOf(reasons: string[]): string {
    return `${reasons.map((r) => r.trim().replace(/[.;。；\s]+$/, '')).join('; ')}.`;
  }

  /** Record a demonstration: the person does the task; each element they use is documented when they stop. */
  async function recordDemo(on: boolean) {
    await labels.command(async () => {
      if (on) {
        const tab = await targetTab();
        if (!tab?.id) throw new Error(t('noWebPage'));
        await settings.current?.commit();
        await send('demo/start', { tabId: tab.id, task: task.trim() });
        setDemoNote(null);
        setDemo({ tabId: tab.id, actions: 0, ready: true });
      } else if (demo) {
        setDemoNote(t('demoWriting'));
        const r = await send('demo/stop', { tabId: demo.tabId });
        setDemo(null);
        setDemoNote(t('demoDone', t('countActions', r.actions), t('countNotes', r.documented)) + (r.refused.length ? ` ${t('demoRefused', listOf(r.refused))}` : ''));
      }
    });
  }

  /** Label the target tab now, without running anything: see what the model would see. */
  async function showLabels(show: boolean) {
    await labels.command(async () => {
      const tab = await targetTab();
      if (!tab?.id) throw new Error(t('noPageToLabel'));
      if (show) {
        const snap = await send('marks/label', { tabId: tab.id });
        setLabelInfo(t('labelledCount', snap.marks.length, snap.title || snap.url));
      } else {
        await send('marks/clear', { tabId: tab.id });
        setLabelInfo(null);
      }
    });
  }

  /** The switch is a setting (remembered) and applies to the live run at once. */
  async function switchMode(on: boolean) {
    setApproveSteps(on);
    const saving = labels.command(() => send('run/mode', { runId: running ? run.id : undefined, approveSteps: on }));
    modeSaved.current = saving.then(() => undefined);
    const ok = await saving;
    if (!ok) setApproveSteps(!on);
  }

  /** Re-run from the history: the new run is shown in the Run view. */
  function started(id: string) {
    setStartError(null);
    setView('run');
    fetchRun(id).catch(() => undefined);
  }

  /** "Add its price" under a run whose cost is unknown: the price table, with a row for that model. */
  function showPrices(model: string) {
    settings.current?.showPrices(model);
  }

  const state = run ? dotState(run) : null;
  const blocked = form.problem ? t('settingsFixFirst', form.problem) : demo ? t('demoRecordingInTab') : null;

  return (
    <div class="app">
      <header class="top">
        <h1>{t('appTitle')}</h1>
        <nav class="views" role="tablist" aria-label={t('views')}>
          <button type="button" role="tab" data-testid="view-run" aria-selected={view === 'run'} class={view === 'run' ? 'on' : ''} onClick={() => setView('run')}>
            {t('viewRun')}{run && (running || state === 'failed') && state && <Dot state={state} testid="run-indicator" />}
          </button>
          <button type="button" role="tab" data-testid="view-history" aria-selected={view === 'history'} class={view === 'history' ? 'on' : ''}
            onClick={() => { setView('history'); setHistoryHome((n) => n + 1); }}>{t('viewHistory')}</button>
          <button type="button" role="tab" data-testid="view-docs" aria-selected={view === 'docs'} class={view === 'docs' ? 'on' : ''}
            onClick={() => { setView('docs'); setDocsHome((n) => n + 1); }}>{t('viewDocs')}</button>
        </nav>
      </header>
      <StoreNotice />
      {/* The Run view stays mounted while History is shown, so unsaved settings and a typed task are kept. */}
      <main class="view-run" hidden={view !== 'run'}>
        <WatchedTabs />
        <SettingsForm handle={settings} onState={setForm} />
        <form class="task card" onSubmit={start}>
          <label for="task" class="label">{t('task')}</label>
          <textarea id="task" data-testid="task" rows={3} value={task} placeholder={t('taskPlaceholder')}
            aria-describedby="task-help"
            onInput={(e) => { setTask((e.target as HTMLTextAreaElement).value); setStartError(null); }}
            onKeyDown={(e) => {
              // Ctrl+Enter (⌘+Enter on a Mac) starts; Enter alone is a new line.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); void start(); }
            }} />
          <small id="task-help" class="hint">{t('startShortcut', MOD)}</small>
          <SitesField value={sites} onChange={(c) => { setSites(c); setStartError(null); }} />
          <details class="answer-schema" data-testid="answer-schema-box" open={!!schemaText.trim()}>
            <summary title={t('answerSchemaTitle')}>{t('answerSchemaLabel')}</summary>
            <textarea data-testid="answer-schema" rows={3} spellcheck={false} value={schemaText} placeholder={t('answerSchemaPlaceholder')}
              aria-label={t('answerSchemaLabel')} title={t('answerSchemaTitle')}
              onInput={(e) => { setSchemaText((e.target as HTMLTextAreaElement).value); setStartError(null); }} />
          </details>
          <label class="check" title={t('approveEachTitle')}>
            <input type="checkbox" data-testid="approve-steps" checked={approveSteps} onChange={(e) => switchMode((e.target as HTMLInputElement).checked)} />
            {t('approveEach')}
          </label>
          {canExplore && (
            <label class="check" title={t('exploreTitle')}>
              <input type="checkbox" data-testid="explore" checked={explore} onChange={(e) => setExplore((e.target as HTMLInputElement).checked)} />
              {t('exploreSite')}
            </label>
          )}
          {canExplore && (
            <div class="row" data-testid="demo">
              {demo
                ? <>
                  <button type="button" data-testid="demo-stop" onClick={() => recordDemo(false)}>{t('demoStop', demo.actions)}</button>
                  {!demo.ready && <small class="hint" data-testid="demo-wait">{t('demoWait')}</small>}
                </>
                : <button type="button" data-testid="demo-start" disabled={running || !task.trim()} title={t('demoTitle')} onClick={() => recordDemo(true)}>{t('demoStart')}</button>}
              {demoNote && <small class="hint" data-testid="demo-note">{demoNote}</small>}
            </div>
          )}
          <Attachments />
          <div class="row">
            <button type="submit" class="primary" data-testid="start" disabled={busy || running || !task.trim() || !!form.problem || !form.loaded || !!demo}
              aria-describedby="start-help">{t('start')}</button>
            <button type="button" data-testid="show-labels" disabled={running} onClick={() => showLabels(true)} title={t('showLabelsTitle')}>{t('showLabels')}</button>
            <button type="button" data-testid="clear-labels" disabled={running} onClick={() => showLabels(false)}>{t('clearLabels')}</button>
          </div>
          {/* a settings problem is an error; a demonstration being recorded is not (Start simply waits for it) */}
          <p id="start-help" class={form.problem ? 'error' : blocked ? 'note' : 'hint'} data-testid="start-help" hidden={!blocked && !form.dirty}>
            {blocked ?? t('startSavesFirst')}
          </p>
          {labelInfo && <p class="note" data-testid="label-info">{labelInfo}</p>}
          {labels.error && <p class="error" role="alert" data-testid="labels-error">{labels.error}</p>}
          {startError && <p class="error" role="alert" data-testid="start-error">{startError}</p>}
        </form>
        <SavedTasks task={task} answerSchema={schemaText} sites={sites} dialect={dialect} running={running} onStarted={started}
          onUse={(x) => {
            setTask(x.task); setSchemaText(x.answerSchema ? JSON.stringify(x.answerSchema, null, 2) : ''); setSites(choiceOf(x.allowedSites));
            setStartError(null); document.getElementById('task')?.focus();
          }} />
        {run && <RunPanel run={run} onPrices={showPrices} />}
      </main>
      {view === 'history' && (
        <main class="view-history">
          <HistoryView onStarted={started} home={historyHome} />
        </main>
      )}
      {view === 'docs' && (
        <main class="view-docs">
          <DocsView home={docsHome} />
        </main>
      )}
    </div>
  );
}
