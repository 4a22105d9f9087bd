/**
 * One run from the history, in full: what it was (task, site, model, status, answer or why it
 * stopped, when, how long, tokens), its exports (trace JSON, HTML report, zip; optionally without
 * screenshots), and every step. Steps are collapsed; a step's heavy parts (screenshots, element
 * list, prompt, raw reply) are fetched and drawn only once it, or its section, is opened.
 */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import type { RunView, StepView } from '../../src/core/messages';
import type { Mark } from '../../src/core/marks';
import { diffMemory, isEmptyDiff } from '../../src/core/memory-diff';
import type { Memory } from '../../src/core/action/action';
import { hostKey } from '../../src/core/guards';
import { injectionPlace } from '../../src/core/injection';
import { PicturesField, ScreenField } from './screen-note';
import { actedElement, observationInWords } from '../../src/core/run/person-text';
import { ActionText } from './action-text';
import { costText } from '../cost-note';
import { messageOf, onRunView, send } from '../api';
import { download, exportRun, fetchTrace, type ExportKind, type ExportProgress } from '../export';
import { mergeView, tookOver } from '../../src/core/run/view';
import { isDialect } from '../../src/core/dialects/registry';
import { Lightbox } from './lightbox';
import { formatDate, formatDuration, formatStages, formatTimings, formatTokens, progressText, savedText } from '../format';
import { AnswerJson } from './answer-json';
import { TurnStart, TurnsAhead } from './turns';
import { t } from '../i18n';
import { StopReason } from './stop-reason';

/** The labelled elements, one `[i]: <tag> "text"` per line (the prompt, if the dialect sends them, is shown apart). */
function elementLines(elements: Mark[]): string {
  return elements.map((m) => `[${m.label}]: <${m.tag}> "${m.text.replace(/\s+/g, ' ').trim()}"`).join('\n');
}

/** The prompt texts of a run (run/views leave them out): fetched from the trace, without screenshots, once. */
function promptLoader(runId: string) {
  let got: Promise<Map<number, string>> | null = null;
  return async (index: number): Promise<string> => {
    const load = () => fetchTrace(runId, true)
      .then((t) => new Map(t.steps.map((s) => [s.index, s.request.promptText])));
    got ??= load();
    let map = await got;
    if (!map.has(index)) { // a live run's newer step
      got = load();
      map = await got;
    }
    return map.get(index) ?? '';
  };
}

type PromptOf = ReturnType<typeof promptLoader>;

/** A run's status in the panel's language. */
export function statusName(status: RunView['status']): string {
  switch (status) {
    case 'running': return t('histStatusRunning');
    case 'finished': return t('histStatusFinished');
    case 'stopped': return t('histStatusStopped');
    case 'failed': return t('histStatusFailed');
    default: return status;
  }
}

