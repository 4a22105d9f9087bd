/**
 * Settings' Storage line (docs/storage.md): how much the runs and their screenshots use, and the
 * person's way to clear old ones: the screenshots of finished runs older than some days, or those
 * runs themselves (asked once more). A run going on is never touched.
 */
import { useRef, useState } from 'preact/hooks';
import { messageOf, send } from '../api';
import { t } from '../i18n';
import { formatBytes, formatCount, storageText } from '../format';
import type { ViewMessages } from '../../src/core/messages';

type Usage = ViewMessages['storage/usage']['res'];

/** "older than" choices, in days (0: every finished run) */
const AGES = [7, 30, 90, 0];

export function StorageLine() {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [days, setDays] = useState(30);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  // what the list shows when a button is pressed (a choice made just before may not be rendered yet)
  const ageList = useRef<HTMLSelectElement>(null);
  const chosen = () => (ageList.current ? Number(ageList.current.value) : days);

  const read = () => send('storage/usage', {}).then(setUsage, (err: unknown) => setStatus({ ok: false, text: messageOf(err) }));
  const age = (d: number) => (d ? t('storageOlderThan', formatCount(d)) : t('storageAllFinished'));

  async function clear(what: 'screenshots' | 'runs'): Promise<void> {
    setBusy(true);
    setConfirming(false);
    try {
      const done = await send('storage/clear', { days: chosen(), what });
      setStatus({ ok: true, text: what === 'runs' ? t('storageClearedRuns', formatCount(done.runs), formatBytes(done.bytes)) : t('storageClearedShots', formatCount(done.runs), formatBytes(done.bytes)) });
      await read();
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <details class="sub" data-testid="storage-section" onToggle={(e) => { if ((e.currentTarget as HTMLDetailsElement).open) void read(); }}>
      <summary>{t('storage')}</summary>
      <p class="hint" data-testid="storage-line">
        {usage ? `${t('storageLine', formatCount(usage.runs), formatBytes(usage.shotBytes))} ${storageText(usage.usedBytes, usage.quotaBytes)}` : t('histLoading')}
      </p>
      <div class="row">
        <label for="storage-age">{t('storageWhich')}</label>
        <select id="storage-age" ref={ageList} data-testid="storage-age" value={String(days)} onChange={(e) => { setDays(Number((e.target as HTMLSelectElement).value)); setConfirming(false); }}>
          {AGES.map((d) => <option key={d} value={String(d)}>{age(d)}</option>)}
        </select>
      </div>
      <div class="row">
        <button type="button" data-testid="clear-shots" disabled={busy} onClick={() => void clear('screenshots')}>{t('storageClearShots')}</button>
        <button type="button" data-testid="clear-runs" disabled={busy} onClick={() => setConfirming(true)}>{t('storageClearRuns')}</button>
      </div>
      {confirming && (
        <p class="row" data-testid="clear-runs-confirm">
          {t('storageConfirmRuns', age(chosen()))}{' '}
          <button type="button" class="danger" data-testid="confirm-clear-runs" onClick={() => void clear('runs')}>{t('storageDelete')}</button>
          <button type="button" data-testid="cancel-clear-runs" onClick={() => setConfirming(false)}>{t('histCancel')}</button>
        </p>
      )}
      {status && <p class={status.ok ? 'note' : 'error'} role="status" data-testid="storage-status">{status.text}</p>}
    </details>
  );
}
