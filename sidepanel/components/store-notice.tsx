/**
 * What this version refuses to read (core/stores/versions.ts): stores a newer version wrote, or
 * that cannot be read. Shown above every view, in the person's words; the data is left untouched.
 */
import { useEffect, useState } from 'preact/hooks';
import { send } from '../api';
import { t } from '../i18n';
import type { StoreName, StoreProblem } from '../../src/core/stores/versions';

const WHAT: Record<StoreName, string> = {
  settings: 'storeSettings',
  runs: 'storeRuns',
  files: 'storeFiles',
  templates: 'storeTemplates',
  docs: 'storeDocs',
};

export function StoreNotice() {
  const [status, setStatus] = useState<{ problems: StoreProblem[]; version: string } | null>(null);
  useEffect(() => { send('stores/status', {}).then(setStatus, () => undefined); }, []);
  if (!status?.problems.length) return null;
  return (
    <section class="store-notice" role="alert" data-testid="store-notice">
      {status.problems.map((p) => (
        <p key={p.store} class="error" data-testid="store-problem" data-store={p.store} data-kind={p.kind}>
          {p.kind === 'newer' ? t('storeNewer', t(WHAT[p.store]), status.version) : t('storeUnreadable', t(WHAT[p.store]), p.detail)}
        </p>
      ))}
    </section>
  );
}