export function RunDetail({ runId, onBack, onRerun, onReplay }: { runId: string; onBack: () => void; onRerun?: () => void; onReplay?: () => void }) {
  const [run, setRun] = useState<RunView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [expand, setExpand] = useState({ open: false, n: 0 });
  const promptOf = useMemo(() => promptLoader(runId), [runId]);

  useEffect(() => {
    let gone = false;
    let held: RunView | null = null;
    const show = (r: RunView) => { held = r; setRun(r); };
    send('run/get', { runId }).then((r) => {
      if (gone) return;
      if (r) show(mergeView(held, r) ?? r);
      else setError(t('histGone'));
    }, (err) => { if (!gone) setError(messageOf(err)); });
    const off = onRunView(() => held, (r) => { if (!gone) show(r); }, (r) => r.id === runId);
    return () => { gone = true; off(); };
  }, [runId]);

  const back = <button type="button" data-testid="back-to-history" onClick={onBack}>← {t('viewHistory')}</button>;
  if (!run) {
    return (
      <div class="detail" data-testid="run-detail">
        <div class="row">{back}</div>
        {error ? <p class="error" role="alert" data-testid="detail-error">{error}</p> : <p class="hint">{t('histLoading')}</p>}
      </div>
    );
  }

  let prompt = 0;
  let completion = 0;
  for (const s of run.steps) {
    prompt += s.usage?.promptTokens ?? 0;
    completion += s.usage?.completionTokens ?? 0;
  }
  const duration = run.endedAt === null ? null : Math.max(0, run.endedAt - run.startedAt);

  return (
    <div class="detail" data-testid="run-detail" data-run-id={run.id} data-status={run.status}>
      <div class="row">
        {back}
        {onRerun && <button type="button" data-testid="detail-rerun" onClick={onRerun} title={t('histRerunTitle')}>{t('histRerun')}</button>}
        {onReplay && <button type="button" data-testid="detail-replay" onClick={onReplay} title={t('detailReplayTitle')}>{t('detailReplay')}</button>}
      </div>
      <header class="detail-head">
        <h2 data-testid="detail-task">{run.task}</h2>
        {run.imported && <span class="tag" data-testid="imported-tag">{t('histImportedTag')}</span>}
        <dl class="facts">
          <dt>{t('detailSite')}</dt><dd data-testid="detail-site" title={run.startUrl}>{hostKey(run.site) || run.site || '—'}</dd>
          <dt>{t('detailStartPage')}</dt><dd class="url">{run.startUrl || '—'}</dd>
          <dt>{t('fieldModel')}</dt><dd data-testid="detail-model">{run.model || '—'}</dd>
          <dt>{t('dialect')}</dt><dd data-testid="detail-dialect" class={isDialect(run.dialect) ? '' : 'bad'}>{isDialect(run.dialect) ? run.dialect : t('detailDialectUnknown', run.dialect)}</dd>
          <dt>{t('detailStatus')}</dt><dd data-testid="detail-status" class={`status ${run.status}`}>{statusName(run.status)}</dd>
          <dt>{t('detailStarted')}</dt><dd data-testid="detail-started">{formatDate(run.startedAt)}</dd>
          <dt>{t('detailDuration')}</dt><dd data-testid="detail-duration">{duration === null ? t('detailStillRunning') : formatDuration(duration)}</dd>
          <dt>{t('detailSteps')}</dt><dd data-testid="detail-steps">{run.steps.length}</dd>
          <dt>{t('detailTokens')}</dt><dd data-testid="detail-tokens">{formatTokens(prompt, completion)}</dd>
          {run.totals && <><dt>{t('detailCost')}</dt><dd data-testid="detail-cost">{costText(run.totals.cost, run.totals.currency)}</dd></>}
        </dl>
        {run.status === 'finished' && <div class="answer" data-testid="detail-answer"><b>{t('detailAnswer')}</b><p>{run.answer}</p><AnswerJson run={run} /></div>}
        {(run.status === 'stopped' || run.status === 'failed') && (
          <StopReason run={run} testid="detail-stop-reason" words={{ failed: 'detailRunFailed', stopped: 'detailRunStopped' }} />
        )}
      </header>
      <Exports runId={run.id} />
      <div class="row">
        <button type="button" data-testid="expand-all" onClick={() => setExpand((e) => ({ open: true, n: e.n + 1 }))}>{t('detailExpandAll')}</button>
        <button type="button" data-testid="collapse-all" onClick={() => setExpand((e) => ({ open: false, n: e.n + 1 }))}>{t('detailCollapseAll')}</button>
      </div>
      {!run.steps.length && <p class="hint" data-testid="no-steps">{t('detailNoSteps')}</p>}
      <ol class="steps">
        {run.steps.map((s, i) => [
          <TurnStart key={`turn-${s.index}`} run={run} index={s.index} />,
          s.kind === 'person'
            ? <PersonStepDetail key={s.index} step={s} />
            : <StepDetail key={s.index} run={run} step={s} before={i > 0 ? run.steps[i - 1].memory : null} expand={expand} promptOf={promptOf} />,
        ])}
        <TurnsAhead run={run} />
      </ol>
    </div>
  );
}

function Exports({ runId }: { runId: string }) {
  const [exclude, setExclude] = useState(false);
  const [busy, setBusy] = useState<ExportKind | null>(null);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  async function run(kind: ExportKind) {
    setBusy(kind);
    setProgress(null);
    setStatus(null);
    try {
      const result = await exportRun(runId, kind, { excludeScreenshots: exclude, onProgress: setProgress });
      download(result);
      setStatus({ ok: true, text: savedText(result.fileName, exclude, result.cleanLeftOut) });
    } catch (err) {
      setStatus({ ok: false, text: t('exportFailed', messageOf(err)) });
    } finally {
      setBusy(null);
      setProgress(null);
    }
  }

  return (
    <div class="exports" data-testid="exports">
      <div class="row">
        <span>{t('exportLabel')}</span>
        <button type="button" data-testid="export-json" disabled={!!busy} onClick={() => run('json')} title={t('exportJsonTitle')}>{t('exportJson')}</button>
        <button type="button" data-testid="export-html" disabled={!!busy} onClick={() => run('html')} title={t('exportHtmlTitle')}>{t('exportHtml')}</button>
        <button type="button" data-testid="export-zip" disabled={!!busy} onClick={() => run('zip')} title={t('exportZipTitle')}>{t('exportZip')}</button>
        <button type="button" data-testid="export-playwright" disabled={!!busy} onClick={() => run('playwright')} title={t('exportPlaywrightTitle')}>{t('exportPlaywright')}</button>
      </div>
      <label class="check" title={t('exportExcludeTitle')}>
        <input type="checkbox" data-testid="exclude-screenshots" checked={exclude} onChange={(e) => setExclude((e.target as HTMLInputElement).checked)} />
        {t('exportExclude')}
      </label>
      {busy && (
        <div class="export-progress" data-testid="export-busy">
          <p class="hint">{progressText(busy, progress)}</p>
          {progress?.stage === 'images' && <progress data-testid="export-progress" value={progress.done} max={progress.total} />}
        </div>
      )}
      {status && <p class={status.ok ? 'note' : 'error'} role="status" data-testid="export-status">{status.text}</p>}
    </div>
  );
}

