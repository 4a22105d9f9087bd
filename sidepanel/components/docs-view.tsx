/**
 * The Site notes view: what the agent learned about a site's controls (core/docs,
 * docs/learned-docs.md). Choose a site (the current tab's is chosen first when it has notes), read
 * each element's notes, edit them in place, delete them, export the site's notes as a JSON file and
 * import one. An edit or an imported entry with a page's instructions in it, or that tells the agent
 * how to behave, is refused by the background with the reason, shown here. Each note says where it
 * came from (learned while exploring or from the person's demonstration, edited, imported, and from
 * which file: text, never HTML), and a stored note that fails today's checks says it is not given
 * to the model, and why.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ViewMessages } from '../../src/core/messages';
import { DOC_ACTIONS, DOC_USE_KEYS, type DocAction, type DocEntry } from '../../src/core/docs/types';
import { entryProblem, screenEntry } from '../../src/core/docs/matching';
import { sortableTime } from '../../src/core/export/file-name';
import { messageOf, send, targetTab } from '../api';
import { useAction } from '../use-action';
import { download } from '../export';
import { formatDate } from '../format';
import { currentLocale, t } from '../i18n';

type Origins = ViewMessages['docs/list']['res']['origins'];
type Drafts = Partial<Record<DocAction, string>>;

/** Each kind of use in the person's words (the model's words for it stay in the notes). */
function useName(a: DocAction): string {
  return t(DOC_USE_KEYS[a]);
}

/** How the note was last written, and when; an imported one names its file. */
function sourceText(e: DocEntry): string {
  const when = formatDate(e.updatedAt);
  switch (e.source) {
    case 'explore': return t('docsFromExplore', when);
    case 'demo': return t('docsFromDemo', when);
    case 'import': return e.importedFrom ? t('docsFromImportFile', e.importedFrom, when) : t('docsFromImport', when);
    case 'edit': return t('docsFromEdit', when);
  }
}

