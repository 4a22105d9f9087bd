/**
 * The History view: past runs newest first (task, site, date, status, steps, duration, tokens, and
 * cost, and the answer, or why the run ended without one),
 * search, the storage used, what the listed runs cost per day and per model (cost-totals.tsx), Open / Re-run / Delete (with a confirm step), and Import of a trace
 * file. Opening a run shows its detail (run-detail.tsx) in place of the list.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ViewMessages } from '../../src/core/messages';
import { messageOf, onRunUpdate, send } from '../api';
import { useAction } from '../use-action';
import { formatBytes, formatCount, formatDate, formatDuration, preview, storageText } from '../format';
import { t } from '../i18n';
import { RunDetail, statusName } from './run-detail';
import { CostTotals } from './cost-totals';
import { costText } from '../cost-note';

type Listed = ViewMessages['history/list']['res'];
type Row = Listed['runs'][number];

export interface HistoryProps {
  /** a run was started again (Re-run): the panel shows it in the Run view */
  onStarted: (runId: string) => void;
  /** changes when the History tab is clicked again: back to the list */
  home?: number;
}

export function HistoryView({ onStarted, home }: HistoryProps) {
  const [query, setQuery] = useState('');
  const [list, setList] = useState<Listed | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [confirmId, setConfirmId] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { act, busy, error, notice, setError, setNotice } = useAction();
  // Only the answer to the latest request is shown (typing sends one per key).
  const asked = useRef(0);
  const queryRef = useRef(query);
  queryRef.current = query;

  async function refresh(q = queryRef.current): Promise<void> {
    const n = ++asked.current;
    try {
      const res = await send('history/list', { query: q });
      if (n === asked.current) setList(res);
    } catch (err) {
      if (n === asked.current) setError(messageOf(err));
    }
  }

  useEffect(() => { void refresh(query); }, [query]);
  useEffect(() => { setOpenId(null); setConfirmId(null); if (home) void refresh(); }, [home]);

  // Runs change while the panel is open (a live run's steps, its end): refresh the list now and then.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onRunUpdate(() => {
      if (timer) return;
      timer = setTimeout(() => { timer = undefined; void refresh(); }, 700);
    });
    return () => { off(); clearTimeout(timer); };
  }, []);


  /** The same task on the run's start page, in a new tab (the summary has no start URL: run/get has). */
  const rerun = (id: string) => act(async () => {
    const past = await send('run/get', { runId: id });
    if (!past) throw new Error(t('histGone'));
    if (!past.startUrl) throw new Error(t('histNoStartPage'));
    const { runId } = await send('run/start', { task: past.task, url: past.startUrl });
    onStarted(runId);
  });

  /** Replay the recorded actions without the model, asking before each one (core/trace/replay.ts). */
  const replay = (id: string) => act(async () => {
    const { runId } = await send('run/replay', { runId: id, approveSteps: true });
    onStarted(runId);
  });

  const remove = (id: string) => act(async () => {
    setConfirmId(null);
    try {
      await send('history/delete', { runId: id });
    } finally {
      await refresh();
    }
    if (openId === id) setOpenId(null);
    setNotice(t('histDeleted'));
  });

  /** What a file is by its first bytes, as a message key, when it is plainly not JSON. */
  function fileKind(b: Uint8Array): string | null {
    const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
    if (starts(0x89, 0x50, 0x4e, 0x47)) return 'fileKindPng';
    if (starts(0xff, 0xd8, 0xff)) return 'fileKindJpeg';
    if (starts(0x52, 0x49, 0x46, 0x46)) return 'fileKindWebp';
    if (starts(0x50, 0x4b, 0x03, 0x04)) return 'fileKindZip';
    if (starts(0x25, 0x50, 0x44, 0x46)) return 'fileKindPdf';
    if (starts(0x3c)) return 'fileKindHtml';
    return null;
  }

  async function importFile(file: File): Promise<void> {
    await act(async () => {
      const bytes = new Uint8Array(await file.slice(0, 8).arrayBuffer());
      const kind = fileKind(bytes);
      // a picture, a zip or a page chosen by mistake: said by what it is, not by a JSON parser's error
      if (kind) throw new Error(t('histNotTraceFile', file.name, t(kind)));
      let trace: unknown;
      try {
        trace = JSON.parse(await file.text());
      } catch {
        throw new Error(t('histNotJson', file.name));
      }
      const { runId, renamed, unknownDialect } = await send('history/import', { trace }).catch((err: unknown) => {
        throw new Error(t('histImportFailed', file.name, messageOf(err)));
      });
      await refresh();
      setOpenId(runId);
      const said = renamed ? t('histImportedRenamed', file.name) : t('histImported', file.name);
      setNotice(unknownDialect ? `${said} ${t('histImportedUnknownDialect', unknownDialect)}` : said);
    });
    if (fileInput.current) fileInput.current.value = ''; // the same file can be chosen again
  }

  const lines = (
    <>
      {error && <p class="error" role="alert" data-testid="history-error">{error}</p>}
      {notice && <p class="note" role="status" data-testid="history-notice">{notice}</p>}
    </>
  );

  if (openId) {
    return (
      <section class="history" data-testid="history">
        {lines}
        <RunDetail key={openId} runId={openId} onBack={() => { setOpenId(null); setNotice(null); setError(null); void refresh(); }}
          onRerun={() => rerun(openId)} onReplay={() => replay(openId)} />
      </section>
    );
  }

  return (
    <section class="history" data-testid="history">
      <div class="row">
        <input type="search" class="grow" data-testid="history-search" placeholder={t('histSearchPlaceholder')} aria-label={t('histSearchLabel')} title={t('histSearchTitle')}
          value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
        <button type="button" data-testid="import" disabled={busy} onClick={() => fileInput.current?.click()}
          title={t('histImportTitle')}>{t('histImport')}</button>
        <input ref={fileInput} type="file" accept=".json,application/json" hidden data-testid="import-file"
          onChange={(e) => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) void importFile(f); }} />
      </div>
      <p class="hint" data-testid="storage">{list ? storageText(list.usedBytes, list.quotaBytes) : t('histLoading')}</p>
      {list?.pruned && (
        <p class="note" role="status" data-testid="pruned-notice">
          {t('histPruned', formatDate(list.pruned.at), formatCount(list.pruned.runs), formatBytes(list.pruned.bytes))}
        </p>
      )}
      {list && <CostTotals runs={list.runs.map((r) => r.summary)} />}
      {lines}
      {list && !list.runs.length && (
        <p class="hint" data-testid="history-empty">{query.trim() ? t('histNoMatch', query.trim()) : t('histEmpty')}</p>
      )}
      {list && list.runs.length > 0 && (
        <ol class="runs" data-testid="history-list">
          {list.runs.map((r) => (
            <RunRow key={r.id} row={r} busy={busy} confirming={confirmId === r.id}
              onOpen={() => { setError(null); setNotice(null); setOpenId(r.id); }}
              onRerun={() => rerun(r.id)}
              onDelete={() => { setError(null); setNotice(null); setConfirmId(r.id); }}
              onConfirm={() => remove(r.id)} onCancel={() => setConfirmId(null)} />
          ))}
        </ol>
      )}
    </section>
  );
}