/** A collapsible section whose content is drawn only while it is open. */
function Section({ title, testid, open: initial = false, children }: { title: ComponentChildren; testid: string; open?: boolean; children: () => ComponentChildren }) {
  const [open, setOpen] = useState(initial);
  return (
    <details class="section" data-testid={testid} open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>{title}</summary>
      {open && children()}
    </details>
  );
}

function PersonStepDetail({ step }: { step: StepView }) {
  return (
    <li class="step person" data-testid="detail-step" data-index={step.index} data-kind="person">
      <div class="step-head">{t('detailStep', step.index + 1)} <small>{step.url}</small></div>
      <p class="action" data-testid="detail-action"><b>{t('detailTookOver')}</b></p>
      <p class="obs ok" data-testid="detail-observation">{observationInWords(step.observation, t)}</p>
    </li>
  );
}

function approvalText(step: StepView): string {
  const a = step.approval;
  if (!a) return t('detailApprovalNone');
  if (a.decision === 'auto') return t('detailApprovalAuto');
  if (tookOver(step)) return t('detailApprovalTookOver');
  if (a.decision === 'rejected') return a.feedback ? t('detailApprovalRejectedWhy', a.feedback) : t('detailApprovalRejected');
  return a.decision === 'edited' ? t('detailApprovalEdited') : t('detailApprovalApproved');
}

function StepDetail({ run, step, before, expand, promptOf }: {
  run: RunView; step: StepView; before: Memory | null; expand: { open: boolean; n: number }; promptOf: PromptOf;
}) {
  const [open, setOpen] = useState(false);
  useEffect(() => { if (expand.n) setOpen(expand.open); }, [expand]);
  const times = step.timings;
  return (
    <li class={`step detail-step ${open ? 'open' : ''}`} data-testid="detail-step" data-index={step.index} data-open={open ? 'true' : 'false'}>
      <button type="button" class="step-toggle" data-testid="step-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span class="chev">{open ? '▾' : '▸'}</span> {t('detailStepOf', step.index + 1)} <ActionText dialect={run.dialect} actionText={step.actionText} action={step.action} element={actedElement(step)} testId="step-summary-action" raw={false} />
        <span class={step.result.ok ? 'obs ok' : 'obs bad'}> · {step.result.ok ? t('detailOk') : t('detailFailed')}</span>
      </button>
      <div class="step-url"><small>{step.title ? `${step.title} — ` : ''}{step.url}</small></div>
      {open && (
        <div class="step-body">
          <Shots runId={run.id} index={step.index} />
          {step.thought && <p class="thought" data-testid="detail-thought"><b>{t('detailThought')}</b> {step.thought}</p>}
          <div class="field">
            <b>{t('detailAction')}</b> <ActionText dialect={run.dialect} actionText={step.actionText} action={step.action} element={actedElement(step)} testId="detail-action" />
            <pre data-testid="action-json">{step.action ? JSON.stringify(step.action, null, 2) : t('detailNoAction')}</pre>
          </div>
          <p class="field"><b>{t('detailApproval')}</b> <span data-testid="detail-approval" data-decision={step.approval?.decision ?? 'none'}>{approvalText(step)}</span></p>
          {step.injection?.length ? (
            <p class="field" data-testid="detail-injection"><b>{t('injFlagged')}</b> {step.injection.map((h) => `${injectionPlace(h.where, t)}: “${h.phrase}”`).join(' · ')}</p>
          ) : null}
          <ScreenField step={step} />
          <PicturesField step={step} />
          <p class={`field ${step.result.ok ? 'obs ok' : 'obs bad'}`}><b>{t('detailObservation')}</b> <span data-testid="detail-observation">{observationInWords(step.observation, t)}</span></p>
          <MemoryField before={before} after={step.memory} />
          <p class="field" data-testid="timings">
            <b>{t('detailTimings')}</b> {formatTimings(times)} · {t('detailTotal', formatDuration(times.totalMs))}
          </p>
          {times.observeStages && <p class="field" data-testid="observe-stages"><b>{t('detailObserveStages')}</b> {formatStages(times.observeStages)}</p>}
          <p class="field"><b>{t('detailTokens')}</b> <span data-testid="step-tokens">{step.usage ? formatTokens(step.usage.promptTokens, step.usage.completionTokens) : t('detailNotReported')}</span></p>
          <Section title={t('detailElements', step.elements.length)} testid="elements-section">
            {() => <pre class="scroll" data-testid="elements">{step.elements.length ? elementLines(step.elements) : t('detailNoElements')}</pre>}
          </Section>
          <Section title={t('detailPromptSent')} testid="prompt-section">
            {() => <PromptText promptOf={promptOf} index={step.index} />}
          </Section>
          <Section title={t('detailRawReply')} testid="raw-section">
            {() => <pre class="scroll" data-testid="raw-reply">{step.raw || t('histEmptyText')}</pre>}
          </Section>
          {step.reasoning && (
            <Section title={t('detailReasoning')} testid="reasoning-section">
              {() => <pre class="scroll" data-testid="reasoning">{step.reasoning}</pre>}
            </Section>
          )}
        </div>
      )}
    </li>
  );
}

