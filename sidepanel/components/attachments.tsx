/**
 * Files for the task: what a file field on the page gets when the agent clicks it. While a run
 * goes on they are that run's (it can use them from its next action on); else the background
 * keeps them for the next run, which takes them when it starts (file-store.ts). A file past the
 * size cap is refused with the reason; the files already attached stay.
 */
import { t } from '../i18n';
import { useEffect, useRef, useState } from 'preact/hooks';
import { base64Encode } from '../../src/core/export/data-url';
import { formatBytes, whyNotAttach, type FileMeta } from '../../src/core/files';
import type { AttachedFiles } from '../../src/core/messages';
import { messageOf, onRunUpdate, send } from '../api';

export function Attachments() {
  const [attached, setAttached] = useState<AttachedFiles>({ files: [], runId: null });
  const files = attached.files;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const refresh = () => { send('files/list', {}).then(setAttached, () => undefined); };
    refresh();
    // A run that starts takes the files; one that ends leaves the list for the next run.
    let last: string | null = null;
    return onRunUpdate((r) => {
      const key = `${r.id}:${r.status}`;
      if (key === last) return;
      last = key;
      refresh();
    });
  }, []);

  async function add(list: FileList | null) {
    if (!list?.length) return;
    setError(null);
    setBusy(true);
    let now: FileMeta[] = files;
    const refused: string[] = [];
    try {
      for (const f of Array.from(list)) {
        const meta = { name: f.name, type: f.type, size: f.size };
        const why = whyNotAttach(now, meta, undefined, t);
        if (why) {
          refused.push(why);
          continue;
        }
        try {
          const base64 = base64Encode(new Uint8Array(await f.arrayBuffer()));
          const got = await send('files/add', { name: f.name, type: f.type, lastModified: f.lastModified, base64 });
          now = got.files;
          setAttached(got);
        } catch (err) {
          refused.push(messageOf(err));
        }
      }
    } finally {
      setBusy(false);
      if (picker.current) picker.current.value = '';
    }
    if (refused.length) setError(refused.join(' '));
  }

  async function remove(index: number) {
    setError(null);
    try {
      setAttached(await send('files/remove', { index }));
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <div class="attachments" data-testid="attachments">
      {/* the browser's own file control is hidden (its "Choose Files" is in the browser's language, not the panel's): a panel button opens it */}
      <div class="row">
        <span id="attach-label" title={attached.runId ? t('filesForRunTitle') : t('filesForTaskTitle')}>{attached.runId ? t('filesForRun') : t('filesForTask')}</span>
        <button type="button" data-testid="attach-choose" aria-describedby="attach-label" disabled={busy} onClick={() => picker.current?.click()}>{t('attachChoose')}</button>
        <input ref={picker} type="file" multiple hidden data-testid="attach-input" disabled={busy} onChange={(e) => add((e.target as HTMLInputElement).files)} />
      </div>
      {files.length > 0 && (
        <ul class="attached" data-testid="attached-files">
          {files.map((f, i) => (
            <li key={`${i}:${f.name}`} data-testid="attached-file">
              {f.name} <small>{formatBytes(f.size)}</small>{' '}
              <button type="button" data-testid="remove-file" title={t('removeNamed', f.name)} onClick={() => remove(i)}>{t('remove')}</button>
            </li>
          ))}
        </ul>
      )}
      {error && <p class="error" role="alert" data-testid="attach-error">{error}</p>}
    </div>
  );
}