export function DocsView({ home }: { home?: number }) {
  const [origins, setOrigins] = useState<Origins | null>(null);
  const [site, setSite] = useState('');
  const [entries, setEntries] = useState<DocEntry[]>([]);
  const [editing, setEditing] = useState<string | null>(null);
  const [drafts, setDrafts] = useState<Drafts>({});
  const [confirmId, setConfirmId] = useState<string | null>(null);
  const [refused, setRefused] = useState<Array<{ entry: number; reason: string }>>([]);
  const { act, busy, setBusy, error, notice, setError, setNotice } = useAction(() => setRefused([]));
  // Why the edit being made is refused: next to its field (a use), or under the editor (the rest).
  const [editError, setEditError] = useState<{ where: DocAction | null; text: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  /** Why each stored note is not given to the model (it fails today's checks), by id; screened once per list and language. */
  const locale = currentLocale();
  const heldBack = useMemo(() => new Map(entries.map((e) => [e.id, screenEntry(e, t)])), [entries, locale]);

  /** The sites and the chosen site's entries; `prefer`: the site to show (else the current one, else the tab's, else the first). */
  async function refresh(prefer?: string): Promise<void> {
    const { origins: list } = await send('docs/list', {});
    let chosen = prefer ?? site;
    if (!chosen || !list.some((o) => o.origin === chosen)) {
      const tab = await targetTab().catch(() => null);
      const tabOrigin = tab?.url ? new URL(tab.url).origin : '';
      chosen = list.find((o) => o.origin === tabOrigin)?.origin ?? list[0]?.origin ?? '';
    }
    setOrigins(list);
    setSite(chosen);
    setEntries(chosen ? (await send('docs/list', { origin: chosen })).entries : []);
  }

  useEffect(() => { refresh().catch((err) => setError(messageOf(err))); }, [home]);


  const choose = (origin: string) => act(async () => { setEditing(null); setConfirmId(null); await refresh(origin); });

  function startEdit(e: DocEntry) {
    setEditing(e.id);
    setEditError(null);
    setConfirmId(null);
    setDrafts(Object.fromEntries(DOC_ACTIONS.map((a) => [a, e.docs[a] ?? ''])));
  }

  /** Checked here first (the same check the background makes), so a refusal shows next to its field. */
  async function save(e: DocEntry): Promise<void> {
    setError(null);
    setNotice(null);
    setRefused([]);
    const found = entryProblem({ ...e, docs: drafts }, t);
    if (found) {
      setEditError({ where: found.where === 'element' ? null : found.where, text: found.reason });
      return;
    }
    setEditError(null);
    setBusy(true);
    try {
      await send('docs/put', { id: e.id, origin: e.origin, fingerprint: e.fingerprint, docs: drafts });
      setEditing(null);
      await refresh();
      setNotice(t('docsSaved'));
    } catch (err) {
      setEditError({ where: null, text: messageOf(err) });
    } finally {
      setBusy(false);
    }
  }

  const remove = (e: DocEntry) => act(async () => {
    setConfirmId(null);
    await send('docs/delete', { id: e.id });
    await refresh();
    setNotice(t('docsDeleted'));
  });

  const exportSite = () => act(async () => {
    const file = await send('docs/export', { origin: site });
    const host = new URL(site).host.replace(/[^a-z0-9.-]+/gi, '-');
    const fileName = `site-notes-${host}-${sortableTime(file.exportedAt)}.json`;
    download({ fileName, mime: 'application/json', cleanLeftOut: 0, text: JSON.stringify(file, null, 2) });
    setNotice(t('docsExported', file.entries.length, fileName));
  });

  async function importFile(f: File): Promise<void> {
    await act(async () => {
      // the file's name is kept on each entry (importedFrom) by a background that reads `fileName`
      const res = await send('docs/import', { file: await f.text(), fileName: f.name });
      await refresh();
      setNotice(t('docsImported', f.name, res.added, res.updated));
      setRefused(res.refused);
    });
    if (fileInput.current) fileInput.current.value = ''; // the same file can be chosen again
  }

  return (
    <section class="docs" data-testid="docs">
      <p class="hint">{t('docsIntro')}</p>
      <div class="row">
        <label for="docs-site" class="label">{t('docsSite')}</label>
        <select id="docs-site" class="grow" data-testid="docs-site" value={site} disabled={busy || !origins?.length}
          onChange={(e) => { void choose((e.target as HTMLSelectElement).value); }}>
          {origins?.map((o) => <option key={o.origin} value={o.origin}>{t('docsSiteOption', o.origin, o.count)}</option>)}
        </select>
      </div>
      <div class="row">
        <button type="button" data-testid="docs-export" disabled={busy || !entries.length} onClick={exportSite} title={t('docsExportTitle')}>{t('docsExport')}</button>
        <button type="button" data-testid="docs-import" disabled={busy} onClick={() => fileInput.current?.click()} title={t('docsImportTitle')}>{t('docsImport')}</button>
        <input ref={fileInput} type="file" accept=".json,application/json" hidden data-testid="docs-import-file"
          onChange={(e) => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) void importFile(f); }} />
      </div>
      {error && <p class="error" role="alert" data-testid="docs-error">{error}</p>}
      {notice && <p class="note" role="status" data-testid="docs-notice">{notice}</p>}
      {refused.length > 0 && (
        <div class="error" role="alert" data-testid="docs-refused">
          {t('docsRefusedCount', refused.length)}
          <ul>{refused.map((r) => <li key={r.entry} data-testid="docs-refused-line">{t('docsRefusedLine', r.entry, r.reason)}</li>)}</ul>
        </div>
      )}
      {!origins && <p class="hint">{t('docsLoading')}</p>}
      {origins && !origins.length && <p class="hint" data-testid="docs-none">{t('docsNoSites')}</p>}
      {origins && origins.length > 0 && !entries.length && <p class="hint" data-testid="docs-empty">{t('docsEmpty')}</p>}
      <ol class="runs" data-testid="docs-list">
        {entries.map((e) => (
          <li key={e.id} class="run-row doc-entry" data-testid="doc-entry" data-id={e.id}>
            <div class="run-title">
              <b data-testid="doc-element"><code>{`<${e.fingerprint.tag}>`}</code> {e.fingerprint.text || t('docsNoElementText')}</b>
            </div>
            <div class="run-meta">
              <span data-testid="doc-source">{sourceText(e)}</span>
              {e.importedFrom && e.source !== 'import' && <span data-testid="doc-imported-from">{' · '}{t('docsFirstImported', e.importedFrom)}</span>}
            </div>
            {heldBack.get(e.id) && <p class="error" role="note" data-testid="doc-held-back">{t('docsHeldBack', heldBack.get(e.id)!)}</p>}
            {editing === e.id ? (
              <form class="doc-edit" onSubmit={(ev) => { ev.preventDefault(); void save(e); }}>
                {DOC_ACTIONS.map((a) => {
                  const bad = editError?.where === a;
                  return (
                    <div key={a} class="doc-use">
                      <label class="label" for={`doc-edit-${e.id}-${a}`}>{useName(a)}</label>
                      <textarea rows={2} id={`doc-edit-${e.id}-${a}`} data-testid={`doc-edit-${a}`} value={drafts[a] ?? ''}
                        aria-invalid={bad || undefined} aria-describedby={bad ? `doc-edit-${e.id}-${a}-error` : undefined}
                        onInput={(ev) => { const v = (ev.target as HTMLTextAreaElement).value; setDrafts((d) => ({ ...d, [a]: v })); if (bad) setEditError(null); }} />
                      {bad && <small class="help bad" id={`doc-edit-${e.id}-${a}-error`} role="alert" data-testid="doc-edit-error" data-field={a}>{editError.text}</small>}
                    </div>
                  );
                })}
                {editError && editError.where === null && <p class="error" role="alert" data-testid="doc-edit-error">{editError.text}</p>}
                <div class="row">
                  <button type="submit" class="primary" data-testid="doc-save" disabled={busy}>{t('docsSave')}</button>
                  <button type="button" data-testid="doc-cancel" onClick={() => { setEditing(null); setEditError(null); }}>{t('docsCancel')}</button>
                </div>
              </form>
            ) : (
              <dl class="facts">
                {DOC_ACTIONS.filter((a) => e.docs[a]).map((a) => [
                  <dt key={`${a}-t`}>{useName(a)}</dt>,
                  <dd key={`${a}-d`} data-testid={`doc-text-${a}`}>{e.docs[a]}</dd>,
                ])}
              </dl>
            )}
            {editing !== e.id && (confirmId === e.id ? (
              <div class="row confirm">
                <span>{t('docsConfirmDelete')}</span>
                <button type="button" class="danger" data-testid="doc-confirm-delete" disabled={busy} onClick={() => remove(e)}>{t('docsYesDelete')}</button>
                <button type="button" data-testid="doc-cancel-delete" onClick={() => setConfirmId(null)}>{t('docsCancel')}</button>
              </div>
            ) : (
              <div class="row">
                <button type="button" data-testid="doc-edit" disabled={busy} onClick={() => startEdit(e)}>{t('docsEdit')}</button>
                <button type="button" data-testid="doc-delete" disabled={busy} onClick={() => setConfirmId(e.id)}>{t('docsDelete')}</button>
              </div>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}