function PromptText({ promptOf, index }: { promptOf: PromptOf; index: number }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let gone = false;
    promptOf(index).then((p) => { if (!gone) setText(p); }, (err) => { if (!gone) setError(messageOf(err)); });
    return () => { gone = true; };
  }, [promptOf, index]);
  if (error) return <p class="error" data-testid="prompt-error">{error}</p>;
  if (text === null) return <p class="hint">{t('histLoading')}</p>;
  return <pre class="scroll" data-testid="prompt-text">{text || t('detailNoPrompt')}</pre>;
}

const show = (v: unknown) => JSON.stringify(v);

function MemoryField({ before, after }: { before: Memory | null; after: Memory }) {
  const d = diffMemory(before, after);
  return (
    <div class="field memory-field">
      <b>{t('detailMemory')}</b>{' '}
      {isEmptyDiff(d)
        ? <span data-testid="memory-diff" data-empty="true" class="hint">{before ? t('detailUnchangedSince') : t('detailUnchanged')}</span>
        : (
          <ul class="diff" data-testid="memory-diff" data-empty="false">
            {d.added.map((x) => <li key={`+${x.key}`} class="added" data-testid="memory-added" data-key={x.key}>+ {x.key}: {show(x.value)}</li>)}
            {d.changed.map((x) => <li key={`~${x.key}`} class="changed" data-testid="memory-changed" data-key={x.key}>~ {x.key}: {show(x.before)} → {show(x.after)}</li>)}
            {d.removed.map((x) => <li key={`-${x.key}`} class="removed" data-testid="memory-removed" data-key={x.key}>− {x.key}: {show(x.value)}</li>)}
          </ul>
        )}
      <details class="section">
        <summary>{t('detailWholeMemory')}</summary>
        <pre data-testid="detail-memory">{JSON.stringify(after, null, 2)}</pre>
      </details>
    </div>
  );
}

/** Both screenshots of a step, fetched when the step is opened; a click enlarges one. */
function Shots({ runId, index }: { runId: string; index: number }) {
  const [shots, setShots] = useState<{ labelled: string | null; clean: string | null } | null>(null);
  const [big, setBig] = useState<string | null>(null);
  const closeBig = useCallback(() => setBig(null), []);
  useEffect(() => {
    let gone = false;
    const get = (kind: 'labelled' | 'clean') => send('run/screenshot', { runId, index, kind }).catch(() => null);
    Promise.all([get('labelled'), get('clean')]).then(([labelled, clean]) => { if (!gone) setShots({ labelled, clean }); });
    return () => { gone = true; };
  }, [runId, index]);
  if (!shots) return <p class="hint">{t('detailLoadingShots')}</p>;
  const fig = (kind: 'labelled' | 'clean', src: string | null, caption: string, alt: string) => (
    <figure class="shot-fig">
      {src
        ? <img class="thumb" data-testid={`shot-${kind}`} src={src} alt={alt} onClick={() => setBig(src)} />
        : <div class="no-shot" data-testid={`no-shot-${kind}`}>{t('detailNoShot')}</div>}
      <figcaption>{caption}</figcaption>
    </figure>
  );
  return (
    <div class="shots">
      {fig('labelled', shots.labelled, t('detailLabelled'), t('detailAltLabelled', index + 1))}
      {fig('clean', shots.clean, t('detailClean'), t('detailAltClean', index + 1))}
      {big && <Lightbox src={big} alt={t('detailFullSize', index + 1)} onClose={closeBig} />}
    </div>
  );
}