function RunRow({ row, busy, confirming, onOpen, onRerun, onDelete, onConfirm, onCancel }: {
  row: Row; busy: boolean; confirming: boolean;
  onOpen: () => void; onRerun: () => void; onDelete: () => void; onConfirm: () => void; onCancel: () => void;
}) {
  const s = row.summary;
  return (
    <li class="run-row" data-testid="history-run" data-run-id={row.id} data-status={s.status}>
      <div class="run-title">
        <b data-testid="run-task">{s.task}</b>
        {s.imported && <span class="tag" data-testid="imported-tag">{t('histImportedTag')}</span>}
        {!!s.shotsRemoved && <span class="tag" data-testid="shots-removed-tag" title={t('histShotsRemovedTitle', formatCount(s.shotsRemoved))}>{t('histShotsRemovedTag')}</span>}
      </div>
      <div class="run-meta">
        <span data-testid="run-site">{s.site || '—'}</span>
        <span data-testid="run-date">{formatDate(s.startedAt)}</span>
        <span class={`status ${s.status}`} data-testid="run-status">{statusName(s.status)}</span>
        <span data-testid="run-steps">{s.steps === 1 ? t('histStepOne', 1) : t('histSteps', s.steps)}</span>
        {s.followUps?.length ? <span data-testid="run-turns" title={s.followUps.join('\n')}>{t('histTurns', s.followUps.length + 1)}</span> : null}
        <span data-testid="run-duration">{s.durationMs === null ? t('histStatusRunning') : formatDuration(s.durationMs)}</span>
        <span data-testid="run-tokens" title={t('histTokensTitle', s.promptTokens, s.completionTokens)}>
          {t('histTokens', formatCount(s.promptTokens + s.completionTokens))}
        </span>
        {typeof s.cost === 'number' && <span data-testid="run-cost">{costText(s.cost, s.currency)}</span>}
      </div>
      {s.answer !== null && (
        <p class="run-answer" data-testid="run-answer" title={s.answer}><b>{t('histAnswer')}</b> {preview(s.answer) || t('histEmptyText')}</p>
      )}
      {s.answer === null && s.stopReason && s.status !== 'finished' && (
        <p class="run-reason hint" data-testid="run-reason" title={s.stopReason}>{preview(s.stopReason)}</p>
      )}
      {confirming ? (
        <div class="row confirm">
          <span>{t('histDeleteConfirm')}</span>
          <button type="button" class="danger" data-testid="confirm-delete" disabled={busy} onClick={onConfirm}>{t('histDelete')}</button>
          <button type="button" data-testid="cancel-delete" onClick={onCancel}>{t('histCancel')}</button>
        </div>
      ) : (
        <div class="row">
          <button type="button" data-testid="open-run" onClick={onOpen}>{t('histOpen')}</button>
          <button type="button" data-testid="rerun" disabled={busy} onClick={onRerun}
            title={t('histRerunTitle')}>{t('histRerun')}</button>
          <button type="button" data-testid="delete-run" disabled={busy} onClick={onDelete}>{t('histDelete')}</button>
        </div>
      )}
    </li>
  );
}
