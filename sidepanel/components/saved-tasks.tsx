/**
 * Saved tasks (core/templates.ts, docs/templates.md) under the task box: save the task as typed
 * (with the page's address as its start page, the dialect in Settings, and the files attached, as
 * the person chooses), start one in the tab the panel works in, put one back in the task box,
 * delete one, and export or import them as a file the runner reads too (`--task-file`).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TemplateSummary } from '../../src/core/templates';
import { messageOf, send, targetTab } from '../api';
import { useAction } from '../use-action';
import { download } from '../export';
import { t } from '../i18n';
import { preview } from '../format';
import { schemaOf } from '../answer-schema';
import { allowedOf, type SitesChoice } from './sites';
import { readAllowedSites } from '../../src/core/allowed-sites';

export interface SavedTasksProps {
  /** the task box's text: what Save keeps */
  task: string;
  /** the dialect chosen in Settings: saved with the task */
  dialect: string;
  /** the answer schema field's text: what Save keeps with the task (empty: none) */
  answerSchema: string;
  /** the task form's "Where it may act": what Save keeps with the task */
  sites: SitesChoice;
  /** Use: the saved task goes back into the task form (its text, schema and sites) */
  onUse: (x: TemplateSummary) => void;
  /** a saved task was started: the panel shows the run */
  onStarted: (runId: string) => void;
  /** nothing is started while a run goes on */
  running: boolean;
}

const fileNameOf = (name: string) => `${name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'task'}.webagent-task.json`;

export function SavedTasks({ task, answerSchema, sites, dialect, onUse, onStarted, running }: SavedTasksProps) {
  const [list, setList] = useState<TemplateSummary[] | null>(null);
  const [name, setName] = useState('');
  const [withPage, setWithPage] = useState(true);
  const [withFiles, setWithFiles] = useState(true);
  const [refused, setRefused] = useState<string[]>([]);
  const { act, busy, error, notice, setError, setNotice } = useAction(() => setRefused([]));
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => { send('templates/list', {}).then(setList, (err: unknown) => setError(messageOf(err))); }, []);


  const save = () => act(async () => {
    const schema = schemaOf(answerSchema);
    const read = readAllowedSites(allowedOf(sites));
    if (!read.ok) throw new Error(t('allowedSitesBad', read.problem));
    const allowed = read.value;
    const tab = withPage ? await targetTab() : null;
    const startUrl = tab?.url && /^https?:/.test(tab.url) ? tab.url : undefined;
    const title = name.trim() || preview(task.trim(), 60);
    setList(await send('templates/save', { template: { name: title, task: task.trim(), ...(startUrl ? { startUrl } : {}), ...(dialect ? { dialect } : {}), ...(schema ? { answerSchema: schema } : {}), ...(allowed ? { allowedSites: allowed } : {}) }, withFiles }));
    setName('');
    setNotice(t('tplSaved', title));
  });

  const start = (x: TemplateSummary) => act(async () => {
    const tab = await targetTab();
    if (!tab?.id) throw new Error(t('noWebPage'));
    const { runId } = await send('templates/start', { id: x.id, tabId: tab.id });
    onStarted(runId);
  });

  const remove = (x: TemplateSummary) => act(async () => {
    setList(await send('templates/delete', { id: x.id }));
    setNotice(t('tplDeleted', x.name));
  });

  const exportSome = (x?: TemplateSummary) => act(async () => {
    const { text, count } = await send('templates/export', x ? { ids: [x.id] } : {});
    const fileName = x ? fileNameOf(x.name) : 'saved-tasks.webagent-task.json';
    download({ fileName, mime: 'application/json', cleanLeftOut: 0, text });
    setNotice(t('tplExported', count, fileName));
  });

  async function importFile(f: File): Promise<void> {
    await act(async () => {
      let file: unknown;
      try {
        file = JSON.parse(await f.text());
      } catch {
        throw new Error(t('histNotJson', f.name));
      }
      const res = await send('templates/import', { file });
      setList(res.list);
      setNotice(t('tplImported', f.name, res.added));
      setRefused(res.refused.map((r) => t('tplRefusedLine', r.index + 1, r.problem)));
    });
    if (fileInput.current) fileInput.current.value = '';
  }

  return (
    <details class="card saved-tasks" data-testid="saved-tasks">
      <summary>{t('tplTitle', list?.length ?? 0)}</summary>
      <div class="row">
        <input type="text" class="grow" data-testid="tpl-name" value={name} maxLength={120} placeholder={t('tplNamePlaceholder')} aria-label={t('tplNameLabel')}
          onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <button type="button" data-testid="tpl-save" disabled={busy || !task.trim()} onClick={save} title={t('tplSaveTitle')}>{t('tplSave')}</button>
      </div>
      <label class="check"><input type="checkbox" data-testid="tpl-with-page" checked={withPage} onChange={(e) => setWithPage((e.target as HTMLInputElement).checked)} />{t('tplWithPage')}</label>
      <label class="check"><input type="checkbox" data-testid="tpl-with-files" checked={withFiles} onChange={(e) => setWithFiles((e.target as HTMLInputElement).checked)} />{t('tplWithFiles')}</label>
      {error && <p class="error" role="alert" data-testid="tpl-error">{error}</p>}
      {notice && <p class="note" role="status" data-testid="tpl-notice">{notice}</p>}
      {refused.length > 0 && <ul class="error" role="alert" data-testid="tpl-refused">{refused.map((r) => <li key={r} data-testid="tpl-refused-line">{r}</li>)}</ul>}
      {list && !list.length && <p class="hint" data-testid="tpl-empty">{t('tplEmpty')}</p>}
      <ol class="runs" data-testid="tpl-list">
        {list?.map((x) => (
          <li key={x.id} class="run-row" data-testid="tpl" data-name={x.name}>
            <div class="run-title"><b data-testid="tpl-title">{x.name}</b></div>
            <p class="hint" data-testid="tpl-task" title={x.task}>{preview(x.task, 120)}</p>
            <div class="run-meta">
              <span data-testid="tpl-page">{x.startUrl ? new URL(x.startUrl).host : t('tplThisPage')}</span>
              {x.dialect && <span data-testid="tpl-dialect">{x.dialect}</span>}
              {x.answerSchema && <span data-testid="tpl-schema" title={JSON.stringify(x.answerSchema)}>{t('tplWithSchema')}</span>}
              {x.allowedSites && <span data-testid="tpl-sites" title={x.allowedSites === 'any' ? t('sitesAny') : x.allowedSites.join(', ')}>{t('tplWithSites')}</span>}
              {x.files.length > 0 && <span data-testid="tpl-files" title={x.files.map((f) => f.name).join(', ')}>{t('tplFileCount', x.files.length)}</span>}
            </div>
            <div class="row">
              <button type="button" class="primary" data-testid="tpl-start" disabled={busy || running} onClick={() => start(x)} title={t('tplStartTitle')}>{t('start')}</button>
              <button type="button" data-testid="tpl-use" disabled={busy} onClick={() => onUse(x)} title={t('tplUseTitle')}>{t('tplUse')}</button>
              <button type="button" data-testid="tpl-export" disabled={busy} onClick={() => exportSome(x)}>{t('tplExport')}</button>
              <button type="button" data-testid="tpl-delete" disabled={busy} onClick={() => remove(x)}>{t('histDelete')}</button>
            </div>
          </li>
        ))}
      </ol>
      <div class="row">
        <button type="button" data-testid="tpl-export-all" disabled={busy || !list?.length} onClick={() => exportSome()}>{t('tplExportAll')}</button>
        <button type="button" data-testid="tpl-import" disabled={busy} onClick={() => fileInput.current?.click()} title={t('tplImportTitle')}>{t('tplImport')}</button>
        <input ref={fileInput} type="file" accept=".json,application/json" hidden data-testid="tpl-import-file"
          onChange={(e) => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) void importFile(f); }} />
      </div>
    </details>
  );
}
